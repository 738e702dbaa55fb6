# Entry point of the simulator runner on the MicroPython unix port (make mp-sim):
#   micropython -m sim_main SCRIPT OUTDIR
import sys

from simulator.runner import main

main(sys.argv)
