"""The simulated box online (issue 20): ``python -m simulator --push URL`` gives the sim board a
network (the machine's own: board NETWORK driver "host") so that firmware/net pushes each
committed record to the tournament server at URL, as a Pico W does over Wi-Fi. The box signs
with its device key (device.key in --out, set by a sync tool's provisioning); without one it
plays and says so, and pushes once it has one. Runs on CPython and the MicroPython unix port
(simulator/push_main.py: real sockets)."""
from firmware.compat import ticks_diff, ticks_ms


class _Board:
    pass


def network_board(cfg, server, backoff_max=60000):
    """A copy of board config cfg with a network that pushes to server."""
    out = _Board()
    for k in dir(cfg):
        if not k.startswith("_"):
            setattr(out, k, getattr(cfg, k))
    out.NETWORK = {"driver": "host", "server": server, "backoff_max": backoff_max}
    return out


def unplugged():
    """The host link's port with no cable in: the box has its link (its key, the records'
    signatures) and no host."""
    from firmware.link.host_ports import MemPort
    p = MemPort()
    p.gone = True
    return p


def serve_until_synced(sim, timeout):
    """After the script: the device loop in real time until every record is on the server (by
    its ack) or timeout seconds passed. True when all are synced."""
    from firmware import main as fw
    sim.real_time()
    net = sim.dev.net
    t0 = ticks_ms()

    def hook(dev, n):
        return net.status()[3] == 0 or ticks_diff(ticks_ms(), t0) > timeout * 1000

    fw.serve(sim.dev, hook=hook)
    return net.status()[3] == 0


def describe(net):
    conn, problem, last, unsynced = net.status()
    return "network %s, %s records not yet on the server%s" % (conn, unsynced, "" if problem is None else " (%s)" % problem)


def parts_sim():
    """The sim board's config (simulator/parts.py)."""
    from simulator import parts
    return parts.for_board("sim")


def main(argv):
    """micropython simulator/push_main.py --push URL [--wait S] [--device-id ID] SCRIPT OUTDIR."""
    import sys
    from simulator.runner import Sim
    a = list(argv[1:])
    i = a.index("--push")
    url = a.pop(i + 1)
    a.pop(i)
    wait = 30
    if "--wait" in a:
        i = a.index("--wait")
        wait = float(a.pop(i + 1))
        a.pop(i)
    device = None
    if "--device-id" in a:
        i = a.index("--device-id")
        device = a.pop(i + 1)
        a.pop(i)
    script, out = a
    sim = Sim(cfg=network_board(parts_sim(), url, 2000), folder=out, port=unplugged(), device_id=device)
    sim.run(script)
    ok = serve_until_synced(sim, wait)
    print("%d journal records; %s" % (sim.journal.last_seq, describe(sim.dev.net)))
    sys.exit(0 if ok else 3)
