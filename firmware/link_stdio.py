# The box's link on the MicroPython unix port, over stdin/stdout: the same firmware/link.py as
# on a board, where stdin/stdout are the USB CDC serial port. The tests and the figures run it
# with stdin and stdout on a pty master, the host tool (pyserial) on the slave:
#
#   MICROPYPATH=<repo> micropython firmware/link_stdio.py --journal DIR --key FILE
#       [--device-id ID] [--script FILE] [--board NAME] [--keep-serving] [--stats FILE] [--tty]
#
# --script runs a simulator script first (simulator/runner.py: the app fills the journal), then
# the link serves until the host says BYE or hangs up (or, with --keep-serving, until killed).
# --stats FILE writes JSON figures at the end: link counters, gc.mem_alloc() before and after the
# Link was made (its static RAM) and around the served requests. --tty puts stdin in raw mode
# (when it is a terminal rather than a pty master). Nothing else is written to stdout.
# For the figures (bench/sync_bench.py): --gc-off (mem_alloc then counts every byte allocated
# while serving), --peak (gc.collect() after each poll that did something: the live heap's
# peak), --no-link (boot the app and exit: the heap the box needs without the link).
import gc
import sys


def _args(argv):
    opts = {"journal": None, "key": None, "device-id": "mp-1", "script": None, "board": "mp-unix",
            "stats": None, "keep-serving": False, "tty": False, "gc-off": False, "peak": False,
            "no-link": False}
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
        raise ValueError("usage: link_stdio --journal DIR --key FILE [...]")
    return opts


def main(argv):
    import time
    from firmware.journal import Journal
    from firmware.link import Link, StreamPort

    o = _args(argv)
    if o["tty"]:
        import termios
        termios.setraw(0)
    jdir = o["journal"]
    try:
        import os
        os.mkdir(jdir)
    except OSError:
        pass
    if o["script"]:
        from simulator.runner import Sim
        sim = Sim(lambda: Journal(jdir), device_id=o["device-id"])
        sim.run(o["script"])
        app = sim.app
    else:
        from firmware.app import App
        start = time.ticks_ms()
        app = App(Journal(jdir), lambda: time.ticks_diff(time.ticks_ms(), start), device_id=o["device-id"])
    if o["no-link"]:
        return
    gc.collect()
    before_link = gc.mem_alloc()
    link = Link(app, StreamPort(sys.stdin.buffer, sys.stdout.buffer), o["key"], board=o["board"])
    gc.collect()
    after_link = gc.mem_alloc()
    if o["gc-off"]:
        gc.disable()  # mem_alloc then counts every byte allocated while serving
    stats = {"link_static": after_link - before_link, "heap_before_link": before_link}
    peak = after_link
    keep = o["keep-serving"]
    start_alloc = gc.mem_alloc()
    bye_at = None
    measure = o["peak"]
    while True:
        if link.poll():
            if measure:
                gc.collect()
            a = gc.mem_alloc()
            if a > peak:
                peak = a
            continue
        if not keep:
            if link.hangups:
                break
            if link.byes and not link.tx_pending:  # the host closes after BYE: wait for that
                if bye_at is None:
                    bye_at = time.ticks_ms()
                elif time.ticks_diff(time.ticks_ms(), bye_at) > 1000:
                    break
        if link.online:
            link.port.wait(20, link.tx_pending)
        else:
            time.sleep_ms(20)
    end_alloc = gc.mem_alloc()
    if o["stats"]:
        import json
        gc.collect()
        stats.update({
            "alloc_while_serving": end_alloc - start_alloc, "peak_mem_alloc": peak, "peak_collected": measure,
            "after_collect": gc.mem_alloc(), "heap_free": gc.mem_free(),
            "rx_frames": link.rx_frames, "rx_bad": link.rx_bad_crc + link.rx_bad_cobs + link.rx_short,
            "rx_oversized": link.rx_oversized, "resent": link.resent, "errors": link.errors,
            "bytes_in": link.bytes_in, "bytes_out": link.bytes_out, "byes": link.byes,
            "hangups": link.hangups, "last": app.j.last_seq, "acked": app.j.acked,
            "gc_off": o["gc-off"],
        })
        with open(o["stats"], "w") as f:
            f.write(json.dumps(stats))


if __name__ == "__main__":
    main(sys.argv)
