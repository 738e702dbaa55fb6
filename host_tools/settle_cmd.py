"""`mahjong-table settle`: a hand from a file of its events, for people (transfers with their
reasons, the result per chair, the next dealer, what the referee must see; English or Chinese) or
as the protocol's JSON reply; without a file, the settle line protocol on stdin, as before
(README "Settle protocol" defines the events).

The file holds a JSON list of events, or a whole settle request (an object with "events" and
optionally "dealer", "prevalent_wind", "options"); options given here override the file's.
The file's seats are the protocol's, 0-3; the options and the text number chairs 1-4.
"""
import json
import sys

RULE_SETS = ("mcr", "sichuan", "guangdong")
EXAMPLES = """example file (Sichuan): a kong, then 杠上炮 on the konger's next discard
  [{"kong": "direct", "seat": 2, "from": 0},
   {"win": 1, "from": 2, "hand": "123m456m789m11s234s", "kong_discard": true}]
examples:
  mahjong-table settle hand.json --rules sichuan
  mahjong-table settle hand.json --rules mcr --dealer 2 --round-wind S --lang zh
  echo '{"id": 1, "events": [{"win": 0, "hand": "[EEE1][SSSS1]55pWWWNNN"}]}' | mahjong-table settle
exit status: 0 settled, 1 refused (the message names the event), 2 bad options or file"""


def add_parser(sub):
    from host_tools.cli import formatter
    from host_tools.score_cmd import chair_arg
    p = sub.add_parser("settle", help="settle a hand from a file of its events, or hands line by line on stdin (JSON)",
                       description=__doc__.split("\n\n")[0], epilog=EXAMPLES,
                       formatter_class=formatter(raw=True))
    p.add_argument("events", nargs="?", metavar="FILE",
                   help="JSON file of the hand's events ('-' for stdin). Without it: JSON hands on stdin, "
                   "one reply per line")
    p.add_argument("--rules", choices=RULE_SETS, default="mcr", help="rule set (default: mcr)")
    p.add_argument("--dealer", type=chair_arg, metavar="CHAIR", help="the dealer's chair, 1-4 (default: the file's seat, else chair 1)")
    p.add_argument("--round-wind", choices="ESWN", help="the prevalent wind (default: the file's, else E)")
    g = p.add_argument_group("rule options (the settle protocol's options)")
    g.add_argument("--gen", action="store_true", help="Sichuan: count 根 (+1 per set of four)")
    g.add_argument("--horse-add", action="store_true", help="Guangdong: horses add (x(1 + hits)) instead of doubling")
    g.add_argument("--hand-table", metavar="FILE",
                   help="Guangdong: the hand table, a JSON file of [name, English name, multiplier] rows")
    g = p.add_argument_group("output")
    g.add_argument("--json", action="store_true", help="print the protocol's JSON reply instead of text")
    g.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the text (default: en)")
    p.set_defaults(run=run, parser=p)
    return p


def _read_json(path, what, parser):
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        parser.error("%s %s: %s" % (what, path, e.strerror))
    except ValueError as e:
        parser.error("%s %s is not JSON: %s" % (what, path, e))


def request(args):
    data = _read_json(args.events, "events file", args.parser)
    req = {"events": data} if isinstance(data, list) else data
    if not isinstance(req, dict):
        args.parser.error("the events file holds a list of events or a settle request object")
    req = dict(req, id=req.get("id", 1))
    if args.dealer is not None:
        req["dealer"] = args.dealer
    if args.round_wind:
        req["prevalent_wind"] = args.round_wind
    opts = dict(req.get("options") or {}) if isinstance(req.get("options"), dict) else req.get("options")
    if args.gen or args.horse_add or args.hand_table:
        if not isinstance(opts, dict):
            opts = {}
        if args.gen:
            opts["gen"] = True
        if args.horse_add:
            opts["horse_add"] = True
        if args.hand_table:
            opts["hand_table"] = _read_json(args.hand_table, "hand table", args.parser)
    if opts is not None:
        req["options"] = opts
    return req


def _event_hand(req, err):
    i = err.get("event")
    evs = req.get("events")
    if isinstance(i, int) and isinstance(evs, list) and 0 <= i < len(evs) and isinstance(evs[i], dict):
        h = evs[i].get("hand")
        return h if isinstance(h, str) else None
    return None


def run(args):
    if args.events is None:
        if args.json or args.lang != "en" or args.dealer is not None or args.round_wind or args.gen \
                or args.horse_add or args.hand_table:
            args.parser.error("the options go with a file of events; without one, settle reads JSON lines on stdin")
        from host_tools import score
        return score.main(args.rules, "settle")
    req = request(args)
    from rules_min.settle_request import handle_line
    line = handle_line(json.dumps(req, ensure_ascii=False), args.rules)
    reply = json.loads(line)
    from host_tools.score_cmd import _utf8
    _utf8()
    if args.json:
        print(line)
        return 0 if reply["ok"] else 1
    from host_tools import report
    if not reply["ok"]:
        print(report.error_text(reply["error"], args.lang, _event_hand(req, reply["error"])), file=sys.stderr)
        return 1
    print(report.settle_text(args.rules, req, reply, args.lang))
    return 0
