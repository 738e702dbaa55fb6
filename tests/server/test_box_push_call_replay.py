"""A referee call captured on the hall's network and sent again is refused (issue 20): the
server keeps the nonce of every call it took (host_tools/server/boxes/referee_call.py
CallNonce). After a referee answered the call, the replay brings it back to no page. The MACs
are built here from protocol/push.py's words, not with protocol/sign.py."""
import hashlib
import hmac
import os

from .conftest import uid
from .helpers import Device
from .test_standings import seat

CALLED = "referee called at table 2"


def call_mac(key: bytes, device: str, nonce: bytes) -> str:
    return hmac.new(key, b"call\x00" + device.encode() + b"\x00" + nonce, hashlib.sha256).hexdigest()


def answer_the_call(server, device):
    """A referee went to the table (what the referee page's answer does: referee_call.clear)."""
    sql = "UPDATE boxes_device SET referee_called_at = NULL WHERE id = %s"
    if server.backend == "sqlite":
        import sqlite3
        c = sqlite3.connect(server.db[len("sqlite:///"):])
        c.execute(sql.replace("%s", "?"), (device,))
        c.commit()
        c.close()
    else:
        import psycopg
        with psycopg.connect(server.db, autocommit=True) as c:
            c.execute(sql, (device,))


def test_a_replayed_referee_call_is_refused_and_shows_nowhere(server):
    players = ["r%d" % i for i in range(1, 9)]
    tid = server.tournament(players=players)
    seat(server, tid, 1, [players[:4], players[4:]])
    dev, other = Device(uid("box-")), Device(uid("box-"))
    for d, table in ((dev, 2), (other, 1)):
        st, body = server.org.post("/api/devices", {"id": d.id, "key": d.key.hex(), "tournament": tid, "table": table})
        assert st == 201, body
    page = "/t/%s/tables/1/2" % tid
    nonce = os.urandom(16)
    call = {"nonce": nonce.hex(), "mac": call_mac(dev.key, dev.id, nonce)}
    st, body = server.anon.post("/api/boxes/%s/call" % dev.id, call)
    assert st == 200 and "ack" in body
    assert CALLED in server.anon.get(page)[1]
    answer_the_call(server, dev.id)
    assert CALLED not in server.anon.get(page)[1]
    # the captured call, sent again: refused, no ack, nothing shown
    st, body = server.anon.post("/api/boxes/%s/call" % dev.id, call)
    assert st == 409 and "ack" not in body, body
    assert CALLED not in server.anon.get(page)[1]
    # in upper-case hex it is the same nonce
    st, body = server.anon.post("/api/boxes/%s/call" % dev.id, dict(call, nonce=nonce.hex().upper()))
    assert st == 409, body
    # the box's next call has a new nonce: taken
    n2 = os.urandom(16)
    st, body = server.anon.post("/api/boxes/%s/call" % dev.id, {"nonce": n2.hex(), "mac": call_mac(dev.key, dev.id, n2)})
    assert st == 200 and CALLED in server.anon.get(page)[1]
    # another box may draw the same nonce: its own call, taken
    st, body = server.anon.post("/api/boxes/%s/call" % other.id, {"nonce": nonce.hex(), "mac": call_mac(other.key, other.id, nonce)})
    assert st == 200, body
    # a call with a wrong MAC uses up no nonce: the box's real call with it is still taken
    n3 = os.urandom(16)
    assert server.anon.post("/api/boxes/%s/call" % dev.id, {"nonce": n3.hex(), "mac": call_mac(b"\x05" * 32, dev.id, n3)})[0] == 403
    assert server.anon.post("/api/boxes/%s/call" % dev.id, {"nonce": n3.hex(), "mac": call_mac(dev.key, dev.id, n3)})[0] == 200
