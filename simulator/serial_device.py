"""The simulator as a device on a real pty: the host tool talks to it as to a box on USB.

    python -m simulator --script FILE --out DIR --serial [--device-id ID] [--once]
    python -m simulator.serial_device --out DIR [--device-id ID] [--once]

opens a pty pair (os.openpty), boots the sim board through firmware/main.py with firmware/link/engine.py
on the master, and runs the device loop (main.serve): first through the script on the scripted
clock (simulator/runner.py), then it prints `serial: /dev/pts/N` (the slave: what --port takes)
and goes on, on the real clock, serving one host after another as a switched-on box does, until
SIGINT/SIGTERM (Ctrl-C). --once: stop when the first host says BYE or hangs up (closes the
slave), for benchmarks. (--keep-serving, which used to ask for the default, is still accepted.)
The second form serves the journal already in DIR (a previous run's).

The box's key file is DIR/device.key (as on flash). The slave path and this process's id are also
written to the marker file host_tools.sync.sim_marker_path(), so `sync --port auto` finds the
simulator while it runs (and not a stale path after it was killed).
"""
import argparse
import os
import signal
import sys
import time
import tty

from firmware import main as fw
from firmware.link.host_ports import FdPort


def open_pty():
    """(master fd, slave fd, slave path), the slave in raw mode."""
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def marker_path():
    return os.environ.get("MAHJONG_TABLE_SIM_MARKER") or os.path.join(
        __import__("tempfile").gettempdir(), "mahjong-table-sim-%d.port" % os.getuid())


class Pty:
    """The pty the box's link runs on, and the marker file that names it."""

    def __init__(self):
        self.master, slave, self.path = open_pty()
        os.close(slave)  # from now on the host's open and close of the path is what the link sees
        self.port = FdPort(self.master)
        self.marker = None

    def announce(self, marker=True):
        """Print the path (what --port takes) and write the marker file: hosts may come now.
        The marker's second line is our pid: a marker left by a killed simulator names a pty
        that the system may have given to someone else since (host_tools.sync.find_port)."""
        print("serial: %s" % self.path, flush=True)
        if marker:
            self.marker = marker_path()
            with open(self.marker, "w") as f:
                f.write("%s\n%d\n" % (self.path, os.getpid()))

    def close(self):
        try:
            os.close(self.master)
        except OSError:
            pass
        if self.marker:
            try:
                with open(self.marker) as f:
                    mine = f.readline().strip() == self.path
                if mine:
                    os.remove(self.marker)
            except OSError:
                pass


def serve(sim, keep=True, stop=None):
    """The device loop on the real clock until stop(), or (unless keep) the host's BYE (and the
    hang-up after it) or hang-up. Returns why it stopped."""
    sim.real_time()
    dev = sim.dev
    why = []
    bye_at = []

    def hook(dev, n):
        if stop is not None and stop():
            why.append("stopped")
            return True
        link = dev.link
        if keep:
            return False
        if link.hangups:
            why.append("hang-up")
            return True
        if link.byes and not link.tx_pending:
            if not bye_at:
                bye_at.append(time.monotonic())
            elif time.monotonic() - bye_at[0] > 1.0:  # the host closes after BYE: wait for it
                why.append("bye")
                return True
        return False

    fw.serve(dev, hook=hook)
    return why[0] if why else "stopped"


def run(cfg, out, script=None, keep=True, **sim_kw):
    """The --serial mode of python -m simulator: announce, run the script with the link, serve.
    sim_kw: for simulator.runner.Sim (device_id, on_screen...)."""
    from simulator.runner import Sim
    # the box's files are private, device.key above all (its signing key): 0600, not the umask's 0644
    os.umask(0o077)
    stopping = []

    def on_signal(signum, frame):
        stopping.append(signum)

    old = [signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)]
    pty = Pty()
    try:
        sim = Sim(cfg=cfg, folder=out, port=pty.port, **sim_kw)
        if script:
            # the scenario first, on the scripted clock: a host that came in the middle of it
            # would see a table in the middle of a session, and the records to pull depend on
            # when it came; so the pty is announced once the scenario is played
            sim.run(script)
        pty.announce()
        if script:
            print("script done: %d journal records; serving the link" % sim.journal.last_seq, flush=True)
        why = serve(sim, keep=keep, stop=lambda: bool(stopping))
        link = sim.dev.link
        print("link %s: %d frames in, %d bad, %d oversized, %d bytes out" % (
            why, link.rx_frames, link.rx_bad_crc + link.rx_bad_cobs + link.rx_short, link.rx_oversized,
            link.bytes_out), flush=True)
    finally:
        pty.close()
        signal.signal(signal.SIGINT, old[0])
        signal.signal(signal.SIGTERM, old[1])
    return sim


def add_serving_args(ap):
    ap.add_argument("--once", action="store_true",
                    help="stop when the first host says BYE or hangs up (default: serve until Ctrl-C/SIGTERM)")
    ap.add_argument("--keep-serving", action="store_true", help="the default (kept for old scripts)")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="simulator.serial_device", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the simulator's output folder: journal/ and device.key")
    ap.add_argument("--device-id")
    add_serving_args(ap)
    args = ap.parse_args(argv)
    from simulator import parts
    os.makedirs(args.out, exist_ok=True)
    run(parts.for_board("sim"), args.out, keep=not args.once, device_id=args.device_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())
