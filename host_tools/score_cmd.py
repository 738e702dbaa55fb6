"""`mahjong-table score`: one hand for people (fans with points, the total, whether it reaches 8,
payments by chair; English or Chinese) or as the protocol's JSON reply; without a hand, the score
line protocol on stdin, as before (README "Score protocol").

Chairs are numbered 1-4 as people number them (chair 1 is East when the session starts); the
JSON protocols keep their seats 0-3 (chair - 1).

Every win flag of the table (rules_min/keyed.py FLAGS) is an option, so a new flag cannot be
missed here. The hand goes through the same protocol handler as a stdin line.
"""
import json
import sys

RULE_SETS = ("mcr", "sichuan", "guangdong")
WINDS = "ESWN"
EXAMPLES = """examples:
  mahjong-table score "[345m3]258m1488s369p7s" --discard-from 3 --seat-wind E --round-wind E
  mahjong-table score "1112345678999m9m" --self-drawn --winner 2 --lang zh
  mahjong-table score "123m456m789m11s234s" --rules sichuan --discard-from 4 --missing-suit p
  echo '{"id": 1, "hand": "[345m3]258m1488s369p7s"}' | mahjong-table score
exit status: 0 a win, 1 no win or refused, 2 bad options"""


def chair_arg(v):
    """A chair as people number them, 1-4, as the protocols' seat 0-3."""
    import argparse
    if v not in ("1", "2", "3", "4"):
        raise argparse.ArgumentTypeError("a chair is 1, 2, 3 or 4 (chair 1 is East when the session starts)")
    return int(v) - 1


def _flag_option(key):
    return "--" + key.replace("_", "-")


def add_parser(sub):
    from host_tools.cli import formatter
    from rules_min import keyed
    p = sub.add_parser("score", help="score one hand (fans, total, payments), or hands line by line on stdin (JSON)",
                       description=__doc__.split("\n\n")[0], epilog=EXAMPLES,
                       formatter_class=formatter(raw=True))
    p.add_argument("hand", nargs="?", help="the hand: claimed melds in brackets, then the concealed tiles, the "
                   "winning tile last (docs/rules.md). Without it: JSON requests on stdin, one reply per line")
    p.add_argument("--rules", choices=RULE_SETS, default="mcr", help="rule set (default: mcr)")
    g = p.add_argument_group("the win")
    g.add_argument("--discard-from", type=chair_arg, metavar="CHAIR", help="won on the discard of chair CHAIR (1-4)")
    g.add_argument("--winner", type=chair_arg, metavar="CHAIR", default=0,
                   help="the winner's chair, for the payments by chair (1-4, default: 1)")
    g.add_argument("--seat-wind", choices=WINDS, default="E", help="MCR: the winner's seat wind (default: E)")
    g.add_argument("--round-wind", choices=WINDS, default="E", help="MCR: the prevalent wind (default: E)")
    g.add_argument("--flowers", type=int, default=0, metavar="N",
                   help="MCR: flowers, 1 fan each, not toward the 8 (or write them as letters a-h in the hand)")
    g = p.add_argument_group("win flags (docs/rules.md; each for the rule sets named)")
    seen = []
    for rules in RULE_SETS:
        for key in keyed.flags(rules, "s"):
            if key in seen:
                continue
            seen.append(key)
            sets = "/".join(r for r in RULE_SETS if key in keyed.flags(r, "s"))
            g.add_argument(_flag_option(key), action="store_true", dest=key,
                           help="%s: %s [%s; %s]" % (keyed.name("flags", key, rules), keyed.effect(key, rules),
                                                     sets, keyed.clause("flags", key, rules)))
    g = p.add_argument_group("Sichuan")
    g.add_argument("--missing-suit", choices=("m", "s", "p"), help="the suit the winner declared missing (定缺)")
    g.add_argument("--gen", action="store_true", help="count 根 (+1 per set of four), an option off by default")
    g = p.add_argument_group("Guangdong")
    g.add_argument("--dealer", type=chair_arg, metavar="CHAIR", default=0, help="the dealer's chair (1-4, default: 1)")
    g.add_argument("--horses", nargs="*", metavar="TILE", default=[], help="the horse tiles (买马), at most two")
    g = p.add_argument_group("output")
    g.add_argument("--json", action="store_true", help="print the protocol's JSON reply instead of text")
    g.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the text (default: en)")
    p.set_defaults(run=run, parser=p)
    return p


def request(args):
    """The score protocol request for the options (README "Score protocol")."""
    from rules_min import keyed
    req = {"id": 1, "hand": args.hand}
    self_drawn = args.self_drawn
    if args.rules == "mcr":
        req.update(seat_wind=args.seat_wind, prevalent_wind=args.round_wind, flowers=args.flowers,
                   winner=args.winner, discarder=None if self_drawn else args.discard_from)
        if not self_drawn and args.discard_from is None:
            del req["winner"], req["discarder"]    # no payments without knowing who paid
    elif args.rules == "sichuan":
        if args.missing_suit:
            req["missing_suit"] = args.missing_suit
        if args.gen:
            req["gen"] = True
    else:
        req.update(dealer=args.dealer, winner=args.winner, horses=args.horses)
    for key in keyed.flags(args.rules, "s"):
        if getattr(args, key):
            req[key] = True
    return req


def _check(args):
    """A usage error message, or None."""
    from rules_min import keyed
    taken = keyed.flags(args.rules, "s")
    for r in RULE_SETS:
        for key in keyed.flags(r, "s"):
            if getattr(args, key) and key not in taken:
                return "%s is not a flag of %s" % (_flag_option(key), args.rules)
    if args.self_drawn and args.discard_from is not None:
        return "--self-drawn and --discard-from: a win is one or the other"
    if args.discard_from is not None and args.discard_from == args.winner:
        return "--discard-from names the winner's own chair (--winner, default 1)"
    if args.rules != "mcr" and args.flowers:
        return "--flowers: only Chinese Official is played with flowers"
    if args.rules != "sichuan" and (args.missing_suit or args.gen):
        return "--missing-suit and --gen are Sichuan's"
    if args.rules != "guangdong" and args.horses:
        return "--horses are Guangdong's"
    return None


def _payments(args, req):
    """Payments by seat (0-3): MCR's come in the reply; Sichuan's and Guangdong's from the settle
    engine (the win's own transfers, a kong before it only to make the flag legal)."""
    from rules_min.settle_request import handle_line
    w = args.winner
    src = None if args.self_drawn else args.discard_from
    if src is None and not args.self_drawn:
        return None
    events = []
    if args.kong:
        events.append({"kong": "concealed", "seat": w} if src is None else {"kong": "added", "seat": src})
    ev = {"win": w, "from": src, "hand": args.hand, "kong": args.kong, "last_tile": args.last_tile}
    if args.rules == "sichuan" and args.missing_suit:
        ev["missing_suit"] = args.missing_suit
    if args.rules == "guangdong":
        ev["horses"] = args.horses
    events.append(ev)
    sreq = {"id": 1, "dealer": args.dealer if args.rules == "guangdong" else 0, "events": events,
            "options": {"gen": True} if args.gen else {}}
    rep = json.loads(handle_line(json.dumps(sreq), args.rules))
    if not rep["ok"]:
        return None
    out = [0, 0, 0, 0]
    for t in rep["transfers"]:
        if t["reason"].startswith("win "):
            out[t["from"]] -= t["points"]
            out[t["to"]] += t["points"]
    return out


def run(args):
    if args.hand is None:
        if args.json or args.lang != "en" or any(getattr(args, k) for k in ("discard_from", "self_drawn")):
            args.parser.error("the options describe one hand: give the hand, or none for the stdin protocol")
        from host_tools import score
        return score.main(args.rules)
    msg = _check(args)
    if msg:
        args.parser.error(msg)
    from rules_min.request import handle_line
    req = request(args)
    line = handle_line(json.dumps(req), args.rules)
    reply = json.loads(line)
    _utf8()
    if args.json:
        print(line)
        return 0 if reply["ok"] and reply.get("meets_minimum", True) else 1
    from host_tools import report
    lang = args.lang
    if not reply["ok"]:
        err = reply["error"]
        if err["code"] == "not_win":
            print("%s  %s" % (report.RULE_NAMES[args.rules][0 if lang == "en" else 1], args.hand))
            print("%s: %s" % (report.t("not_win", lang), report.shanten_text(args.rules, reply["shanten"], lang)))
        else:
            print(report.error_text(err, lang, args.hand), file=sys.stderr)
        return 1
    if args.self_drawn:
        how = report.t("self_drawn", lang)
    elif args.discard_from is not None:
        how = report.t("on_discard", lang, args.discard_from + 1)
    else:
        how = ""
    if args.rules == "mcr":
        w = report.WINDS
        i = 0 if lang == "en" else 1
        how += (", " if how and lang == "en" else "，" if how else "") + \
            report.t("winds", lang, w[args.seat_wind][i], w[args.round_wind][i])
        pay = reply.get("payments")
    else:
        pay = _payments(args, req)
    print(report.score_text(args.rules, args.hand, how, reply, lang, pay, args.winner,
                            None if args.self_drawn else args.discard_from))
    return 0 if reply.get("meets_minimum", True) else 1


def _utf8():
    # fan names are Chinese whatever the terminal's locale says
    try:
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")
        sys.stderr.reconfigure(encoding="utf-8", errors="replace")
    except AttributeError:
        pass
