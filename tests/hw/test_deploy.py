"""make deploy: tools/deploy.py. The planning and checking against a fake board, then a real
deploy with mpremote to the MicroPython unix port behind a pty (tests/hw/unix_board.py), which
speaks the raw REPL as a board does; the deployed build then boots there."""
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import deploy  # noqa: E402
import firmware_build  # noqa: E402
from unix_board import UnixPortBoard  # noqa: E402

MICROPYTHON = REPO / ".venv" / "bin" / "micropython"


def fake_build(tmp_path):
    fs = tmp_path / "fs"
    (fs / "firmware").mkdir(parents=True)
    (fs / "main.py").write_text("run()\n")
    (fs / "firmware" / "app.mpy").write_bytes(b"M\x06\x00\x1f app")
    (fs / "firmware" / "main.mpy").write_bytes(b"M\x06\x00\x1f main")
    return fs


class FakeBoard:
    """A transport over a dict {path: bytes}, running what mpremote would."""

    def __init__(self, files=None, corrupt=None):
        self.files = dict(files or {})
        self.corrupt = corrupt  # a path whose copy lands damaged
        self.applied = []

    def inventory(self, tops):
        lines = []
        for p in sorted(self.files):
            if p.split("/")[0] in tops:
                d = self.files[p]
                lines.append("F %s %d %s" % (p, len(d), hashlib.sha256(d).hexdigest()))
        return deploy.parse_inventory("\n".join(lines + ["END"]))

    def apply(self, copy, dirs, extra):
        self.applied.append((copy, dirs, extra))
        for rel, path in copy:
            data = Path(path).read_bytes()
            self.files[rel] = data[:-1] if rel == self.corrupt else data
        for rel in extra:
            del self.files[rel]


def test_plan_copies_what_differs_and_removes_stale_files(tmp_path):
    fs = fake_build(tmp_path)
    board = FakeBoard({"main.py": b"run()\n", "firmware/app.mpy": b"old", "firmware/app.py": b"stale source",
                       "journal/j0000.log": b"records", "key": b"k"})
    res = deploy.deploy(str(fs), board, out=lambda s: None)
    assert res == {"copied": 2, "removed": 1, "files": 3}
    copy, dirs, extra = board.applied[0]
    assert [c[0] for c in copy] == ["firmware/app.mpy", "firmware/main.mpy"] and dirs == ["firmware"]
    assert extra == ["firmware/app.py"]
    assert board.files["journal/j0000.log"] == b"records" and board.files["key"] == b"k"  # not touched
    # again: nothing to do
    board.applied = []
    assert deploy.deploy(str(fs), board, out=lambda s: None)["copied"] == 0 and board.applied == []


def test_a_damaged_copy_fails_the_check(tmp_path):
    fs = fake_build(tmp_path)
    board = FakeBoard(corrupt="firmware/main.mpy")
    msgs = []
    with pytest.raises(deploy.DeployError):
        deploy.deploy(str(fs), board, out=msgs.append)
    assert any(m.strip().startswith("differs: firmware/main.mpy") for m in msgs)


def test_parse_inventory_needs_the_end_marker():
    with pytest.raises(deploy.DeployError):
        deploy.parse_inventory("F main.py 5 abc\n")
    assert deploy.parse_inventory("noise\r\nF a/b.mpy 3 00ff\r\nEND\r\n") == {"a/b.mpy": (3, "00ff")}
    assert deploy.check([("a", "", "h", 1)], {"a": (1, "h"), "b": (2, "x")}) == ["extra: b"]


def test_inventory_script_runs_on_micropython(tmp_path):
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "x.mpy").write_bytes(b"abc" * 300)
    (tmp_path / "main.py").write_text("pass\n")
    p = subprocess.run([str(MICROPYTHON), "-c", deploy.inventory_script(["firmware", "main.py", "nothere"])],
                       cwd=str(tmp_path), capture_output=True, text=True, timeout=30)
    inv = deploy.parse_inventory(p.stdout)
    assert inv == {"firmware/x.mpy": (900, hashlib.sha256(b"abc" * 300).hexdigest()),
                   "main.py": (5, hashlib.sha256(b"pass\n").hexdigest())}


def test_deploy_to_the_unix_port_over_a_pty_with_mpremote(tmp_path):
    out = tmp_path / "build"
    firmware_build.build("pico", str(out), quiet=True)
    root = tmp_path / "board"
    root.mkdir()
    (root / "firmware").mkdir()
    (root / "firmware" / "app.py").write_text("raise ImportError('stale source')\n")  # must go
    (root / "journal").mkdir()
    (root / "journal" / "j0000.log").write_bytes(b"keep me")
    board = UnixPortBoard(str(MICROPYTHON), str(root))
    try:
        t = deploy.Mpremote(board.port_path, timeout=60)
        msgs = []
        res = deploy.deploy(str(out / "fs"), t, out=msgs.append)
        assert res["removed"] == 1 and res["copied"] == res["files"] > 30
        assert msgs[-1].startswith("verified: %d files" % res["files"])
        assert board.reboots >= 2  # mpremote soft-reset the "board" for each command line
        again = deploy.deploy(str(out / "fs"), t, out=msgs.append)
        assert again["copied"] == 0 and again["removed"] == 0
        # the deployed tree is the build, byte for byte; the journal is untouched
        for rel, local, h, size in firmware_build.file_list(str(out / "fs")):
            assert hashlib.sha256((root / rel).read_bytes()).hexdigest() == h
        assert not (root / "firmware" / "app.py").exists()
        assert (root / "journal" / "j0000.log").read_bytes() == b"keep me"
        # and it imports there: the board's modules from the copied .mpy files
        r = t.exec_("import firmware.main, firmware.app, board_config\nprint(board_config.NAME, firmware.main.READ_MS)")
        from firmware.main import READ_MS
        assert r.strip() == "pico %d" % READ_MS
    finally:
        board.close()
