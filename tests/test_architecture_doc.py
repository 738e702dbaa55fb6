"""docs/architecture.md names files and functions a newcomer will open: each must exist, so a
move that forgets the map fails here."""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def _paths():
    out = set()
    for m in re.finditer(r"`([A-Za-z_][\w./<>-]*)`", DOC):
        p = m.group(1)
        if "/" in p and "<" not in p and not p.startswith("/"):
            out.add(p.rstrip("/"))
    return sorted(out)


def test_the_map_names_enough_files():
    assert len(_paths()) > 40


def test_every_file_and_folder_the_map_names_exists():
    # the sections on the firmware and the server name their parts from inside their folders
    bases = ("", "firmware", "host_tools/server")
    missing = [p for p in _paths() if not any((REPO / b / p).exists() for b in bases)]
    assert not missing, missing


def test_every_function_the_win_path_names_is_defined_in_its_file():
    # "`file.py` (`name`...)": the names in the parentheses after a file are defined in it
    missing = []
    for m in re.finditer(r"`([\w/]+\.py)`,? \(([^)]*)\)", DOC):
        src = (REPO / m.group(1)).read_text(encoding="utf-8")
        for name in re.findall(r"`(\w+)(?:\.(\w+))?`", m.group(2)):
            want = name[1] or name[0]
            if not re.search(r"^\s*((def|class) %s\b|%s = )" % (re.escape(want), re.escape(want)), src, re.M):
                missing.append((m.group(1), want))
    assert not missing, missing
