"""Simulated boxes for the browser test: the headless simulator on a real PTY (``python -m
simulator ... --serial``), the sync tool against it (``python -m host_tools sync``), as a
referee's laptop would run them."""
from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "simulator" / "scenarios" / "mcr_session.txt"


def play_script(out: Path, until_hand: int | None = None) -> Path:
    """The MCR session scenario without its config line (the box gets its config from the
    server through the sync tool); cut before ``# hand N`` to play a box that fails."""
    lines = []
    for line in SCENARIO.read_text(encoding="utf-8").splitlines():
        if line.startswith("config "):
            continue
        if until_hand is not None and line.strip() == "# hand %d" % until_hand:
            break
        lines.append(line)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


class Box:
    def __init__(self, device: str, workdir: Path, env: dict):
        self.device, self.dir, self.env = device, workdir / device, dict(env)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.env["MAHJONG_TABLE_SIM_MARKER"] = str(self.dir / "marker")
        self.env["MAHJONG_TABLE_QUARANTINE"] = str(self.dir / "quarantine")  # not ./quarantine in the checkout
        self.proc = None
        self.pty = None
        self.keys = workdir / "keys.json"

    def _start(self, argv: list):
        """Start the box and wait until it serves the link (with a script: once it is played)."""
        self.stop()
        self.proc = subprocess.Popen([sys.executable] + argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=self.env, cwd=ROOT)
        fd = self.proc.stdout.fileno()
        end = time.time() + 180
        buf = b""
        while time.time() < end:
            # raw reads: a buffered readline could hold the next line while select waits for more
            r, _, _ = select.select([fd], [], [], 0.5)
            if not r:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
            text = buf.decode("utf-8", "replace")
            m = re.search(r"serial: (\S+)", text)
            if m:
                self.pty = m.group(1)
                if "--script" not in argv or "serving the link" in text:
                    return
        raise AssertionError("the simulated box did not come up: " + buf.decode("utf-8", "replace"))

    def idle(self):
        """The box switched on, no session: the link only."""
        self._start(["-m", "simulator.serial_device", "--out", str(self.dir / "box"), "--device-id", self.device, "--keep-serving"])

    def play(self, script: Path):
        """The box plays a scripted session (its config already pushed), then serves the link."""
        self._start(["-m", "simulator", "--script", str(script), "--out", str(self.dir / "box"), "--no-png", "--serial",
                     "--keep-serving", "--device-id", self.device])

    def sync(self, *args) -> str:
        p = subprocess.run([sys.executable, "-m", "host_tools", "sync", "--port", self.pty, "--key-file", str(self.keys)] + list(args),
                           capture_output=True, text=True, env=self.env, cwd=ROOT, timeout=180)
        assert p.returncode == 0, (p.stdout, p.stderr)
        return p.stdout

    def provision(self) -> str:
        self.sync("--provision")
        return json.loads(self.keys.read_text())[self.device]

    def push_config(self, cfg: dict, server: str | None = None) -> str:
        f = self.dir / "config.json"
        f.write_text(json.dumps(cfg), encoding="utf-8")
        return self.sync(*(["--server", server] if server else ["--offline", str(self.dir / "offline")]), "--config", str(f))

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def environ() -> dict:
    return dict(os.environ, PYTHONUNBUFFERED="1")
