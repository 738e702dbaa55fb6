# The requests the box's link answers (protocol/frames.py has their formats): one function each,
# fn(link, request), that replies through link.reply_ok / reply_json / error. firmware/link/engine.py
# calls them from its dispatch table TABLE (the authenticated ones only with the MAC checked and
# cut off) and owns the state they use (the key, the nonce, the set-aside list, the reply buffer).
import os

from firmware.link import store
from protocol.frames import (
    E_BAD_REQUEST, E_FULL, E_JOURNAL, E_KEY_SET, E_NO_KEY, E_RANGE, E_REFUSED, KEY_LEN, MAX_FRAME,
    MAX_REASON, NONCE_LEN, OK, PROTO, REC_HEADER, T_ACK, T_ASIDE, T_BYE, T_CHALLENGE, T_CLOCK, T_CONFIG,
    T_HELLO, T_PROVISION, T_RECORDS, T_REKEY, T_RELEASE, be32, put_be32)
from protocol.sign import record_mac, wrap_mask

CLOCK_MIN = 1577836800  # 2020-01-01: anything earlier is a host without a clock
CLOCK_MAX = 4102444800  # 2100-01-01: anything later is not a clock either


def _urandom(n):
    try:
        return os.urandom(n)
    except (AttributeError, NotImplementedError):  # a port without one: weaker, still single use
        import random

        return bytes(random.getrandbits(8) for _ in range(n))


# ---------------------------------------------------------------- open

def hello(link, req):
    app = link.app
    j = app.j
    s = getattr(app, "session", None)
    corrupt = getattr(j, "corrupt", None)
    now = app.now_s() if hasattr(app, "now_s") else app.epoch
    acked = link.acked
    link.reply_json({
        "proto": PROTO, "device": app.device_id, "fw": link.fw, "board": link.board,
        "first": j.first_seq, "last": j.last_seq, "acked": acked,
        "unsynced": j.last_seq - acked, "keyed": link._hm is not None,
        "key_error": link.key_error, "time": now, "max_frame": MAX_FRAME,
        "session": s is not None and not s.ended,
        "corrupt": None if corrupt is None else "segment %d offset %d: %s" % corrupt,
        "aside": [[q, r.decode()] for q, r in link.aside],
        "rx_bad": link._rx.bad, "rx_oversized": link._rx.oversized, "resent": link.resent,
        "denied": link.denied,
    })


def records(link, req):
    if len(req) != 5:
        return link.error(E_BAD_REQUEST, "RECORDS wants from u32, max u8")
    hm = link._hm
    if hm is None:
        return link.error(E_NO_KEY, "no device key: provision the box first")
    start = be32(req, 0)
    want = req[4]
    if want > link.batch:
        want = link.batch
    j = link.app.j
    first = j.first_seq
    if start < 1 or (first is not None and start < first):
        return link.error(E_RANGE, "record %d is no longer on the box (first %s)" % (start, first))
    f = link._f
    fm = link._fmv
    o = link._begin(OK)
    put_be32(f, o, start)
    count_at = o + 4
    o += 5
    count = 0
    idz = link._idz()
    sb = link._seqb
    gen = j.records(start, False)
    try:
        if want:
            for seq, data in gen:
                n = len(data)
                if o + REC_HEADER + n + 4 > MAX_FRAME:
                    break
                put_be32(sb, 0, seq)
                put_be32(f, o, seq)
                f[o + 4] = n >> 8
                f[o + 5] = n & 0xFF
                f[o + 6:o + 38] = record_mac(hm, idz, sb, data)
                fm[o + 38:o + 38 + n] = data
                o += REC_HEADER + n
                count += 1
                if count >= want:
                    break
    except Exception as e:  # JournalCorrupt: a record went bad since boot
        if not count:
            gen.close()
            return link.error(E_JOURNAL, "journal: %s" % e)
    gen.close()
    f[count_at] = count
    link._send(o)


def challenge(link, req):
    if link._hm is None:
        return link.error(E_NO_KEY, "no device key: provision the box first")
    link._nonce = _urandom(NONCE_LEN)
    link.reply_ok(link._nonce)


def provision(link, req):
    if len(req) != KEY_LEN:
        return link.error(E_BAD_REQUEST, "a key is %d bytes" % KEY_LEN)
    if link._hm is not None:
        return link.error(E_KEY_SET, "the box has a key: rekey with proof of the old key, "
                           "or erase it in the referee menu on the box")
    first = req[0]
    same = True
    for i in range(1, KEY_LEN):
        if req[i] != first:
            same = False
            break
    if same:
        return link.error(E_BAD_REQUEST, "not a key: all its bytes are equal")
    link._store_key(bytes(req))
    link.reply_ok()


# ---------------------------------------------------------------- authenticated


def ack(link, req):
    if len(req) != 4:
        return link.error(E_BAD_REQUEST, "ACK wants seq u32")
    seq = be32(req, 0)
    j = link.app.j
    if seq > j.last_seq:
        return link.error(E_RANGE, "ack %d beyond the last record %d" % (seq, j.last_seq))
    link.ack_to(seq)  # durable when the reply is sent
    b = bytearray(8)
    put_be32(b, 0, seq)
    put_be32(b, 4, link.acked)
    link.reply_ok(b)


def set_aside(link, req):
    n = len(req) - 4
    if n < 0 or n > MAX_REASON:
        return link.error(E_BAD_REQUEST, "ASIDE wants seq u32 and a reason of at most %d bytes" % MAX_REASON)
    seq = be32(req, 0)
    reason = bytes(req[4:])
    try:
        reason.decode()
    except UnicodeError:
        return link.error(E_BAD_REQUEST, "the reason is not UTF-8")
    for b in reason:
        if b < 0x20 or b == 0x7F:  # shown on the box's screen; and JSON would blow it up 6 times
            return link.error(E_BAD_REQUEST, "the reason holds control characters")
    j = link.app.j
    first = j.first_seq
    if seq <= link.acked or seq > j.last_seq or first is None or seq < first:
        return link.error(E_RANGE, "record %d is not an unacknowledged record on the box" % seq)
    aside = link.aside
    for e in aside:
        if e[0] == seq:
            e[1] = reason
            link._save_aside()
            return link.reply_seq(seq, len(aside))
    if len(aside) >= store.MAX_ASIDE:
        return link.error(E_FULL, "%d records are set aside already: a referee must resolve them"
                           % len(aside))
    if link._synced is None:
        link._synced = j.acked
    i = 0
    while i < len(aside) and aside[i][0] < seq:
        i += 1
    aside.insert(i, [seq, reason])
    link._save_aside()
    link.reply_seq(seq, len(aside))


def release(link, req):
    if len(req) != 4:
        return link.error(E_BAD_REQUEST, "RELEASE wants seq u32")
    seq = be32(req, 0)
    aside = link.aside
    for i in range(len(aside)):
        if aside[i][0] == seq:
            del aside[i]
            acked = link.acked
            j = link.app.j
            if aside:
                link._save_aside()
                floor = link._floor()
            else:
                floor = acked
            if floor > j.acked:
                j.ack(floor)
            if not aside:  # after the journal's ack: a cut in between keeps the old file
                link._synced = None
                store.erase(link.aside_path)
            return link.reply_seq(seq, len(aside))
    return link.error(E_RANGE, "record %d is not set aside" % seq)


def config(link, req):
    import json

    # the journal's held room (firmware/journal/journal.py) is lent to the config, the session's
    # biggest allocations (its names' bitmaps), and held again once it is done
    j = getattr(link.app, "j", None)
    lend = hasattr(j, "let_go")
    if lend:
        j.let_go()
    try:
        try:
            cfg = json.loads(bytes(req).decode())
        except (ValueError, UnicodeError):
            return link.error(E_BAD_REQUEST, "config is not JSON")
        if not isinstance(cfg, dict):
            return link.error(E_BAD_REQUEST, "config is not a JSON object")
        err = link.app.push_config(cfg)
        cfg = None
        if err:
            return link.error(E_REFUSED, str(err))
        link.reply_ok()
    finally:
        if lend:
            j.hold()


def clock(link, req):
    if len(req) != 8:
        return link.error(E_BAD_REQUEST, "CLOCK wants unix seconds u64")
    t = (be32(req, 0) << 32) | be32(req, 4)
    if t < CLOCK_MIN or t >= CLOCK_MAX:
        return link.error(E_RANGE, "clock %d out of range" % t)
    app = link.app
    app.epoch = t - app.clock() // 1000
    link.reply_json({"epoch": app.epoch, "time": app.epoch + app.clock() // 1000})


def rekey(link, req):
    # _auth checked the MAC with the old key over this nonce; the nonce also masks the key
    if len(req) != KEY_LEN:
        return link.error(E_BAD_REQUEST, "REKEY wants the wrapped key, %d bytes" % KEY_LEN)
    mask = wrap_mask(link._hm, link._idz(), link._used_nonce)
    new = bytearray(KEY_LEN)
    for i in range(KEY_LEN):
        new[i] = req[i] ^ mask[i]
    link._store_key(bytes(new))
    link.reply_ok()


def bye(link, req):
    link.reply_ok()
    link.bye()


# (type, handler, authenticated)
TABLE = (
    (T_HELLO, hello, False), (T_RECORDS, records, False), (T_CHALLENGE, challenge, False),
    (T_PROVISION, provision, False), (T_BYE, bye, False),
    (T_ACK, ack, True), (T_CONFIG, config, True), (T_CLOCK, clock, True), (T_REKEY, rekey, True),
    (T_ASIDE, set_aside, True), (T_RELEASE, release, True),
)
