# Settling over stdio on MicroPython (make mp-settle): one JSON hand (its events) per line in, one
# JSON reply per line out. The loop of score_stdio.py with the settle protocol's handler:
#
#   cd build/mpy && MICROPYPATH=$PWD micropython -X heapsize=128K -m settle_stdio --rules sichuan
from score_stdio import main
from rules_min.settle_request import handle_line

if __name__ == "__main__":
    main(handle_line)
