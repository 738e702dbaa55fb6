"""A box's journal, link and network side without the rest of the firmware (tests/net)."""
from __future__ import annotations

import time
from types import SimpleNamespace

from firmware.link.engine import Link
from firmware.net import start
from tests.sync.helpers import FakeApp, journal_with, key_for, session_payloads


def box(tmp_path, url, device="box-n1", sessions=1, keyed=True, sockets=None):
    j = journal_with(tmp_path / "j", [p for s in range(1, sessions + 1) for p in session_payloads(s, device)])
    app = FakeApp(j, device)
    link = Link(app, None, str(tmp_path / "device.key"))
    if keyed:
        link._store_key(key_for(device))
    netcfg = {"driver": "host", "server": url}
    if sockets is not None:
        netcfg["sockets"] = sockets
    dev = SimpleNamespace(app=app, link=link)
    return SimpleNamespace(j=j, app=app, link=link, net=start(dev, netcfg, str(tmp_path)), key=key_for(device), device=device)


def run_until(b, pred, timeout=10.0, now=None):
    """Step the box's network side as the device loop does (with its 5 ms wait) until pred()."""
    end = time.monotonic() + timeout
    steps = 0
    while time.monotonic() < end:
        b.net.step(b.app.clock() if now is None else now())
        steps += 1
        if pred():
            return steps
        time.sleep(0.002)
    return None
