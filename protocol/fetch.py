# A box fetches its next session config and the hall's time over the network, authenticated as
# CONFIG and CLOCK are over the USB link: the box makes a fresh nonce (as its CHALLENGE does), and
# the server answers with the config and the time, each with the MAC of the USB request that
# would set it (protocol/sign.py request_mac with type T_CONFIG, T_CLOCK over that nonce). The
# box (firmware/net/fetch.py) checks both with its device key and, only then, takes them as it
# takes the sync tool's; the server (host_tools/server/api/push.py) answers. Both ends import
# this module: its header is the specification.
#
#   POST /api/boxes/<device>/fetch   {"nonce": hex}
#
#   nonce   NONCE_LEN random bytes as hex, new for every fetch (the box's; never reused)
#
# Answer 200 (a box the server knows, with its key):
#   {"config": text | null,  "config_mac": hex | null,  "why": text | null,
#    "time": unix seconds,   "time_mac": hex}
#   config      the session config of the table the box is bound to (protocol/config.py), as
#               JSON text: the MAC is over its UTF-8 bytes exactly as sent, so no re-encoding
#               of the JSON at either end can break it; null when there is none (why says why:
#               the box is not bound, no published seating...)
#   config_mac  request_mac(key, device, nonce, T_CONFIG, config bytes)
#   time        the hall's clock
#   time_mac    request_mac(key, device, nonce, T_CLOCK, time as u64 BE: the CLOCK request's args)
# 404 for a device the server does not know (or deactivated): nothing is signed.
#
# Without the device key nobody can make either MAC, and the nonce is the box's own, new each
# time: an access point or a server without the key cannot make the box take a config or move
# its clock, and an old answer replayed does not check. An answer's time is taken only when it
# came within CLOCK_RTT_MS of asking, so holding an answer back moves the clock by less than
# that. (The server makes these MACs for any nonce it is sent; what they can authorize is what
# the box would fetch itself: the server's own config of the box's table and its own time.)
# Pure Python for MicroPython and CPython.
from protocol.frames import T_CLOCK, T_CONFIG
from protocol.sign import request_mac

NONCE_LEN = 16
CLOCK_RTT_MS = 2000


def path(device):
    return "/api/boxes/%s/fetch" % device


def clock_args(t):
    """The CLOCK request's arguments: unix seconds as u64 BE."""
    return bytes(((t >> 56) & 0xFF, (t >> 48) & 0xFF, (t >> 40) & 0xFF, (t >> 32) & 0xFF,
                  (t >> 24) & 0xFF, (t >> 16) & 0xFF, (t >> 8) & 0xFF, t & 0xFF))


def config_mac(hm, idz, nonce, text_bytes):
    return request_mac(hm, idz, nonce, T_CONFIG, text_bytes)


def clock_mac(hm, idz, nonce, t):
    return request_mac(hm, idz, nonce, T_CLOCK, clock_args(t))
