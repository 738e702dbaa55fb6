"""Every command the README, docs/ and the server's pages print, collected from their text, and
the one list of how each is checked (HOW). A command printed anywhere that is not in HOW fails
test_every_printed_command_is_checked, and so does an entry of HOW that nothing prints any more:
a new command in the docs comes with its check.

Where commands are found:
* fenced ``sh`` blocks of README.md and docs/**/*.md: one command a line (a trailing ``\\``
  joins the next), ``# comments`` dropped; a line ``$ CMD`` is a transcript, the lines after it
  up to the next ``$`` or the fence are its printed output;
* inline code in the same files that starts as a command does (``make``, ``python -m``,
  ``.venv/bin/``, ``mahjong-table``, ``pip``);
* ``<code>`` in the server's templates (the Boxes page's sync command).

How each is checked (HOW[command] = (kind, detail)):
* ``run``: test_printed_commands.py runs it as printed in a sandbox (a copy of the checkout made
  of links, so relative paths and ``.venv/bin`` resolve as in the checkout; its output stays in
  the sandbox), placeholders replaced (PLACEHOLDERS), PATH without ``.venv/bin``;
* ``make-n``: a make command of the slow or hardware kind: ``make -n`` in the checkout says the
  target and its prerequisites exist (what it runs is tested by the tests it names);
* ``help``: a command named in prose with placeholders (FILE, HAND, COMMAND): the subcommand
  answers ``--help`` (a tool or subcommand named in prose, ``mahjong-table settle``, needs no
  entry: ``how()``);
* ``elsewhere``: run as printed by the test named in detail (``path::function``, which must
  exist and hold the detail's fragment);
* ``manual``: cannot run here (root, another machine's paths, real hardware, other projects'
  toolchains); detail says why.
"""
from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# placeholders in printed commands: what the sandbox puts there
PLACEHOLDERS = ("URL", "DIR", "/dev/ttyACM0", "http://10.0.0.2:8000")

_INLINE_START = re.compile(r"^(make |make$|python3?(\.11)? -m |\.venv/bin/|mahjong-table|pip |/opt/)")


def docs() -> list[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def templates() -> list[Path]:
    return sorted((ROOT / "host_tools" / "server" / "web" / "templates").rglob("*.html"))


def _strip_comment(line: str) -> str:
    """The command without its trailing ``# comment`` (a # inside quotes stays)."""
    lex = shlex.shlex(line, posix=True, punctuation_chars=False)
    lex.whitespace_split = True
    lex.commenters = "#"
    try:
        words = list(lex)
    except ValueError:
        return line.strip()
    if not words:
        return ""
    # cut the raw line where the comment starts: after the last word's text
    cut = line.find(" #")
    while cut >= 0:
        before = line[:cut]
        if before.count("'") % 2 == 0 and before.count('"') % 2 == 0:
            return before.strip()
        cut = line.find(" #", cut + 1)
    return line.strip()


def normalize(cmd: str) -> str:
    return " ".join(cmd.split())


def collect() -> list[dict]:
    """[{"where": "README.md:17", "cmd": normalized command, "output": printed output or None}]"""
    found = []
    for path in docs():
        rel = path.relative_to(ROOT).as_posix()
        lines = path.read_text(encoding="utf-8").split("\n")
        fence = None
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith("```"):
                fence = None if fence is not None else line[3:].strip()
                i += 1
                continue
            if fence == "sh":
                start = i
                text = line
                while text.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text[:-1] + " " + lines[i].strip()
                i += 1
                if text.startswith("$ "):
                    out = []
                    while i < len(lines) and not lines[i].startswith(("$ ", "```")):
                        out.append(lines[i])
                        i += 1
                    found.append({"where": "%s:%d" % (rel, start + 1), "cmd": normalize(_strip_comment(text[2:])),
                                  "output": "\n".join(out).strip(), "inline": False})
                    continue
                cmd = normalize(_strip_comment(text))
                if cmd:
                    found.append({"where": "%s:%d" % (rel, start + 1), "cmd": cmd, "output": None, "inline": False})
                continue
            if fence is None:
                for m in re.finditer(r"`([^`]+)`", line):
                    if _INLINE_START.match(m.group(1)):
                        found.append({"where": "%s:%d" % (rel, i + 1), "cmd": normalize(m.group(1)), "output": None,
                                      "inline": True})
            i += 1
    for path in templates():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"<code>(.*?)</code>", text, re.S):
            code = html.unescape(m.group(1))
            if _INLINE_START.match(code):
                line = text[:m.start()].count("\n") + 1
                found.append({"where": "%s:%d" % (rel, line), "cmd": normalize(code), "output": None, "inline": False})
    return found


# a tool or its subcommand named in prose, with at most a placeholder: `mahjong-table settle`,
# `python -m host_tools COMMAND`; checked by its --help without an entry in HOW
_NAMED = re.compile(r"^(mahjong-table|python -m [a-z_.]+)( [a-z][a-z-]*)*( [A-Z]+)?$")


def how(finding: dict) -> tuple[str, str]:
    """How a finding is checked: its entry in HOW, or --help for a command named in prose."""
    if finding["cmd"] in HOW:
        return HOW[finding["cmd"]]
    if finding["inline"] and _NAMED.match(finding["cmd"]):
        return ("help", "named in prose")
    return ("", "")


def page_command(template_cmd: str, server_url: str) -> str:
    """What a template's command reads as on the page served from server_url."""
    scheme, _, host = server_url.partition("://")
    return template_cmd.replace("{{ request.scheme }}", scheme).replace("{{ request.get_host }}", host.rstrip("/"))


SLOW = "a slow or hardware target: make -n checks it exists; "

HOW: dict[str, tuple[str, str]] = {
    # README: Commands (the names of the tools first)
    "make": ("help", ""),
    ".venv/bin/python": ("help", ""),
    ".venv/bin/mahjong-table": ("help", ""),
    "make sim": ("run", "in the terminal (no display), taps on stdin"),
    "make test": ("make-n", SLOW + "it is CI's .ci/run"),
    "make bench": ("make-n", SLOW + "benchmarks"),
    "make bench-pico": ("make-n", SLOW + "benchmarks on the emulated Pico"),
    "make bench-push": ("make-n", SLOW + "50 boxes pushing to a server with 300 viewers"),
    "make bench-frozen HEAP=72K": ("make-n", SLOW + "builds a unix port"),
    "make bench-frozen": ("make-n", SLOW + "builds a unix port"),
    "make -s mp-score HEAP=96K": ("run", "the score protocol on MicroPython: one hand on stdin"),
    '.venv/bin/mahjong-table score "[345m3]258m1488s369p7s" --discard-from 3 --seat-wind E --round-wind E':
        ("run", "the fans and payments by chair"),
    ".venv/bin/mahjong-table settle hand.json --rules sichuan --lang zh": ("run", "a Sichuan hand's events"),
    ".venv/bin/python -m host_tools score --rules mcr": ("run", "a hand on stdin"),
    ".venv/bin/python -m host_tools settle --rules mcr": ("run", "a hand's events on stdin"),
    ".venv/bin/python -m simulator --script simulator/scenarios/mcr_session.txt --out build/sim":
        ("run", "the headless simulator"),
    ".venv/bin/python -m simulator --board esp32s3 --script simulator/scenarios/mcr_one_hand.txt --out build/e":
        ("run", "another board's screen"),
    "make mp-sim SCRIPT=simulator/scenarios/mcr_session.txt HEAP=320K": ("make-n", SLOW + "tests/app runs mp-sim"),
    "make mp-sim": ("make-n", SLOW + "tests/app runs mp-sim"),
    "make firmware BOARD=pico": ("make-n", SLOW + "tests/hw builds the firmware"),
    "make deploy BOARD=pico PORT=/dev/ttyACM0": ("manual", "needs a Pico on /dev/ttyACM0 (tools/deploy.py is tested in tests/hw)"),
    "make deploy BOARD=pico FROZEN=1 PORT=/dev/ttyACM0": ("manual", "needs a Pico on /dev/ttyACM0 (tests/pico/test_deploy_uf2.py flashes the emulated one)"),
    ".venv/bin/python -m host_tools sync --port auto --server URL --key-file keys.json": ("run", "the sync sandbox: after the box is registered"),
    ".venv/bin/python -m host_tools serve": ("run", "the server on its default address, in a network of its own"),
    # README prose
    "make venv": ("make-n", "creates .venv (every test runs from it)"),
    "make mp-test": ("make-n", SLOW + "part of make test"),
    "make mpy": ("make-n", SLOW + "compiles to build/mpy"),
    "make clean": ("make-n", "removes build/"),
    "make cli-bench": ("make-n", SLOW + "a benchmark"),
    "make server-screens": ("make-n", SLOW + "the browser tests"),
    "make unix-frozen": ("make-n", SLOW + "builds a unix port"),
    "pip install .": ("elsewhere", "tests/commands/test_installed.py::test_installed_wheel_serves::pip"),
    "pip install '.[server]'": ("elsewhere", "tests/commands/test_installed.py::test_installed_wheel_serves::pip"),
    # the score protocol's transcript: its printed output is compared
    "echo '%s' | .venv/bin/python -m host_tools score --rules mcr" % (
        '{"id": 7, "hand": "[345m3]258m1488s369p7s", "self_drawn": false, "last_of_kind": false, "last_tile": false, '
        '"kong": false, "seat_wind": "E", "prevalent_wind": "E", "flowers": 0, "winner": 0, "discarder": 2}'): ("run", "output compared"),
    "mahjong-table score --help": ("run", "the score command's options"),
    "python -m simulator --script FILE --events": ("run", "FILE: a shipped scenario"),
    # README: the tournament server
    ".venv/bin/python -m host_tools serve --create-account alice": ("run", "the sync sandbox's first organizer"),
    ".venv/bin/python -m host_tools serve --db postgresql://user@127.0.0.1:5432/tournament --host 0.0.0.0":
        ("elsewhere", "tests/server/test_cli.py::test_serve_subprocess::postgresql"),
    ".venv/bin/python -m host_tools serve --tls --host 127.0.0.1": ("run", "starts behind a (missing) TLS proxy"),
    "make server-test": ("make-n", SLOW + "tests/server"),
    "make server-bench": ("make-n", SLOW + "a benchmark"),
    # README: host link and sync
    ".venv/bin/python -m host_tools sync --port /dev/ttyACM0 --provision --key-file keys.json": ("run", "the simulator's pty"),
    ".venv/bin/python -m host_tools sync --port auto --server http://10.0.0.2:8000 --key-file keys.json": ("run", "the sandbox's server"),
    ".venv/bin/python -m host_tools sync --port auto --offline DIR --key-file keys.json": ("run", "a folder of the sandbox"),
    ".venv/bin/python -m host_tools sync --upload DIR --server URL": ("run", "what --offline stored"),
    ".venv/bin/python -m host_tools sync --port auto --release 5 --key-file keys.json": ("run", "a record set aside"),
    ".venv/bin/python -m host_tools sync --port auto --server URL --key-file keys.json --next-session": ("run", "the next session"),
    ".venv/bin/python -m host_tools tags write --port auto --set 7 --key-file keys.json":
        ("run", "it reaches the box and asks for the first tile (the whole set: tests/hw/test_tags_e2e.py)"),
    ".venv/bin/python -m simulator --script simulator/scenarios/mcr_session.txt --out build/s --serial": ("run", "the sandbox's box"),
    "python -m simulator --serial": ("elsewhere", "tests/commands/test_printed_commands.py::test_server_and_sync_commands_as_printed::--serial"),
    "make sync-test": ("make-n", SLOW + "tests/sync"),
    "make sync-bench": ("make-n", SLOW + "a benchmark"),
    # the Boxes page
    "mahjong-table sync --port auto --server {{ request.scheme }}://{{ request.get_host }} --key-file keys.json --next-session":
        ("run", "as the page shows it, after the box is registered and bound on the Boxes page"),
    # docs/deploy.md
    "python3.11 -m venv /opt/mahjong/venv": ("manual", "root's /opt; the same install into a fresh venv: tests/commands/test_installed.py"),
    "/opt/mahjong/venv/bin/pip install '/path/to/checkout[server]'": ("manual", "root's /opt; tests/commands/test_installed.py installs the wheel"),
    "/opt/mahjong/venv/bin/pip install '/path/to/checkout[postgresql]'": ("manual", "root's /opt; psycopg: tests/server"),
    "pip install /path/to/checkout": ("manual", "/path/to/checkout: tests/commands/test_installed.py installs the wheel"),
    "sudo -u mahjong MT_PASSWORD='a long passphrase' /opt/mahjong/venv/bin/python -m host_tools serve --db sqlite:////var/lib/mahjong/tournament.db --create-account alice":
        ("manual", "a system account and /var/lib: --create-account runs in the sync sandbox"),
    "sudo -u mahjong /opt/mahjong/venv/bin/python -m host_tools serve --db sqlite:////var/lib/mahjong/tournament.db --host 127.0.0.1 --port 8000 --tls":
        ("manual", "a system account and /var/lib: serve --tls runs in test_server_commands"),
    # docs/hardware.md, docs/esp32.md, docs/pico_w.md
    ".venv/bin/python -m host_tools tags write --port /dev/ttyACM0 --set 7 --rules mcr --key-file keys.json":
        ("run", "the simulator's pty: it asks for the first tile (a whole set: tests/hw/test_tags_e2e.py)"),
    ".venv/bin/python -m host_tools tags verify --port /dev/ttyACM0 --set 7 --rules mcr --key-file keys.json":
        ("run", "the simulator's pty: it asks for tiles (a whole set: tests/hw/test_tags_e2e.py)"),
    "make firmware BOARD=esp32": ("make-n", SLOW + "tests/hw builds the firmware"),
    "make firmware BOARD=circuitpython_feather": ("make-n", SLOW + "tests/hw builds the firmware"),
    "make firmware BOARD=pico_w": ("make-n", SLOW + "tests/hw builds the firmware"),
    "make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=.../manifest.py": ("manual", "MicroPython's own Makefile and ESP-IDF"),
    "make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=.../build/pico/manifest.py": ("manual", "MicroPython's own Makefile (make pico-uf2 runs it)"),
    "make pico-w-uf2": ("make-n", SLOW + "a firmware build"),
    "make pico-w-uf2-upstream": ("make-n", SLOW + "a firmware build"),
    "make pico-w-sources": ("make-n", "says which sources are missing"),
    "make pico-w-uf2-stock": ("make-n", SLOW + "a firmware build"),
    "make pico-test": ("make-n", SLOW + "the emulated Pico's tests"),
    "make pico-uf2": ("make-n", SLOW + "a firmware build"),
    "python -m pico.sim SCRIPT --board pico_w [--frozen]": ("help", ""),
    "make pico-sim BOARD=pico_w FROZEN=1": ("make-n", SLOW + "the emulated Pico W"),
    "python -m pico.run SCRIPT --board pico_w --uf2 ...": ("help", ""),
}
