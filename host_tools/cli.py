"""Command line of the host tools: one argparse subcommand per tool."""
import argparse

from host_tools import score

RULE_SETS = ("mcr", "sichuan", "guangdong")


def build_parser():
    parser = argparse.ArgumentParser(prog="mahjong-table", description="Host tools for the mahjong table scoring box.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("score", help="score hands: one JSON request per stdin line, one JSON reply per stdout line")
    p.add_argument("--rules", choices=RULE_SETS, default="mcr", help="rule set (default: mcr)")
    p.set_defaults(run=lambda args: score.main(args.rules))

    p = sub.add_parser("settle", help="settle whole hands: one JSON hand (events) per stdin line, one reply per line")
    p.add_argument("--rules", choices=RULE_SETS, default="mcr", help="rule set (default: mcr)")
    p.set_defaults(run=lambda args: score.main(args.rules, "settle"))

    from host_tools.server import main as serve
    serve.add_parser(sub)

    from host_tools import tags
    tags.add_parser(sub)

    from host_tools import sync
    sync.add_parser(sub)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.run(args)
