# make deploy BOARD=pico FROZEN=1 (tools/deploy.py --uf2): the UF2 checks, the drive and picotool
# paths with stand-ins, and the whole deploy onto the emulated Pico: a box on the stock firmware
# with .mpy files and a journal is asked into BOOTSEL over its USB serial, the frozen UF2 goes onto
# its RPI-RP2 drive (a folder; the test is the boot ROM), it reboots into the frozen firmware, the
# .mpy files and their folders leave its filesystem, and the journal is still there, record for
# record. The real mpremote does the serial part, on the chip's CDC through a pty.
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import threading
import time

import pytest

from pico import fsimage
from pico.board_standin import INFO_UF2, DeskBoard
from pico.harness import Pico

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools"))
import deploy  # noqa: E402
import uf2_flash  # noqa: E402

UF2 = os.path.join(REPO, "build", "pico-uf2", "firmware.uf2")
FS = os.path.join(REPO, "build", "pico", "fs")


def make_uf2(n=4, base=0x10000000, family=uf2_flash.RP2040_FAMILY, at=None):
    """n blocks of 256 bytes from base; at={index: address} moves single blocks."""
    out = bytearray()
    for i in range(n):
        addr = (at or {}).get(i, base + 256 * i)
        head = struct.pack("<8I", uf2_flash.MAGIC0, uf2_flash.MAGIC1, uf2_flash.FLAG_FAMILY, addr, 256, i, n, family)
        out += head + bytes([i & 0xFF]) * 256 + bytes(476 - 256) + struct.pack("<I", uf2_flash.MAGIC_END)
    return bytes(out)


def test_uf2_checks_refuse_what_would_hurt_the_board():
    assert uf2_flash.check_uf2(make_uf2(4)) == {"blocks": 4, "start": 0x10000000, "end": 0x10000400, "bytes": 1024}
    with pytest.raises(uf2_flash.FlashError, match="erase the filesystem"):
        uf2_flash.check_uf2(make_uf2(4, at={3: uf2_flash.FS_START}))
    with pytest.raises(uf2_flash.FlashError, match="not for the RP2040"):
        uf2_flash.check_uf2(make_uf2(2, family=0x1C5F21B0))  # an ESP32 UF2
    with pytest.raises(uf2_flash.FlashError, match="cut or mixed"):
        uf2_flash.check_uf2(make_uf2(4)[:3 * 512])
    with pytest.raises(uf2_flash.FlashError, match="whole number"):
        uf2_flash.check_uf2(make_uf2(2)[:-1])
    bad = bytearray(make_uf2(2))
    bad[0] ^= 1
    with pytest.raises(uf2_flash.FlashError, match="bad magic"):
        uf2_flash.check_uf2(bytes(bad))


def test_the_drive_is_found_among_the_mounts(tmp_path):
    drive = tmp_path / "mnt" / "RPI RP2 drive"
    drive.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sda1 / ext4 rw 0 0\n/dev/sdb1 %s vfat rw 0 0\n" % str(drive).replace(" ", "\\040"))
    assert uf2_flash.find_drive(str(mounts)) is None  # not a drive until the ROM's INFO_UF2.TXT is there
    (drive / "INFO_UF2.TXT").write_text(INFO_UF2)
    assert uf2_flash.find_drive(str(mounts)) == str(drive)


class FakeTransport:
    """mpremote's part without a board: what the deploy asked for, a filesystem as a dict."""

    def __init__(self, files, frozen=True):
        self.port = "/dev/fake"
        self.files = dict(files)
        self.calls = []
        self.frozen = frozen

    def bootloader(self):
        self.calls.append("bootloader")

    def wait_port(self, timeout):
        return True

    def reset(self):
        self.calls.append("reset")

    def inventory(self, tops):
        lines = ["F %s %d %s" % (p, len(d), hashlib.sha256(d).hexdigest())
                 for p, d in sorted(self.files.items()) if p.split("/")[0] in tops]
        return deploy.parse_inventory("\n".join(lines + ["END"]))

    def apply(self, copy, dirs, extra):
        for rel, path in copy:
            with open(path, "rb") as f:
                self.files[rel] = f.read()
        for rel in extra:
            del self.files[rel]

    def exec_(self, code):
        self.calls.append("exec")
        if "_rm(_t)" in code:
            return "END\n"
        where = ".frozen/" if self.frozen else ""
        mods = eval(code[code.index("for _m in ") + 10:code.index(":\n", code.index("for _m in "))])
        return "V micropython 1.28.0\n" + "".join("M %s %s%s\n" % (m, where, m) for m in mods) + "END\n"


def fake_build(tmp_path):
    fs = tmp_path / "fs"
    (fs / "firmware").mkdir(parents=True)
    (fs / "main.py").write_text("from firmware.main import run\nrun()\n")
    (fs / "firmware" / "app.mpy").write_bytes(b"M\x06app")
    (fs / "board_config.mpy").write_bytes(b"M\x06cfg")
    return fs


def picotool_standin(tmp_path, drive):
    """A picotool that copies the UF2 it is given onto the (stand-in) board's drive, as the real
    one writes it over USB to a board in BOOTSEL, waits for the board to take it, and logs its
    arguments."""
    log = tmp_path / "picotool.log"
    exe = tmp_path / "picotool"
    exe.write_text("#!%s\nimport os, shutil, sys, time\nopen(%r, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
                   "if not os.path.exists(os.path.join(%r, 'INFO_UF2.TXT')):\n"
                   "    print('No accessible RP-series devices in BOOTSEL mode were found.'); sys.exit(1)\n"
                   "shutil.copy(sys.argv[-1], %r)\n"
                   "t = time.time() + 10\n"  # as the real one returns once the board has taken it all
                   "while os.path.exists(%r) and time.time() < t:\n    time.sleep(0.01)\n"
                   % (sys.executable, str(log), str(drive), str(drive), str(drive)))
    exe.chmod(0o755)
    return exe, log


def board_taking_uf2s(drive, got, stop):
    """The boot ROM as a thread: a whole UF2 on the drive is taken and the drive goes away."""
    while not stop.is_set():
        if os.path.isdir(drive):
            for name in os.listdir(drive):
                p = os.path.join(drive, name)
                if name.endswith(".uf2"):
                    data = open(p, "rb").read()
                    try:
                        whole = bool(data) and uf2_flash.check_uf2(data)
                    except uf2_flash.FlashError:
                        whole = False  # still being copied: the ROM takes blocks as they come
                    if whole:
                        got.append(data)
                        shutil.rmtree(drive)
                        break
        time.sleep(0.02)


@pytest.mark.parametrize("via", ["drive", "picotool"])
def test_flash_by_drive_or_picotool_then_main_py_alone(tmp_path, via):
    fs = fake_build(tmp_path)
    uf2 = tmp_path / "fw.uf2"
    uf2.write_bytes(make_uf2(8))
    drive = tmp_path / "RPI-RP2"
    board = FakeTransport({"main.py": b"old", "firmware/app.mpy": b"old app", "firmware/x.mpy": b"stale",
                           "board_config.mpy": b"cfg", "journal/j0000.log": b"records", "device.key": b"k"})
    board.bootloader = lambda: (board.calls.append("bootloader"), drive.mkdir(),
                                (drive / "INFO_UF2.TXT").write_text(INFO_UF2))
    got, stop = [], threading.Event()
    t = threading.Thread(target=board_taking_uf2s, args=(str(drive), got, stop), daemon=True)
    t.start()
    try:
        kw = {"drive": str(drive)} if via == "drive" else {}
        exe, log = picotool_standin(tmp_path, drive)
        res = deploy.deploy_uf2(str(uf2), str(fs), board, via=via, picotool=str(exe), wait=10, out=lambda s: None,
                                find_drive=lambda: str(drive) if uf2_flash.is_drive(str(drive)) else None, **kw)
    finally:
        stop.set()
        t.join()
    assert got == [uf2.read_bytes()]
    assert board.calls[0] == "bootloader" and board.calls[-1] == "reset"
    assert res["flashed"] == 8 and res["removed"] == 3
    assert board.files == {"main.py": (fs / "main.py").read_bytes(), "journal/j0000.log": b"records", "device.key": b"k"}
    if via == "picotool":
        assert log.read_text().split() == ["load", "-v", "-x", "-f", str(uf2)]


def test_a_board_still_on_mpy_modules_fails_the_check(tmp_path):
    fs = fake_build(tmp_path)
    uf2 = tmp_path / "fw.uf2"
    uf2.write_bytes(make_uf2(2))
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text(INFO_UF2)
    got, stop = [], threading.Event()
    t = threading.Thread(target=board_taking_uf2s, args=(str(drive), got, stop), daemon=True)
    t.start()
    msgs = []
    try:
        with pytest.raises(deploy.DeployError, match="frozen"):
            deploy.deploy_uf2(str(uf2), str(fs), FakeTransport({}, frozen=False), drive=str(drive), wait=10, out=msgs.append)
    finally:
        stop.set()
        t.join()
    assert any("not from the frozen firmware" in m for m in msgs)


def test_a_uf2_into_the_filesystem_is_refused_before_the_board_is_touched(tmp_path):
    uf2 = tmp_path / "fw.uf2"
    uf2.write_bytes(make_uf2(4, at={2: uf2_flash.FS_START + 4096}))
    board = FakeTransport({})
    with pytest.raises(deploy.DeployError, match="filesystem"):
        deploy.deploy_uf2(str(uf2), str(fake_build(tmp_path)), board, drive=str(tmp_path), wait=1, out=lambda s: None)
    assert board.calls == []


def journal_files(tmp_path):
    """A journal as the box writes it: the App (on CPython) starting a session and a penalty."""
    from firmware.app import App
    from firmware.journal import Journal
    j = Journal(str(tmp_path / "jr"))
    app = App(j, lambda: 5000, device_id="box-000000", epoch=1764400000)
    assert app.push_config({"rules": "mcr", "tournament": "T", "session": 1, "table": 3,
                            "players": ["101", "102", "103", "104"], "first_dealer": 0}) is None
    j.close()
    return {"journal/" + n: (tmp_path / "jr" / n).read_bytes() for n in os.listdir(tmp_path / "jr")}


def records_of(files, tmp_path):
    from firmware.journal import Journal
    d = tmp_path / "read"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir()
    for k, v in files.items():
        if k.startswith("journal/"):
            (d / k[8:]).write_bytes(v)
    j = Journal(str(d))
    out = [(s, bytes(p)) for s, p in j.records(1)]
    j.close()
    return out


def test_deploy_the_frozen_uf2_onto_the_emulated_box(node_ready, tmp_path):
    if not os.path.exists(UF2):
        pytest.fail("no frozen UF2 at %s: `make pico-uf2` builds it (make pico-test does)" % UF2)
    files = fsimage.tree(FS)
    files.update(journal_files(tmp_path))
    before = records_of(files, tmp_path)
    assert before
    with open(UF2, "rb") as f:
        elfs = {hashlib.sha256(f.read()).hexdigest(): UF2[:-4] + ".elf"}
    drive = tmp_path / "RPI-RP2"
    with Pico() as p, DeskBoard(p, str(drive), elfs) as board:
        p.boot(files=files)
        p.run(800)
        proc = subprocess.Popen([sys.executable, os.path.join(REPO, "tools", "deploy.py"), "--board", "pico",
                                 "--port", board.path, "--mpremote", os.path.join(REPO, ".venv", "bin", "mpremote"),
                                 "--uf2", UF2, "--drive", str(drive), "--wait", "120"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        rc = board.serve_until_exit(proc, 900)
        out = proc.stdout.read()
        assert rc == 0, out
        assert "frozen firmware runs (micropython 1.28.0)" in out
        board.serve(lambda: "reboot" in board.events, 60)  # the deploy's last word: a reset
        assert board.events == ["bootsel", "flashed firmware.uf2", "reboot"], (board.events, out)
        # the box starts on the new firmware: the driver's blank frame, then the first screen (sent
        # as the columns that changed: the model's "frames" counts only writes that reach page 7's end)
        board.serve(lambda: (p.display()["frames"] >= 1 and any(p.glass())) or p.ms > 30000, 120)
        assert p.display()["frames"] >= 1 and p.display()["errors"] == [], board.bridge.unread()[-1500:]
        assert any(p.glass())
        left = fsimage.read(p.flash())
    assert sorted(k for k in left if not k.startswith("journal/")) == ["main.py"]
    assert left["main.py"] == files["main.py"]
    assert records_of(left, tmp_path) == before
