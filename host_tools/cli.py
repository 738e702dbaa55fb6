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

    p = sub.add_parser("serve", help="run the tournament system (HTTP server: uploads, standings, pages)")
    p.add_argument("--db", default="sqlite:///tournament.db", help="sqlite:///path or postgresql://user@host:port/name (default: sqlite:///tournament.db)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--pool", type=int, default=8, help="database connections (default: 8)")
    p.add_argument("--verbose", action="store_true", help="log every request to stderr")
    p.add_argument("--create-account", metavar="NAME", help="create an account (password from $MT_PASSWORD or a prompt) and exit")
    p.add_argument("--role", choices=("organizer", "referee"), default="organizer", help="role for --create-account")
    p.set_defaults(run=lambda args: __import__("host_tools.server.main", fromlist=["main"]).main(args))

    from host_tools import tags
    tags.add_parser(sub)

    from host_tools import sync
    sync.add_parser(sub)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.run(args)
