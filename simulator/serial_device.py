"""The simulator as a device on a real pty: the host tool talks to it as to a box on USB.

    python -m simulator --script FILE --out DIR --serial [--device-id ID] [--keep-serving]
    python -m simulator.serial_device --out DIR [--device-id ID] [--keep-serving]

opens a pty pair (os.openpty), prints `serial: /dev/pts/N` (the slave: what --port takes), and
runs firmware/link.py on the master in the same loop as the app: one link.poll() burst after
each script line, then the link alone. It stops on SIGINT/SIGTERM, or when the host says BYE or
hangs up (closes the slave), unless --keep-serving. The second form serves the journal already
in DIR (a previous run's) without a script.

The box's key file is DIR/device.key (as on flash). The slave path is also written to the
marker file host_tools.sync.sim_marker_path(), so `sync --port auto` finds the simulator.
"""
import argparse
import os
import signal
import sys
import time
import tty

from firmware.link import FdPort, Link


def open_pty():
    """(master fd, slave fd, slave path), the slave in raw mode."""
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def marker_path():
    return os.environ.get("MAHJONG_TABLE_SIM_MARKER") or os.path.join(
        __import__("tempfile").gettempdir(), "mahjong-table-sim-%d.port" % os.getuid())


class PtyDevice:
    """A Sim (simulator.runner) with a Link on a pty master."""

    def __init__(self, sim, key_path, board="sim", marker=True, **link_kw):
        self.sim = sim
        self.master, slave, self.path = open_pty()
        os.close(slave)  # from now on the host's open and close of the path is what the link sees
        self.link = Link(sim.app, FdPort(self.master), key_path, board=board, **link_kw)
        self.marker = None
        if marker:
            self.marker = marker_path()
            with open(self.marker, "w") as f:
                f.write(self.path + "\n")

    def pump(self, limit=10000):
        """Poll the link until it has nothing to do (the app's loop calling poll)."""
        self.link.app = self.sim.app  # a `powercut` line boots a new App
        n = 0
        while n < limit and self.link.poll():
            n += 1
        return n

    def run_script(self, path):
        with open(path) as f:
            for line in f:
                self.sim.line(line)
                self.pump()

    def serve(self, keep=False, stop=None, wait_ms=20):
        """The link alone until stop(), or (unless keep) the host's BYE / hang-up."""
        link = self.link
        bye_at = None
        while not (stop is not None and stop()):
            self.link.app = self.sim.app
            if link.poll():
                continue
            if not keep:
                if link.hangups:
                    return "hang-up"
                if link.byes and not link.tx_pending:
                    bye_at = bye_at or time.monotonic()
                    if time.monotonic() - bye_at > 1.0:  # the host closes after BYE: wait for it
                        return "bye"
            if link.online:
                link.port.wait(wait_ms, link.tx_pending)
            else:
                time.sleep(wait_ms / 1000)
        return "stopped"

    def close(self):
        try:
            os.close(self.master)
        except OSError:
            pass
        if self.marker:
            try:
                with open(self.marker) as f:
                    mine = f.read().strip() == self.path
                if mine:
                    os.remove(self.marker)
            except OSError:
                pass


def run(sim, out, script=None, key_file=None, keep=False, board="sim"):
    """The --serial mode of python -m simulator: announce, run the script with the link, serve."""
    stopping = []

    def on_signal(signum, frame):
        stopping.append(signum)

    old = [signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)]
    dev = PtyDevice(sim, key_file or os.path.join(out, "device.key"), board=board)
    try:
        print("serial: %s" % dev.path, flush=True)
        if script:
            dev.run_script(script)
            print("script done: %d journal records; serving the link" % sim.journal.last_seq, flush=True)
        why = dev.serve(keep=keep, stop=lambda: bool(stopping))
        link = dev.link
        print("link %s: %d frames in, %d bad, %d oversized, %d bytes out" % (
            why, link.rx_frames, link.rx_bad_crc + link.rx_bad_cobs + link.rx_short, link.rx_oversized,
            link.bytes_out), flush=True)
    finally:
        dev.close()
        signal.signal(signal.SIGINT, old[0])
        signal.signal(signal.SIGTERM, old[1])
    return dev


def main(argv=None):
    ap = argparse.ArgumentParser(prog="simulator.serial_device", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the simulator's output folder: journal/ and device.key")
    ap.add_argument("--device-id", default="sim-1")
    ap.add_argument("--key-file", help="default: OUT/device.key")
    ap.add_argument("--keep-serving", action="store_true", help="serve until SIGINT/SIGTERM, across hang-ups")
    args = ap.parse_args(argv)
    from firmware.journal import Journal
    from simulator.runner import Sim

    jdir = os.path.join(args.out, "journal")
    os.makedirs(jdir, exist_ok=True)
    sim = Sim(lambda: Journal(jdir), device_id=args.device_id)
    run(sim, args.out, key_file=args.key_file, keep=args.keep_serving)
    return 0


if __name__ == "__main__":
    sys.exit(main())
