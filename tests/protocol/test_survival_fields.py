# The survival and hall-clock fields of protocol/config.py and protocol/record.py (issue 14,
# docs/survival.md): the server offers survival configs and reads a hand's dice roll; what is
# malformed is refused with the field named, on the box and on the server alike.
from protocol import config, record

BASE = {"tournament": "T", "session": 5, "table": 2, "rules": "mcr", "players": ["11", "12", "13", "14"], "first_dealer": 0}
SURV = dict(BASE, mode="survival", scores=[120, 116, 42, 42], event_start=1760000000, final=False)


def with_(c, **kw):
    out = dict(c)
    for k in kw:
        if kw[k] is None:
            out.pop(k, None)
        else:
            out[k] = kw[k]
    return out


def field(c):
    e = config.check(c)
    return None if e is None else e[0]


def test_a_survival_config_passes_and_needs_its_fields():
    assert config.check(SURV) is None
    assert config.check(with_(SURV, final=True)) is None
    assert field(with_(SURV, scores=None)) == "scores"
    assert field(with_(SURV, event_start=None)) == "event_start"
    assert field(with_(SURV, mode="knockout")) == "mode"


def test_survival_fields_are_checked():
    assert field(with_(SURV, scores=[120, 116, 42])) == "scores"
    assert field(with_(SURV, scores=[120, 116, 42, 0])) == "scores"  # a player at 0 is out: never seated
    assert field(with_(SURV, scores=[120, 116, 42, True])) == "scores"
    assert field(with_(SURV, final=1)) == "final"
    assert field(with_(SURV, event_start=-1)) == "event_start"
    assert field(with_(SURV, event_start="noon")) == "event_start"


def test_survival_fields_only_in_survival_mode():
    for k in ("scores", "event_start", "final"):
        assert field(with_(BASE, **{k: SURV[k]})) == k
        assert field(with_(BASE, mode="session", **{k: SURV[k]})) == k
    assert config.check(with_(BASE, mode="session")) is None


def test_ends_at_in_every_mode():
    assert config.check(with_(BASE, ends_at=1760007200)) is None
    assert config.check(with_(SURV, ends_at=1760007200)) is None
    assert field(with_(BASE, ends_at=1.5)) == "ends_at"


def test_a_session_record_carries_the_survival_config():
    rec = record.session(SURV, "box-1", 1760000100)
    assert record.validate(rec) is None and rec["mode"] == "survival" and rec["scores"] == [120, 116, 42, 42]
    bad = dict(rec, scores=[1, 2])
    assert "scores" in record.validate(bad)


def hand(**kw):
    # a survival box adds the three fields to the record hand() builds (firmware/survival.py)
    wins = [record.win(0, 3, 8, [[1, 1]])]
    rec = record.hand(SURV, 1, ["11", "12", "13", "14"], 0, "E", [], [32, -8, -8, -16],
                      [[3, 0, 16, "win"], [1, 0, 8, "win"], [2, 0, 8, "win"]], [], wins, 1, 1760000700)
    for k in kw:
        rec[k] = kw[k]
    return rec


def test_a_hand_carries_its_dice_roll_multiplier_and_scores():
    rec = hand(hand_start=1760000200, multiplier=1, scores=[152, 108, 34, 26])
    assert record.validate(rec) is None
    assert (rec["hand_start"], rec["multiplier"], rec["scores"]) == (1760000200, 1, [152, 108, 34, 26])
    assert record.validate(hand()) is None and "hand_start" not in hand()  # optional: sessions need none
    for k, v in (("hand_start", -5), ("hand_start", "0:30"), ("multiplier", 0), ("multiplier", True), ("scores", [1, 2, 3])):
        bad = dict(rec)
        bad[k] = v
        assert k in record.validate(bad), (k, v)


def test_a_survival_table_ends_at_the_bust():
    rec = record.session_end(SURV, 2, "bust", {"11": 24, "12": -8, "13": -8, "14": -8}, 1760000900)
    assert record.validate(rec) is None
    assert "reason" in record.validate(dict(rec, reason="busted"))
