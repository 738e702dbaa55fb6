"""host_tools score: one reply line per request line, whatever the handler does."""
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from host_tools.score import serve

REPO = Path(__file__).resolve().parents[2]

FAKE_REQUEST = '''
import json
def handle_line(line, rules):
    line = line.strip()
    if line == "boom":
        raise RuntimeError("boom")
    return json.dumps({"id": json.loads(line).get("id") if line else None, "ok": True, "rules": rules})
'''


def run_serve(lines, handle):
    out = io.StringIO()
    serve(lines, out, handle, "mcr")
    return [json.loads(r) for r in out.getvalue().splitlines()]


def test_one_reply_per_line_with_rules_passed_through():
    replies = run_serve(['{"id": 1}\n', "\n", '{"id": 2}'], lambda line, rules: json.dumps({"rules": rules, "line": line}))
    assert [r["line"] for r in replies] == ['{"id": 1}\n', "\n", '{"id": 2}']
    assert all(r["rules"] == "mcr" for r in replies)


def boom(line, rules):
    raise ValueError("bad")


def test_raising_handler_gives_internal_error_keeping_id():
    [reply] = run_serve(['{"id": 7, "hand": "x"}\n'], boom)
    assert reply == {"id": 7, "ok": False, "error": {"code": "internal", "message": "ValueError: bad"}}


def test_raising_handler_without_usable_id_gives_null_id():
    replies = run_serve(["not json\n", "[1, 2]\n", '{"hand": "x"}\n'], boom)
    assert [r["id"] for r in replies] == [None, None, None]
    assert all(r["error"]["code"] == "internal" for r in replies)


def test_cli_end_to_end_with_stand_in_rules_core(tmp_path):
    # A stand-in rules_min ahead of the real one on sys.path: this tests the CLI, not the rules.
    pkg = tmp_path / "rules_min"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "request.py").write_text(FAKE_REQUEST)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]))
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "score", "--rules", "sichuan"],
        input=b'{"id": 3}\nboom\n\n\xff\n{"id": 4}\n',  # \xff: not UTF-8, must not end the loop
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(r) for r in proc.stdout.decode("utf-8").splitlines()]
    assert [r["id"] for r in replies] == [3, None, None, None, 4]
    assert replies[0] == {"id": 3, "ok": True, "rules": "sichuan"}
    assert replies[1]["error"]["code"] == "internal"
