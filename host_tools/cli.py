"""Command line of the host tools: `mahjong-table COMMAND` (or `python -m host_tools COMMAND`).

Each subcommand lives in its own module, imported only when that subcommand runs or shows its
help: `score` has to start about as fast as a bare interpreter, and must not pay for the sync
tool's HTTP and serial stack or the tournament server. The top-level `--help` lists every
subcommand from the table below without importing any of them.
"""
import argparse
import sys

# name, one-line help (the top-level listing), the module whose add_parser(sub) adds the
# subcommand with all its options and sets `run`
COMMANDS = (
    ("score", "score one hand (fans, total, payments), or score hands line by line on stdin (JSON)",
     "host_tools.score_cmd"),
    ("settle", "settle a hand from a file of its events, or hands line by line on stdin (JSON)",
     "host_tools.settle_cmd"),
    ("serve", "run the tournament system (Django on uvicorn workers: uploads, standings, the organizer's pages)",
     "host_tools.server.main"),
    ("tags", "write or verify the NFC tags of a tile set through a connected box", "host_tools.tags"),
    ("sync", "pull new hands from a scoring box over USB serial and upload them", "host_tools.sync"),
)


def formatter(raw=False):
    """A help formatter class that sizes itself without importing shutil (argparse's default
    does, with bz2 and lzma, on the first add_argument: a fifth of `score`'s start)."""
    base = argparse.RawDescriptionHelpFormatter if raw else argparse.HelpFormatter

    def make(prog):
        import os
        try:
            width = os.get_terminal_size().columns
        except OSError:   # not a terminal
            width = int(os.environ.get("COLUMNS", "80")) if os.environ.get("COLUMNS", "").isdigit() else 80
        return base(prog, width=max(40, width - 2))
    return make




def _chosen(argv):
    # the subcommand is the first word that is not an option of the top-level parser
    for a in argv:
        if not a.startswith("-"):
            return a
    return None


def build_parser(argv=None):
    """The parser, with the chosen subcommand (from argv) complete and the others listed only.
    build_parser() with no argv builds every subcommand in full (for tests and docs)."""
    parser = argparse.ArgumentParser(prog="mahjong-table", description="Host tools for the mahjong table scoring box.",
                                     formatter_class=formatter())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    chosen = _chosen(argv) if argv is not None else None
    for name, help_text, module in COMMANDS:
        if argv is None or name == chosen:
            mod = sys.modules[__name__] if module == __name__ else __import__(module, fromlist=["add_parser"])
            mod.add_parser(sub)
        else:
            sub.add_parser(name, help=help_text, add_help=False, formatter_class=formatter())
    return parser


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser(argv).parse_args(argv)
    return args.run(args)
