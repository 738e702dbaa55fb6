# The box online on the MicroPython unix port: the MCR session through the device loop with and
# without the network (bench/push_heap.py runs this, from build/mpy or a frozen binary):
#   micropython -X heapsize=512K mp_push_heap.py SCRIPT FOLDER URL|-
# URL: the stand-in server the push goes to over the port's real sockets ("-": no network). The
# box's device.key is in FOLDER. Prints the heap after boot, the peak heap held (collected after
# every step of the loop: the session at its fullest), and the share of the loop's time spent in
# the network's steps.
import gc
import sys
import time

from firmware import main as fw

peak = [0]
t_step = [0]
t_net = [0]
net_steps = [0]
_step = fw.Device.step


def step(self):
    t = time.ticks_us()
    r = _step(self)
    t_step[0] += time.ticks_diff(time.ticks_us(), t)
    gc.collect()
    a = gc.mem_alloc()
    if a > peak[0]:
        peak[0] = a
    return r


fw.Device.step = step


def timed_net():
    from firmware import net
    s = net.Net.step

    def st(self, now):
        t = time.ticks_us()
        r = s(self, now)
        t_net[0] += time.ticks_diff(time.ticks_us(), t)
        net_steps[0] += 1
        return r
    net.Net.step = st


def main():
    script, folder, url = sys.argv[1], sys.argv[2], sys.argv[3]
    from simulator import push as spush
    from simulator.runner import Sim
    cfg = spush.parts_sim()
    if url != "-":
        cfg = spush.network_board(cfg, url, 2000)
        timed_net()  # loads firmware/net before the boot would: its code counts in "after boot" all the same
    gc.collect()
    base = gc.mem_alloc()
    sim = Sim(cfg=cfg, folder=folder, port=spush.unplugged(), device_id="box-heap")
    gc.collect()
    boot = gc.mem_alloc()
    with open(script) as f:
        for ln in f:
            sim.line(ln)
    synced = None
    if sim.dev.net is not None:
        synced = spush.serve_until_synced(sim, 20)
    print("records %d synced %s" % (sim.journal.last_seq, synced))
    print("heap before boot %d after boot %d peak held %d" % (base, boot, peak[0]))
    print("loop us %d net us %d net steps %d" % (t_step[0], t_net[0], net_steps[0]))


main()
