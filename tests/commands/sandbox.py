"""A sandbox to run printed commands in: a folder of links to the checkout's entries (so
``.venv/bin/python``, ``simulator/scenarios/...`` and ``make`` resolve as in the checkout) where
what the commands write (build/, keys.json, tournament.db, quarantine/) stays; an environment
as a fresh shell has it (no activated .venv on PATH), with the simulator's marker file and the
server's secret in the sandbox."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
SKIP = {".git", "build", "quarantine", "tournament.db", "keys.json", "__pycache__", ".pytest_cache"}


class Sandbox:
    def __init__(self, path: Path):
        self.dir = path
        path.mkdir(parents=True, exist_ok=True)
        for entry in ROOT.iterdir():
            if entry.name not in SKIP and not (path / entry.name).exists():
                (path / entry.name).symlink_to(entry)
        self.env = fresh_env(path)

    def activated(self) -> dict:
        """The environment with .venv activated (what the README's plain `python`, `mahjong-table` assume)."""
        return dict(self.env, PATH="%s:%s" % (self.dir / ".venv" / "bin", self.env["PATH"]),
                    VIRTUAL_ENV=str(self.dir / ".venv"))

    def sh(self, cmd: str, stdin: str | None = None, timeout: float = 120, env: dict | None = None):
        """Run one printed command line with bash in the sandbox; (rc, stdout, stderr)."""
        p = subprocess.run(["bash", "-c", cmd], cwd=self.dir, env=env or self.env, input=stdin, capture_output=True,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr

    def start(self, cmd: str, env: dict | None = None, wait_for: str | None = None, timeout: float = 180):
        """Start a printed command that keeps running; wait until its output has wait_for. The
        process leads its own group, so stop() ends bash and what it started."""
        proc = subprocess.Popen(["bash", "-c", "exec " + cmd], cwd=self.dir, env=env or self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        out = b""
        if wait_for:
            end = time.time() + timeout
            os.set_blocking(proc.stdout.fileno(), False)
            while wait_for.encode() not in out:
                if time.time() > end or proc.poll() is not None:
                    stop(proc)
                    raise AssertionError("%r did not print %r: %s" % (cmd, wait_for, out.decode("utf-8", "replace")))
                chunk = proc.stdout.read()
                if chunk:
                    out += chunk
                else:
                    time.sleep(0.05)
        proc.seen = out.decode("utf-8", "replace")
        return proc


def fresh_env(sandbox: Path) -> dict:
    path = [p for p in os.environ.get("PATH", "/usr/bin:/bin").split(":")
            if p and Path(p).resolve() != VENV_BIN.resolve()]
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(PATH=":".join(path), PYTHONUNBUFFERED="1", MAHJONG_TABLE_SIM_MARKER=str(sandbox / "sim.port"),
               MT_SECRET_KEY_FILE=str(sandbox / "secret"))
    env.pop("DISPLAY", None)
    for k in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER"):  # set by other tests' conftest (tests/hw): a fresh
        env.pop(k, None)                              # shell has none, and `make sim` then uses the terminal
    env.pop("MAHJONG_TABLE_PORT", None)
    env.pop("MAHJONG_TABLE_QUARANTINE", None)
    return env


def stop(proc, sig=signal.SIGTERM) -> str:
    """End a started command (its process group); what it printed after start."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    os.set_blocking(proc.stdout.fileno(), True)
    rest = proc.stdout.read().decode("utf-8", "replace")
    proc.stdout.close()
    return rest


def own_network() -> list[str] | None:
    """A prefix that runs a command in a network namespace of its own (loopback up), where the
    printed default address 127.0.0.1:8000 is free whatever else runs on this machine; None
    where unshare is not allowed."""
    if not shutil.which("unshare") or not shutil.which("ip"):
        return None
    prefix = ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"]
    try:
        ok = subprocess.run(prefix + ["true"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return prefix if ok else None
