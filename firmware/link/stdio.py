# The box on the MicroPython unix port with its link on stdin/stdout (where a board has the USB
# CDC serial port): firmware/main.py's boot() and device loop, with no keypad, screen or reader.
# The tests and the figures run it with stdin and stdout on a pty master, the host tool (pyserial)
# on the slave:
#
#   MICROPYPATH=<repo> micropython firmware/link/stdio.py --journal DIR --key FILE
#       [--device-id ID] [--board NAME] [--keep-serving] [--stats FILE] [--tty]
#
# The loop runs until the host says BYE (and hangs up) or hangs up (or, with --keep-serving,
# until killed). A box that first plays a scenario is the simulator's: simulator/sim_main.py
# --script FILE takes the same arguments and ends in the same loop.
# --stats FILE writes JSON figures at the end: link counters, gc.mem_alloc() before and after the
# Link was made (its static RAM) and around the served requests. --tty puts stdin in raw mode
# (when it is a terminal rather than a pty master). Nothing else is written to stdout.
# For the figures (bench/sync_bench.py): --gc-off (mem_alloc then counts every byte allocated
# while serving), --peak (gc.collect() after each step that moved bytes: the live heap's peak),
# --no-link (boot the app and exit: the heap the box needs without the link).
import gc
import sys


def args(argv, more=None):
    opts = {"journal": None, "key": None, "device-id": "mp-1", "board": "mp-unix",
            "stats": None, "keep-serving": False, "tty": False, "gc-off": False, "peak": False,
            "no-link": False}
    if more:
        opts.update(more)
    i = 1
    while i < len(argv):
        a = argv[i]
        if not a.startswith("--") or a[2:] not in opts:
            raise ValueError("unknown argument " + a)
        k = a[2:]
        if opts[k] is False:
            opts[k] = True
            i += 1
        else:
            opts[k] = argv[i + 1]
            i += 2
    if not opts["journal"] or not opts["key"]:
        raise ValueError("usage: firmware/link/stdio.py --journal DIR --key FILE [...]")
    return opts


class _Box:
    """The board config of a box that is only its link."""
    SERIAL = "stdio"

    def __init__(self, name):
        self.NAME = name


def boot(o):
    """The box without keys, screen or reader, its journal in o["journal"] (no link yet)."""
    from firmware import main
    from firmware.board.base import Hardware
    from firmware.journal import Journal
    jdir = o["journal"]
    try:
        import os
        os.mkdir(jdir)
    except OSError:
        pass
    cfg = _Box(o["board"])
    return main.boot(cfg, hw=Hardware(cfg, None, None, None), journal=Journal(jdir), link=False,
                     device_id=o["device-id"])


def serve(dev, o):
    """The link on stdin/stdout in the device loop until BYE / hang-up; the --stats figures."""
    import time
    from firmware import main
    from firmware.link.engine import Link
    from firmware.link.ports import StreamPort

    if o["tty"]:
        import termios
        termios.setraw(0)
    app = dev.app
    gc.collect()
    before_link = gc.mem_alloc()
    link = Link(app, StreamPort(sys.stdin.buffer, sys.stdout.buffer), o["key"], board=o["board"])
    gc.collect()
    after_link = gc.mem_alloc()
    dev.attach(link)
    if o["gc-off"]:
        gc.disable()  # mem_alloc then counts every byte allocated while serving
    stats = {"link_static": after_link - before_link, "heap_before_link": before_link}
    keep = o["keep-serving"]
    measure = o["peak"]
    state = {"peak": after_link, "bye_at": None, "moved": 0}
    start_alloc = gc.mem_alloc()

    def hook(dev, n):
        moved = link.bytes_in + link.bytes_out
        if moved != state["moved"]:
            state["moved"] = moved
            if measure:
                gc.collect()
            a = gc.mem_alloc()
            if a > state["peak"]:
                state["peak"] = a
            return False
        if keep:
            return False
        if link.hangups:
            return True
        if link.byes and not link.tx_pending:  # the host closes after BYE: wait for that
            if state["bye_at"] is None:
                state["bye_at"] = time.ticks_ms()
            elif time.ticks_diff(time.ticks_ms(), state["bye_at"]) > 1000:
                return True
        return False

    main.serve(dev, hook=hook)
    end_alloc = gc.mem_alloc()
    if o["stats"]:
        import json
        gc.collect()
        stats.update({
            "alloc_while_serving": end_alloc - start_alloc, "peak_mem_alloc": state["peak"],
            "peak_collected": measure, "after_collect": gc.mem_alloc(), "heap_free": gc.mem_free(),
            "rx_frames": link.rx_frames, "rx_bad": link.rx_bad_crc + link.rx_bad_cobs + link.rx_short,
            "rx_oversized": link.rx_oversized, "resent": link.resent, "errors": link.errors,
            "bytes_in": link.bytes_in, "bytes_out": link.bytes_out, "byes": link.byes,
            "hangups": link.hangups, "last": app.j.last_seq, "acked": app.j.acked,
            "gc_off": o["gc-off"], "steps": dev.steps,
        })
        with open(o["stats"], "w") as f:
            f.write(json.dumps(stats))


def main(argv):
    o = args(argv)
    dev = boot(o)
    if o["no-link"]:
        return
    serve(dev, o)


if __name__ == "__main__":
    main(sys.argv)
