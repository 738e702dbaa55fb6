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

    sim = Sim(lambda: Journal(jdir), on_screen=on_screen)
    try:
        sim.run(args.script)
    finally:
        log.close()
    print("%d screens, %d journal records in %s" % (sim.steps, sim.journal.last_seq, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
