# Helpers for the settle tests (runs under pytest and MicroPython).
import json

from rules_min.settle_request import handle_line


def settle(rules, events, dealer=0, prevalent="E", options=None):
    req = {"id": 1, "dealer": dealer, "prevalent_wind": prevalent, "events": events}
    if options:
        req["options"] = options
    return json.loads(handle_line(json.dumps(req), rules))


def ok(rules, events, **kw):
    r = settle(rules, events, **kw)
    assert r["ok"], r
    assert sum(r["deltas"]) == -sum(t["points"] for t in r["transfers"] if t["to"] is None)
    return r


def refused(rules, events, code, index, **kw):
    r = settle(rules, events, **kw)
    assert r["ok"] is False, r
    assert r["error"]["code"] == code, r
    assert r["error"]["event"] == index, r
    return r


def pairs(r):
    # transfers as sorted (from, to, points) triples, reasons left out
    return sorted((t["from"] if t["from"] is not None else -1, t["to"] if t["to"] is not None else -1,
                   t["points"]) for t in r["transfers"])


def score(rules, req):
    from rules_min.request import handle_line as score_line
    return json.loads(score_line(json.dumps(req), rules))
