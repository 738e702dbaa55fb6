"""What the box does with a config whose MACs checked (firmware/net/fetch.py Fetcher._config):
between sessions it starts the next one but never again the one it played; during a session it
takes that session's new time (a referee's extension) and keeps another session's config for
later; in the middle of a flow it waits. The real App and journal, no network (the network
half: tests/server/test_box_push_fetch.py)."""
import json
from types import SimpleNamespace

from firmware.app import App
from firmware.journal import Journal
from firmware.net.fetch import Fetcher


def config(session, **more):
    c = {"rules": "mcr", "tournament": "T1", "session": session, "table": 3, "players": ["P1", "P2", "P3", "P4"], "first_dealer": 0}
    c.update(more)
    return json.dumps(c)


def box(tmp_path):
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="box-f1")
    dev = SimpleNamespace(app=app, link=None, dirty=False)
    return app, Fetcher(dev, ("127.0.0.1", 9, ""), None, None, None)


def test_between_sessions_the_next_starts_and_the_played_one_never_again(tmp_path):
    app, f = box(tmp_path)
    f._config(app, config(1))
    s1 = app.session
    assert s1 is not None and s1.cfg["session"] == 1 and app.state == "main" and f.configs == 1
    app.end_session("time")
    assert app.state == "ended"
    n = app.j.last_seq
    f._config(app, config(1))  # the server has not published session 2 yet
    assert app.session is s1 and app.j.last_seq == n and f.configs == 1
    f._config(app, config(2))
    assert app.session.cfg["session"] == 2 and app.state == "main" and f.configs == 2 and app.j.last_seq == n + 1


def test_a_running_session_takes_its_new_time_and_leaves_another_session_for_later(tmp_path):
    app, f = box(tmp_path)
    f._config(app, config(1, minutes=120))
    s = app.session
    n = app.j.last_seq
    f._config(app, config(1, minutes=120))  # nothing new: nothing said
    assert not app.msg and f.configs == 1
    f._config(app, config(1, minutes=130))
    assert s.limit_ms == 130 * 60000 and app.session is s and f.configs == 2 and app.msg
    f._config(app, config(2))
    assert app.session is s and s.cfg["session"] == 1 and f.why == "next session waits" and app.j.last_seq == n


def test_a_flow_under_way_is_not_interrupted(tmp_path):
    app, f = box(tmp_path)
    app.go("setup")  # keying in a session at the table
    f._config(app, config(1))
    assert app.session is None and app.state == "setup" and f.configs == 0


def test_a_config_the_box_refuses_says_why_and_changes_nothing(tmp_path):
    app, f = box(tmp_path)
    f._config(app, config(1, players=["P1", "P1", "P3", "P4"]))
    assert app.session is None and f.problem.startswith("config refused: ") and app.j.last_seq == 0
    f._config(app, "[1, 2]")
    assert app.session is None and f.problem == "config is not a JSON object"
