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


def _step_keys_used():
    # every key of the step data the flows and the App use: d["k"], d.get / pop / setdefault("k"),
    # "k" in d, app.d = {"k": ...}, app.go(state, k=...), and tiles.begin(..., k=...) (its **more)
    import ast
    used = {}
    for p in sorted(FLOWS.glob("*.py")) + [FLOWS.parent / "app.py"]:
        def note(k):
            used.setdefault(k, set()).add(p.stem)
        for n in ast.walk(ast.parse(p.read_text())):
            is_d = lambda v: (isinstance(v, ast.Attribute) and v.attr == "d") or (isinstance(v, ast.Name) and v.id == "d")
            if isinstance(n, ast.Subscript) and is_d(n.value) and isinstance(n.slice, ast.Constant):
                note(n.slice.value)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                f = n.func
                if f.attr in ("get", "pop", "setdefault") and is_d(f.value) and n.args and isinstance(n.args[0], ast.Constant):
                    note(n.args[0].value)
                elif f.attr in ("go", "begin"):
                    for kw in n.keywords:
                        if kw.arg is not None and not (f.attr == "begin" and kw.arg == "flowers"):
                            note(kw.arg)
            elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Dict) and any(is_d(t) for t in n.targets):
                for k in n.value.keys:
                    note(k.value)
            elif isinstance(n, ast.Compare) and isinstance(n.left, ast.Constant) and any(is_d(c) for c in n.comparators):
                note(n.left.value)
    return used


def test_the_step_data_table_lists_every_key_the_flows_use():
    text = (FLOWS.parent / "states.py").read_text()
    block = text[text.index("#   key           set by"):]
    block = block[:block.index("\n#\n") if "\n#\n" in block else block.index("\n\n")]
    listed = set(re.findall(r"^#   (\S+)\s", block, re.M)) - {"key"}
    used = _step_keys_used()
    assert len(used) >= 30 and "entry" in used and "kong?" in used   # the scan finds them
    assert set(used) == listed, ("used, not listed: %s; listed, not used: %s"
                                 % (sorted(set(used) - listed), sorted(listed - set(used))))
