"""Time is called for the hall, not for each table (issue 14: absolute times for every time limit).
The config's ends_at (protocol/config.py, epoch seconds) ends a session at that moment even when the
table began late; the table's own minutes still apply when they end sooner, and when the box does
not know the time (no CLOCK from a host since boot) it can only count its own minutes."""
from tests.app.helpers import MCR, Table

EPOCH = 1764400000          # helpers.Table: the box's clock 0 is this second
MIN = 60000


def started(tmp_path, cfg, at_ms, epoch=EPOCH, name="j"):
    t = Table(tmp_path, name=name)
    t.app.epoch = epoch
    t.ms = at_ms
    assert t.app.push_config(cfg) is None
    assert t.app.state == "main", t.app.state
    return t


def at(t, ms):
    t.ms = ms
    t.app.tick()
    return t.app.state


def test_a_table_that_began_late_stops_at_the_halls_deadline(tmp_path):
    # the hall starts at clock 0 with 90 minutes; this table's players sat down 10 minutes late
    t = started(tmp_path, dict(MCR, minutes=90, ends_at=EPOCH + 90 * 60), 10 * MIN)
    assert at(t, 89 * MIN) == "main"
    assert t.app.session.time_left_ms(t.ms, t.app.epoch) == MIN
    assert at(t, 90 * MIN) == "timeout"          # not at 100 minutes, its own start + 90


def test_the_title_counts_down_to_the_deadline(tmp_path):
    t = started(tmp_path, dict(MCR, minutes=90, ends_at=EPOCH + 90 * 60), 30 * MIN)
    own = started(tmp_path, dict(MCR, minutes=90), 30 * MIN, name="own")
    at(t, 40 * MIN)
    at(own, 40 * MIN)
    assert t.app.session.time_left_ms(t.ms, t.app.epoch) == 50 * MIN
    assert own.app.session.time_left_ms(own.ms, own.app.epoch) == 80 * MIN
    assert "50" in t.app.screen()[0] and "80" in own.app.screen()[0]


def test_the_tables_own_minutes_when_they_end_sooner(tmp_path):
    t = started(tmp_path, dict(MCR, minutes=30, ends_at=EPOCH + 90 * 60), 0)
    assert at(t, 29 * MIN) == "main"
    assert at(t, 30 * MIN) == "timeout"


def test_without_the_time_the_box_counts_its_own_minutes(tmp_path):
    # epoch 0: no host has told this box the time since it booted; ends_at cannot be placed
    t = started(tmp_path, dict(MCR, minutes=90, ends_at=EPOCH + 60 * 60), 10 * MIN, epoch=0)
    assert at(t, 99 * MIN) == "main"
    assert at(t, 100 * MIN) == "timeout"


def test_a_deadline_already_past_calls_time_at_once(tmp_path):
    t = started(tmp_path, dict(MCR, minutes=90, ends_at=EPOCH - 60), 0)
    assert at(t, 1) == "timeout"

