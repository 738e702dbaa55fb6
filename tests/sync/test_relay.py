"""A fault-injecting relay between the host tool and a device, over two real ptys: bytes are
dropped, corrupted, duplicated and delayed, the line is cut (the host's pty is closed under it and
a new one opened), the box reboots mid-sync and the server fails. 200 sessions of 16 hands
(19 real records each, made by firmware.app.payload) on 4 boxes; the host tool runs again after
each failure, as a referee would. At the end the server holds every record exactly once, byte
for byte, and every box is acknowledged up to its last record.

Seeded (SEED); the thread timing still decides how bytes are chunked, so a run is reproducible
in its fault rates, not byte for byte."""
import collections
import os
import random
import select
import threading
import time

from firmware.link import engine as L
from firmware.link.host_ports import FdPort, MemPort
from firmware.journal import Journal
from host_tools import sync

from .helpers import FakeApp, key_for, open_pty, session_payloads, write_keys
from .miniserver import MiniServer

SEED = int(os.environ.get("SYNC_RELAY_SEED", "20261129"))
SESSIONS = 200
BOXES = 4


class Relay:
    """host (pyserial on the slave of pty A) <-> relay (master A, slave B) <-> box (master B)."""

    def __init__(self, dev_fd, rng, faults):
        self.dev_fd = dev_fd
        os.set_blocking(dev_fd, False)
        self.rng = rng
        self.f = faults
        self.stats = collections.Counter()
        self.lock = threading.Lock()
        self._new_host_side()
        self.q = {"h2d": collections.deque(), "d2h": collections.deque()}
        self.last = {"h2d": 0.0, "d2h": 0.0}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _new_host_side(self):
        m, s, path = open_pty()
        os.close(s)
        os.set_blocking(m, False)
        self.hm = m
        self.path = path

    def cut(self):
        """The cable: the host's pty goes away under it; a new one is there for the next run."""
        self.stats["cuts"] += 1
        old = self.hm
        self._new_host_side()
        os.close(old)
        for q in self.q.values():
            q.clear()

    def _mangle(self, data, way):
        rng, f = self.rng, self.f
        if rng.random() < f["cut"]:
            self.cut()
            return
        b = bytearray(data)
        if rng.random() < f["drop"]:
            i = rng.randrange(len(b))
            del b[i:i + rng.randint(1, 8)]
            self.stats["drop"] += 1
        if b and rng.random() < f["corrupt"]:
            i = rng.randrange(len(b))
            b[i] ^= rng.randrange(1, 256)
            self.stats["corrupt"] += 1
        if b and rng.random() < f["dup"]:
            i = rng.randrange(len(b))
            b[i:i] = b[i:i + rng.randint(1, 16)]
            self.stats["dup"] += 1
        now = time.monotonic()
        delay = 0.0
        if rng.random() < f["delay"]:
            delay = rng.uniform(0.001, 0.02)
            self.stats["delay"] += 1
        t = max(now + delay, self.last[way])  # a serial line keeps the order
        self.last[way] = t
        if b:
            self.q[way].append((t, bytes(b)))

    def _run(self):
        while not self.stop.is_set():
            hm = self.hm
            try:
                r, _, _ = select.select([hm, self.dev_fd], [], [], 0.002)
            except (OSError, ValueError):
                continue
            for fd in r:
                try:
                    data = os.read(fd, 4096)
                except BlockingIOError:
                    continue
                except OSError:  # the host side has no one on it right now
                    time.sleep(0.001)
                    continue
                if data:
                    self._mangle(data, "h2d" if fd == hm else "d2h")
            now = time.monotonic()
            for way, fd in (("h2d", self.dev_fd), ("d2h", self.hm)):
                q = self.q[way]
                while q and q[0][0] <= now:
                    _, data = q.popleft()
                    try:
                        os.write(fd, data)
                    except OSError:  # full or nobody there: the bytes are lost
                        self.stats["lost"] += 1

    def close(self):
        self.stop.set()
        self.thread.join(5)
        os.close(self.hm)


class Box:
    """One box: its journal folder, key file, and a thread running Link on the master of pty B.
    It reboots (journal and link made again) once it has handled `reboot_at` frames."""

    def __init__(self, root, device):
        self.device = device
        self.jdir = str(root / ("journal-" + device))
        self.key = str(root / ("key-" + device))
        self.reboots = 0
        app = FakeApp(Journal(self.jdir), device)
        L.Link(app, MemPort(), self.key)._store_key(key_for(device))
        app.j.close()

    def start(self, master, reboot_at):
        self.master = master
        self.reboot_at = reboot_at
        self.stop = threading.Event()
        self.error = None
        self._boot()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _boot(self):
        self.app = FakeApp(Journal(self.jdir), self.device)
        self.link = L.Link(self.app, FdPort(self.master), self.key)

    def _run(self):
        try:
            while not self.stop.is_set():
                if self.reboot_at is not None and self.link.rx_frames >= self.reboot_at:
                    self.reboot_at = None
                    self.reboots += 1
                    self.app.j.close()  # power cut between two polls: the journal is as committed
                    self._boot()
                if self.link.poll():
                    continue
                select.select([self.master], [self.master] if self.link.tx_pending else [], [], 0.003)
        except Exception as e:
            self.error = e
            raise

    def halt(self):
        self.stop.set()
        self.thread.join(5)
        self.app.j.close()
        assert self.error is None, self.error


def test_200_sessions_through_a_faulty_line(tmp_path):
    rng = random.Random(SEED)
    devices = ["relay-%d" % i for i in range(BOXES)]
    keys = write_keys(tmp_path / "keys.json", devices)
    boxes = {d: Box(tmp_path, d) for d in devices}
    expected = {}
    errors = collections.Counter()
    relay_stats = collections.Counter()
    attempts_max = 0
    t0 = time.monotonic()
    with MiniServer({d: key_for(d) for d in devices}, fail=0.01, seed=SEED) as srv:
        for n in range(1, SESSIONS + 1):
            box = boxes[devices[n % BOXES]]
            # the session is played: 19 records appended (space made by pruning what is acked)
            j = Journal(box.jdir, segment_size=8192)
            j.prune()
            first = j.last_seq + 1
            for i, p in enumerate(session_payloads(n, box.device, table=n % 37 + 1, first_seq=first)):
                assert j.append(p) == first + i
                expected[(box.device, first + i)] = p
            j.close()
            level = rng.choice([0.0, 0.01, 0.03, 0.06, 0.1])
            faults = {"drop": level, "corrupt": level, "dup": level, "delay": 2 * level, "cut": level / 5}
            m_b, s_b, _ = open_pty()
            relay = Relay(s_b, random.Random(rng.getrandbits(32)), faults)
            box.start(m_b, rng.choice([None] * 4 + list(range(1, 12))))
            srv.down = rng.random() < 0.05  # the server is down at first
            chunk = rng.choice([3, 8, 64])
            attempts = 0
            try:
                while True:
                    attempts += 1
                    assert attempts <= 60, (n, dict(errors))
                    try:
                        s = sync.sync(relay.path, server=srv.url, key_file=keys, timeout=0.03, max_timeout=0.06, retries=10, wake=0,
                                      http_timeout=2, http_pause=0.002, chunk=chunk, set_clock=False)
                        break
                    except (sync.LinkError, sync.ServerError) as e:
                        errors[type(e).__name__] += 1
                        srv.down = False
                    assert box.error is None
            finally:
                box.halt()
                relay.close()
                os.close(m_b)
                os.close(s_b)
            attempts_max = max(attempts_max, attempts)
            relay_stats.update(relay.stats)
            j = Journal(box.jdir)
            assert j.acked == j.last_seq, (n, j.acked, j.last_seq)
            j.close()
    took = time.monotonic() - t0
    # every record exactly once, unaltered
    assert srv.store.records == expected
    assert len(srv.store.inserts) == len(expected) == SESSIONS * 19
    assert len(set(srv.store.inserts)) == len(srv.store.inserts)
    assert srv.store.counts.get(409, 0) == 0 and srv.store.counts.get(403, 0) == 0
    # the faults happened
    assert relay_stats["cuts"] > 5 and relay_stats["corrupt"] > 50 and relay_stats["drop"] > 50
    assert relay_stats["dup"] > 50 and relay_stats["delay"] > 50
    assert sum(b.reboots for b in boxes.values()) > 20
    assert errors["LinkError"] > 5 and errors["ServerError"] > 0
    print("\n200 sessions in %.1f s: relay %s; failed runs %s; at most %d runs for one session; server %s"
          % (took, dict(relay_stats), dict(errors), attempts_max, srv.store.counts))
