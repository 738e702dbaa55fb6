# The tables of what a referee keys (rules_min/penalties.py KINDS and BARS, rules_min/win_flags.py
# check, the flag table, names and clauses in rules_min/keyed.py) are the data the box's screens are
# built from: every row must be something the settle engine takes, cite its seed clause and have
# its names in both languages.
from settle_util import ok, refused
from rules_min import penalties as P
from rules_min import win_flags as W
from rules_min import keyed as T

RULES = ("mcr", "sichuan", "guangdong")
SEEDS = ("000", "001", "003", "004")


def _cites(clause):
    return any(clause.startswith(s) or ("; " + s + " ") in clause for s in SEEDS)


def _event(kind, rules, seat=1):
    how, lo, hi, _ = T.spec(kind, rules)
    ev = {"penalty": kind, "seat": seat}
    if how & 15 == P.LATE:
        ev["minutes"] = 12   # MCR 20 points, Sichuan and Guangdong a forfeit
    if how & 15 == P.KEYED:
        ev["victim"] = 2
    if how & 15 in (P.KEYED, P.CHOICE):
        ev["points"] = lo
    return ev


def test_the_text_tables_go_row_for_row_with_the_rule_tables():
    rows = {"kinds": P.KINDS, "bars": P.BARS, "flags": T.FLAGS}
    n = {"kinds": P.KIND_EN, "bars": P.BAR_EN}
    for table, packed in T.sizes().items():
        for s in packed + ((n[table],) if table in n else ()):
            assert len(s.split("|")) == len(rows[table].split("|")), (table, s[:40])


def test_every_penalty_kind_of_the_table_settles_in_its_rule_sets():
    for rules in RULES:
        kinds = T.kinds(rules)
        assert kinds, rules
        for kind in kinds:
            how, lo, hi, _ = T.spec(kind, rules)
            assert _cites(T.clause("kinds", kind, rules)), kind
            assert T.name("kinds", kind, rules, "en") and T.name("kinds", kind, rules, "zh") != \
                T.name("kinds", kind, rules, "en")
            if how & 15 in (P.KEYED, P.CHOICE):
                assert 0 < lo <= hi, kind
            r = ok(rules, [_event(kind, rules)])
            assert r["deltas"] != [0, 0, 0, 0] or r["flags"], (rules, kind, r)
            assert ("barred" in [f["kind"] for f in r["flags"]]) == bool(how & P.BAR), (rules, kind, r)
        for other in ("tier1", "call_words", "exposed_tiles", "empty_call"):
            if other not in kinds:
                refused(rules, [{"penalty": other, "seat": 1, "victim": 2, "points": 5}], "bad_penalty", 0)


def test_keyed_amounts_are_refused_outside_their_bounds():
    for rules in RULES:
        for kind in T.kinds(rules):
            how, lo, hi, _ = T.spec(kind, rules)
            if how & 15 not in (P.KEYED, P.CHOICE):
                continue
            for p in (lo - 1, hi + 1):
                ev = _event(kind, rules)
                ev["points"] = p
                refused(rules, [ev], "bad_penalty", 0)
            ev = _event(kind, rules)
            ev["points"] = hi
            ok(rules, [ev])


def test_every_bar_reason_bars_in_its_rule_sets_only():
    for rules in RULES:
        reasons = T.bar_reasons(rules)
        assert reasons, rules
        for reason in reasons:
            assert _cites(T.clause("bars", reason, rules)), reason
            assert T.name("bars", reason, rules) and T.name("bars", reason, rules, "zh")
            r = ok(rules, [{"bar": 0, "reason": reason}])
            assert r["flags"][-1] == {"event": 0, "seat": 0, "kind": "barred", "reason": reason}
            assert r["deltas"][0] == -T.bar_points(reason, rules)
        for row in P.BARS.split("|"):
            key = row.split(" ")[0]
            if key not in reasons:
                refused(rules, [{"bar": 0, "reason": key}], "bad_penalty", 0)


def test_ladder_points():
    assert [P.ladder_points(5, n) for n in range(1, 7)] == [0, 5, 10, 20, 40, 80]
    assert [P.ladder_points(2, n, 8) for n in range(1, 8)] == [0, 2, 4, 8, 8, 8, 8]
    assert P.ladder_points(2, 500, 8) == 8


def test_every_win_flag_is_taken_where_the_table_says_and_refused_elsewhere():
    new = ("win_tile_mixed", "replacement_flower", "kong_discard", "misnamed")
    for row in T.FLAGS.split("|"):
        key, rules_letters, _ = row.split(" ")
        rules = {"m": "mcr", "s": "sichuan", "g": "guangdong"}[rules_letters[0]]
        assert _cites(T.clause("flags", key, rules)) and T.name("flags", key, rules) and T.effect(key, rules), key
    for rules in RULES:
        for key in new:
            flower = key == "replacement_flower"
            # with what the flag goes with: replacement_flower on a kong self-draw, the others on a discard
            msg = W.check(rules, flower, flower, False, key == "win_tile_mixed", flower, key == "kong_discard",
                          key == "misnamed")
            assert (msg is None) == (key in T.flags(rules)), (rules, key, msg)
    assert T.flags("mcr", "s") == ["self_drawn", "kong", "last_tile", "last_of_kind", "win_tile_mixed",
                                  "replacement_flower", "misnamed"]
    assert "kong_discard" in T.flags("sichuan") and "kong_discard" not in T.flags("sichuan", "s")
