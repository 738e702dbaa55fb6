"""The box online on its screens (firmware/net/screen.py), on the simulator's box with a
network against the stand-in server: the main screen's synced mark, the status screen (key 9),
the referee call (key 0), confirmed only by an answer made with the device key."""
import os

from firmware import main as fw
from firmware.link import store
from simulator import push as spush
from simulator.runner import Sim

from .standin import StandIn

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "simulator", "scenarios", "mcr_session.txt")


def first_hands(n=2):
    out = []
    with open(SCRIPT) as f:
        for ln in f:
            if ln.strip() == "# hand %d" % (n + 1):
                break
            out.append(ln)
    return out


def online_box(tmp_path, srv, key, device="box-s1"):
    store.store_key(str(tmp_path / "device.key"), key)
    sim = Sim(cfg=spush.network_board(spush.parts_sim(), srv.url, backoff_max=500), folder=str(tmp_path),
              port=spush.unplugged(), device_id=device)
    for ln in first_hands():
        sim.line(ln)
    sim.real_time()
    return sim


def loop_until(sim, pred, seconds=10):
    import time
    end = time.monotonic() + seconds
    fw.serve(sim.dev, hook=lambda dev, n: pred() or time.monotonic() > end)
    return pred()


def title(sim):
    return sim.dev.screen()[0]


def test_synced_mark_status_screen_and_referee_call(tmp_path):
    key = os.urandom(32)
    srv = StandIn(key, "box-s1")
    try:
        sim = online_box(tmp_path, srv, key)
        assert sim.app.state == "main"
        assert loop_until(sim, lambda: sim.dev.net.status()[3] == 0)
        assert title(sim).endswith(" \u25cf"), title(sim)  # ●: all on the server
        sim.journal.append(b"\x01{}")  # a record not yet pushed
        assert title(sim).endswith(" \u25cb")  # ○
        plain = sim.app.screen()[0]
        assert title(sim) == plain + " \u25cb"
        # key 9: the status screen, in the box's language (Chinese unless set); any key back
        assert sim.app.lang == "cn"
        sim.dev.key("9")
        t, lines, hint = sim.dev.screen()[:3]
        assert t == "网络" and lines[0] == "无线: 已连接" and "未同步: 1" in lines and hint == "任意键返回", (t, lines, hint)
        assert "上次上传: 从未" not in lines and any(ln.startswith("上次上传: ") and ln.endswith("秒前") for ln in lines), lines
        sim.app.lang = "en"
        t, lines, hint = sim.dev.screen()[:3]
        assert t == "Network" and lines[0] == "wifi: up" and "not synced: 1" in lines and hint == "any key: back"
        sim.app.lang = "cn"
        sim.dev.key("5")
        assert sim.app.state == "main" and title(sim).startswith(plain)
        # key 0: the referee call, confirmed by the stand-in with the key
        sim.dev.key("0")
        assert title(sim) == "呼叫裁判中..."
        assert loop_until(sim, lambda: sim.dev.net.pusher.call.done_at is not None)
        assert srv.calls == 1 and title(sim) == "已叫裁判 " + plain + " \u25cb"
    finally:
        srv.close()


def test_a_call_without_the_keys_answer_is_not_confirmed(tmp_path):
    key = os.urandom(32)
    srv = StandIn(None, "box-s1", mode="nokey")
    try:
        sim = online_box(tmp_path, srv, key)
        sim.dev.key("0")
        assert not loop_until(sim, lambda: sim.dev.net.pusher.call.done_at is not None, seconds=2)
        assert title(sim) == "呼叫裁判中..." and sim.dev.net.pusher.call.tries >= 1
        assert sim.dev.net.status()[1] in ("referee call not confirmed", "server lacks key")
        sim.dev.key("9")  # the status screen words the problem
        lines = sim.dev.screen()[1]
        assert "! 呼叫裁判未确认" in lines or "! 服务器无本盒密钥" in lines, lines
    finally:
        srv.close()


def test_a_board_without_network_keeps_keys_9_and_0_as_they_were(tmp_path):
    sim = Sim(cfg=spush.parts_sim(), folder=str(tmp_path), device_id="box-s2")
    for ln in first_hands(1):
        sim.line(ln)
    before = sim.dev.screen()
    assert sim.dev.net is None
    sim.dev.key("9")
    sim.dev.key("0")
    after = sim.dev.screen()
    assert sim.app.state == "main" and after[0] == before[0] and "\u25cf" not in after[0] and "\u25cb" not in after[0]
    assert list(after[1]) == [ln for ln in before[1] if not ln.startswith("! ")]  # the key only cleared "saved"
