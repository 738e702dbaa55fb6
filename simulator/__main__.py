"""Headless simulator: python -m simulator --board sim --script FILE --out DIR

Runs a scripted session through the firmware application and writes every screen (a text dump
and a PNG as the board's display shows it) and the journal to DIR."""
import argparse
import os
import sys

from simulator.runner import Sim, dump_text


def main(argv=None):
    ap = argparse.ArgumentParser(prog="simulator")
    ap.add_argument("--board", default="sim")
    ap.add_argument("--script", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-png", dest="png", action="store_false", help="text dumps only")
    ap.add_argument("--serial", action="store_true",
                    help="be a device on a pty (prints its path): the link runs with the script, then alone "
                         "until the host says BYE or hangs up (simulator/serial_device.py)")
    ap.add_argument("--device-id", default="sim-1", help="the box's device id (default sim-1)")
    ap.add_argument("--keep-serving", action="store_true", help="with --serial: serve until SIGINT/SIGTERM")
    args = ap.parse_args(argv)
    from firmware.journal import Journal
    os.makedirs(os.path.join(args.out, "screens"), exist_ok=True)
    jdir = os.path.join(args.out, "journal")
    os.makedirs(jdir, exist_ok=True)
    render = None
    if args.png:
        from simulator import screenshot
        render = screenshot.writer(args.board)
    log = open(os.path.join(args.out, "screens.txt"), "w", encoding="utf-8")

    def on_screen(n, what, screen):
        text = dump_text(screen)
        log.write("--- %d %s\n" % (n, what))
        log.write(text)
        with open(os.path.join(args.out, "screens", "%04d.txt" % n), "w", encoding="utf-8") as f:
            f.write(text)
        if render is not None:
            render(screen, os.path.join(args.out, "screens", "%04d.png" % n))

    sim = Sim(lambda: Journal(jdir), device_id=args.device_id, on_screen=on_screen)
    try:
        if args.serial:
            from simulator import serial_device
            serial_device.run(sim, args.out, script=args.script, keep=args.keep_serving, board=args.board)
        else:
            sim.run(args.script)
    finally:
        log.close()
    print("%d screens, %d journal records in %s" % (sim.steps, sim.journal.last_seq, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
