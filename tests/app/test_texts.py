"""Every text the box shows exists in Chinese and in English, with the same placeholders; each
table's lines are in the order of their numbers (the comment on each line names its constant);
no text is found by walking a string (an index per table)."""
import importlib
import re
from pathlib import Path

import pytest

from firmware.ui import texts

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
MODULES = ["firmware.ui.texts", "firmware.net.screen"] + ["firmware.flows." + p.stem for p in sorted((FIRMWARE / "flows").glob("*.py"))
                                if p.stem not in ("__init__", "parts")]


def tables():
    for name in MODULES:
        mod = importlib.import_module(name)
        for attr, t in vars(mod).items():
            if isinstance(t, texts.Table):
                yield name, attr, t


def test_every_table_pairs_two_languages_with_the_same_placeholders():
    n = 0
    for name, attr, t in tables():
        parts = t.text.split("|")
        assert parts[-1] == "" and len(parts) % 2 == 1, (name, attr)
        for i in range(len(parts) // 2):
            cn, en = parts[2 * i], parts[2 * i + 1]
            assert cn and en, (name, i)
            assert re.findall(r"%[sd+]+", cn) == re.findall(r"%[sd+]+", en), (name, i, cn, en)
            assert t.get(i, "cn") == cn and t.get(i, "en") == en
            assert not re.search(r"[\u4e00-\u9fff]", en) or en == "5 中文", (name, en)
            n += 1
    assert n > 150


@pytest.mark.parametrize("name", MODULES)
def test_the_lines_of_a_table_are_in_the_order_of_their_numbers(name):
    src = (FIRMWARE / (name.split(".", 1)[1].replace(".", "/") + ".py")).read_text(encoding="utf-8")
    consts = dict((n, int(v)) for n, v in re.findall(r"^(_?[A-Z][A-Z_0-9]*) = const\((\d+)\)$", src, re.M))
    lines = re.findall(r'^    ".*\|"  # (_?[A-Z][A-Z_0-9]*)$', src, re.M)
    assert lines and [consts[n] for n in lines] == list(range(len(lines))), name
    used = set(re.findall(r"\b(_[A-Z][A-Z_0-9]+)\b", src)) & set(consts)
    for n in lines:   # every text of a flow is shown somewhere (its constant appears twice or more)
        assert len(re.findall(r"\b%s\b" % n, src)) >= 2 or name == "firmware.ui.texts", (name, n)
    assert used <= set(consts)


def test_no_text_or_fan_name_is_found_by_walking_a_string():
    for p in list(FIRMWARE.glob("*.py")) + list((FIRMWARE / "flows").glob("*.py")):
        assert "nth(" not in p.read_text(encoding="utf-8"), p


def test_the_tag_codes_of_the_device_loop_are_worded():
    for code in ("blank", "corrupt", "foreign_set", "version", "multiple"):
        k = texts.TAG_MESSAGES[code]
        assert texts.t(k, "cn") and texts.t(k, "en")


def test_a_tables_index_is_found_by_search_not_by_a_loop_over_its_bytes():
    # the index is built when a flow's table first shows a text, on that key's way to the glass:
    # a Python loop over a table's bytes cost ~8 ms of the Pico's time each time a flow loaded.
    # Its work here grows with the texts, not the bytes (counted as traced lines, not timed)
    import sys
    long = "".join("长文%03d %s|long text %03d %s|" % (i, "字" * 40, i, "w" * 40) for i in range(12))
    t = texts.Table(long)
    lines = [0]

    def trace(frame, event, arg):
        if frame.f_code.co_name == "_index":
            if event == "line":
                lines[0] += 1
            return trace
        return None
    sys.settrace(trace)
    try:
        t._index()
    finally:
        sys.settrace(None)
    assert len(long.encode()) > 2000 and lines[0] < 8 * 25, lines[0]
    parts = long.split("|")
    for i in range(12):   # offsets past 255 and 3-byte characters
        assert t.get(i, "cn") == parts[2 * i] and t.get(i, "en") == parts[2 * i + 1]
