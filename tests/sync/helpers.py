"""Shared pieces of the sync tests: real record payloads, a device on a pty in a thread, the
MicroPython device on a pty, keys."""
import json
import os
import select
import subprocess
import threading
import time
import tty
from pathlib import Path

from firmware.app import decode, payload
from firmware.journal import Journal
from firmware.link.engine import Link
from firmware.link.host_ports import FdPort
from protocol.codec import decode_body

REPO = Path(__file__).resolve().parents[2]
SCEN = REPO / "simulator" / "scenarios"
MICROPYTHON = REPO / ".venv" / "bin" / "micropython"


def key_for(device):
    """A fixed test key per device."""
    import hashlib
    return hashlib.sha256(b"test key " + device.encode()).digest()


def write_keys(path, devices):
    with open(path, "w") as f:
        json.dump({d: key_for(d).hex() for d in devices}, f)
    return str(path)


def open_pty():
    m, s = os.openpty()
    tty.setraw(s)
    return m, s, os.ttyname(s)


_SAMPLE = None


def sample_records():
    """The 19 records (session, 16 hands, a correction, session end) of the shipped MCR session,
    decoded: made once by running the scenario through the firmware application."""
    global _SAMPLE
    if _SAMPLE is None:
        import tempfile
        from simulator.runner import Sim
        with tempfile.TemporaryDirectory() as d:
            sim = Sim(lambda: Journal(d + "/j"))
            sim.run(str(SCEN / "mcr_session.txt"))
            _SAMPLE = [decode(bytes(p)) for _, p in sim.journal.records(1)]
            sim.journal.close()
    return _SAMPLE


def session_payloads(session, device, table=7, first_seq=1):
    """Real payloads (firmware.app.payload) for one 16-hand session of `device`: the sample
    session renumbered. first_seq: the journal seq its first record will get (for the
    correction's reference to a hand of the same session)."""
    out = []
    base = sample_records()
    for rec in base:
        r = json.loads(json.dumps(rec))
        if "session" in r:
            r["session"] = session
            r["table"] = table
        if r.get("device") is not None:
            r["device"] = device
        if r["kind"] == "correction":
            r["corrects"] = {"device": device, "seq": first_seq + r["corrects"]["seq"] - 1}
        out.append(payload(r))
    return out


class FakeApp:
    """What Link needs of firmware.app.App, over a real journal."""

    def __init__(self, journal, device_id, epoch=1764400000):
        self.j = journal
        self.device_id = device_id
        self.epoch = epoch
        self.session = None
        self.configs = []
        self._t0 = time.monotonic()

    def clock(self):
        return int((time.monotonic() - self._t0) * 1000)

    def now_s(self):
        return self.epoch + self.clock() // 1000

    def push_config(self, cfg):
        if self.configs:
            return "a session is running"
        self.configs.append(cfg)
        return None


class ThreadDevice:
    """A Link on a pty master, served by a thread; the host opens `path`. make_link(port) builds
    the Link (so a test can give it a lying journal or a subclass)."""

    def __init__(self, make_link):
        self.master, slave, self.path = open_pty()
        os.close(slave)
        self.link = make_link(FdPort(self.master))
        self.stop = threading.Event()
        self.error = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            while not self.stop.is_set():
                if self.link.poll():
                    continue
                if self.link.online:
                    select.select([self.master], [self.master] if self.link.tx_pending else [], [], 0.005)
                else:
                    time.sleep(0.002)
        except Exception as e:  # the test fails on it
            self.error = e
            raise

    def close(self):
        self.stop.set()
        self.thread.join(5)
        os.close(self.master)
        assert self.error is None, self.error

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def journal_with(path, payloads, acked=0):
    j = Journal(str(path))
    for p in payloads:
        j.append(p)
    if acked:
        j.ack(acked)
    return j


class MpDevice:
    """firmware/link/stdio.py on the MicroPython unix port, stdin/stdout on a pty master."""

    def __init__(self, tmp, device_id="mp-1", script=None, heap="512K", keep=True, stats=True, extra=()):
        self.master, slave, self.path = open_pty()
        os.close(slave)
        self.journal = str(tmp / "journal")
        self.key = str(tmp / "device.key")
        self.stats_path = str(tmp / "stats.json")
        # a box that plays a scenario first is the simulator's (same arguments, same loop)
        entry = REPO / "simulator" / "sim_main.py" if script else REPO / "firmware" / "link" / "stdio.py"
        cmd = [str(MICROPYTHON), "-X", "heapsize=" + heap, str(entry),
               "--journal", self.journal, "--key", self.key, "--device-id", device_id]
        if script:
            cmd += ["--script", str(script)]
        if keep:
            cmd += ["--keep-serving"]
        if stats:
            cmd += ["--stats", self.stats_path]
        cmd += list(extra)
        env = dict(os.environ, MICROPYPATH=str(REPO))
        self.proc = subprocess.Popen(cmd, stdin=self.master, stdout=self.master, stderr=subprocess.PIPE, env=env,
                                     cwd=str(REPO))
        os.close(self.master)

    def stats(self):
        with open(self.stats_path) as f:
            return json.load(f)

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(10)
        finally:
            err = self.proc.stderr.read().decode()
            self.proc.stderr.close()
        return err

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class ScriptedSerial:
    """A pyserial stand-in: answers each request frame with what reply(typ, seq, payload) gives."""

    def __init__(self, reply):
        self.reply = reply
        self.inbuf = bytearray()
        self.timeout = 0.1
        self.writes = []

    def write(self, data):
        for enc in bytes(data).split(b"\x00"):
            if enc:
                typ, seq, payload = decode_body(enc)
                self.writes.append((typ, seq, payload))
                self.inbuf += self.reply(typ, seq, payload)
        return len(data)

    def flush(self):
        pass

    def reset_input_buffer(self):
        self.inbuf.clear()

    def close(self):
        pass

    @property
    def in_waiting(self):
        return len(self.inbuf)

    def read(self, n=1):
        out = bytes(self.inbuf[:n])
        del self.inbuf[:n]
        return out
