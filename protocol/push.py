# A box's push over the network: records sent by the box itself as they are committed, and the
# server's acknowledgement that it holds them. The box builds it (firmware/net/push.py), the
# server answers it (host_tools/server/api/push.py). Both ends import this module: its header
# is the specification.
#
#   POST /api/boxes/<device>/push   {"nonce": hex, "records": [envelope, ...]}
#
#   nonce    NONCE_LEN random bytes as hex, new for every push (the box's; never reused)
#   records  at most BATCH_MAX envelopes of protocol/envelope.py (device = <device>), seqs
#            consecutive and ascending
#
# Answer 200 (for any envelope the server refuses too: the refusal is per record):
#   {"results": [{"seq": n, "status_code": 201|200|400|403|409, ...}, ...],
#    "ack": {"first": a, "last": b, "mac": hex} | null,
#    "time": unix seconds (the hall's clock)}
#   ack  the server holds records a..b of the device (each stored now or before, byte for
#        byte): a is the first record sent, b the last of the unbroken run of held records
#        from it; mac = protocol/sign.py's push_ack_mac over the box's nonce, a and b. null when
#        the first record is not held (refused, unknown device, no key).
# 400 when the body is not that shape (then nothing is stored).
#
#   POST /api/boxes/<device>/call   {"nonce": hex, "mac": hex}
#
#   the box calls the referee to its table (one key, firmware/net/screen.py): mac =
#   protocol/sign.py's call_mac over a fresh nonce. Answer 200 {"ack": mac} with mac =
#   push_ack_mac over that nonce and the range 0..0 (no record is ever 0): the server holds the
#   key and has the call; 403 when the mac is not the box's key's (nothing is recorded); 409 when
#   the server took a call with this nonce before (a replay: nothing is recorded; the box makes
#   a new nonce for every call and every retry).
#
# The box marks a..b synced only when the mac checks with its own key over its own nonce:
# an access point, a proxy or a server without the device key can store, drop or answer
# anything and still never make a record count as synced. Pure Python for MicroPython and
# CPython.
NONCE_LEN = 16
BATCH_MAX = 32
HELD = (200, 201)  # status codes of a record the server holds


def path(device):
    return "/api/boxes/%s/push" % device


def call_path(device):
    return "/api/boxes/%s/call" % device


def held_run(sent, held):
    """(first, last) of the unbroken run of held seqs from the first one sent, or None.
    sent: the seqs in the order sent; held: the set of those the server holds."""
    if not sent or sent[0] not in held:
        return None
    first = last = sent[0]
    for s in sent[1:]:
        if s != last + 1 or s not in held:
            break
        last = s
    return first, last
