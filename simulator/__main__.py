"""Headless simulator: python -m simulator [--board NAME] --script FILE --out DIR

Plays a scenario (simulator/runner.py: its lines and the scripted clock) on the box through
firmware/main.py's device loop and writes every screen (a text dump and a PNG of the board's
display) and the journal to DIR. --board NAME: the sim board with that board's display and keypad
map (board_configs/NAME.py; pico and sim draw 128x64, esp32s3 320x240 in colour).
--events prints the scenario's timed input events as JSON lines instead (for other players)."""
import argparse
import os
import sys

from simulator.runner import Sim, dump_text


def main(argv=None):
    ap = argparse.ArgumentParser(prog="simulator")
    ap.add_argument("--board", default="sim", help="board_configs/NAME.py whose screen and keypad to show")
    ap.add_argument("--script", required=True)
    ap.add_argument("--out", help="output folder (journal/, screens/, screens.txt)")
    ap.add_argument("--events", action="store_true", help="print the timed input events as JSON lines and exit")
    ap.add_argument("--no-png", dest="png", action="store_false", help="text dumps only")
    ap.add_argument("--serial", action="store_true",
                    help="be a device on a pty: plays the script, prints the pty's path, then serves hosts "
                         "until stopped (Ctrl-C/SIGTERM) as a switched-on box does (simulator/serial_device.py)")
    ap.add_argument("--device-id", help="the box's device id (default: from the chip id, as on a board)")
    ap.add_argument("--once", action="store_true", help="with --serial: stop when the first host says BYE or hangs up")
    ap.add_argument("--keep-serving", action="store_true", help="with --serial: the default (kept for old scripts)")
    ap.add_argument("--push", metavar="URL", help="the box online: push each committed record to the tournament server "
                                                  "at URL (http://HOST:PORT), signed with device.key in --out (simulator/push.py)")
    ap.add_argument("--push-wait", type=float, default=30.0, metavar="S",
                    help="with --push, without --serial: after the script, wait up to S seconds for every record to reach the server")
    args = ap.parse_args(argv)
    from simulator import parts
    try:
        cfg = parts.for_board(args.board)
    except ValueError as e:
        ap.error(str(e))
    if args.push:
        from simulator import push
        cfg = push.network_board(cfg, args.push)
    if args.events:
        from simulator.runner import event_json, events
        k = cfg.KEYPAD
        with open(args.script) as f:
            for ev in events(f, k["keymap"], len(k["cols"])):
                print(event_json(ev))
        return 0
    if not args.out:
        ap.error("--out is required (except with --events)")
    os.makedirs(os.path.join(args.out, "screens"), exist_ok=True)
    png = None
    if args.png:
        from simulator import screenshot
        png = screenshot.frame_writer(cfg)
    log = open(os.path.join(args.out, "screens.txt"), "w", encoding="utf-8")

    def on_screen(n, what, screen):
        text = dump_text(screen)
        log.write("--- %d %s\n" % (n, what))
        log.write(text)
        with open(os.path.join(args.out, "screens", "%04d.txt" % n), "w", encoding="utf-8") as f:
            f.write(text)

    def on_frame(n, frame):
        png(frame, os.path.join(args.out, "screens", "%04d.png" % n))

    kw = {"device_id": args.device_id, "on_screen": on_screen, "pixels": png is not None,
          "on_frame": on_frame if png is not None else None}
    try:
        if args.serial:
            from simulator import serial_device
            sim = serial_device.run(cfg, args.out, script=args.script, keep=not args.once, **kw)
        else:
            if args.push:
                kw["port"] = push.unplugged()
            sim = Sim(cfg=cfg, folder=args.out, **kw)
            sim.run(args.script)
            if args.push:
                push.serve_until_synced(sim, args.push_wait)
    finally:
        log.close()
    print("%d screens, %d journal records in %s" % (sim.steps, sim.journal.last_seq, args.out))
    if args.push and sim.dev is not None:
        print(push.describe(sim.dev.net))
        return 0 if sim.dev.net.status()[3] == 0 else 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
