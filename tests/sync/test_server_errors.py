"""Issue 19 item 8, the sync tool's side: a server error on one record never blocks a box for
good. The tool tries a failing request a bounded number of times, then sends the batch record by
record; a record the server keeps failing on while it takes the others is set aside (quarantine
folder and the box's list, offered again next run); a server that answers 5xx to everything is
reported as failing (with its status), one that answers nothing as unreachable, and nothing is
acknowledged or set aside then. Boxes on real ptys, the minimal server of miniserver.py."""
import json
import socket

import pytest

from host_tools import sync

from .helpers import key_for, write_keys
from .miniserver import MiniServer
from .test_sync_pty import FAST, run_cli, thread_box  # noqa: F401  (the fixture)


def test_a_record_the_server_fails_on_is_set_aside_and_the_others_go_on(tmp_path, thread_box):
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    quar = tmp_path / "quarantine"
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        srv.store.crash = {("box-1", 3)}
        args = ("--port", dev.path, "--server", srv.url, "--timeout", "0.2", "--key-file", keys, "--quarantine", str(quar))
        code, out, err = run_cli(*args)
        lines = out.splitlines()
        assert code == 3 and lines[0] == "pulled 19, uploaded 18, already known 0, refused 1, set aside 1", (out, err)
        assert "set aside: record 3: HTTP 500: Internal Server Error" in lines
        assert "unreachable" not in err
        assert len(srv.store.records) == 18 and ("box-1", 3) not in srv.store.records
        assert dev.link.acked == 19 and [q for q, _ in dev.link.aside] == [3]
        assert srv.store.tries[("box-1", 3)] <= 6  # three tries of its batch, three of itself: bounded
        assert json.load(open(quar / "box-1" / "0000000003.json"))["status"] == 500
        # the server is fixed: the next run offers it again and the box lets it go
        srv.store.crash = set()
        code, out, err = run_cli(*args)
        assert code == 0 and "released: record 3 was taken by the server on a retry" in out, (out, err)
        assert dev.link.aside == [] and len(srv.store.records) == 19


def test_a_server_failing_on_everything_is_said_to_fail_and_nothing_is_set_aside(tmp_path, thread_box):
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        srv.down = True  # 503 to every request, its health check too
        with pytest.raises(sync.ServerError) as e:
            sync.sync(dev.path, server=srv.url, key_file=keys, quarantine=str(tmp_path / "q"), **FAST)
        assert "answered HTTP 503 to every record" in str(e.value) and "unreachable" not in str(e.value)
        assert dev.app.j.acked == 0 and dev.link.aside == [] and not (tmp_path / "q").exists()


def test_a_server_that_answers_nothing_is_unreachable(tmp_path, thread_box):
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nobody listens there
    with pytest.raises(sync.ServerError, match="unreachable"):
        sync.sync(dev.path, server="http://127.0.0.1:%d" % port, key_file=keys, **FAST)
    assert dev.app.j.acked == 0


def test_the_box_head_goes_in_a_signed_report(tmp_path, thread_box):
    dev = thread_box()
    keys = write_keys(tmp_path / "keys.json", ["box-1"])
    with MiniServer({"box-1": key_for("box-1")}) as srv:
        sync.sync(dev.path, server=srv.url, key_file=keys, **FAST)
        assert srv.heads == {"box-1": 19}  # the miniserver checked its signature
    with MiniServer({"box-1": bytes(32)}) as srv:  # a server with another key for the box refuses the report
        s = sync.sync(dev.path, server=srv.url, key_file=keys, **FAST)
        assert srv.heads == {} and "403" in s.head
