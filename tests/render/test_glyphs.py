"""The glyph subsets firmware/ui/glyphs_12.py and glyphs_16.py: rebuilt byte for byte from the
installed font (Debian package xfonts-wqy), well-formed, and holding every character the device
shows: ASCII, the fan names of mcr_fans.tsv, the word lists of tools/glyphs.py and every
string constant of rules_min/ and firmware/. A missing glyph fails here."""
import struct
import sys
from pathlib import Path

import pytest

from firmware.ui import glyphs_12, glyphs_16
from firmware.ui.render import Font

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import glyphs as tool  # noqa: E402

MODULES = {12: glyphs_12, 16: glyphs_16}


@pytest.fixture(scope="module")
def fonts():
    return {size: tool.load_font(tool.font_path(size)) for size in MODULES}


@pytest.fixture(scope="module")
def rebuilt(fonts):
    chars = tool.wanted_chars()
    return {size: tool.build(size, chars, fonts[size]) for size in MODULES}


def test_font_package_is_installed():
    for size in MODULES:
        path = tool.font_path(size)  # MissingInput naming the apt package when it is missing
        assert path.exists()


def test_missing_font_names_the_package(tmp_path, capsys):
    with pytest.raises(tool.MissingInput, match="xfonts-wqy"):
        tool.font_path(12, tmp_path)
    assert tool.main(["--fans", str(tmp_path / "none.tsv")]) == 2
    assert "fan table" in capsys.readouterr().err


def test_check_mode_reports_a_stale_module(tmp_path, capsys):
    (tmp_path / "glyphs_12.py").write_text("old\n")
    assert tool.main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "STALE glyphs_12.py" in err and "STALE glyphs_16.py" in err
    assert (tmp_path / "glyphs_12.py").read_text() == "old\n"  # --check writes nothing


@pytest.mark.parametrize("size", sorted(MODULES))
def test_rebuild_gives_the_committed_module_byte_for_byte(size, rebuilt):
    text, _ = rebuilt[size]
    committed = (tool.OUT / tool.FONTS[size][3]).read_text(encoding="utf-8")
    assert text == committed, "stale %s: run `python tools/glyphs.py`" % tool.FONTS[size][3]


def test_check_mode_agrees(capsys):
    assert tool.main(["--check"]) == 0
    assert capsys.readouterr().out.count("ok ") == 2


def _chars_that_must_be_there():
    need = {}
    for c in tool.tsv_chars():
        need.setdefault(c, "mcr_fans.tsv")
    for c in tool.UI_WORDS:
        if not c.isspace():
            need.setdefault(c, "word lists")
    for path in tool.source_files():
        for c in tool.literal_chars(path):
            if not c.isspace():
                need.setdefault(c, str(path.relative_to(tool.REPO)))
    for c in tool.ASCII:
        need.setdefault(c, "ASCII")
    return need


@pytest.mark.parametrize("size", sorted(MODULES))
def test_every_used_character_has_a_glyph(size):
    font = Font(MODULES[size])
    need = _chars_that_must_be_there()
    missing = sorted("%s (%s)" % (c, where) for c, where in need.items() if font.index(ord(c)) < 0)
    assert not missing, "no glyph for: " + ", ".join(missing)
    for word in ("清一色", "一色三同顺", "龙七对", "杠上开花", "海底捞月", "鸡和", "十三幺", "碰碰和",
                 "点炮", "明杠", "暗杠", "加杠", "错和", "诈和", "撤销", "流局", "查叫", "花猪", "买马", "定缺"):
        assert all(font.has(c) for c in word), word


def test_fan_table_is_read():
    chars = tool.tsv_chars()
    assert {"清", "一", "色", "三", "同", "顺", "龙"} <= chars
    assert len(chars) >= 80  # 81 fans, 90 different characters


@pytest.mark.parametrize("size", sorted(MODULES))
def test_tables_are_consistent(size):
    m = MODULES[size]
    n = m.COUNT
    ncodes = len(m.CODES) // 2
    assert n == 95 + ncodes
    codes = struct.unpack(">%dH" % ncodes, m.CODES)
    assert list(codes) == sorted(set(codes)) and codes[0] > 126
    assert len(m.WIDTHS) == n and len(m.OFFSETS) == 2 * n
    offsets = struct.unpack(">%dH" % n, m.OFFSETS)
    pos = 0
    for i in range(n):
        assert offsets[i] == pos
        assert 1 <= m.WIDTHS[i] <= 16
        pos += m.HEIGHT * ((m.WIDTHS[i] + 7) // 8)
    assert pos == len(m.BITMAPS)
    assert (m.HEIGHT, m.ASCENT) == (tool.FONTS[size][1] + tool.FONTS[size][2], tool.FONTS[size][1])


@pytest.mark.parametrize("size", sorted(MODULES))
def test_runtime_lookup_finds_each_glyphs_bitmap(size, fonts):
    # every glyph, found by the device's binary search, is the font's bitmap of that character
    m = MODULES[size]
    font = Font(m)
    asc, desc = tool.FONTS[size][1:3]
    codes = [c for c in range(32, 127)] + list(struct.unpack(">%dH" % (len(m.CODES) // 2), m.CODES))
    for cp in codes:
        g = font.index(cp)
        adv, bits = tool.cell_bitmap(fonts[size], cp, asc, desc)
        off = (m.OFFSETS[2 * g] << 8) | m.OFFSETS[2 * g + 1]
        assert m.WIDTHS[g] == adv
        assert m.BITMAPS[off : off + len(bits)] == bits, chr(cp)
    for cp in (0, 31, 127, 0x4DFF, codes[-1] + 1, 0xFFFF):
        assert font.index(cp) == -1


def test_cjk_glyph_shapes():
    # 一 is one horizontal stroke: a single row with ink across most of the cell
    for size, m in MODULES.items():
        font = Font(m)
        g = font.index(ord("一"))
        w = m.WIDTHS[g]
        stride = (w + 7) // 8
        off = (m.OFFSETS[2 * g] << 8) | m.OFFSETS[2 * g + 1]
        counts = []
        for y in range(m.HEIGHT):
            row = m.BITMAPS[off + y * stride : off + (y + 1) * stride]
            counts.append(sum(bin(b).count("1") for b in row))
        inked = [c for c in counts if c]
        assert len(inked) <= 2 and max(counts) >= w - 2, counts
        assert w == size  # CJK glyphs are square: 12 or 16 px advance
