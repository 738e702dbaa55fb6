"""firmware/states.py lists every state: each is drawn by exactly one flow module's HANDLERS
row, every state a flow moves to is listed, and no flow module is left out."""
import importlib
import re
from pathlib import Path

from firmware import states

FLOWS = Path(__file__).resolve().parents[2] / "firmware" / "flows"


def test_every_state_has_one_handler_in_its_flow():
    seen = {}
    for name, sts in states.FLOWS:
        mod = importlib.import_module("firmware.flows." + name)
        rows = {r[0]: r for r in mod.HANDLERS}
        assert set(rows) == set(sts), name
        for st in sts:
            assert st not in seen, (st, seen.get(st), name)
            seen[st] = name
            screen, key, tap = rows[st][1:]
            assert callable(screen) and callable(key) and (tap is None or callable(tap))
    assert set(states.PAGED) <= set(seen)
    assert set(states.RESIDENT) <= {n for n, _ in states.FLOWS}
    assert states.flow_of("confirm") == "win" and states.flow_of("nonsense") is None


def test_every_flow_module_is_listed():
    mods = {p.stem for p in FLOWS.glob("*.py")} - {"__init__", "parts"}
    assert mods == {n for n, _ in states.FLOWS}


def test_every_state_a_flow_names_is_listed():
    listed = {st for _, sts in states.FLOWS for st in sts}
    named = set()
    for p in list(FLOWS.glob("*.py")) + [FLOWS.parent / "app.py"]:
        named |= set(re.findall(r'\b(?:go|to)\("([a-z_]+)"', p.read_text()))
    assert named and named <= listed, named - listed


def test_the_header_table_names_every_state():
    text = (FLOWS.parent / "states.py").read_text()
    for _, sts in states.FLOWS:
        for st in sts:
            assert re.search(r"^#\s+(\w+\s+)?%s\s" % st, text, re.M), st


def test_the_resident_flows_are_the_ones_the_package_loads():
    text = (FLOWS / "__init__.py").read_text()
    assert "for _name in %s:" % str(states.RESIDENT).replace("'", '"') in text
