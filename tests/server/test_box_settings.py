"""Issue 18.6: the organizer sets the language and the referee PIN of the tournament's boxes;
every session config the server gives carries them (host_tools/server/boxes/box_settings.py),
the PIN as its MAC with that box's key: a config is fetched without a login, and the PIN is in
no config, no audit entry, no page a non-organizer reads. The box (firmware/app.py) then takes
exactly that PIN."""
import hashlib
import hmac
import json

from firmware.app import App
from firmware.journal import Journal
from firmware.link import store
from protocol import config as pconfig

from .conftest import PASSWORD, uid
from .helpers import Device


def mac(key, device, pin):
    """The PIN's MAC as protocol/sign.py defines it, made with CPython's hmac (not sign.py)."""
    return hmac.new(key, b"pin\x00" + device.encode() + b"\x00" + pin.encode(), hashlib.sha256).digest()[:16].hex()


def seated(server):
    tid = server.tournament("mcr_000", players=["p%02d" % i for i in range(1, 9)])
    s = "/api/tournaments/%s/seatings/1" % tid
    assert server.org.post(s, {"method": "draw"})[0] == 201
    assert server.org.post(s + "/publish")[0] == 200
    dev = Device(uid("bs"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 1})[0] == 201
    return tid, dev


def test_the_organizer_sets_the_boxes_language_and_pin(server, tmp_path):
    tid, dev = seated(server)
    path = "/api/tournaments/%s/box-settings" % tid
    cfg_path = "/api/boxes/%s/config" % dev.id
    st, cfg = server.anon.get(cfg_path)
    # nothing set: Chinese and the factory PIN, sent too (a box from another tournament forgets its PIN)
    assert st == 200 and cfg["lang"] == "cn" and cfg["pin_mac"] == mac(dev.key, dev.id, pconfig.FACTORY_PIN)
    assert server.org.get(path)[1] == {"lang": "cn", "pin": None, "factory_pin": True}
    # organizers only
    assert server.anon.get(path)[0] == 401
    assert server.ref.get(path)[0] == 403
    assert server.ref.json("PUT", path, {"pin": "4711"})[0] == 403
    for bad in ({"pin": "123"}, {"pin": "12a4"}, {"pin": "123456789"}, {"pin": 4711}, {"lang": "fr"},
                {"pin": "4711", "factory_pin": True}, {"colour": "red"}):
        assert server.org.json("PUT", path, bad)[0] in (400, 422), bad
    assert server.org.get(path)[1]["factory_pin"] is True   # nothing of that was stored
    st, out = server.org.json("PUT", path, {"pin": "4711", "lang": "en"})
    assert st == 200 and out == {"lang": "en", "pin": "4711", "factory_pin": False}
    st, cfg = server.anon.get(cfg_path)
    assert st == 200 and cfg["lang"] == "en" and cfg["pin_mac"] == mac(dev.key, dev.id, "4711")
    assert "4711" not in json.dumps(cfg) and pconfig.check(cfg) is None
    log = server.org.get("/api/audit?tournament=" + tid)[1]
    assert any(a["action"] == "boxes.settings" for a in log) and "4711" not in json.dumps(log)
    # the box takes that PIN and language from the config, with its key
    store.store_key(str(tmp_path / "device.key"), dev.key)
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id=dev.id, settings=str(tmp_path / "boxset"),
              keyfile=str(tmp_path / "device.key"))
    assert app.push_config(cfg) is None
    assert app.lang == "en" and app.pin_ok("4711") and not app.pin_ok(pconfig.FACTORY_PIN)
    # the language alone keeps the PIN; factory_pin sets it back
    assert server.org.json("PUT", path, {"lang": "cn"})[1] == {"lang": "cn", "pin": "4711", "factory_pin": False}
    assert server.org.json("PUT", path, {"factory_pin": True})[1] == {"lang": "cn", "pin": None, "factory_pin": True}
    assert server.anon.get(cfg_path)[1]["pin_mac"] == mac(dev.key, dev.id, pconfig.FACTORY_PIN)


def test_another_tournaments_organizer_cannot_read_or_set_them(server):
    tid, dev = seated(server)
    other = server.tournament("mcr_000", players=["q%02d" % i for i in range(1, 5)])
    path = "/api/tournaments/%s/box-settings" % tid
    assert server.org.json("PUT", path, {"pin": "9876"})[0] == 200
    name = uid("org2")
    assert server.org.post("/api/accounts", {"username": name, "password": PASSWORD, "tournament": other,
                                             "role": "organizer"})[0] == 201
    them = server.login(name)
    assert them.get("/api/tournaments/%s/box-settings" % other)[0] == 200   # their own
    assert them.get(path)[0] == 403 and them.json("PUT", path, {"pin": "1111"})[0] == 403
    assert server.org.get(path)[1]["pin"] == "9876"
    assert server.org.get("/api/tournaments/%s/box-settings" % uid("nope"))[0] == 404


def test_the_config_names_the_players_as_registered(server):
    tid = server.tournament("mcr_000", players=["p1", "p2", "p3", "p4"])
    names = {"p1": "李明", "p2": "Zoë Ødegård", "p3": "Jean   Dupont", "p4": "A" * 40}
    st, _ = server.org.post("/api/tournaments/%s/players" % tid, [{"id": p, "name": n} for p, n in names.items()])
    assert st == 200
    s = "/api/tournaments/%s/seatings/1" % tid
    assert server.org.post(s, {"method": "draw"})[0] == 201
    assert server.org.post(s + "/publish")[0] == 200
    dev = Device(uid("nm"))
    assert server.org.post("/api/devices", {"id": dev.id, "key": dev.key.hex(), "tournament": tid, "table": 1})[0] == 201
    st, cfg = server.anon.get("/api/boxes/%s/config" % dev.id)
    assert st == 200 and pconfig.check(cfg) is None
    want = {"p1": "李明", "p2": "Zoë Ødegård", "p3": "Jean Dupont", "p4": "A" * pconfig.NAME_MAX}
    assert cfg["names"] == [want[p] for p in cfg["players"]]   # by chair, as the players are
