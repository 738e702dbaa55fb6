# The simulator on the MicroPython unix port:
#   micropython -m sim_main SCRIPT OUTDIR      (make mp-sim) a scenario through the device loop:
#                                             journal in OUTDIR/journal, screens in OUTDIR/screens.txt
#   micropython simulator/sim_main.py --script FILE --journal DIR --key FILE [--device-id ID] ...
#       a box on stdin/stdout (firmware/link/stdio.py's arguments) that plays the scenario with
#       its link up, then goes on serving the host in the same loop until BYE / hang-up
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


if "--script" in sys.argv:
    stdio_box(sys.argv)
else:
    from simulator.runner import main

    main(sys.argv)
