"""`--port auto` and the simulator's marker file (host_tools.sync.client.find_port): the marker
names the simulator's pty and pid; a marker left by a killed simulator is not believed (its pty
number goes to the next terminal opened), and the error says why."""
import os
import subprocess
import sys

import pytest

from host_tools.sync import SyncError, find_port

from .helpers import open_pty


@pytest.fixture
def marker(tmp_path, monkeypatch):
    m = tmp_path / "sim.port"
    monkeypatch.setenv("MAHJONG_TABLE_SIM_MARKER", str(m))
    monkeypatch.delenv("MAHJONG_TABLE_PORT", raising=False)
    monkeypatch.setenv("MAHJONG_TABLE_USB_IDS", "ffff:fffe")  # no real USB box counts here
    return m


def test_a_running_simulators_pty(marker):
    master, slave, path = open_pty()
    try:
        marker.write_text("%s\n%d\n" % (path, os.getpid()))
        assert find_port() == path
        marker.write_text(path + "\n")  # a marker of an older simulator: the path alone
        assert find_port() == path
    finally:
        os.close(master)
        os.close(slave)


def test_a_killed_simulators_marker_is_not_believed(marker):
    master, slave, path = open_pty()  # the pty exists: someone else's terminal now
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    try:
        marker.write_text("%s\n%d\n" % (path, dead.pid))
        with pytest.raises(SyncError, match="pid %d\\) is gone" % dead.pid):
            find_port()
    finally:
        os.close(master)
        os.close(slave)


def test_no_marker_or_a_gone_pty(marker, tmp_path):
    with pytest.raises(SyncError, match="no simulator announced"):
        find_port()
    marker.write_text("%s\n%d\n" % (tmp_path / "pts-gone", os.getpid()))
    with pytest.raises(SyncError, match="pty .* is gone"):
        find_port()
