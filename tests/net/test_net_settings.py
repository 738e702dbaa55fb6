"""Wi-Fi name, password and server address set over the USB link (NET, authenticated; the sync
tool's --wifi FILE), never typed on the keypad; read back without the password."""
import json
import subprocess
import sys

import pytest

from firmware.link.engine import Link
from firmware.net import settings as S
from firmware.net.link_request import attach
from host_tools import sync
from tests.sync.helpers import REPO, FakeApp, ThreadDevice, journal_with, key_for, write_keys

WIFI = {"ssid": "hall 2F", "password": "pässword 1", "server": "http://10.0.0.2:8000"}


def net_box(tmp_path, device="box-w1"):
    j = journal_with(tmp_path / "j", [])
    app = FakeApp(j, device)

    def make(port):
        lk = Link(app, port, str(tmp_path / "device.key"))
        lk._store_key(key_for(device))
        attach(lk, str(tmp_path))
        return lk
    return ThreadDevice(make)


def test_sync_sets_the_network_and_reads_it_back(tmp_path):
    keys = write_keys(tmp_path / "keys.json", ["box-w1"])
    with net_box(tmp_path) as dev:
        sync.sync(dev.path, key_file=keys, wifi=WIFI, wake=0, timeout=0.3)
        assert S.load(str(tmp_path)) == WIFI
        # read back (authenticated too): no password
        from host_tools.sync.client import Box, HostLink, open_serial
        from protocol import frames as F
        ser = open_serial(dev.path)
        try:
            box = Box(HostLink(ser, timeout=0.3))
            box.hello()
            box.key = key_for("box-w1")
            assert json.loads(box.authed(F.T_NET, b"")) == {"ssid": "hall 2F", "server": "http://10.0.0.2:8000"}
        finally:
            ser.close()


def test_without_the_key_nothing_changes(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"box-w1": "11" * 32}))
    with net_box(tmp_path) as dev:
        with pytest.raises(sync.SyncError):
            sync.sync(dev.path, key_file=str(other), wifi=WIFI, wake=0, timeout=0.3)
        assert S.load(str(tmp_path)) is None
        assert dev.link.denied >= 1


def test_bad_settings_are_refused_by_the_box_and_the_tool(tmp_path):
    keys = write_keys(tmp_path / "keys.json", ["box-w1"])
    for bad in ({"ssid": "x", "password": "y"}, dict(WIFI, server="https://x"), dict(WIFI, ssid="x" * 200), dict(WIFI, ssid=5)):
        assert S.check(bad)
    with net_box(tmp_path) as dev:
        from host_tools.sync.client import Box, HostLink, open_serial
        from protocol import frames as F
        ser = open_serial(dev.path)
        try:
            box = Box(HostLink(ser, timeout=0.3))
            box.hello()
            box.key = key_for("box-w1")
            with pytest.raises(sync.SyncError, match="http://"):
                box.authed(F.T_NET, json.dumps(dict(WIFI, server="ftp://x")).encode())
            with pytest.raises(sync.SyncError, match="JSON"):
                box.authed(F.T_NET, b"\xff{")
        finally:
            ser.close()
        assert S.load(str(tmp_path)) is None
    f = tmp_path / "wifi.json"
    f.write_text(json.dumps(dict(WIFI, server="10.0.0.2")))
    r = subprocess.run([sys.executable, "-m", "host_tools", "sync", "--port", "/nonexistent", "--wifi", str(f)],
                       capture_output=True, text=True, cwd=REPO, timeout=60)
    assert r.returncode != 0 and "server: an http:// address" in r.stderr, r.stderr
