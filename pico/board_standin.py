"""The emulated Pico as a board on a desk, for host tools run as their own processes: its USB
CDC on a pty (pico/cdc.py PtyBridge), its boot ROM's RPI-RP2 drive as a folder, its resets.

    with DeskBoard(pico, drive_dir) as b:        # b.path: the pty
        proc = subprocess.Popen([... "--port", b.path, "--drive", drive_dir ...])
        b.serve_until_exit(proc)

machine.reset() reboots the chip from its flash. machine.bootloader() (the watchdog asking the
boot ROM for USB boot) stops it and shows the drive: the folder gets the ROM's INFO_UF2.TXT; a
UF2 copied there is flashed over the flash as the ROM does (sectors it touches erased, the
filesystem beyond kept), the drive goes away and the chip boots the new firmware. The harness
needs each firmware's ELF for its symbols (the flash functions): `elfs` maps the sha256 of
every UF2 the board may be given to its ELF. The pty stays the same path, as a board's
/dev/ttyACM0 comes back.
"""
import hashlib
import os
import shutil
import time

from pico.cdc import PtyBridge

INFO_UF2 = "UF2 Bootloader v3.0\r\nModel: Raspberry Pi RP2\r\nBoard-ID: RPI-RP2\r\n"


def uf2_complete(data):
    """A UF2 whose blocks are all there (the ROM reboots after the last one)."""
    if not data or len(data) % 512:
        return False
    n = len(data) // 512
    return int.from_bytes(data[24:28], "little") == n


class DeskBoard:
    def __init__(self, pico, drive, elfs=None):
        self.p = pico
        self.drive = drive
        self.bridge = PtyBridge(pico)
        self.path = self.bridge.path
        self.elfs = dict(elfs or {})
        self.events = []  # what happened: "reboot", "bootsel", "flashed NAME"
        self.flashed = []

    def _show_drive(self):
        os.makedirs(self.drive, exist_ok=True)
        with open(os.path.join(self.drive, "INFO_UF2.TXT"), "w") as f:
            f.write(INFO_UF2)
        with open(os.path.join(self.drive, "INDEX.HTM"), "w") as f:
            f.write("<html><body>RP2040</body></html>\n")

    def _take_uf2(self):
        for name in sorted(os.listdir(self.drive)):
            if name.lower().endswith(".uf2"):
                path = os.path.join(self.drive, name)
                with open(path, "rb") as f:
                    data = f.read()
                if uf2_complete(data):
                    return name, data
        return None

    def _bootsel(self, until, max_s):
        """The ROM's drive until a whole UF2 is on it; then the update and the reboot."""
        self._show_drive()
        end = time.monotonic() + max_s
        while time.monotonic() < end and not until():
            got = self._take_uf2()
            if got is not None:
                name, data = got
                elf = self.elfs.get(hashlib.sha256(data).hexdigest())
                if elf is None:
                    raise ValueError("%s: a UF2 this stand-in has no ELF for" % name)
                keep = os.path.join(os.path.dirname(os.path.abspath(self.drive)), "flashed-" + name)
                with open(keep, "wb") as f:
                    f.write(data)
                shutil.rmtree(self.drive)  # the drive goes away: the ROM reboots
                self.p.boot(keep=True, update=(keep, elf))
                self.flashed.append(name)
                self.events.append("flashed " + name)
                return True
            time.sleep(0.05)
        return False

    def serve(self, until, max_s=600):
        """Run the board until until() (or max_s of wall time): resets and the drive included."""
        end = time.monotonic() + max_s
        while not until() and time.monotonic() < end:
            alive = self.bridge.serve(until=until, max_s=end - time.monotonic())
            if alive:
                continue
            why = self.p.reset
            self.events.append(why or ("cut" if self.p.cut else "stopped"))
            self.bridge.drop()
            if why == "reboot":
                self.p.boot(keep=True)
            elif why == "bootsel":
                if not self._bootsel(until, end - time.monotonic()):
                    return False
            else:
                return False
            self.bridge.alive = True
        return True

    def serve_until_exit(self, proc, max_s=600):
        self.serve(lambda: proc.poll() is not None, max_s)
        return proc.wait(10)

    def close(self):
        self.bridge.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
