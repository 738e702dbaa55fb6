"""Every command the README, docs/ and the server's pages print works as printed (printed.py
collects them and says how each is checked); run from a sandbox in a fresh shell's environment
(sandbox.py), placeholders (URL, DIR, /dev/ttyACM0) replaced by the sandbox's server, folder and
simulated box."""
from __future__ import annotations

import http.cookiejar
import json
import re
import shlex
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from . import printed
from .printed import HOW, ROOT, collect, how
from .sandbox import Sandbox, own_network, stop

README_HAND = ('{"id": 7, "hand": "[345m3]258m1488s369p7s", "self_drawn": false, "last_of_kind": false, "last_tile": false, '
               '"kong": false, "seat_wind": "E", "prevalent_wind": "E", "flowers": 0, "winner": 0, "discarder": 2}')
PASSWORD = "a long enough password"
RAN: set[str] = set()  # the printed commands the tests below ran (test_every_run_command_was_run)


@pytest.fixture(scope="module")
def found():
    return collect()


def printed_as(found, kind=None):
    """{command: its finding} of the commands HOW checks as kind."""
    return {f["cmd"]: f for f in found if kind is None or how(f)[0] == kind}


def the(found, cmd: str) -> str:
    """cmd as the docs print it (fails when they no longer do: then HOW and this test change)."""
    assert cmd in printed_as(found), "no longer printed: " + cmd
    RAN.add(cmd)
    return cmd


def test_every_printed_command_is_checked(found):
    cmds = {f["cmd"] for f in found}
    unknown = sorted("%s  %s" % (f["where"], f["cmd"]) for f in found if not how(f)[0])
    assert not unknown, "printed but not checked (add each to tests/commands/printed.py HOW):\n" + "\n".join(unknown)
    stale = sorted(c for c in HOW if c not in cmds)
    assert not stale, "checked but printed nowhere:\n" + "\n".join(stale)
    assert {k for k, _ in HOW.values()} <= {"run", "make-n", "help", "elsewhere", "manual"}


def test_the_boxes_page_command_is_collected(found):
    # the collector reads templates: the page's command is among the findings
    assert any(f["where"].startswith("host_tools/server/web/templates/web/manage/boxes.html") for f in found)


def test_make_targets_exist(found):
    bad = []
    for cmd in printed_as(found, "make-n"):
        argv = shlex.split(cmd)
        p = subprocess.run(argv[:1] + ["-n"] + argv[1:], cwd=ROOT, capture_output=True, text=True, timeout=120)
        if p.returncode:
            bad.append("%s: %s" % (cmd, p.stderr.strip()[-300:]))
    assert not bad, "\n".join(bad)


def _help_argv(cmd: str) -> list[str]:
    """The command named in prose, up to its first placeholder, as .venv runs it, with --help."""
    words = []
    for w in shlex.split(cmd):
        if w.isupper() or w.startswith(("[", "...")):
            break
        words.append(w)
    if words[0].startswith(".venv/"):
        words[0] = str(ROOT / words[0])
    elif words[0] == "mahjong-table":
        words[0] = str(ROOT / ".venv" / "bin" / "mahjong-table")
    elif words[0] == "python":
        words[0] = str(ROOT / ".venv" / "bin" / "python")
    return words + ["--help"]


def test_named_commands_answer_help(found):
    bad = []
    for cmd in printed_as(found, "help"):
        argv = _help_argv(cmd)
        p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)
        if p.returncode or "usage:" not in p.stdout.lower():
            bad.append("%s: %s" % (cmd, (p.stderr or p.stdout).strip()[-300:]))
    assert not bad, "\n".join(bad)


def test_checked_elsewhere_by_a_test_that_exists(found):
    bad = []
    for cmd in printed_as(found, "elsewhere"):
        path, func, fragment = HOW[cmd][1].split("::")
        f = ROOT / path
        text = f.read_text(encoding="utf-8") if f.exists() else ""
        if not re.search(r"^def %s\(" % re.escape(func), text, re.M) or fragment not in text:
            bad.append("%s: %s" % (cmd, HOW[cmd][1]))
    assert not bad, "\n".join(bad)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    # .venv up to date first (a no-op when it is, as under make test): a printed make command
    # in the sandbox would otherwise redo it there, and the editable install would point at
    # the sandbox
    subprocess.run(["make", "-s", "venv"], cwd=ROOT, check=True, capture_output=True, timeout=600)
    return Sandbox(tmp_path_factory.mktemp("printed"))


def test_offline_commands_as_printed(found, sandbox):
    """The README's commands that need no server or box, in a fresh shell."""
    sh = sandbox.sh
    # the transcript: the printed command gives the printed output, byte for byte
    transcripts = [f for f in found if f["output"]]
    assert transcripts
    for f in transcripts:
        assert how(f)[0] == "run"
        rc, out, err = sh(the(found, f["cmd"]))
        assert rc == 0 and out.strip() == f["output"], (f["cmd"], out, err)
    want = transcripts[0]["output"]
    # the same line protocol on stdin, on CPython and on MicroPython (mp-score)
    for cmd in (".venv/bin/python -m host_tools score --rules mcr", "make -s mp-score HEAP=96K"):
        rc, out, err = sh(the(found, cmd), stdin=README_HAND + "\n", timeout=300)
        assert rc == 0 and out.strip() == want, (cmd, out, err)
    rc, out, err = sh(the(found, '.venv/bin/mahjong-table score "[345m3]258m1488s369p7s" --discard-from 3 --seat-wind E --round-wind E'))
    assert rc == 0 and "Knitted Straight" in out and "14" in out, (out, err)
    (sandbox.dir / "hand.json").write_text(json.dumps([{"kong": "direct", "seat": 2, "from": 0},
                                                        {"win": 1, "from": 2, "hand": "123m456m789m11s234s", "kong_discard": True}]))
    rc, out, err = sh(the(found, ".venv/bin/mahjong-table settle hand.json --rules sichuan --lang zh"))
    assert rc == 0 and "杠钱转移给和牌者（呼叫转移）" in out, (out, err)
    rc, out, err = sh(the(found, ".venv/bin/python -m host_tools settle --rules mcr"),
                      stdin=json.dumps({"id": 1, "dealer": 0, "prevalent_wind": "E",
                                        "events": [{"win": 1, "from": 0, "hand": "[345m3]258m1488s369p7s"}]}) + "\n")
    assert rc == 0 and json.loads(out)["ok"] is True and json.loads(out)["next_dealer"] == 1, (out, err)
    # prose commands, with .venv activated as the README says they assume
    act = sandbox.activated()
    rc, out, err = sh(the(found, "mahjong-table score --help"), env=act)
    assert rc == 0 and "--win-tile-mixed" in out, err
    cmd = the(found, "python -m simulator --script FILE --events").replace("FILE", "simulator/scenarios/mcr_one_hand.txt")
    rc, out, err = sh(cmd, env=act)
    assert rc == 0 and all(json.loads(line) for line in out.splitlines()) and len(out.splitlines()) > 10, err
    # the headless simulator writes into the sandbox's build/
    for cmd, folder in ((".venv/bin/python -m simulator --script simulator/scenarios/mcr_session.txt --out build/sim", "build/sim"),
                        (".venv/bin/python -m simulator --board esp32s3 --script simulator/scenarios/mcr_one_hand.txt --out build/e",
                         "build/e")):
        rc, out, err = sh(the(found, cmd), timeout=300)
        assert rc == 0 and "journal records in " + folder in out, (cmd, out, err)
        assert list((sandbox.dir / folder / "screens").glob("*.png"))
    # make sim without a display: the box in the terminal, taps on stdin
    rc, out, err = sh(the(found, "make sim"), stdin="q\n")
    assert rc == 0 and "mahjong box simulator (terminal)" in out and "\n+-----" in out, (out, err)


def _serve_default(sandbox, cmd: str, prefix) -> str:
    """Start a printed `serve` on its default address in a network of its own; its first line."""
    if prefix is None:  # no network of its own here: the machine's port 8000 must be free then
        import socket
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", 8000))
            except OSError:
                pytest.fail("unshare -rn is not available and 127.0.0.1:8000 is taken: cannot run " + cmd)
        prefix = []
    proc = sandbox.start(shlex.join(prefix) + " " + cmd, wait_for="serving", timeout=120)
    try:
        time.sleep(0.5)
        assert proc.poll() is None, stop(proc)
        return proc.seen
    finally:
        stop(proc, sig=2)


class Web:
    """An organizer in a browser: cookies, CSRF, forms (the pages, not the API)."""

    def __init__(self, url):
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path):
        with self.opener.open(self.url + path, timeout=30) as r:
            return r.read().decode()

    def post(self, path, fields):
        token = [c.value for c in self.jar if c.name == "csrftoken"][0]
        data = urllib.parse.urlencode(dict(fields, csrfmiddlewaretoken=token)).encode()
        req = urllib.request.Request(self.url + path, data=data, headers={"Referer": self.url + path})
        with self.opener.open(req, timeout=30) as r:
            return r.read().decode()

    def login(self, user, password):
        self.get("/login/")
        self.post("/login/", {"username": user, "password": password})


def api(url, method, path, body=None, token=None):
    req = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(), method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_server_and_sync_commands_as_printed(found, sandbox):
    """The organizer's and referee's commands in the README's order of use: the first account,
    the server, a simulated box on a pty (serving until stopped), provisioning, syncing
    (online, offline and later uploaded, releasing, the next session), the tag tool, and the
    Boxes page's command exactly as the page shows it."""
    sh = sandbox.sh
    env = dict(sandbox.env, MT_PASSWORD=PASSWORD)
    rc, out, err = sh(the(found, ".venv/bin/python -m host_tools serve --create-account alice"), env=env)
    assert rc == 0 and "created alice" in out, (out, err)
    prefix = own_network()
    line = _serve_default(sandbox, the(found, ".venv/bin/python -m host_tools serve"), prefix)
    assert "http://127.0.0.1:8000/" in line, line
    line = _serve_default(sandbox, the(found, ".venv/bin/python -m host_tools serve --tls --host 127.0.0.1"), prefix)
    assert "127.0.0.1:8000" in line, line

    from tests.server.helpers import free_port
    port = free_port()
    url = "http://127.0.0.1:%d" % port
    server = sandbox.start(".venv/bin/python -m host_tools serve --port %d --workers 1" % port, env=env, wait_for="serving")
    box = None
    try:
        st, body = api(url, "POST", "/api/login", {"username": "alice", "password": PASSWORD})
        assert st == 200, body
        token = body["token"]
        # the scenario's tournament T, table 7 in session 1; session 2 seats the same table
        assert api(url, "POST", "/api/tournaments", {"id": "T", "name": "Printed", "format": "mcr_000"}, token)[0] == 201
        players = [{"id": p, "name": "Player " + p, "draw": i + 1} for i, p in enumerate(["11", "12", "13", "14"])]
        assert api(url, "POST", "/api/tournaments/T/players", players, token)[0] == 200
        seat = {"method": "manual", "tables": [{"table": 7, "players": ["11", "12", "13", "14"]}], "publish": True}
        st, body = api(url, "POST", "/api/tournaments/T/seatings/1", seat, token)
        assert st in (200, 201), body

        box = sandbox.start(the(found, ".venv/bin/python -m simulator --script simulator/scenarios/mcr_session.txt --out build/s --serial"),
                            wait_for="serving the link", timeout=300)
        pty = re.search(r"serial: (\S+)", box.seen).group(1)

        def run(cmd, ok=(0,), **subst):
            text = the(found, cmd)
            for k, v in subst.items():
                text = text.replace(k, v)
            rc, out, err = sh(text, timeout=300)
            assert rc in ok, (text, rc, out, err)
            assert box.poll() is None, "the simulated box stopped after: " + text
            return out, err

        run(".venv/bin/python -m host_tools sync --port /dev/ttyACM0 --provision --key-file keys.json", **{"/dev/ttyACM0": pty})
        key = json.loads((sandbox.dir / "keys.json").read_text())
        (device,) = key
        # the organizer registers the box on the Boxes page and binds it to table 7
        web = Web(url)
        web.login("alice", PASSWORD)
        page = web.post("/t/T/manage/boxes", {"action": "register", "box-id": device, "box-key": key[device], "box-label": "", "box-table": "7"})
        assert device in page
        # a record the server refuses: another record under the box's seq 5, signed with its key
        from tests.server.helpers import envelope, session_rec
        planted = envelope(bytes.fromhex(key[device]), device, 5, session_rec("T", 9, 9, ["11", "12", "13", "14"]))
        assert api(url, "POST", "/api/records", planted)[0] == 201
        out, err = run(".venv/bin/python -m host_tools sync --port auto --server http://10.0.0.2:8000 --key-file keys.json",
                       ok=(3,), **{"http://10.0.0.2:8000": url})
        assert out.startswith("pulled 19, uploaded 18, already known 0, refused 1, set aside 1"), (out, err)
        assert (sandbox.dir / "quarantine" / device / "0000000005.json").exists()  # as the README says
        # the Commands block's form: nothing new; the set-aside record is offered again and listed still
        out, err = run(".venv/bin/python -m host_tools sync --port auto --server URL --key-file keys.json", URL=url)
        assert out.startswith("pulled 0,") and "set aside 1" in out and "record 5: HTTP 409" in out, (out, err)
        # the referee resolved it: the box lets it go
        out, err = run(".venv/bin/python -m host_tools sync --port auto --release 5 --key-file keys.json", DIR="offline")
        assert out.startswith("pulled 0,") and "set aside 0" in out, (out, err)
        out, err = run(".venv/bin/python -m host_tools sync --port auto --offline DIR --key-file keys.json", DIR="offline")
        assert out.startswith("pulled 0,"), (out, err)
        out, err = run(".venv/bin/python -m host_tools sync --upload DIR --server URL", DIR="offline", URL=url)
        assert "uploaded 0" in out, (out, err)
        # between sessions, the tag tool reaches the box and asks for the first tile, then for any
        # tile to verify (a whole set written and verified: tests/hw/test_tags_e2e.py)
        for cmd, asks, subst in ((".venv/bin/python -m host_tools tags write --port auto --set 7 --key-file keys.json", "[1/144] tap 1m copy 1", "auto"),
                                 (".venv/bin/python -m host_tools tags write --port /dev/ttyACM0 --set 7 --rules mcr --key-file keys.json",
                                  "[1/144] tap 1m copy 1", "/dev/ttyACM0"),
                                 (".venv/bin/python -m host_tools tags verify --port /dev/ttyACM0 --set 7 --rules mcr --key-file keys.json", "tap every tile of set 7", "/dev/ttyACM0")):
            tags = sandbox.start(the(found, cmd).replace(subst, pty if subst != "auto" else "auto"), wait_for=asks, timeout=60)
            stop(tags, sig=2)
            assert box.poll() is None, "the simulated box stopped after: " + cmd
        # the standings count what the box played
        st, body = api(url, "GET", "/api/tournaments/T/standings")
        assert st == 200 and len(body["standings"]) == 4, body
        # session 2 seats table 7 again: the page's command starts it on the box
        st, body = api(url, "POST", "/api/tournaments/T/seatings/2", seat, token)
        assert st in (200, 201), body
        page = web.get("/t/T/manage/boxes")
        shown = re.search(r"<code>(mahjong-table sync [^<]*)</code>", page)
        assert shown, page
        import html
        shown = html.unescape(shown.group(1))
        template = [f["cmd"] for f in found if f["where"].startswith("host_tools/server/web/templates/web/manage/boxes.html")]
        assert shown == printed.page_command(the(found, template[0]), url), shown
        rc, out, err = sh(shown, env=dict(sandbox.env, PATH="%s:%s" % (ROOT / ".venv" / "bin", sandbox.env["PATH"])), timeout=300)
        assert rc == 0 and out.startswith("pulled 0,"), (shown, out, err)
        assert "session config sent to %s: T session 2, table 7" % device in err, err
        # the README's form of it: the box already plays session 2, so it takes the same session's
        # config as its time only (issue 18.5: how a referee's extension reaches the box)
        out, err = run(".venv/bin/python -m host_tools sync --port auto --server URL --key-file keys.json --next-session", ok=(0,),
                       URL=url)
        assert out.startswith("pulled 1, uploaded 1,"), (out, err)  # session 2's first record
        assert "session config sent to %s: T session 2, table 7" % device in err, err
        # the box served every host until it was stopped, as a switched-on box does
        tail = stop(box, sig=2)
        box = None
        assert "link stopped" in tail, tail
    finally:
        if box is not None:
            stop(box, sig=2)
        stop(server, sig=2)


def test_every_run_command_was_run(found):
    """Last: every command HOW says is run as printed was run by a test above (a command added
    to HOW as run, but not to a test, fails here)."""
    if not RAN:
        pytest.skip("the tests that run commands did not run in this session (-k)")
    missing = sorted(c for c in printed_as(found, "run") if c not in RAN)
    assert not missing, "in HOW as run, run by no test:\n" + "\n".join(missing)
