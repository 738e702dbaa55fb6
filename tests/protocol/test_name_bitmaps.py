# protocol/config.py name_bitmaps (issue 18.6): the names the server draws for the box. A bitmap
# whose bytes are not what its header says, or that is wider or taller than a box line, is
# refused before a box keeps it. Runs on MicroPython too (make mp-test): binascii, no base64.
from binascii import b2a_base64

from protocol import config

GOOD = {"tournament": "T", "session": 1, "table": 7, "rules": "mcr", "players": ["11", "12", "13", "14"],
        "first_dealer": 0, "names": ["王芳", "Ann", None, "Zoë"]}


def b64(raw):
    return b2a_base64(bytes(raw)).decode().strip()


def bitmap(w, h, base, rows=None):
    if rows is None:
        rows = bytes(h * ((w + 7) >> 3))
    return b64(bytes((w, h, base)) + bytes(rows))


def with_art(art):
    c = {}
    for k in GOOD:
        c[k] = GOOD[k]
    c["name_bitmaps"] = art
    return c


def refused(art):
    e = config.check(with_art(art))
    return e is not None and e[0] == "name_bitmaps"


def test_a_bitmap_per_chair_passes():
    a = bitmap(24, 12, 10)
    assert config.check(with_art([a, None, None, bitmap(17, 12, 10)])) is None
    assert config.check(with_art([None, None, None, None])) is None
    w, h, base, rows = config.bitmap(a)
    assert (w, h, base, len(rows)) == (24, 12, 10, 36)


def test_the_widest_and_tallest_pass_and_one_pixel_more_is_refused():
    assert config.check(with_art([bitmap(config.NAME_PX_MAX, 12, 10), None, None, None])) is None
    assert config.check(with_art([bitmap(8, config.NAME_ROWS[1], 14), None, None, None])) is None
    assert refused([bitmap(config.NAME_PX_MAX + 1, 12, 10), None, None, None])
    assert refused([bitmap(8, config.NAME_ROWS[1] + 1, 10), None, None, None])
    assert refused([bitmap(8, config.NAME_ROWS[0] - 1, 5), None, None, None])


def test_a_length_that_is_not_what_the_header_says_is_refused():
    raw = bytes((24, 12, 10)) + bytes(36)
    assert refused([b64(raw[:-1]), None, None, None])          # a row byte short
    assert refused([b64(raw + b"\x00"), None, None, None])     # a byte too many
    assert refused([b64(bytes((24, 12))), None, None, None])   # a header cut short
    assert refused([b64(b""), None, None, None])
    # a header that claims more rows than the text holds
    assert refused([b64(bytes((96, 16, 10)) + bytes(36)), None, None, None])


def test_a_header_out_of_range_is_refused():
    assert refused([bitmap(0, 12, 10, b""), None, None, None])    # no width
    assert refused([bitmap(8, 12, 0), None, None, None])          # no baseline
    assert refused([bitmap(8, 12, 13), None, None, None])         # baseline below the rows


def test_text_that_is_not_base64_is_refused():
    a = bitmap(24, 12, 10)
    for bad in (a[:-1], a + "=", "!" + a[1:], a[:8] + "\n" + a[9:], a[:4] + "=" + a[5:], 12, b"abcd", "", None):
        if bad is None:
            continue
        assert refused([bad, None, None, None]), bad
    assert config.bitmap(a[:-4] + "A===") is None   # three pads


def test_the_list_is_four_chairs_and_none_at_the_empty_chair():
    a = bitmap(24, 12, 10)
    assert refused([a, None, None])
    assert refused([a, None, None, None, None])
    assert refused("abcd")
    c = with_art([None, None, None, a])
    c["players"] = ["11", "12", "13", None]
    c["names"] = ["王芳", None, None, None]
    assert config.check(c)[0] == "name_bitmaps"


def test_the_largest_config_still_fits_a_frame_and_a_journal_record():
    # four names of NAME_MAX Chinese characters, each with the widest bitmap, and every optional
    # field at its longest: the CONFIG request and the session's record still fit
    import json
    from protocol import frames, record
    art = [bitmap(config.NAME_PX_MAX, 12, 10)] * 4
    c = {"tournament": "T" * config.ID_MAX, "session": 10000, "table": 10000, "rules": "guangdong",
         "players": [str(10 ** 15 + i) for i in range(4)], "first_dealer": 3, "hands": 400, "minutes": 600,
         "lang": "cn", "ends_at": 1 << 39, "pin_mac": "a" * 32, "names": ["欧" * config.NAME_MAX] * 4,
         "name_bitmaps": art, "hand": 400, "dealer": 3, "totals": [-1000000] * 4}
    assert config.check(c) is None
    sent = json.dumps(c).encode()   # CPython escapes the names: more bytes than the sync tool sends
    assert len(sent) + 4 * len(c) + 64 <= frames.MAX_PAYLOAD, len(sent)   # + spaces + the request's MAC
    assert len(record.encode(record.session(c, "d" * 64, 1 << 39))) <= frames.MAX_RECORD
