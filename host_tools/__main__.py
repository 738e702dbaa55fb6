"""`python -m host_tools` and the `mahjong-table` console script."""
import sys

from host_tools.cli import main

if __name__ == "__main__":
    sys.exit(main())
