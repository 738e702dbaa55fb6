# The box online on the MicroPython unix port (simulator/push.py's main):
#   micropython simulator/push_main.py --push URL [--wait S] [--device-id ID] SCRIPT OUTDIR
# the scenario with a network, each record pushed to the tournament server at URL over the unix
# port's real sockets, signed with OUTDIR/device.key; then up to S seconds (30) for the rest;
# prints the network's status. (Not in sim_main.py: that script is compiled into the heap of the
# frozen build's small-heap runs, tests/pico/test_unix_frozen.py.)
import sys

from simulator.push import main

main(sys.argv)
