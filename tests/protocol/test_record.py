# protocol/record.py: the records the box builds pass the one validator the server calls; what
# is malformed is refused with a message naming the field; payloads round-trip byte for byte.
from protocol import record
from rules_min.settle import Hand

CFG = {"tournament": "T", "session": 1, "table": 7, "rules": "sichuan", "players": ["21", "22", "23", "24"],
       "first_dealer": 0}
SEATS = ["21", "22", "23", "24"]


def sichuan_hand():
    # a concealed kong (20 from each), then a win on the kong-er's discard right after it (杠上炮)
    events = [{"kong": "concealed", "seat": 2},
              {"win": 0, "from": 2, "hand": "123456789m11234s", "missing_suit": "p", "kong_discard": True},
              {"penalty": "tier1", "seat": 3}]
    h = Hand("sichuan", 0, "E")
    for i in range(len(events)):
        h.event(i, events[i])
    h.finish()
    wins = [record.win(0, 2, 1, [[0, 1]])]
    # transfers with the event that settled them: the kong's three, the win and the income it
    # takes over (finish() at the penalty), the penalty
    paid = [0, 0, 0, 1, 2, 2]
    transfers = [[t[0], t[1], t[2], paid[k]] for k, t in enumerate(h.transfers)]
    return record.hand(CFG, 1, SEATS, 0, "E", events, h.deltas(), transfers, h.flags, wins, h.next_dealer, 1000)


def copy(rec):
    import json
    return json.loads(json.dumps(rec))


def test_built_records_pass():
    assert record.validate(record.session(CFG, "box-1", 5)) is None
    assert record.validate(sichuan_hand()) is None
    assert record.validate(record.correction("box-1", 2, SEATS, [5, -5, 0, 0], [0, 0, 0, 0], "why", "ref", 9)) is None
    assert record.validate(record.session_end(CFG, 8, "hands", {"21": 5, "22": -5, "23": 0, "24": 0}, 9)) is None


def test_deltas_must_be_the_transfers():
    rec = sichuan_hand()
    assert rec["transfers"] and sum(rec["deltas"]) == -20   # the tier 1 penalty leaves the table
    bad = copy(rec)
    bad["deltas"][0] += 1
    assert "sum of the transfers" in record.validate(bad)
    bad = copy(rec)
    bad["transfers"][0][2] = 0
    assert "points" in record.validate(bad)
    bad = copy(rec)
    bad["transfers"][0][3] = 3
    assert "event" in record.validate(bad)


def test_the_session_record_is_the_config_check():
    for k, v in (("session", "one"), ("table", [7]), ("session", 2147483647)):
        rec = record.session(CFG, "box-1", 5)
        rec[k] = v
        assert k in record.validate(rec)
    rec = record.session(CFG, "box-1", 5)
    del rec["first_dealer"]
    assert "first_dealer" in record.validate(rec)


def test_events_are_checked_by_their_table():
    rec = sichuan_hand()
    for ev, word in (({"win": 0, "from": 2, "hand": "x", "kong_discard": 1}, "kong_discard"),
                     ({"win": 0, "hand": "x"}, "from"),
                     ({"win": 0, "from": 2, "hand": "x", "colour": "red"}, "colour"),
                     ({"kong": "direct", "seat": 1}, "direct"),
                     ({"kong": "concealed", "seat": 1, "from": 2}, "direct"),
                     ({"kong": "sideways", "seat": 1}, "kong"),
                     ({"penalty": "late", "seat": 5}, "seat"),
                     ({"dance": True}, "no known event"),
                     ({"wall_end": True, "hands": {"7": "123m"}}, "no seat")):
        bad = copy(rec)
        bad["events"] = [ev]
        msg = record.validate(bad)
        assert msg is not None and word in msg, (ev, msg)


def test_wins_winners_and_discarder_agree():
    rec = sichuan_hand()
    bad = copy(rec)
    bad["winners"] = [1]
    assert "winners" in record.validate(bad)
    bad = copy(rec)
    bad["discarder"] = None
    assert "discarder" in record.validate(bad)
    bad = copy(rec)
    bad["wins"][0]["fans"] = [["平胡", 1]]
    assert "fans" in record.validate(bad)
    bad = copy(rec)
    bad["wins"][0]["from"] = 0
    assert "dealt in" in record.validate(bad)
    bad = copy(rec)
    bad["rules"] = "mcr"
    bad["wins"].append(record.win(1, None, 8, [[79, 1]]))
    bad["winners"].append(1)
    assert "one winner" in record.validate(bad)


def test_unknown_and_missing_fields():
    rec = sichuan_hand()
    bad = copy(rec)
    bad["names"] = ["平胡"]
    assert "names" in record.validate(bad)
    bad = copy(rec)
    del bad["transfers"]
    assert "transfers" in record.validate(bad)
    bad = copy(rec)
    bad["v"] = 1
    assert "v must be" in record.validate(bad)
    assert record.validate([]) == "a record must be an object"
    bad = copy(rec)
    bad["seats"] = ["21", "22", "23", "21"]
    assert "twice" in record.validate(bad)


def test_payload_round_trip_and_other_formats():
    rec = sichuan_hand()
    data = record.encode(rec)
    assert data[0] == record.PAYLOAD and b"\": " not in data
    assert record.decode(data) == rec
    assert record.encode(record.decode(data)) == data
    assert record.decode(b"") is None
    assert record.decode(b"\x07{}") is None
    assert record.decode(b"\x01{not json") is None
    assert record.decode(b"\x01[1]") is None


def test_encode_is_jsonout_byte_for_byte():
    from rules_min.jsonout import dumps
    recs = [sichuan_hand(), record.session(CFG, "box-1", 5),
            {"v": 2, "kind": "x", "t": 'a "q" \\ b\n', "u": "玩家", "n": [-1, 0, None, True, False, [], {}]}]
    for r in recs:
        assert bytes(record.encode(r)) == bytes((record.PAYLOAD,)) + dumps(r).encode()


def test_a_reason_in_words_in_place_of_the_event_index_is_accepted():
    rec = copy(sichuan_hand())
    for t in rec["transfers"]:
        t[3] = "concealed kong"
    assert record.validate(rec) is None
    rec["transfers"][0][3] = "x" * 200
    assert "reason" in record.validate(rec)


MCR_CFG = dict(CFG, rules="mcr", players=["11", "12", "13", "14"])
GD_CFG = dict(CFG, rules="guangdong", players=["31", "32", "33", "34"])


def settled(cfg, events):
    # the record the box writes for these events, settled by the rules core (so every event and
    # flag here is one settle takes)
    h = Hand(cfg["rules"], 0, "E")
    paid = []
    for i in range(len(events)):
        h.event(i, events[i])
        paid += [i] * (len(h.transfers) - len(paid))
    h.finish()
    paid += [len(events) - 1] * (len(h.transfers) - len(paid))
    transfers = [[t[0], t[1], t[2], paid[k]] for k, t in enumerate(h.transfers) if t[2]]
    wins = [record.win(w[0], w[1], w[3], w[2]) for w in h.wins]
    return record.hand(cfg, 1, cfg["players"], 0, "E", events, h.deltas(), transfers, h.flags, wins,
                       h.next_dealer, 1000)


def test_the_events_and_flags_of_issue_13_pass():
    # MCR: a bar with its reason, tiles exposed (victim, points), illegal information (points and
    # a bar), then a win on a wrongly named discard with the winning tile mixed into the hand
    rec = settled(MCR_CFG, [
        {"bar": 1, "reason": "wrong_call"},
        {"penalty": "exposed_tiles", "seat": 2, "victim": 3, "points": 30},
        {"penalty": "information", "seat": 3, "points": 10, "bar": True},
        {"win": 0, "from": 2, "hand": "1s3s4s4s5s5s5s6s6s6s7s7s7s2s", "misnamed": True, "win_tile_mixed": True}])
    assert record.validate(rec) is None
    assert {"event": 0, "seat": 1, "kind": "barred", "reason": "wrong_call"} in rec["flags"]
    # 杠上开花 on a kong whose replacement was a flower
    rec = settled(MCR_CFG, [{"kong": "direct", "seat": 1, "from": 3},
                            {"win": 1, "from": None, "hand": "[1111m]2s3s4s5s5s5s6s6s6s7s7s", "kong": True,
                              "replacement_flower": True}])
    assert record.validate(rec) is None
    # Guangdong: the conduct ladder (a warning in the flags, then points)
    rec = settled(GD_CFG, [{"penalty": "early_draw", "seat": 1}, {"penalty": "call_words", "seat": 1},
                           {"penalty": "exposed_tiles", "seat": 2, "victim": 0, "points": 16}])
    assert record.validate(rec) is None and rec["flags"][0]["penalty"] == "early_draw"


def test_malformed_issue_13_events_are_refused():
    rec = settled(MCR_CFG, [{"bar": 1, "reason": "wrong_call"}])
    for ev, word in (({"bar": 1}, "reason"),
                     ({"bar": 7, "reason": "wrong_call"}, "bar"),
                     ({"bar": 1, "reason": ""}, "reason"),
                     ({"penalty": "exposed_tiles", "seat": 2, "victim": 4, "points": 5}, "victim"),
                     ({"penalty": "information", "seat": 2, "bar": 1}, "bar"),
                     ({"win": 0, "from": 2, "hand": "x", "misnamed": "yes"}, "misnamed"),
                     ({"win": 0, "from": None, "hand": "x", "replacement_flower": 1}, "replacement_flower"),
                     ({"win": 0, "from": 2, "hand": "x", "win_tile_mixed": None}, "win_tile_mixed")):
        bad = copy(rec)
        bad["events"] = [ev]
        msg = record.validate(bad)
        assert msg is not None and word in msg, (ev, msg)
    bad = copy(rec)
    bad["flags"][0]["reason"] = 3
    assert "reason" in record.validate(bad)
    bad["flags"][0]["because"] = "x"
    assert "because" in record.validate(bad)
