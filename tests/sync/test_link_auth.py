"""The link trusts no host: every request that changes the box must be authenticated with the
device key over a single-use nonce from the box. A host without the key, with a recorded request
of the organizer's, or with a MAC made for another request, changes nothing: not the journal's
acknowledged position, not the session, not the clock, not the tags, not the key, not the
set-aside list. And the records the server refuses can be set aside without losing them."""
import hashlib
import hmac
import json
import os

import pytest

from firmware.link import engine as L
from firmware.link.host_ports import MemPort
from firmware.tags import mode as tags_mode
from firmware.journal import Journal
from protocol import codec as C
from protocol import frames as F
from protocol import sign as S

from .helpers import session_payloads
from .test_link_device import KEY, Dev, be

WRONG = hashlib.sha256(b"not the box's key").digest()
T2099 = 4099766400  # 2099-12-01: a clock in range, so only the missing key stops it


class FakeTags:
    """What tags_mode.attach needs of TagsMode: every op it is asked to do, by authentication."""

    def __init__(self):
        self.ops = []

    def request(self, obj, authed=False):
        if obj.get("op") not in tags_mode._OPEN and not authed:
            return {"ok": False, "code": "auth"}
        self.ops.append((obj.get("op"), authed))
        return {"ok": True}


@pytest.fixture
def box(tmp_path):
    d = Dev(tmp_path, n=19)
    d.tags = FakeTags()
    assert tags_mode.attach(d.link, d.tags)
    yield d
    d.close()


def state(d, tmp_path):
    """Everything a request could change on the box."""
    return {"acked": Journal(str(tmp_path / "journal")).acked, "link_acked": d.link.acked,
            "configs": list(d.app.configs), "epoch": d.app.epoch,
            "key": open(tmp_path / "device.key", "rb").read(), "aside": os.path.exists(tmp_path / "aside"),
            "aside_list": list(d.link.aside), "tag_ops": list(d.tags.ops)}


def mac(key, nonce, typ, args, device="box-1"):
    """The request MAC as the protocol defines it, from CPython's hmac (not protocol/sign.py)."""
    return hmac.new(key, b"req\x00" + device.encode() + b"\x00" + nonce + bytes([typ]) + args, hashlib.sha256).digest()


CHANGES = [  # (type, arguments) of every request that changes the box
    (F.T_ACK, be(19)),
    (F.T_CONFIG, json.dumps({"rules": "mcr", "tournament": "X", "session": 1, "table": 1}).encode()),
    (F.T_CLOCK, (4102444800).to_bytes(8, "big")),  # 2100
    (F.T_CLOCK, T2099.to_bytes(8, "big")),
    (F.T_REKEY, bytes(range(32))),
    (F.T_ASIDE, be(3) + b"refused"),
    (F.T_RELEASE, be(3)),
    (F.T_TAGS_SET, json.dumps({"op": "write", "set": 1, "tile": 0, "copy": 0}).encode()),
    (F.T_TAGS_SET, json.dumps({"op": "save", "set": 1, "registry": []}).encode()),
]


@pytest.mark.parametrize("typ,args", CHANGES, ids=lambda v: C.TYPE_NAMES.get(v, "") if isinstance(v, int) else "")
def test_a_host_without_the_key_changes_nothing(box, tmp_path, typ, args):
    before = state(box, tmp_path)
    # the bare request, as a host of the old protocol sends it
    assert box.request(typ, args)[0] in (F.E_BAD_REQUEST, F.E_NONCE)
    # with a MAC but no challenge
    assert box.request(typ, args + bytes(32))[0] == F.E_NONCE
    # a challenge, then garbage, or a MAC made with another key
    box.nonce()
    assert box.request(typ, args + os.urandom(32))[0] == F.E_DENIED
    assert box.request(typ, args + mac(WRONG, box.nonce(), typ, args))[0] == F.E_DENIED
    # the right key but another box's id (a request made for box-2 replayed at box-1)
    assert box.request(typ, args + mac(KEY, box.nonce(), typ, args, device="box-2"))[0] == F.E_DENIED
    assert state(box, tmp_path) == before
    assert box.link.denied >= 4
    # the same request with the key goes through (so the test can fail): it did change something
    st, _ = box.authed(typ, args)
    if typ == F.T_CLOCK and args == (4102444800).to_bytes(8, "big"):
        assert st == F.E_RANGE  # 2100 is refused even with the key
    elif typ in (F.T_RELEASE,):
        assert st == F.E_RANGE  # nothing set aside yet
    else:
        assert st == 0 and state(box, tmp_path) != before


@pytest.mark.parametrize("typ,args", CHANGES[:2] + CHANGES[3:4] + CHANGES[5:6], ids=lambda v: C.TYPE_NAMES.get(v, "") if isinstance(v, int) else "")
def test_a_mac_right_but_for_one_byte_is_denied(box, tmp_path, typ, args):
    """The box compares every byte of a request's MAC: one made with the key, then changed in a
    single byte (first, middle, last) or kept only in its last byte, changes nothing."""
    before = state(box, tmp_path)
    for change in (0, 15, 31, "all but the last"):
        good = mac(KEY, box.nonce(), typ, args)
        if change == "all but the last":
            bad = bytes(b ^ 0xFF for b in good[:-1]) + good[-1:]
        else:
            bad = bytearray(good)
            bad[change] ^= 0x01
        assert box.request(typ, args + bytes(bad))[0] == F.E_DENIED, change
    assert state(box, tmp_path) == before
    st, _ = box.authed(typ, args)  # the unchanged MAC goes through: the test can fail
    assert st == 0 and state(box, tmp_path) != before


def test_the_bare_requests_of_the_issue_are_refused(box, tmp_path):
    # issue 11: "a host without the key told a box that all 19 records were synced, started a
    # session for any tournament and table, and set the clock to 2100"
    before = state(box, tmp_path)
    assert box.request(F.T_ACK, be(19))[0] == F.E_BAD_REQUEST
    assert box.request(F.T_CONFIG, b'{"rules": "mcr", "tournament": "ANY", "session": 1, "table": 99}')[0] == F.E_NONCE
    assert box.request(F.T_CLOCK, (4102444800).to_bytes(8, "big"))[0] == F.E_BAD_REQUEST  # no MAC
    assert box.request(F.T_PROVISION, os.urandom(32))[0] == F.E_KEY_SET
    assert json.loads(box.request(F.T_TAGS, b'{"op": "write", "set": 1, "tile": 0, "copy": 0}')[1])["code"] == "auth"
    assert state(box, tmp_path) == before
    assert json.loads(box.request(F.T_HELLO)[1])["unsynced"] == 19  # the organizer still gets all 19


def test_a_recorded_request_replayed_later_fails(box, tmp_path):
    # the organizer sets the clock twice; a host that recorded the first request replays it
    first = S.authenticate(KEY, "box-1", box.nonce(), F.T_CLOCK, (1800000000).to_bytes(8, "big"))
    assert box.request(F.T_CLOCK, first, seq=40)[0] == 0
    assert box.authed(F.T_CLOCK, (1900000000).to_bytes(8, "big"))[0] == 0
    epoch = box.app.epoch
    # the replay, with a fresh challenge of its own (the MAC is over the old nonce) or without
    box.nonce()
    assert box.request(F.T_CLOCK, first, seq=41)[0] == F.E_DENIED
    assert box.request(F.T_CLOCK, first, seq=42)[0] == F.E_NONCE
    assert box.app.epoch == epoch
    # the very frame again right after it was answered is a resend: the reply again, not redone
    req = S.authenticate(KEY, "box-1", box.nonce(), F.T_ACK, be(2))
    assert box.request(F.T_ACK, req, seq=50) == (0, be(2) + be(2))
    box.j.ack(4)  # (the acknowledged position moves on by other means)
    assert box.request(F.T_ACK, req, seq=50) == (0, be(2) + be(2)) and box.link.resent == 1
    assert box.link.acked == 4


def test_a_nonce_authenticates_one_request_of_one_type(box, tmp_path):
    nonce = box.nonce()
    good_ack = be(7) + mac(KEY, nonce, F.T_ACK, be(7))
    # a host in the middle turns the organizer's ACK 7 into RELEASE 7 / ASIDE 7: the type is in the MAC
    assert box.request(F.T_RELEASE, good_ack)[0] == F.E_DENIED
    assert box.request(F.T_ACK, good_ack)[0] == F.E_NONCE  # and the nonce is gone
    assert box.link.acked == 0
    # a second CHALLENGE replaces the first nonce
    n1 = box.nonce()
    box.nonce()
    assert box.request(F.T_ACK, be(7) + mac(KEY, n1, F.T_ACK, be(7)))[0] == F.E_DENIED
    # a hang-up forgets the nonce too
    n2 = box.nonce()
    box.port.gone = True
    box.link.poll()
    box.port.gone = False
    assert box.request(F.T_ACK, be(7) + mac(KEY, n2, F.T_ACK, be(7)))[0] == F.E_NONCE
    assert box.link.acked == 0


def test_an_unkeyed_box_refuses_every_change_and_provisions_once(tmp_path):
    d = Dev(tmp_path, n=3, keyed=False)
    tags_mode.attach(d.link, FakeTags())
    for typ, args in CHANGES:
        assert d.request(typ, args + bytes(32))[0] == F.E_NO_KEY, typ
    assert d.request(F.T_CHALLENGE)[0] == F.E_NO_KEY
    assert d.app.configs == [] and d.j.acked == 0
    assert d.request(F.T_PROVISION, KEY) == (0, b"")
    assert d.request(F.T_PROVISION, WRONG)[0] == F.E_KEY_SET  # after the first: only REKEY, with the key
    assert d.authed(F.T_ACK, be(3)) == (0, be(3) + be(3))
    d.close()


def test_only_tags_poll_is_open_every_other_op_is_authenticated(box):
    # issue 19.7: an open "begin" put an idle box in tags mode that no key left
    assert json.loads(box.request(F.T_TAGS, json.dumps({"op": "poll"}).encode())[1]) == {"ok": True}
    for op in ("begin", "read", "cancel", "end", "write", "save"):
        assert json.loads(box.request(F.T_TAGS, json.dumps({"op": op}).encode())[1])["code"] == "auth"
        assert json.loads(box.authed(F.T_TAGS_SET, json.dumps({"op": op}).encode())[1]) == {"ok": True}
    assert box.tags.ops == [("poll", False), ("begin", True), ("read", True), ("cancel", True), ("end", True),
                            ("write", True), ("save", True)]


# ------------------------------------------------------------------------------ set aside

def aside(d, seq, reason=b"refused"):
    return d.authed(F.T_ASIDE, be(seq) + reason)


def test_a_record_set_aside_no_longer_holds_back_the_others(box, tmp_path):
    assert box.authed(F.T_ACK, be(4)) == (0, be(4) + be(4))
    assert aside(box, 5, "HTTP 400: table 7 is not in the draw".encode()) == (0, be(5) + b"\x01")
    assert box.authed(F.T_ACK, be(19)) == (0, be(19) + be(19))
    info = json.loads(box.request(F.T_HELLO)[1])
    assert (info["acked"], info["unsynced"]) == (19, 0)
    assert info["aside"] == [[5, "HTTP 400: table 7 is not in the draw"]]
    # the journal keeps it: its own ack stays below the record set aside, so pruning keeps it
    assert box.j.acked == 4 and Journal(str(tmp_path / "journal")).acked == 4
    st, data = box.request(F.T_RECORDS, be(5) + b"\x01")
    assert st == 0 and C.parse_records(data)[1][0][0] == 5
    # after a restart (a new Link on the same flash) it is all still so
    link2 = L.Link(box.app, MemPort(), str(tmp_path / "device.key"))
    assert link2.acked == 19 and link2.aside == [[5, b"HTTP 400: table 7 is not in the draw"]]
    # the referee resolves it: the journal may now be acknowledged to the end
    assert box.authed(F.T_RELEASE, be(5)) == (0, be(5) + b"\x00")
    assert box.j.acked == 19 and not (tmp_path / "aside").exists()
    assert json.loads(box.request(F.T_HELLO)[1])["aside"] == []
    assert box.authed(F.T_RELEASE, be(5))[0] == F.E_RANGE


def test_set_aside_several_and_release_in_any_order(box):
    for seq in (9, 3, 12):
        assert aside(box, seq)[0] == 0
    assert aside(box, 3, b"again")[1] == be(3) + b"\x03"  # the same seq again: its reason updated
    assert [s for s, _ in box.link.aside] == [3, 9, 12]
    assert box.authed(F.T_ACK, be(15))[1] == be(15) + be(15)
    assert box.j.acked == 2
    box.authed(F.T_RELEASE, be(9))
    assert box.j.acked == 2
    box.authed(F.T_RELEASE, be(3))
    assert box.j.acked == 11
    box.authed(F.T_RELEASE, be(12))
    assert box.j.acked == 15 and box.link.acked == 15


def test_set_aside_is_bounded_and_checked(box, tmp_path):
    box.authed(F.T_ACK, be(2))
    assert aside(box, 2)[0] == F.E_RANGE  # acknowledged already
    assert aside(box, 20)[0] == F.E_RANGE  # not on the box
    assert aside(box, 0)[0] == F.E_RANGE
    assert aside(box, 3, b"x" * (F.MAX_REASON + 1))[0] == F.E_BAD_REQUEST
    assert aside(box, 3, b"\xff\xfe")[0] == F.E_BAD_REQUEST  # not UTF-8
    assert aside(box, 3, b"\x1b[2J")[0] == F.E_BAD_REQUEST  # a terminal escape
    for seq in range(3, 3 + 8):
        assert aside(box, seq, ("r%d" % seq).encode())[0] == 0
    assert box.link.aside[-1] == [10, b"r10"]
    st, msg = aside(box, 11)
    assert st == F.E_FULL and b"referee" in msg
    # eight reasons of the longest kinds still fit the HELLO reply (JSON escapes them on CPython)
    for seq, r in zip(range(3, 3 + 8), ["\u00e9" * 24, '"' * 48, "\\" * 48, "\U0001f004" * 12] * 2):
        assert aside(box, seq, r.encode())[0] == 0
    st, data = box.request(F.T_HELLO)
    assert st == 0 and len(json.loads(data)["aside"]) == 8


def test_a_damaged_aside_file_falls_back_to_the_journal(box, tmp_path):
    box.authed(F.T_ACK, be(4))
    aside(box, 6)
    box.authed(F.T_ACK, be(10))
    raw = bytearray((tmp_path / "aside").read_bytes())
    raw[6] ^= 0xFF
    (tmp_path / "aside").write_bytes(bytes(raw))
    link2 = L.Link(box.app, MemPort(), str(tmp_path / "device.key"))
    # the host syncs from the journal's ack again (the server knows those records): nothing lost
    assert link2.acked == 5 and link2.aside == []


def test_pruning_never_drops_a_record_set_aside(tmp_path):
    d = Dev(tmp_path, n=0)
    j = Journal(str(tmp_path / "journal2"), segment_size=1500)
    for p in session_payloads(1, "box-1") * 3:
        j.append(p)
    d.app.j = j
    aside(d, 2)
    d.authed(F.T_ACK, be(j.last_seq))
    j.prune()
    assert j.first_seq <= 2
    assert [s for s, _ in j.records(2)][:1] == [2]
    d.authed(F.T_RELEASE, be(2))
    assert j.prune() > 0 and j.first_seq > 2
    j.close()
    d.close()


def test_the_box_tags_mode_writes_only_when_authenticated():
    class Dev:
        class app:
            state = "idle"
            device_id = "box-1"
        tag_set = 1
        registry = None
        dirty = False

        @staticmethod
        def clock():
            return 0

        def save_tag_settings(self, set_id, blob):
            self.saved = (set_id, blob)

    dev = Dev()
    t = tags_mode.TagsMode(dev)
    write = {"op": "write", "set": 1, "tile": 0, "copy": 0}
    assert t.request(dict(write))["code"] == "auth" and t.job is None
    assert t.request({"op": "save", "set": 9, "registry": []})["code"] == "auth" and not hasattr(dev, "saved")
    assert t.request({"op": "begin"})["code"] == "auth" and not t.active  # issue 19.7
    assert t.request({"op": "read"})["code"] == "auth" and not t.active and t.job is None
    assert t.request(dict(write), authed=True) == {"ok": True, "state": "waiting"} and t.job is not None
    assert t.request({"op": "cancel"})["code"] == "auth" and t.job is not None
    assert t.request({"op": "end"})["code"] == "auth" and t.active
    assert t.request({"op": "poll"}) == {"ok": True, "state": "waiting"}
    assert t.request({"op": "cancel"}, authed=True) == {"ok": True}
    assert t.request({"op": "save", "set": 9, "registry": []}, authed=True)["ok"] and dev.saved == (9, None)
