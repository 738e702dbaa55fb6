"""Issue 18.6: the config the server gives a box carries the registered names its fonts may not
draw as bitmaps (name_bitmaps, host_tools/server/boxes/name_bitmaps.py), and the box shows them
in place of the players' numbers (tests/app/test_name_bitmaps.py checks the pixels)."""
import json

from firmware.app import App
from firmware.journal import Journal
from firmware.ui import framebuf_py, render
from protocol import config as pconfig

from .conftest import uid
from .helpers import Device

NAMES = {"p1": "李明", "p2": "Zoë Ødegård", "p3": "Jean Dupont", "p4": "欧阳娜娜"}


def test_the_config_carries_the_names_beyond_ascii_drawn(server, tmp_path):
    tid = server.tournament("mcr_000", players=list(NAMES))
    assert server.org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": n} for p, n in NAMES.items()])[0] == 200
    s = "/api/tournaments/%s/seatings/1" % tid
    assert server.org.post(s, {"method": "draw"})[0] == 201
    assert server.org.post(s + "/publish")[0] == 200
    dev = Device(uid("nb"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 1})[0] == 201
    st, cfg = server.anon.get("/api/boxes/%s/config" % dev.id)
    assert st == 200 and pconfig.check(cfg) is None
    art = cfg["name_bitmaps"]
    for chair, p in enumerate(cfg["players"]):
        if p == "p3":
            assert art[chair] is None          # plain ASCII: the box draws it itself
        else:
            w, h, base, rows = pconfig.bitmap(art[chair])
            assert h == 12 and base == 10 and 0 < w <= pconfig.NAME_PX_MAX and any(rows)
    # the four bitmaps within the box's budget: 3 + 12 rows x 12 bytes each at most
    assert sum(len(pconfig.bitmap(a)[3]) + 3 for a in art if a) <= 4 * (3 + 12 * 12)
    # the box takes it and names the players by the bitmaps, not by number
    if render.framebuf is None:
        render.use_framebuf(framebuf_py)

    class Display:
        r = render.Renderer(128, 64)

    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id=dev.id)
    app.fit(Display())
    assert app.push_config(cfg) is None
    shown = json.dumps(app.screen(), ensure_ascii=False)
    assert "Jean Dupont" in shown
    for chair, p in enumerate(cfg["players"]):
        assert p not in shown
        if p != "p3":
            assert chr(0xE000 + chair) in shown
