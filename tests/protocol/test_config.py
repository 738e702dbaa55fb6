# protocol/config.py: the session config check the box, the sync tool and the server share.
# The configs of issue 11 that the box took and the server then refused are refused here.
from protocol import config

GOOD = {"tournament": "T", "session": 1, "table": 7, "rules": "mcr", "players": ["11", "12", "13", "14"],
        "first_dealer": 0}


def cfg(**kw):
    c = {}
    for k in GOOD:
        c[k] = GOOD[k]
    for k in kw:
        if kw[k] is None:
            del c[k]
        else:
            c[k] = kw[k]
    return c


def field(c):
    e = config.check(c)
    return None if e is None else e[0]


def test_a_full_config_passes():
    assert config.check(GOOD) is None
    assert config.check(cfg(hands=8, minutes=60, lang="en", rules="sichuan")) is None


def test_the_faults_of_issue_11_are_refused():
    assert field(cfg(session="one")) == "session"
    assert field(cfg(table=[7])) == "table"
    assert field(cfg(session=2147483647)) == "session"
    assert field(cfg(first_dealer=None)) == "first_dealer"


def test_session_and_table_run_1_to_10000():
    for k in ("session", "table"):
        assert field(cfg(**{k: 1})) is None
        assert field(cfg(**{k: 10000})) is None
        assert field(cfg(**{k: 0})) == k
        assert field(cfg(**{k: 10001})) == k
        assert field(cfg(**{k: True})) == k
        assert field(cfg(**{k: 3.0})) == k


def test_players_four_distinct_printable_ids():
    assert field(cfg(players=["1", "2", "3"])) == "players"
    assert field(cfg(players=["1", "2", "3", "3"])) == "players"
    assert field(cfg(players=["1", "2", "3", 4])) == "players"
    assert field(cfg(players=["1", "2", "3", ""])) == "players"
    assert field(cfg(players=["1", "2", "3", "x" * 17])) == "players"
    assert field(cfg(players=["1", "2", "3", "a\nb"])) == "players"
    assert field(cfg(players=["1", "2", "3", " 4"])) == "players"
    assert field(cfg(players="1234")) == "players"


def test_other_fields():
    assert field(cfg(rules="riichi")) == "rules"
    assert field(cfg(first_dealer=4)) == "first_dealer"
    assert field(cfg(first_dealer=False)) == "first_dealer"
    assert field(cfg(tournament="")) == "tournament"
    assert field(cfg(tournament="x" * 65)) == "tournament"
    assert field(cfg(hands=0)) == "hands"
    assert field(cfg(minutes=601)) == "minutes"
    assert field(cfg(lang="fr")) == "lang"
    assert field(cfg(colour="red")) == "colour"
    assert config.check([GOOD]) == ("config", "the config must be an object")


def test_messages_name_the_field():
    assert "session" in config.message(cfg(session="one"))
    assert "first_dealer" in config.message(cfg(first_dealer=None))
    assert config.message(GOOD) is None


def test_defaults_fill_a_copy():
    c = config.with_defaults(cfg(rules="sichuan"))
    # RULES.md: a Sichuan table has no time limit unless the organizer sets one (no minutes)
    assert c["hands"] == 8 and "minutes" not in c and c["lang"] == "cn"
    assert config.with_defaults(cfg(rules="sichuan", minutes=90))["minutes"] == 90
    assert config.with_defaults(cfg())["minutes"] == 120
    assert "hands" not in GOOD
    assert config.with_defaults(cfg(hands=4))["hands"] == 4
