"""Issue 18.6: the organizer sets the language and the referee PIN of the tournament's boxes on
the Boxes page (the API had them alone). The PIN is never shown back, not even after a refused
submit; an organizer of another tournament, or a referee, cannot set them; the config a box gets
then carries them (the PIN as its MAC with the box's key). SQLite and PostgreSQL."""
import re

from protocol import config as pconfig

from .conftest import PASSWORD, uid
from .form_session import FormSession, errors_on
from .test_box_binding import organizer_of
from .test_box_settings import mac, seated


def settings(server, tid):
    return server.org.get("/api/tournaments/%s/box-settings" % tid)[1]


def form(lang="cn", pin="", factory=False):
    f = {"action": "settings", "set-lang": lang, "set-pin": pin}
    if factory:
        f["set-factory_pin"] = "on"
    return f


def pin_input(body):
    m = re.search(r'<input[^>]*name="set-pin"[^>]*>', body)
    assert m, "no PIN field on the page"
    return m.group(0)


def test_the_organizer_sets_them_on_the_boxes_page(server):
    tid, dev = seated(server)
    org = FormSession(server.url, organizer_of(server, tid), PASSWORD)
    boxes = "/t/%s/manage/boxes" % tid
    st, _, body = org.get(boxes)
    assert st == 200 and 'id="box-settings"' in body and pconfig.FACTORY_PIN in body   # the factory PIN, stated
    assert 'type="password"' in pin_input(body) and "value=" not in pin_input(body)
    st, headers, _ = org.post(boxes, form("en", "4711"))
    assert st == 302, errors_on(_)
    assert settings(server, tid) == {"lang": "en", "pin": "4711", "factory_pin": False}
    st, _, body = org.get(boxes)
    assert "4711" not in body and "value=" not in pin_input(body)   # set, never shown back
    assert 'value="en" selected' in body
    cfg = server.anon.get("/api/boxes/%s/config" % dev.id)[1]
    assert cfg["lang"] == "en" and cfg["pin_mac"] == mac(dev.key, dev.id, "4711")
    # the language alone keeps the PIN; "back to the factory PIN" drops it
    assert org.post(boxes, form("cn"))[0] == 302
    assert settings(server, tid) == {"lang": "cn", "pin": "4711", "factory_pin": False}
    assert org.post(boxes, form("cn", factory=True))[0] == 302
    assert settings(server, tid) == {"lang": "cn", "pin": None, "factory_pin": True}
    assert server.anon.get("/api/boxes/%s/config" % dev.id)[1]["pin_mac"] == mac(dev.key, dev.id, pconfig.FACTORY_PIN)
    # the audit log says the settings changed, never the PIN
    log = server.org.get("/api/audit?tournament=" + tid)[1]
    assert sum(a["action"] == "boxes.settings" for a in log) == 3 and "4711" not in str(log)


def test_a_refused_pin_changes_nothing_and_is_not_shown_back(server):
    tid, _dev = seated(server)
    org = FormSession(server.url, organizer_of(server, tid), PASSWORD)
    boxes = "/t/%s/manage/boxes" % tid
    assert org.post(boxes, form("en", "2468"))[0] == 302
    for bad in (form("cn", "123"), form("cn", "12a4"), form("cn", "123456789"), form("fr", "1357"),
                form("cn", "1357", factory=True)):
        st, _, body = org.post(boxes, bad)
        assert st == 200 and 'class="errorlist' in body.split('id="box-settings"')[1].split("</form>")[0], bad
        # the PIN is nowhere in the page but where a random token may hold its digits by chance
        shown = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"', "", body)
        assert bad["set-pin"] not in shown and "value=" not in pin_input(body), bad
        assert settings(server, tid) == {"lang": "en", "pin": "2468", "factory_pin": False}, bad


def test_another_tournaments_organizer_or_a_referee_cannot_set_them(server):
    tid, dev = seated(server)
    other = server.tournament("mcr_000", players=["q%02d" % i for i in range(1, 5)])
    assert server.org.json("PUT", "/api/tournaments/%s/box-settings" % tid, {"pin": "9876", "lang": "en"})[0] == 200
    them = FormSession(server.url, organizer_of(server, other), PASSWORD)
    boxes = "/t/%s/manage/boxes" % tid
    assert them.get(boxes)[0] == 403
    assert them.post(boxes, form("cn", "1111"))[0] == 403
    assert them.post(boxes, form("cn", factory=True))[0] == 403
    assert them.get("/t/%s/manage/boxes" % other)[0] == 200   # their own tournament's page
    ref = uid("refof")
    assert server.org.post("/api/accounts", {"username": ref, "password": PASSWORD, "tournament": tid, "role": "referee"})[0] == 201
    assert FormSession(server.url, ref, PASSWORD).post(boxes, form("cn", "2222"))[0] == 403
    assert settings(server, tid) == {"lang": "en", "pin": "9876", "factory_pin": False}
    assert server.anon.get("/api/boxes/%s/config" % dev.id)[1]["pin_mac"] == mac(dev.key, dev.id, "9876")
