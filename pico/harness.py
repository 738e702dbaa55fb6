"""The host end of the emulated box (pico/harness.mjs in node): boot, run, keys, tags, USB CDC,
display, power cuts.

    with Pico(board="pico") as p:
        p.boot(files=fsimage.tree("build/pico/fs"))     # stock UF2, .mpy files on littlefs
        p.run(500)                                      # emulated ms
        p.press("A"); p.tap(uid, user_memory)           # the board's keypad and reader
        p.write(b"..."); p.read()                       # USB CDC
        p.glass()                                       # 1024 bytes MONO_VLSB, as the glass shows
        p.cut_at(12); p.run(...)                        # a power cut at the 12th flash write
        p.boot(keep=True)                               # power on again from the flash as it is
        p.idle(90000)                                   # 90 s pass fast: the clock jumps while it sleeps
        p.boot(keep=True, update=(uf2, elf))            # a new firmware flashed, the filesystem kept

The part models take their pins from the board config (board_configs/pico.py), the same
module `make firmware BOARD=pico` installs on the board. Pico(board="pico_w", uf2=..., elf=...)
is the Pico W (its firmware from tools/pico_w_uf2.py): the same parts, littlefs where its
firmware keeps it (pico/fsimage.py), the radio absent.
"""
import json
import os
import subprocess
import tempfile

from pico import fsimage

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "harness.mjs")


class ChipError(Exception):
    pass


def board_parts(board="pico"):
    """The board config's parts as the harness models them (pins, buses, keymap)."""
    from firmware.board import load
    cfg = load(board)
    d, r, k = cfg.DISPLAY, cfg.READER, cfg.KEYPAD
    if d["driver"] != "ssd1306" or d["bus"] != "i2c" or r["driver"] != "mfrc522" or k["driver"] != "matrix":
        raise ValueError("the harness models an SSD1306 on I2C, an MFRC522 on SPI and a key matrix")
    return {
        "display": {"i2c_id": d["i2c_id"], "addr": d.get("addr", 0x3C), "width": d["width"], "height": d["height"]},
        "reader": {"spi_id": r["spi_id"], "cs": r["cs"], "rst": r.get("rst")},
        "keypad": {"rows": list(k["rows"]), "cols": list(k["cols"]), "keymap": k["keymap"]},
    }


class Pico:
    def __init__(self, board="pico", uf2=None, elf=None, mode="cycles", flash_timing=True):
        self.parts = board_parts(board)
        self.board = board
        self.fs_offset = fsimage.layout(board)[0]
        self.uf2 = uf2
        self.elf = elf
        self.mode = mode
        self.flash_timing = flash_timing
        self.tmp = tempfile.TemporaryDirectory(prefix="pico-box-")
        self.proc = subprocess.Popen(["node", HARNESS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.ms = 0.0
        self.busy_ms = 0.0  # emulated ms the core was not asleep, since this chip's power on
        self.out = bytearray()  # USB CDC output not read yet
        self.cut = None
        self.fault = None
        self.reset = None  # "reboot" / "bootsel": the chip reset itself (watchdog) and stopped
        self._tag_n = 0

    # ---- plumbing ----
    def _req(self, op, **kw):
        kw["op"] = op
        self.proc.stdin.write(json.dumps(kw) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ChipError("the harness ended (exit %s)" % self.proc.poll())
        r = json.loads(line)
        self.ms = r.get("ms", self.ms)
        self.busy_ms = r.get("busy_ms", self.busy_ms)
        if not r.get("ok"):
            raise ChipError(r.get("error"))
        if r.get("out"):
            self.out += bytes.fromhex(r["out"])
        return r

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- power ----
    def boot(self, files=None, image=None, flash=None, keep=False, update=None):
        """Power on from files ({path: bytes}), a littlefs image, a whole flash image (bytes), or
        (keep=True) the flash the chip has now. update=(uf2, elf): flash that firmware over the
        flash first (keep or flash), as copying it to the RPI-RP2 drive does: the filesystem stays."""
        if update is not None:
            self.uf2, self.elf = update
        kw = {"mode": self.mode, "flash_timing": self.flash_timing, "board": self.parts,
              "fs_offset": self.fs_offset}
        if update is not None:
            kw["update"] = True
        if self.uf2:
            kw["uf2"] = self.uf2
        if self.elf:
            kw["elf"] = self.elf
        if keep:
            kw["keep"] = True
        elif flash is not None:
            p = os.path.join(self.tmp.name, "boot-flash.bin")
            with open(p, "wb") as f:
                f.write(flash)
            kw["flash"] = p
        else:
            if image is None:
                image = fsimage.build(files or {}, self.board)
            p = os.path.join(self.tmp.name, "boot-fs.img")
            with open(p, "wb") as f:
                f.write(image)
            kw["fs"] = p
        self.cut = None
        self.fault = None
        self.reset = None
        self.out = bytearray()
        return self._req("boot", **kw)

    def cut_at(self, index):
        """Cut the power when the chip calls flash erase/program number `index` (from 0 at this
        boot); the flash stays as it was before that call."""
        self._req("cut_at", index=index)

    def peek(self, magic, n=32):
        """The n bytes that follow the first copy of `magic` in the chip's SRAM (None if none):
        a probe on the chip leaves its figures in a bytearray that starts with magic."""
        r = self._req("peek", magic=bytes(magic).hex(), n=n)
        return None if r["at"] < 0 else bytes.fromhex(r["hex"])

    def log_flash_ops(self):
        """Keep every flash erase/program from now on (flash_ops() hands them over)."""
        self._req("oplog", on=True)

    def flash_ops(self):
        """The flash erases/programs since log_flash_ops() or the last call, in order:
        [(kind, offset, count, data bytes or None)]. apply_flash_ops(image, ops[:k]) is the
        flash a power cut at the k-th of them leaves (the emulator is deterministic)."""
        return [(k, o, n, bytes.fromhex(d) if d is not None else None) for k, o, n, d in self._req("oplog")["ops"]]

    def flash_waits(self, on=False):
        """on=True: keep (kind, start ms, end ms) of every flash erase / program from now on;
        else hand over those kept since the last call."""
        r = self._req("flashlog", on=True) if on else self._req("flashlog")
        return [tuple(x) for x in r["ops"]]

    def display_writes(self, on=None):
        """on=True / False: keep the chip ms of every display-RAM byte on the bus from now on
        (or stop); None: hand over those kept since the last call."""
        if on is not None:
            self._req("display", log=bool(on))
            return []
        return self._req("display", take=True)["data_ms"]

    def flash(self):
        p = os.path.join(self.tmp.name, "flash.bin")
        self._req("save", path=p)
        with open(p, "rb") as f:
            return f.read()

    def files(self):
        return fsimage.read(self.flash(), self.board)

    # ---- time ----
    def run(self, ms):
        """Run the chip for `ms` emulated milliseconds. False when it stopped (a power cut, or a
        reset: self.cut / self.reset say which)."""
        return self._stopped(self._req("run", ms=ms))

    def idle(self, ms, jump_ms=1000):
        """Let `ms` pass fast: while the core sleeps the clock jumps up to jump_ms at once (as if
        each sleep overslept), so an idle device loop runs about one step per jump."""
        return self._stopped(self._req("idle", ms=ms, jump_ms=jump_ms))

    def settle(self, max_ms=1000):
        """Run until the core sleeps (at once if it does): the firmware has finished what it
        was doing. False if the chip stopped."""
        return self._stopped(self._req("settle", max_ms=max_ms))

    def _stopped(self, r):
        if r.get("cut"):
            self.cut = r["cut"]
            return False
        if r.get("reset"):
            self.reset = r["reset"]
            return False
        if r.get("fault"):
            self.fault = r["fault"]
            raise ChipError("chip fault: " + r["fault"])
        return True

    # ---- USB CDC ----
    def write(self, data):
        self._req("write", hex=bytes(data).hex())

    def read(self):
        out = bytes(self.out)
        self.out = bytearray()
        return out

    # ---- keypad ----
    def key(self, k, down):
        self._req("key", key=k, down=bool(down))

    def at(self, at_ms, op, **kw):
        """A key / tag / lift request (as key(), place(), lift() send it) at chip time at_ms,
        applied by the harness while the chip runs."""
        kw["op"] = op
        self._req("at", at_ms=at_ms, event=kw)

    def key_at(self, at_ms, k, down):
        self.at(at_ms, "key", key=k, down=bool(down))

    def place_at(self, at_ms, uid, user, tag_id):
        self.at(at_ms, "tag", id=tag_id, uid=bytes(uid).hex(), user=bytes(user).hex())

    def lift_at(self, at_ms, tag_id):
        self.at(at_ms, "lift", id=tag_id)

    def keypad(self, k=None):
        """The keypad model: contact_ms (chip ms of key k's first closure), lines, shorts."""
        return self._req("keypad", key=k) if k else self._req("keypad")

    def press(self, k, hold_ms=60, gap_ms=60):
        self.key(k, True)
        ok = self.run(hold_ms)
        self.key(k, False)
        return ok and self.run(gap_ms)

    # ---- reader ----
    def place(self, uid, user, tag_id=None):
        if tag_id is None:
            self._tag_n += 1
            tag_id = "t%d" % self._tag_n
        self._req("tag", id=tag_id, uid=bytes(uid).hex(), user=bytes(user).hex())
        return tag_id

    def lift(self, tag_id=None):
        kw = {"id": tag_id} if tag_id else {}
        return self._req("lift", **kw)["reads"]

    def tag_reads(self, tag_id):
        return self._req("tag_reads", id=tag_id)["reads"]

    def tag_info(self, tag_id):
        """{reads, first_read_ms, ...} of a tag on the reader or taken off it."""
        return self._req("tag_reads", id=tag_id)

    # ---- display ----
    def display(self):
        return self._req("display")

    def glass(self):
        return bytes.fromhex(self.display()["glass"])

    def stats(self):
        return self._req("stats")

    def burst(self):
        """The longest stretch (ms) the core went without sleeping since the last call: for
        an input, how long the firmware took over it (the device loop sleeps between steps)."""
        return self._req("burst")["burst_ms"]



def apply_flash_ops(image, ops):
    """The flash image after these erase/program calls (NOR flash: programming only clears bits)."""
    f = bytearray(image)
    for kind, off, n, data in ops:
        if kind == "erase":
            f[off:off + n] = b"\xff" * n
        else:
            for i in range(n):
                f[off + i] &= data[i]
    return bytes(f)


def raw_exec(p, code, max_ms=60000, step_ms=20):
    """Run `code` on the board's raw REPL (the board must be at the REPL: no main.py loop).
    Returns (status, stdout, exception text): status "ok", "error", or "cut" when the power was
    cut first (stdout then holds what the script had printed)."""
    p.read()
    p.write(b"\x03\x03\x01")
    buf = bytearray()
    end = p.ms + max_ms
    stage = 0
    while p.ms < end:
        alive = p.run(step_ms)
        buf += p.read()
        if stage == 0 and b"raw REPL; CTRL-B to exit\r\n>" in buf:
            buf = bytearray()
            p.write(code.encode() + b"\x04")
            stage = 1
        elif stage == 1 and buf.count(b"\x04") >= 2:
            i = buf.index(b"OK") + 2
            j = buf.index(b"\x04", i)
            k = buf.index(b"\x04", j + 1)
            err = buf[j + 1:k].decode()
            return ("ok" if not err else "error"), buf[i:j].decode().replace("\r\n", "\n"), err
        if not alive:
            out = buf[buf.index(b"OK") + 2:] if b"OK" in buf else b""
            return "cut", bytes(out).decode(errors="replace").replace("\r\n", "\n"), ""
    raise ChipError("raw REPL: no answer in %d ms" % max_ms)
