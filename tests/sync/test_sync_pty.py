"""host_tools/sync/ against devices on real ptys (pyserial on the slave): the simulator
(python -m simulator --serial), the MicroPython unix port (firmware/link/stdio.py), and
in-process devices that fail or lie; uploads go to the minimal HTTP server of miniserver.py."""
import base64
import hashlib
import hmac
import json
import os
import signal
import subprocess
import sys

import pytest

from firmware.link import engine as L
from firmware.link.host_ports import FdPort
from firmware.journal import Journal
from host_tools import sync

from .helpers import (MICROPYTHON, REPO, SCEN, FakeApp, MpDevice, ThreadDevice, journal_with, key_for,
                      session_payloads, write_keys)
from .miniserver import MiniServer

FAST = dict(timeout=0.15, retries=4, wake=0.0, http_timeout=5, http_pause=0.01)


def journal_payloads(path):
    j = Journal(str(path))
    try:
        return {seq: bytes(p) for seq, p in j.records(1)}, j.acked
    finally:
        j.close()


def assert_server_holds(srv, device, payloads):
    got = {seq: p for (d, seq), p in srv.store.records.items() if d == device}
    assert got == payloads
    assert len(srv.store.inserts) == len(set(srv.store.inserts))


def run_cli(*args, env=None, timeout=60):
    p = subprocess.run([sys.executable, "-m", "host_tools", "sync", *args], capture_output=True, text=True,
                       cwd=str(REPO), env=env, timeout=timeout)
    return p.returncode, p.stdout.strip(), p.stderr


@pytest.fixture
def thread_box(tmp_path):
    """A keyed box with one 16-hand session (19 records) on a pty, served by a thread."""
    made = []

    def make(payloads=None, device="box-1", link_cls=L.Link, journal=None, keyed=True):
        j = journal or journal_with(tmp_path / ("j-" + device), session_payloads(1, device) if payloads is None else payloads)
        app = FakeApp(j, device)
        kp = tmp_path / ("key-" + device)
        if keyed:
            kp.write_bytes(b"")  # replaced below
            os.remove(kp)
        dev = ThreadDevice(lambda port: link_cls(app, port, str(kp)))
        if keyed:
            dev.link._store_key(key_for(device))
        dev.app = app
        made.append(dev)
        return dev

    yield make
    for d in made:
        d.close()
        d.app.j.close()


def test_simulator_on_a_pty_with_the_cli(tmp_path):
    env = dict(os.environ, MAHJONG_TABLE_SIM_MARKER=str(tmp_path / "marker"), MAHJONG_TABLE_USB_IDS="ffff:fffe")
    env.pop("MAHJONG_TABLE_PORT", None)
    out = tmp_path / "sim"
    sim = subprocess.Popen([sys.executable, "-m", "simulator", "--script", str(SCEN / "guangdong_horses.txt"),
                            "--out", str(out), "--serial", "--keep-serving", "--no-png", "--device-id", "sim-7"],
                           stdout=subprocess.PIPE, text=True, cwd=str(REPO), env=env)
    try:
        line = sim.stdout.readline().strip()
        assert line.startswith("serial: /dev/")
        path = line.split()[1]
        keys = str(tmp_path / "keys.json")
        # first: the box gets its key (a new one, written to the key file)
        code, summary, err = run_cli("--port", "auto", "--provision", "--key-file", keys, env=env)
        assert code == 0, err
        key = bytes.fromhex(json.load(open(keys))["sim-7"])
        assert "provisioned" in err
        with MiniServer({"sim-7": key}) as srv:
            code, summary, err = run_cli("--port", path, "--server", srv.url, "--key-file", keys, env=env)
            assert code == 0, err
            n = int(summary.split()[1].rstrip(","))
            assert summary == "pulled %d, uploaded %d, already known 0, refused 0, set aside 0" % (n, n) and n >= 3
            assert "acknowledged up to %d" % n in err
            # again: nothing new
            code, summary, err = run_cli("--port", "auto", "--server", srv.url, env=env)
            assert (code, summary) == (0, "pulled 0, uploaded 0, already known 0, refused 0, set aside 0"), err
            sim.send_signal(signal.SIGTERM)
            assert sim.wait(20) == 0
            payloads, acked = journal_payloads(out / "journal")
            assert acked == n == len(payloads)
            assert_server_holds(srv, "sim-7", payloads)
            for (d, seq), p in srv.store.records.items():
                assert p[0] == 1 and json.loads(p[1:])["kind"] in ("session", "hand", "correction", "session_end")
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()
        sim.stdout.close()
    assert not os.path.exists(tmp_path / "marker")  # removed on exit


def test_micropython_device_on_a_pty(tmp_path):
    assert MICROPYTHON.exists(), "needs the MicroPython unix port at %s (make venv installs it)" % MICROPYTHON
    keys = write_keys(tmp_path / "keys.json", ["mp-1"])
    with MpDevice(tmp_path, script=SCEN / "penalties_declare.txt", keep=False) as mp:
        ser = sync.open_serial(mp.path)
        s = sync.sync(mp.path, provision=True, key_file=keys, ser=ser, **FAST)
        with MiniServer({"mp-1": key_for("mp-1")}) as srv:
            s = sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, **FAST)
            n = s.pulled
            assert n >= 3 and (s.uploaded, s.known, s.refused) == (n, 0, 0)
            s = sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, **FAST)
            assert s.line() == "pulled 0, uploaded 0, already known 0, refused 0, set aside 0"
            # the next session's config: the app journals a session record, the next sync takes it
            cfg = {"rules": "sichuan", "tournament": "T", "session": 4, "table": 2, "players": ["1", "2", "3", "4"],
                   "first_dealer": 0}
            sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, config=cfg, **FAST)
            # the same session's config again is its time (issue 18.5: a referee's extension at the
            # next contact), taken; its session record is synced first
            s = sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, config=dict(cfg, minutes=90), **FAST)
            assert (s.pulled, s.uploaded) == (1, 1)
            with pytest.raises(sync.DeviceError) as e:  # another session's, while one is running
                sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, config=dict(cfg, session=5), **FAST)
            assert "refused CONFIG: a session is running" in str(e.value)
            assert (e.value.summary.pulled, e.value.summary.uploaded) == (0, 0)
            s = sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, **FAST)
            assert s.pulled == 0
            ser.close()  # the box sees the hang-up and ends
            assert mp.proc.wait(20) == 0
            payloads, acked = journal_payloads(mp.journal)
            assert acked == n + 1 == len(payloads)
            assert_server_holds(srv, "mp-1", payloads)
            last = json.loads(payloads[n + 1][1:])
            assert last["kind"] == "session" and last["rules"] == "sichuan" and last["device"] == "mp-1"
            assert abs(last["time"] - __import__("time").time()) < 60  # the clock was set
        st = mp.stats()
        assert st["rx_bad"] == 0 and st["acked"] == n + 1 and st["link_static"] > 0


def test_micropython_device_refuses_a_second_key_and_rekeys(tmp_path):
    assert MICROPYTHON.exists(), "needs the MicroPython unix port at %s (make venv installs it)" % MICROPYTHON
    keys = str(tmp_path / "keys.json")
    with MpDevice(tmp_path, keep=True, stats=False) as mp:
        ser = sync.open_serial(mp.path)
        sync.sync(mp.path, provision=True, key_file=keys, ser=ser, **FAST)
        first = json.load(open(keys))["mp-1"]
        with pytest.raises(sync.SyncError, match="already has a key"):
            sync.sync(mp.path, provision=True, key_file=keys, ser=ser, **FAST)
        box = sync.Box(sync.HostLink(ser, timeout=0.2))
        box.hello()
        with pytest.raises(sync.DeviceError) as e:
            box.provision(os.urandom(32))
        assert e.value.code == 4
        sync.sync(mp.path, rekey=True, key_file=keys, ser=ser, **FAST)
        k = json.load(open(keys))
        assert k["mp-1@previous"] == first and k["mp-1"] != first
        ser.close()
    raw = open(mp.key, "rb").read()
    assert raw[4:36].hex() == k["mp-1"]


def test_micropython_device_sets_aside_and_remembers_it(tmp_path):
    assert MICROPYTHON.exists(), "needs the MicroPython unix port at %s (make venv installs it)" % MICROPYTHON
    keys = write_keys(tmp_path / "keys.json", ["mp-1"])
    quar = str(tmp_path / "q")
    with MiniServer({"mp-1": key_for("mp-1")}) as srv:
        srv.store.refuse = {("mp-1", 2)}
        with MpDevice(tmp_path, script=SCEN / "penalties_declare.txt", keep=True) as mp:
            ser = sync.open_serial(mp.path)
            sync.sync(mp.path, provision=True, key_file=keys, ser=ser, **FAST)
            with pytest.raises(sync.SyncError) as e:
                sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, quarantine=quar, **FAST)
            s = e.value.summary
            assert e.value.exit_code == 3 and s.aside == [(2, "HTTP 400: refused by the test")]
            assert s.acked == s.pulled >= 3
            ser.close()
        # the box restarts (a new process on the same flash): it still has it aside, and the
        # journal's own ack below it; the server takes it now, the next run releases it
        with MpDevice(tmp_path, keep=True, stats=False) as mp:
            ser = sync.open_serial(mp.path)
            box = sync.Box(sync.HostLink(ser, timeout=0.3))
            info = box.hello()
            assert info["aside"] == [[2, "HTTP 400: refused by the test"]] and info["acked"] == s.acked
            srv.store.refuse = set()
            s2 = sync.sync(mp.path, server=srv.url, key_file=keys, ser=ser, quarantine=quar, **FAST)
            assert s2.released == [2] and s2.aside == [] and s2.line().endswith("set aside 0")
            assert box.hello()["aside"] == []
            ser.close()
    assert journal_payloads(tmp_path / "journal")[1] == s.acked


def test_a_host_without_the_key_cannot_tell_the_box_its_records_are_synced(tmp_path, thread_box):
    # issue 11: "a host without the key told a box that all 19 records were synced (the
    # organizer's sync then pulled nothing), started a session ... and set the clock to 2100"
    dev = thread_box()
    epoch = dev.app.epoch
    rogue = tmp_path / "rogue.json"
    rogue.write_text(json.dumps({"box-1": (b"\x66" * 32).hex()}))
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"tournament": "ANY", "session": 1, "table": 99, "rules": "mcr",
                               "players": ["1", "2", "3", "4"], "first_dealer": 0}))
    with MiniServer({"box-1": key_for("box-1")}) as other:
        for extra in ([], ["--key-file", str(rogue)]):
            code, out, err = run_cli("--port", dev.path, "--server", other.url, "--timeout", "0.2", *extra)
            assert code == 1 and ("needs its key" in err or "not this box's" in err), err
            code, out, err = run_cli("--port", dev.path, "--config", str(cfg), "--timeout", "0.2", *extra)
            assert code == 1 and dev.app.configs == []
        # by hand, with a box client: ACK 19 and the clock of 2100 with a made-up MAC
        ser = sync.open_serial(dev.path)
        box = sync.Box(sync.HostLink(ser, timeout=0.2), key=b"\x66" * 32)
        box.hello()
        for fn in (lambda: box.ack(19), lambda: box.set_clock(4102444800), lambda: box.release(3)):
            with pytest.raises(sync.DeviceError) as e:
                fn()
            assert e.value.code == 5  # denied
        ser.close()
    assert dev.app.j.acked == 0 and dev.link.acked == 0 and dev.app.epoch == epoch and dev.app.configs == []
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:  # the organizer's sync gets all 19
        s = sync.sync(dev.path, server=srv.url, key_file=keys, **FAST)
        assert (s.pulled, s.uploaded, s.acked) == (19, 19, 19)


def test_next_session_from_the_server(tmp_path, thread_box):
    # the server has the box's next session (its table in the published seating): after the sync
    # the tool starts it, so nobody types a config
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    cfg = {"rules": "mcr", "tournament": "T2026", "session": 2, "table": 7, "players": ["1", "2", "3", "4"],
           "first_dealer": 1, "hands": None, "minutes": None}
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        args = ("--port", dev.path, "--server", srv.url, "--key-file", keys, "--timeout", "0.2", "--next-session")
        code, out, err = run_cli(*args)
        assert code == 1 and "no next session for box-1 from the server: box box-1 is not bound" in err, err
        assert dev.app.j.acked == 19 and dev.app.configs == []  # the sync itself went through
        srv.box_configs["box-1"] = cfg
        code, out, err = run_cli(*args)
        assert code == 0 and "session config sent to box-1: T2026 session 2, table 7" in err, err
        assert dev.app.configs == [{k: v for k, v in cfg.items() if v is not None}] and srv.heads["box-1"] == 19
        code, out, err = run_cli("--port", dev.path, "--next-session", "--key-file", keys)
        assert code == 1 and "--next-session takes the config from --server" in err


def test_offline_then_upload(tmp_path, thread_box):
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    off = tmp_path / "off"
    s = sync.sync(dev.path, offline=str(off), key_file=keys, **FAST)
    assert s.line() == "pulled 19, uploaded 19, already known 0, refused 0, set aside 0"
    assert dev.app.j.acked == 19
    files = sorted(os.listdir(off / "box-1"))
    assert files == ["%010d.json" % i for i in range(1, 20)]
    env = json.load(open(off / "box-1" / files[4]))
    p = base64.b64decode(env["payload"])
    assert env["sig"] == hmac.new(key_for("box-1"), b"box-1\x00" + (5).to_bytes(4, "big") + p, hashlib.sha256).hexdigest()
    assert not [n for n in os.listdir(off / "box-1") if n.startswith(".tmp")]
    assert sync.sync(dev.path, offline=str(off), **FAST).line() == "pulled 0, uploaded 0, already known 0, refused 0, set aside 0"
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        code, summary, err = run_cli("--upload", str(off), "--server", srv.url, "--key-file", keys)
        assert (code, summary) == (0, "pulled 0, uploaded 19, already known 0, refused 0, set aside 0"), err
        assert_server_holds(srv, "box-1", {seq: bytes(p) for seq, p in dev.app.j.records(1)})
        assert len(os.listdir(off / "box-1" / "uploaded")) == 19
        code, summary, err = run_cli("--upload", str(off), "--server", srv.url)
        assert (code, summary) == (0, "pulled 0, uploaded 0, already known 0, refused 0, set aside 0")


def test_the_offline_store_never_takes_another_record_under_a_stored_seq(tmp_path, thread_box):
    """A box whose journal began again (re-flashed: seq 1 again) synced into the folder that
    holds its old records: the new ones are not the stored ones, so the store refuses them and
    the box keeps them (acknowledged, they would be lost: the folder keeps the old files)."""
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    off = tmp_path / "off"
    first = thread_box()
    assert sync.sync(first.path, offline=str(off), key_file=keys, **FAST).uploaded == 19
    before = {n: (off / "box-1" / n).read_bytes() for n in os.listdir(off / "box-1")}
    again = thread_box(journal=journal_with(tmp_path / "j-again", session_payloads(2, "box-1")[:5]))
    with pytest.raises(sync.SyncError) as e:
        sync.sync(again.path, offline=str(off), key_file=keys, **FAST)
    s = e.value.summary
    assert e.value.exit_code == sync.EXIT_REFUSED and (s.uploaded, s.known, s.refused) == (0, 0, 5)
    assert s.refusals[0][:2] == (1, 409) and "holds a different record" in s.refusals[0][2]
    assert again.app.j.acked == 0  # nothing of the new journal is acknowledged
    assert {n: (off / "box-1" / n).read_bytes() for n in os.listdir(off / "box-1")} == before
    # the very same record again is known, and only that
    same = thread_box(journal=journal_with(tmp_path / "j-same", session_payloads(1, "box-1")[:3]))
    s = sync.sync(same.path, offline=str(off), key_file=keys, **FAST)
    assert (s.known, s.uploaded, same.app.j.acked) == (3, 0, 3)


def test_dead_server_then_resume(tmp_path, thread_box):
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        srv.down = True  # 503 to everything: a server that fails, not one that is unreachable
        with pytest.raises(sync.ServerError, match="answered HTTP 503 to every record") as e:
            sync.sync(dev.path, server=srv.url, key_file=keys, **FAST)
        assert dev.app.j.acked == 0 and e.value.summary.pulled > 0
        # it comes back, then dies after two requests (mid-sync, chunks of 4)
        srv.down, srv.down_after = False, srv.requests + 2
        with pytest.raises(sync.ServerError):
            sync.sync(dev.path, server=srv.url, key_file=keys, chunk=4, **FAST)
        assert dev.app.j.acked == 8 and len(srv.store.records) == 8
        srv.down, srv.down_after = False, None
        s = sync.sync(dev.path, server=srv.url, key_file=keys, chunk=4, **FAST)
        assert (s.pulled, s.uploaded, s.known) == (11, 11, 0)
        assert dev.app.j.acked == 19
        assert_server_holds(srv, "box-1", {seq: bytes(p) for seq, p in dev.app.j.records(1)})


def test_batch_endpoint_missing_falls_back_to_single_uploads(tmp_path, thread_box):
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}, batch=False) as srv:
        s = sync.sync(dev.path, server=srv.url, key_file=keys, **FAST)
        assert (s.uploaded, dev.app.j.acked) == (19, 19)
        assert srv.requests == 21  # one 404 on the batch, then one by one, then the box's head (signed)


def test_pulled_cable_mid_sync_then_the_next_run_goes_on(tmp_path, thread_box):
    import serial
    dev = thread_box()

    class Cable:
        """pyserial, cut after `budget` bytes read."""

        def __init__(self, path, budget):
            self.s = serial.Serial(path, timeout=0.01)
            self.budget = budget

        def __getattr__(self, k):
            return getattr(self.s, k)

        def __setattr__(self, k, v):
            if k in ("s", "budget"):
                object.__setattr__(self, k, v)
            else:
                setattr(self.s, k, v)

        def read(self, n=1):
            if self.budget <= 0:
                raise serial.SerialException("device disconnected")
            data = self.s.read(min(n, self.budget))
            self.budget -= len(data)
            return data

    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        cable = Cable(dev.path, 5000)  # about half the records
        with pytest.raises(sync.LinkError, match="serial line lost"):
            sync.sync(dev.path, server=srv.url, key_file=keys, ser=cable, chunk=4, **FAST)
        cable.close()
        part = dev.app.j.acked
        assert 0 < part < 19 and len(srv.store.records) >= part
        s = sync.sync(dev.path, server=srv.url, key_file=keys, **FAST)
        assert dev.app.j.acked == 19 and s.pulled == 19 - part
        assert_server_holds(srv, "box-1", {seq: bytes(p) for seq, p in dev.app.j.records(1)})


def test_device_reset_mid_sync(tmp_path, thread_box):
    """The box reboots (journal and link made again) while the host is asking: the host's
    resend reaches the new link and the run completes."""
    dev = thread_box()
    jdir = dev.app.j.path
    import serial

    class Resetting:
        def __init__(self, path):
            self.s = serial.Serial(path, timeout=0.01)
            self.writes = 0

        def __getattr__(self, k):
            return getattr(self.s, k)

        def write(self, data):
            self.writes += 1
            if self.writes == 5:  # before the 5th request arrives: power cut and boot
                dev.stop.set()
                dev.thread.join()
                dev.stop.clear()
                dev.app.j.close()
                app = FakeApp(Journal(jdir), "box-1")
                dev.app = app
                dev.link = L.Link(app, FdPort(dev.master), str(tmp_path / "key-box-1"))
                import threading
                dev.thread = threading.Thread(target=dev._run, daemon=True)
                dev.thread.start()
            return self.s.write(data)

    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        ser = Resetting(dev.path)
        s = sync.sync(dev.path, server=srv.url, key_file=keys, ser=ser, chunk=4, **FAST)
        ser.close()
        assert s.line() == "pulled 19, uploaded 19, already known 0, refused 0, set aside 0"
        assert dev.app.j.acked == 19 and ser.writes > 5


def test_server_refuses_with_403_nothing_acked(tmp_path, thread_box):
    dev = thread_box()
    with MiniServer({"box-1": b"\x05" * 32}) as srv:  # the server holds another key
        with pytest.raises(sync.ServerError, match="403") as e:
            sync.sync(dev.path, server=srv.url, **FAST)
        assert "registered" in str(e.value)
        assert srv.store.records == {} and dev.app.j.acked == 0


def test_wrong_key_file_refuses_before_uploading(tmp_path, thread_box):
    dev = thread_box()
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({"box-1": (b"\x09" * 32).hex()}))
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        # the first request that needs the key (the clock: the thread box's is off) fails
        code, summary, err = run_cli("--port", dev.path, "--server", srv.url, "--key-file", str(keys), "--timeout", "0.2")
        assert code == 1 and "the key in the key file is not this box's" in err, err
        assert srv.store.records == {} and dev.app.j.acked == 0
        # without the clock, the signatures of the records pulled give it away
        code, summary, err = run_cli("--port", dev.path, "--server", srv.url, "--key-file", str(keys), "--timeout", "0.2",
                                     "--no-clock")
        assert code == 1 and "fails its signature" in err and "wrong key file" in err
        assert srv.store.records == {} and dev.app.j.acked == 0


def test_a_refused_record_blocks_without_a_quarantine_folder(tmp_path, thread_box):
    bad = session_payloads(1, "box-1")[:5]
    bad[2] = b"\x02not json"  # version 2: the server refuses it (400)
    dev = thread_box(payloads=bad)
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        with pytest.raises(sync.SyncError) as e:
            sync.sync(dev.path, server=srv.url, key_file=keys, **FAST)
        assert e.value.exit_code == 3 and "seq 3: 400" in str(e.value)
        assert e.value.summary.line() == "pulled 5, uploaded 4, already known 0, refused 1, set aside 0"
        assert dev.app.j.acked == 2  # only up to the refused one
        assert dev.link.aside == []


def test_a_refused_record_is_set_aside_and_the_rest_goes_on(tmp_path, thread_box):
    # issue 11: a record the server refuses must not block every later sync of the box
    bad = session_payloads(1, "box-1")
    bad[2] = b"\x02not json"  # version 2: the server refuses it (400)
    dev = thread_box(payloads=bad)
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    quar = tmp_path / "quarantine"
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        args = ("--port", dev.path, "--server", srv.url, "--timeout", "0.2", "--key-file", keys, "--quarantine", str(quar))
        code, out, err = run_cli(*args)
        lines = out.splitlines()
        assert code == 3 and lines[0] == "pulled 19, uploaded 18, already known 0, refused 1, set aside 1", err
        assert lines[1] == "set aside: record 3: HTTP 400: payload version"
        assert "set aside on the box and in" in err
        # everything else is on the server and acknowledged; the box keeps record 3 for a referee
        assert len(srv.store.records) == 18 and (("box-1", 3) not in srv.store.records)
        assert dev.link.acked == 19 and dev.app.j.acked == 2
        assert dev.link.aside == [[3, b"HTTP 400: payload version"]]
        doc = json.load(open(quar / "box-1" / "0000000003.json"))
        assert doc["status"] == 400 and doc["reason"] == "payload version" and doc["envelope"]["seq"] == 3
        assert base64.b64decode(doc["envelope"]["payload"]) == bad[2]
        # the next run: nothing new; record 3 is offered again and still refused: it stays aside
        code, out, err = run_cli(*args)
        assert code == 0 and out.splitlines() == ["pulled 0, uploaded 0, already known 0, refused 0, set aside 1",
                                                  "set aside: record 3: HTTP 400: payload version"]
        assert "still refused" in err
        # the server is fixed (here: it takes the record as it is now): the next run releases it
        srv.store.accept_any_version = True
        code, out, err = run_cli(*args)
        assert code == 0 and out.splitlines()[0] == "pulled 0, uploaded 1, already known 0, refused 0, set aside 0", err
        assert "released: record 3" in out
        assert dev.link.aside == [] and dev.app.j.acked == 19
        assert (quar / "box-1" / "resolved" / "0000000003.json").exists()
        assert not (quar / "box-1" / "0000000003.json").exists()


def test_offline_files_the_server_refuses_go_to_the_quarantine_folder(tmp_path, thread_box):
    bad = session_payloads(1, "box-1")[:6]
    bad[3] = b"\x02not json"
    dev = thread_box(payloads=bad)
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    off, quar = tmp_path / "off", tmp_path / "q"
    sync.sync(dev.path, offline=str(off), key_file=keys, **FAST)
    assert dev.app.j.acked == 6  # the files are the store: the box is acknowledged
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        args = ("--upload", str(off), "--server", srv.url, "--key-file", keys, "--quarantine", str(quar))
        code, out, err = run_cli(*args)
        assert code == 3 and out.splitlines() == ["pulled 0, uploaded 5, already known 0, refused 1, set aside 1",
                                                  "set aside: record 4: HTTP 400: payload version"], err
        assert json.load(open(quar / "box-1" / "0000000004.json"))["reason"] == "payload version"
        assert sorted(os.listdir(off / "box-1")) == ["uploaded"]
        code, out, err = run_cli(*args)  # nothing left to send: the refused one no longer blocks
        assert code == 0 and out == "pulled 0, uploaded 0, already known 0, refused 0, set aside 0"


def test_a_referee_releases_a_record_set_aside(tmp_path, thread_box):
    bad = session_payloads(1, "box-1")[:6]
    bad[1] = bad[4] = b"\x02not json"
    dev = thread_box(payloads=bad)
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        with pytest.raises(sync.SyncError):
            sync.sync(dev.path, server=srv.url, key_file=keys, quarantine=str(tmp_path / "q"), **FAST)
        assert [q for q, _ in dev.link.aside] == [2, 5] and dev.app.j.acked == 1
        # without the key nothing is released
        code, out, err = run_cli("--port", dev.path, "--release", "2", "--timeout", "0.2")
        assert code == 1 and "needs the box's key" in err and len(dev.link.aside) == 2
        code, out, err = run_cli("--port", dev.path, "--release", "2", "--key-file", keys, "--timeout", "0.2")
        assert code == 0 and "record 2 of box-1 released" in err
        assert out.splitlines() == ["pulled 0, uploaded 0, already known 0, refused 0, set aside 1",
                                    "set aside: record 5: HTTP 400: payload version"]
        assert [q for q, _ in dev.link.aside] == [5] and dev.app.j.acked == 4


class LyingJournal:
    """A journal that misreports: `claim` more records than it has, or yields them wrongly."""

    def __init__(self, j, claim=None, order=None, acked=None):
        self.j = j
        self.claim = claim
        self.order = order
        self._acked = acked
        self.max_payload = j.max_payload
        self.corrupt = None

    last_seq = property(lambda self: self.claim or self.j.last_seq)
    acked = property(lambda self: self.j.acked if self._acked is None else self._acked)
    first_seq = property(lambda self: self.j.first_seq)

    def ack(self, seq):
        return self.j.ack(seq)

    def records(self, start, copy=True):
        if self.order is None:
            yield from self.j.records(start, copy)
            return
        recs = dict(self.j.records(1))
        for s in self.order:
            if s >= start:
                yield s, recs[s]

    def close(self):
        self.j.close()


@pytest.mark.parametrize("lie, message", [
    (dict(claim=10), "announced records up to 10 but sends none from 6"),
    (dict(order=[1, 2, 4, 5]), "sent record 4 where 3 was due"),
    (dict(order=[1, 2, 2, 3]), "sent record 2 where 3 was due"),
    (dict(acked=7), "acknowledged up to 7 beyond its last record 5"),
])
def test_a_lying_device_is_refused_and_nothing_is_stored(tmp_path, thread_box, lie, message):
    j = LyingJournal(journal_with(tmp_path / "lj", session_payloads(1, "box-1")[:5]), **lie)
    dev = thread_box(journal=j)
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        code, summary, err = run_cli("--port", dev.path, "--server", srv.url, "--timeout", "0.2")
        assert code == 1 and message in err, err
        assert srv.store.records == {} and j.j.acked == 0


class GarblingLink(L.Link):
    def _send(self, n):
        L.Link._send(self, n)
        self._f[n // 2] ^= 0x40  # after the CRC was made: one frame, with a bad CRC


class OversizedLink(L.Link):
    def _tx_fill(self):
        junk = b"\x00" + bytes(range(1, 256)) * 12 + b"\x00"  # 3060 bytes without a delimiter
        self._blk = bytearray(junk)
        self._blkmv = memoryview(self._blk)
        self._bpos, self._blen, self._ti = 0, len(junk), -1


@pytest.mark.parametrize("cls, message", [(GarblingLink, "bad frames (CRC/COBS"), (OversizedLink, "oversized frames")])
def test_bad_and_oversized_frames_give_a_clear_error(tmp_path, thread_box, cls, message):
    dev = thread_box(link_cls=cls, keyed=False)
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        code, summary, err = run_cli("--port", dev.path, "--server", srv.url, "--timeout", "0.05", "--retries", "2")
        assert code == 1 and message in err and "no reply from the box to HELLO after 3 tries" in err, err
        assert srv.store.records == {} and dev.app.j.acked == 0


def test_unkeyed_box_and_bad_usage(tmp_path, thread_box):
    dev = thread_box(keyed=False)
    with MiniServer({}) as srv:
        code, summary, err = run_cli("--port", dev.path, "--server", srv.url)
        assert code == 1 and "has no key" in err and "--provision" in err
    code, summary, err = run_cli("--port", dev.path)
    assert code == 1 and "--server URL or --offline DIR" in err
    code, summary, err = run_cli("--port", str(tmp_path / "nope"), "--server", "http://127.0.0.1:9")
    assert code == 1 and "cannot open" in err
    env = dict(os.environ, MAHJONG_TABLE_USB_IDS="ffff:fffe", MAHJONG_TABLE_SIM_MARKER=str(tmp_path / "none"))
    env.pop("MAHJONG_TABLE_PORT", None)
    code, summary, err = run_cli("--port", "auto", "--server", "http://127.0.0.1:9", env=env)
    assert code == 1 and "no box found" in err
    env["MAHJONG_TABLE_PORT"] = dev.path
    code, summary, err = run_cli("--port", "auto", "--offline", str(tmp_path / "o"), env=env)
    assert code == 1 and "has no key" in err  # found it
