# The box on the MicroPython unix port, booted idle with a network (tests/server/
# test_box_push_fetch.py): the device loop in real time until its fetch has taken a checked
# answer and every record is on the server, or S seconds passed; prints what it holds.
#   micropython tests/net/fetch_main.py URL DEVICE OUTDIR S
import sys

from firmware import main as fw
from firmware.compat import ticks_diff, ticks_ms
from simulator.push import describe, network_board, parts_sim, unplugged
from simulator.runner import Sim

url, device, out, wait = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
sim = Sim(cfg=network_board(parts_sim(), url, 1000), folder=out, port=unplugged(), device_id=device)
sim.real_time()
net = sim.dev.net
f = net.fetcher
t0 = ticks_ms()


def done(dev, n):
    return (f.fetches > 0 and net.status()[3] == 0) or ticks_diff(ticks_ms(), t0) > wait * 1000


fw.serve(sim.dev, hook=done)
s = sim.app.session
print("fetched %d, configs %d, clocks %d; session %s; %d journal records; %s" % (
    f.fetches, f.configs, f.clocks, None if s is None else "%s/%d/%d" % (s.cfg["tournament"], s.cfg["session"], s.cfg["table"]),
    sim.journal.last_seq, describe(net)))
sys.exit(0 if f.fetches > 0 and net.status()[3] == 0 else 3)
