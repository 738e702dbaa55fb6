# The simulator on the MicroPython unix port:
#   micropython -m sim_main SCRIPT OUTDIR      (make mp-sim) a scenario through the device loop:
#                                             journal in OUTDIR/journal, screens in OUTDIR/screens.txt
#   micropython simulator/sim_main.py --script FILE --journal DIR --key FILE [--device-id ID] ...
#       a box on stdin/stdout (firmware/link/stdio.py's arguments) that plays the scenario with
#       its link up, then goes on serving the host in the same loop until BYE / hang-up
#   micropython -m sim_main --push URL [--wait S] [--device-id ID] SCRIPT OUTDIR
#       the box online (simulator/push.py): the scenario with a network, each record pushed to
#       the tournament server at URL over the unix port's real sockets, signed with
#       OUTDIR/device.key; then up to S seconds (30) for the rest; prints the network's status
import sys


def stdio_box(argv):
    import os
    from firmware.link import stdio as link_stdio
    from firmware.journal import Journal
    from simulator import parts
    from simulator.runner import Sim

    o = link_stdio.args(argv, {"script": None})
    jdir = o["journal"]
    try:
        os.mkdir(jdir)
    except OSError:
        pass
    # the scenario runs on the scripted clock, then the link comes up (link_stdio.serve makes it,
    # as on a box just plugged in) and the host's requests run on the real clock
    sim = Sim(lambda: Journal(jdir), device_id=o["device-id"], cfg=parts.for_board("sim"))
    sim.run(o["script"])
    sim.real_time()
    if not o["no-link"]:
        link_stdio.serve(sim.dev, o)


def push_box(argv):
    from simulator import push
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
    sim = Sim(cfg=push.network_board(push.parts_sim(), url, 2000), folder=out, port=push.unplugged(), device_id=device)
    sim.run(script)
    ok = push.serve_until_synced(sim, wait)
    print("%d journal records; %s" % (sim.journal.last_seq, push.describe(sim.dev.net)))
    sys.exit(0 if ok else 3)


if "--push" in sys.argv:
    push_box(sys.argv)
elif "--script" in sys.argv:
    stdio_box(sys.argv)
else:
    from simulator.runner import main

    main(sys.argv)
