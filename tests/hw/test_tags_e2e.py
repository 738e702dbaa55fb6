"""`python -m host_tools tags write|verify` end to end: the host tool in its own process on the
simulator's pty, the simulated box (firmware/main.py Device, firmware/link/engine.py with the TAGS
request) with the real MFRC522 driver reading virtual tags through the register-level emulator
(tests/emulators/mfrc522_emu.py). A scripted person lays the tags on the reader as the box asks.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from emulators import tags as vtags
from emulators.mfrc522_emu import MFRC522Emu
from firmware.tags import tile_tag
from firmware.drivers.mfrc522 import MFRC522

REPO = Path(__file__).resolve().parents[2]


def ntag(i):
    return vtags.ntag213(uid=bytes((0x04, 0x70, i >> 8, i & 0xFF, 0x5A, 0x11, 0x80)), name="t%d" % i)


class Person:
    """Lays plan[k] on the reader for the box's k-th tag job; lifts it when the job is done.
    A plan entry may be "#" (press # on the box instead of tapping)."""

    def __init__(self, emu, plan):
        self.emu = emu
        self.plan = plan
        self.k = 0
        self.job = None

    def __call__(self, box):
        job = box.dev.tags.job
        if job is self.job:
            return
        self.emu.tags.clear()  # the last tile leaves the antenna
        self.job = job
        if job is None:
            return
        if self.k >= len(self.plan):
            return  # nothing left to tap: the job will time out
        what = self.plan[self.k]
        self.k += 1
        if what == "#":
            box.press("#")
            return
        what.enter_field()
        self.emu.add_tag(what)


def host(port, *args, timeout=300):  # 300: a machine busy with other work
    return subprocess.run([sys.executable, "-m", "host_tools", "tags", *args, "--port", port, "--json"],
                          capture_output=True, text=True, timeout=timeout, cwd=str(REPO))


@pytest.fixture
def box(tmp_path):
    from simulator.device import SimDevice
    emu = MFRC522Emu()
    rdr = MFRC522(emu, emu.cs, sleep_us=emu.sleep_us)
    b = SimDevice(str(tmp_path / "box"), reader=rdr)
    b.dev.read_ms = 2
    b.emu = emu
    yield b
    b.close()


def test_write_then_verify_a_sichuan_set(box, tmp_path):
    set_id = 4660
    blanks = [ntag(i) for i in range(108)]
    ro = vtags.ultralight4(uid=b"\x3a\x9c\x51\xd2", name="ro")
    ro.read_only = True  # the fourth tile (1m copy 4) is a locked tag: registered by UID
    # tile 0..2 on blanks 0..2; the read-only tag for tile 3; then blank 0 again (it holds 1m copy 1:
    # refused), then blanks 3.. for the rest
    plan = blanks[:3] + [ro, blanks[0]] + blanks[3:107]
    box.hooks.append(Person(box.emu, plan))
    box.start()
    reg = tmp_path / "reg.json"
    # writing tags needs the box's key (TAGS_SET is authenticated): provision it, as sync does
    keys = str(tmp_path / "keys.json")
    p = subprocess.run([sys.executable, "-m", "host_tools", "sync", "--port", box.port_path, "--provision",
                        "--key-file", keys], capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert p.returncode == 0, p.stderr
    p = host(box.port_path, "write", "--set", str(set_id), "--rules", "sichuan", "--registry", str(reg))
    assert p.returncode == 2 and "needs the key" in p.stderr  # without it: nothing written
    p = host(box.port_path, "write", "--set", str(set_id), "--rules", "sichuan", "--registry", str(reg),
             "--key-file", keys)
    assert p.returncode == 0, p.stderr[-3000:]
    res = json.loads(p.stdout)
    assert res["written"] == 107 and len(res["registry"]) == 1
    assert res["registry"][0] == ["3a9c51d2", 0, 3]
    assert "already holds 1m copy 1" in p.stderr and "read-only tag 3a9c51d2" in p.stderr
    # what landed on the tags: tile k's record on blank k, the box's set and registry on flash
    for k, tag in enumerate(blanks[:107]):
        tile = k + 1 if k >= 3 else k  # tile index 3 went to the read-only tag
        t, c = divmod(tile, 4)
        assert tile_tag.decode(tag.read16(4), set_id) == (t, c), k
    assert box.dev.tag_set == set_id and box.dev.registry.lookup(ro.uid, 4) == 0 * 4 + 3
    assert (Path(box.workdir) / "tagset").read_text().strip() == str(set_id)
    assert json.loads(reg.read_text())["uids"] == [["3a9c51d2", 0, 3]]

    # verify: every tile once, except 9p copy 4 (missing); plus a copy of 5m copy 1's record on
    # another tag (duplicate), a tag of another set (foreign), a tag with foreign data (corrupt),
    # one tag tapped twice (not a problem); # on the box ends it
    dup = ntag(500)
    dup.write4(4, tile_tag.encode(set_id, 4, 0)[:4])
    dup.write4(5, tile_tag.encode(set_id, 4, 0)[4:])
    foreign = ntag(501)
    foreign.write4(4, tile_tag.encode(99, 5, 0)[:4])
    foreign.write4(5, tile_tag.encode(99, 5, 0)[4:])
    junk = ntag(502)
    junk.write4(4, b"\x03\x0b\xd1\x01")
    all_tags = blanks[:106] + [ro]  # blank 106 carries 9p copy 4: left out
    plan = all_tags[:50] + [all_tags[10], dup, foreign, junk] + all_tags[50:] + ["#"]
    person = Person(box.emu, plan)
    box.hooks[:] = [person]
    p = host(box.port_path, "verify", "--set", str(set_id), "--rules", "sichuan", "--key-file", keys)
    box.stop()
    assert p.returncode == 1, p.stderr[-3000:]
    rep = json.loads(p.stdout)
    assert rep["seen"] == 107 and rep["expected"] == 108
    assert rep["missing"] == ["9p copy 4"]
    assert rep["duplicate"] == [{"tile": "5m copy 1", "uids": [blanks[15].uid.hex(), dup.uid.hex()]}]
    assert [f["result"] for f in rep["foreign"]] == ["foreign_set"]
    assert [c["result"] for c in rep["corrupt"]] == ["corrupt"]
    assert "(by UID)" in p.stderr  # the read-only tag, through the registry on the box


def test_tags_are_refused_during_a_session(box):
    from host_tools.tags import LinkClient, open_port
    box.app.push_config({"rules": "mcr", "tournament": "T", "session": 1, "table": 1,
                         "players": ["1", "2", "3", "4"], "first_dealer": 0})
    box.start()
    port = open_port(box.port_path)
    try:
        c = LinkClient(port)
        c.hello()
        c.box.provision(bytes(range(1, 33)))  # tags mode needs the key (issue 19.7)
        c.box.key = bytes(range(1, 33))
        r = c.tags({"op": "begin"})
        assert r == {"ok": False, "code": "busy", "message": "a session is running: tags mode only between sessions"}
        assert c.hello()["session"] is True  # the rest of the link is untouched
    finally:
        port.close()
        box.stop()


def test_clone_uids_are_refused_at_enrollment_and_found_by_the_audit(box, tmp_path):
    set_id = 77
    a = ntag(1)
    clone = ntag(1)  # a clone tag: the UID of a, blank memory
    clone.name = "clone"
    b = ntag(2)
    box.hooks.append(Person(box.emu, [a, clone, b]))
    box.start()
    keys = str(tmp_path / "keys.json")
    p = subprocess.run([sys.executable, "-m", "host_tools", "sync", "--port", box.port_path, "--provision",
                        "--key-file", keys], capture_output=True, text=True, timeout=60, cwd=str(REPO))
    assert p.returncode == 0, p.stderr
    p = host(box.port_path, "write", "--set", str(set_id), "--rules", "mcr", "--only", "1m copy 1,1m copy 2",
             "--key-file", keys)
    assert p.returncode == 0, p.stderr[-3000:]
    # refused before anything was written to it, with what to do; the next tag took 1m copy 2
    assert "REFUSED: that tag's UID %s is also the UID of the tag of 1m copy 1" % a.uid.hex() in p.stderr
    assert "Set it aside" in p.stderr
    assert json.loads(p.stdout)["retries"] == [[a.uid.hex(), "clone_uid", 0, 1]]
    assert tile_tag.decode(a.read16(4), set_id) == (0, 0) and tile_tag.decode(b.read16(4), set_id) == (0, 1)
    assert clone.read16(4) == bytes(16)

    # the audit: one pass of tapping; a clone written elsewhere (here: by hand) reads as one UID
    # with other bytes; what to fix comes with each problem
    clone.write4(4, tile_tag.encode(set_id, 5, 0)[:4])
    clone.write4(5, tile_tag.encode(set_id, 5, 0)[4:])
    box.hooks[:] = [Person(box.emu, [a, b, clone, "#"])]
    p = host(box.port_path, "verify", "--set", str(set_id), "--rules", "mcr", "--key-file", keys)
    box.stop()
    assert p.returncode == 1
    rep = json.loads(p.stdout)
    assert [c["uid"] for c in rep["clone"]] == [a.uid.hex()]
    assert "CLONE UID" in p.stderr and "what to fix:" in p.stderr
    assert any(ln.startswith("UID %s is on two tags" % a.uid.hex()) for ln in rep["fix"])
    assert any(ln.startswith("2m copy 1 was not read") and "--only '2m copy 1'" in ln for ln in rep["fix"])
