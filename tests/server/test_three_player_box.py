"""A three-player MCR table played on the box and scored by the server, worked by hand from seed
000 §一.3 若同桌不足四人：若有三人，正常比赛，打15盘（5圈），标准分计4、2、1分. The box (firmware App
with a scripted clock) takes the config the server gives the table (the empty North chair null,
15 hands), plays it, and its signed records go up as a sync would send them."""
from __future__ import annotations

from firmware.app import App, decode
from firmware.journal import Journal
from rules_min.tiles import parse_tile

from .conftest import uid
from .helpers import Device
from .test_standings import seat, setup, standings, upload

KNIT = ("3m 4m 5m", "2m 5m 8m 1s 4s 8s 8s 3p 6p 9p 7s")   # [345m] claimed + 组合龙: 14 fans


def tap(app, copies, tiles):
    for name in tiles.split():
        t = parse_tile(name)
        n = copies.get(t, 0)
        copies[t] = n + 1
        app.tap(bytes((4, t, n, 1)), t)


def keys(app, s):
    for k in s.replace(" ", ""):
        app.press(k)


def test_a_three_player_box_table_scores_4_2_1(server, tmp_path):
    tid = setup(server, "mcr_000", players="ABCDEFGHIJKLMNO")
    seat(server, tid, 1, ["ABCD", "EFGH", "IJKL", "MNO"])
    dev = Device(uid("three"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 4})[0] == 201
    st, cfg = server.anon.get("/api/boxes/%s/config" % dev.id)
    assert st == 200 and cfg["players"] == ["M", "N", "O", None] and cfg["hands"] == 15, cfg
    ms = [0]
    app = App(Journal(str(tmp_path / "box")), lambda: ms[0], device_id=dev.id, epoch=1764400000)
    assert app.push_config(cfg) is None
    # hand 1: M wins the knitted straight on O's discard: 8 + 14 from O, 8 from N, nothing from
    # the empty chair -> M +30, N -8, O -22; then 14 hands without a win
    copies: dict = {}
    keys(app, "A13")
    tap(app, copies, KNIT[0])
    keys(app, "#")
    tap(app, copies, KNIT[1])
    keys(app, "123")
    for _ in range(14):
        ms[0] += 60000
        keys(app, "D2#")
    recs = [decode(bytes(p)) for _, p in app.j.records(1)]
    assert [r["kind"] for r in recs] == ["session"] + ["hand"] * 15 + ["session_end"]
    upload(server, [dev.next(r) for r in recs])
    body = standings(server, tid)
    rows = {r["player"]: (r["standard"], r["match"]) for r in body["standings"] if r["player"] in "MNO"}
    assert rows == {"M": ("4", "30"), "N": ("2", "-8"), "O": ("1", "-22")}, rows
    assert not [p for p in body["problems"] if "table 4" in p], body["problems"]
