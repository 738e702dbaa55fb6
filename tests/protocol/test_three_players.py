# Three-player tables in protocol/ (issue 14): one null chair in players (seed 000 §一.3 若有三人，
# 正常比赛，打15盘; seed 004 §三.1 此时若有三人，则继续比赛); what else is refused.
from protocol import config

BASE = {"tournament": "T", "session": 5, "table": 2, "rules": "mcr", "players": ["11", "12", "13", None], "first_dealer": 0}


def with_(c, **kw):
    out = dict(c)
    out.update(kw)
    return out


def field(c):
    e = config.check(c)
    return None if e is None else e[0]


def test_one_empty_chair_for_mcr_and_guangdong():
    assert config.check(BASE) is None
    assert config.check(with_(BASE, rules="guangdong", players=[None, "1", "2", "3"], first_dealer=1)) is None


def test_mcr_three_play_15_hands_guangdong_its_12():
    assert config.with_defaults(BASE)["hands"] == 15
    assert config.with_defaults(with_(BASE, rules="guangdong"))["hands"] == 12
    assert config.with_defaults(with_(BASE, hands=9))["hands"] == 9     # the server's number stands
    assert config.with_defaults(with_(BASE, players=["1", "2", "3", "4"]))["hands"] == 16


def test_what_a_three_player_table_refuses():
    assert field(with_(BASE, players=["11", None, "13", None])) == "players"       # two present: no play
    assert field(with_(BASE, players=[None, None, None, None])) == "players"
    assert field(with_(BASE, rules="sichuan")) == "players"
    assert field(with_(BASE, first_dealer=3)) == "first_dealer"                   # nobody deals there
    surv = with_(BASE, mode="survival", scores=[50, 50, 50, 50], event_start=1760000000)
    assert field(surv) == "players"
    assert "empty" in config.message(with_(BASE, players=["11", None, None, "14"]))
