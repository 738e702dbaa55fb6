"""Issue 18.5 on the box: a referee's time extension reaches the box at its next contact (the
server's config for the running session, its minutes and absolute ends_at, extensions included:
host_tools/server/tournaments/clock.py box_time) and the box shows it; the session plays on,
whatever step the table is in. Any other config while a session runs is refused as before."""
from tests.app.helpers import MCR, WIN, Table

EPOCH = 1764400000          # helpers.Table: the box's clock 0 is this second
MIN = 60000
CFG = dict(MCR, minutes=90, ends_at=EPOCH + 90 * 60, lang="en")


def started(tmp_path):
    t = Table(tmp_path)
    t.app.epoch = EPOCH
    assert t.app.push_config(CFG) is None
    return t


def at(t, ms):
    t.ms = ms
    t.app.tick()
    return t.app.state


def test_an_extension_moves_the_deadline_and_the_box_says_so(tmp_path):
    t = started(tmp_path)
    n = len(t.records())
    at(t, 80 * MIN)
    t.keys("A1")                                         # the table is keying a win
    assert t.app.push_config(dict(CFG, minutes=100, ends_at=EPOCH + 100 * 60)) is None
    assert t.app.state == "win_from"                     # the step goes on
    assert "! Time: 20 min left |" in t.screen_text()
    assert len(t.records()) == n                         # nothing recorded: the session is the same
    t.keys("0").tap(WIN).keys("1234")
    assert at(t, 95 * MIN) == "main"                     # past the old deadline
    assert "5min" in t.app.screen()[0]
    assert at(t, 100 * MIN) == "timeout"


def test_time_taken_back_calls_it_sooner(tmp_path):
    t = started(tmp_path)
    assert t.app.push_config(dict(CFG, minutes=30, ends_at=EPOCH + 30 * 60)) is None
    assert at(t, 30 * MIN) == "timeout"


def test_time_called_and_not_yet_closed_plays_on_after_an_extension(tmp_path):
    t = started(tmp_path)
    assert at(t, 90 * MIN) == "timeout"
    assert t.app.push_config(dict(CFG, minutes=100, ends_at=EPOCH + 100 * 60)) is None
    assert t.app.state == "main" and not t.app.session.ended
    assert at(t, 100 * MIN) == "timeout"


def test_minutes_of_a_table_without_a_hall_start(tmp_path):
    t = Table(tmp_path)
    assert t.app.push_config(dict(MCR, minutes=60)) is None
    assert t.app.push_config(dict(MCR, minutes=70)) is None
    assert at(t, 65 * MIN) == "main" and at(t, 70 * MIN) == "timeout"


def test_another_sessions_config_is_refused_while_one_runs(tmp_path):
    t = started(tmp_path)
    for other in (dict(CFG, session=2), dict(CFG, table=8), dict(CFG, players=["101", "102", "103", "105"]),
                  dict(CFG, rules="guangdong"), dict(CFG, first_dealer=1)):
        assert t.app.push_config(other) == "a session is running", other
    assert t.app.push_config(dict(CFG, ends_at=-5)) is not None   # the one check still applies
    assert t.app.session.cfg["ends_at"] == EPOCH + 90 * 60


def test_an_extension_survives_a_power_cut(tmp_path):
    # the extension reaches the box only with a config, which the table may not see again
    # before its old deadline: the box keeps it on flash (firmware/session_time.py)
    from firmware.app import App
    timefile = str(tmp_path / "sessiontime")

    def boot(t):
        t.journal = type(t.journal)(t.dir)
        t.app = App(t.journal, lambda: t.ms, device_id="box-1", lang="en", epoch=EPOCH, timefile=timefile)

    t = Table(tmp_path)
    boot(t)
    assert t.app.push_config(CFG) is None
    assert t.app.push_config(dict(CFG, minutes=100, ends_at=EPOCH + 100 * 60)) is None
    t.ms = 80 * MIN
    boot(t)                                               # the power cut, then the box again
    assert t.app.session.cfg["ends_at"] == EPOCH + 100 * 60 and t.app.session.limit_ms == 100 * MIN
    assert at(t, 95 * MIN) == "main" and at(t, 100 * MIN) == "timeout"


def test_an_earlier_sessions_extension_is_not_this_ones(tmp_path):
    from firmware import session_time
    timefile = str(tmp_path / "sessiontime")
    session_time.save(timefile, dict(CFG, minutes=100))
    assert session_time.load(timefile, CFG) == (100, EPOCH + 90 * 60)
    for other in (dict(CFG, session=2), dict(CFG, table=8), dict(CFG, tournament="other")):
        assert session_time.load(timefile, other) is None
    with open(timefile, "w") as f:
        f.write('{"minutes": "lots"')                   # a cut mid-write of a port without rename
    assert session_time.load(timefile, CFG) is None
