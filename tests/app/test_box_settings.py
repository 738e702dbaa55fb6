"""Issue 18.6: the box as the organizer set it. The tournament's referee PIN and language come
with the session config (protocol/config.py "pin_mac", "lang"): the PIN as its MAC with the box's
key (a config is fetched without a login, so it never carries the PIN in clear); the box keeps
them for its later sessions and after a power cut (firmware/box_settings.py), never in a record;
a box that never had one has the factory PIN the README states."""
import inspect
import re
from pathlib import Path

from firmware import box_settings
from firmware.app import App
from firmware.link import store
from firmware.journal import Journal
from protocol import config, record
from protocol.sign import pin_mac_hex
from tests.app.helpers import MCR, WIN

REPO = Path(__file__).resolve().parents[2]
KEY = bytes(range(1, 33))


def mac(pin, key=KEY, device="box-1"):
    return pin_mac_hex(key, device, pin)


class Box:
    """An App with a journal and a settings file in tmp_path; boot() again is a power cut."""

    def __init__(self, tmp_path):
        self.dir = tmp_path
        self.ms = 0
        self.copies = {}
        self.boot()

    def boot(self):
        if not (self.dir / "device.key").exists():
            store.store_key(str(self.dir / "device.key"), KEY)
        self.j = Journal(str(self.dir / "j"))
        self.app = App(self.j, lambda: self.ms, device_id="box-1", epoch=1764400000,
                       settings=str(self.dir / "boxset"), keyfile=str(self.dir / "device.key"))

    def keys(self, s):
        for k in s.replace(" ", ""):
            self.app.press(k)
        return self

    def tap(self, s):
        from rules_min.tiles import parse_tile
        for name in s.split():
            t = parse_tile(name)
            n = self.copies.get(t, 0)
            self.copies[t] = n + 1
            self.app.tap(bytes((4, t, n, 1)), t)
        return self

    def referee(self, pin):
        self.keys("D4" + pin + "#")
        ok = self.app.state == "ref"
        self.keys("*" if ok else "**")
        return ok


def test_the_factory_pin_is_one_fact_stated_in_the_readme():
    assert inspect.signature(App).parameters["pin"].default == config.FACTORY_PIN
    assert record._PRIVATE == config.PRIVATE
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert re.search(r"referee PIN[^.]*\b%s\b" % config.FACTORY_PIN, readme)


def test_a_box_without_a_config_has_the_factory_pin(tmp_path):
    b = Box(tmp_path)
    assert b.app.push_config(dict(MCR)) is None
    assert b.referee(config.FACTORY_PIN) and not b.referee("4711")


def test_the_tournaments_pin_and_language_come_with_the_config(tmp_path):
    b = Box(tmp_path)
    assert b.app.push_config(dict(MCR, pin_mac=mac("4711"), lang="en")) is None
    assert b.app.lang == "en" and b.app.screen()[2].startswith("A")   # an English screen
    assert not b.referee(config.FACTORY_PIN) and b.referee("4711")
    # neither the PIN nor its MAC is in a record, nor the PIN on flash
    for _, data in b.j.records(1):
        assert b"4711" not in bytes(data) and mac("4711").encode() not in bytes(data)
    sess = record.decode(bytes(next(iter(b.j.records(1)))[1]))
    assert sess["kind"] == "session" and "pin_mac" not in sess and sess["lang"] == "en"
    assert b"4711" not in (tmp_path / "boxset").read_bytes()


def test_a_pin_made_with_another_key_or_for_another_box_opens_nothing(tmp_path):
    b = Box(tmp_path)
    assert b.app.push_config(dict(MCR, pin_mac=mac("4711", key=bytes(32)))) is None
    assert not b.referee("4711") and not b.referee(config.FACTORY_PIN)
    b.app.pin_mac = None                                 # (as if the box had none: end the session)
    b.keys("D4 2580# 2 # D")
    assert b.app.push_config(dict(MCR, session=2, pin_mac=mac("4711", device="box-2"))) is None
    assert not b.referee("4711") and not b.referee(config.FACTORY_PIN)   # another box's
    # a box whose key was erased (the referee menu) can check no MAC: the factory PIN
    (tmp_path / "device.key").unlink()
    assert b.referee(config.FACTORY_PIN)


def test_they_survive_a_power_cut_and_the_sessions_after(tmp_path):
    b = Box(tmp_path)
    assert b.app.push_config(dict(MCR, pin_mac=mac("4711"), lang="en")) is None
    b.keys("A10").tap(WIN).keys("1234")
    b.boot()                                             # the power comes back mid-session
    assert b.app.state == "main" and b.app.lang == "en"
    assert not b.referee(config.FACTORY_PIN) and b.referee("4711")
    b.keys("D4 4711# 2 #")                               # the referee ends it
    assert b.app.state == "ended"
    b.boot()                                             # after a power cut: still the tournament's
    assert b.app.state == "ended" and b.app.lang == "en" and b.app.pin_mac == mac("4711")
    b.keys("D")
    assert b.app.state == "idle"
    b.keys("D1 7#1#101#102#103#104#1#")                  # a session keyed in at the table
    assert b.app.state == "main", b.app.screen()
    assert b.app.lang == "en" and b.referee("4711")
    # the next tournament's config brings its own
    b.keys("D4 4711# 2 # D")
    assert b.app.push_config(dict(MCR, session=2, pin_mac=mac("123456"), lang="cn")) is None
    b.boot()
    assert b.app.lang == "cn" and b.referee("123456") and not b.referee("4711")


def test_a_config_without_a_pin_keeps_the_one_the_box_has(tmp_path):
    b = Box(tmp_path)
    assert b.app.push_config(dict(MCR, pin_mac=mac("4711"))) is None
    b.keys("D4 4711# 2 # D")
    assert b.app.push_config(dict(MCR, session=2)) is None
    assert b.referee("4711")


def test_bad_pins_and_macs_are_refused():
    for bad in ("123", "123456789", "12a4", " 1234", 1234, None, "１２３４"):
        assert config.pin_problem(bad) is not None, bad
    assert config.pin_problem("0000") is None and config.pin_problem("12345678") is None
    for bad in (mac("1234")[:-1], mac("1234").upper(), mac("1234") + "0", 5, None, "g" * 32):
        err = config.check(dict(MCR, pin_mac=bad))
        assert err is not None and err[0] == "pin_mac", bad
    assert config.check(dict(MCR, pin_mac=mac("1234"))) is None
    assert config.check(dict(MCR, pin="1234"))[0] == "pin"   # never the PIN itself


def test_a_damaged_settings_file_falls_back_to_the_factory(tmp_path):
    p = tmp_path / "boxset"
    for text in ("", "12 xx\n", "abcd en\n", "\x00\xff", "12\xe934 en", mac("1")[:-1] + "\xe9 en"):
        p.write_bytes(text.encode("latin-1"))
        assert box_settings.load(str(p)) in ((None, None), (None, "en"))
        app = App(Journal(str(tmp_path / ("j" + str(len(text))))), lambda: 0, settings=str(p))
        assert app.pin_mac is None and app.pin_ok(config.FACTORY_PIN)
    box_settings.save(str(p), mac("4711"), "en")
    assert box_settings.load(str(p)) == (mac("4711"), "en")
    box_settings.save(str(p), None, "cn")
    assert box_settings.load(str(p)) == (None, "cn")
