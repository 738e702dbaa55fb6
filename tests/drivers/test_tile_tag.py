# Tile records on NTAG user memory and the UID registry for tags that carry no record.
import gc

import emu_path
from emulators import tags
from emulators.mfrc522_emu import MFRC522Emu
from firmware.tags import tile_tag
from firmware.drivers.mfrc522 import MFRC522, OK
from firmware.tags.tile_tag import UidRegistry, crc8, decode, encode, identify

SET = 0x1234


def code_of(fn, *args):
    try:
        fn(*args)
    except ValueError as e:
        assert len(e.args) == 2 and isinstance(e.args[1], str)
        return e.args[0]
    return None


def every_tile():
    for t in range(34):
        for c in range(4):
            yield t, c
    for f in range(34, 42):
        yield f, 0


def test_crc8_check_value():
    assert crc8(b"123456789") == 0x4B  # CRC-8/SAE-J1850 catalogue check


def test_crc8_by_nibbles_is_the_bitwise_crc():
    # crc8 goes a nibble at a time through a table; the textbook bit loop (poly 0x1D, MSB
    # first, init and xorout 0xFF) over every byte value, at every offset of a record
    def bitwise(b):
        crc = 0xFF
        for x in b:
            crc ^= x
            for _ in range(8):
                crc = ((crc << 1) ^ 0x1D) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        return crc ^ 0xFF
    for v in range(256):
        for k in range(8):
            b = bytearray(b"\xa1\x12\x34\x1f\x02\x00\x00\x00")
            b[k] = v
            assert crc8(b, 0, 7) == bitwise(b[:7]) and crc8(b) == bitwise(b)
    assert crc8(b"xx123456789", 2) == 0x4B and crc8(b"", 0, 0) == 0x00


def test_record_layout():
    r = encode(SET, 31, 2)  # a red dragon, third copy
    assert len(r) == 8
    assert r[:7] == b"\xa1\x12\x34\x1f\x02\x00\x00"
    assert r[7] == crc8(r, 0, 7)


def test_every_tile_round_trips():
    n = 0
    for t, c in every_tile():
        assert decode(encode(SET, t, c), SET) == (t, c)
        n += 1
    assert n == 144


def test_decode_reads_the_first_8_of_a_16_byte_page_read():
    buf = bytearray(16)
    buf[0:8] = encode(SET, 5, 1)
    buf[8:16] = b"\xff" * 8
    assert decode(buf, SET) == (5, 1)
    assert decode(memoryview(buf), SET) == (5, 1)


def test_blank_tags():
    assert code_of(decode, bytes(8), SET) == "blank"
    assert code_of(decode, b"\xff" * 8, SET) == "blank"


def test_every_single_bit_flip_is_corrupt():
    good = encode(SET, 20, 3)
    for i in range(8):
        for bit in range(8):
            bad = bytearray(good)
            bad[i] ^= 1 << bit
            assert code_of(decode, bad, SET) == "corrupt", (i, bit)


def test_other_data_is_corrupt_not_a_tile():
    ndef = b"\x03\x0b\xd1\x01\x07\x54\x02\x65"  # an NDEF text record where ours would be
    assert code_of(decode, ndef, SET) == "corrupt"
    assert code_of(decode, b"\xa1\x12", SET) == "corrupt"
    fields = bytearray(encode(SET, 1, 0))
    fields[3] = 42
    fields[7] = crc8(fields, 0, 7)
    assert code_of(decode, fields, SET) == "corrupt"
    flower = bytearray(encode(SET, 34, 0))
    flower[4] = 1
    flower[7] = crc8(flower, 0, 7)
    assert code_of(decode, flower, SET) == "corrupt"


def test_tile_of_another_set_is_refused():
    assert code_of(decode, encode(SET + 1, 3, 0), SET) == "foreign_set"


def test_newer_record_version():
    r = bytearray(encode(SET, 3, 0))
    r[0] = 0xA2
    r[7] = crc8(r, 0, 7)
    assert code_of(decode, r, SET) == "version"


def test_encode_refuses_what_does_not_exist():
    assert code_of(encode, SET, 42, 0) == "bad_tile"
    assert code_of(encode, SET, 0, 4) == "bad_copy"
    assert code_of(encode, SET, 35, 1) == "bad_copy"  # one of each flower
    assert code_of(encode, 0, 0, 0) == "bad_set"
    assert code_of(encode, 0x10000, 0, 0) == "bad_set"


def _uid(i, n):
    if n == 7:
        return bytes((0x04, i & 0xFF, (i * 37) & 0xFF, 0x5A, i >> 8, 0x11, (i * 7) & 0xFF))
    return bytes(((i * 53) & 0xFF, 0x20, i & 0xFF, 0x99))


def _full_registry():
    entries = []
    for i, (t, c) in enumerate(every_tile()):
        entries.append((_uid(i, 7 if i % 3 else 4), t, c))
    return entries, UidRegistry(UidRegistry.build(SET, entries))


def test_registry_finds_every_tile_of_a_set():
    entries, reg = _full_registry()
    assert reg.count == 144 and reg.set_id == SET
    assert len(reg._b) == 8 + 144 * 9
    for uid, t, c in entries:
        assert reg.lookup(uid, len(uid)) == t * 4 + c
    assert reg.lookup(b"\x04\x00\x00\x00\x00\x00\x00", 7) == -1
    assert reg.lookup(b"\x00\x00\x00\x00", 4) == -1


def test_registry_keeps_4_and_7_byte_uids_apart():
    reg = UidRegistry(UidRegistry.build(SET, [(b"\x01\x02\x03\x04", 1, 0),
                                              (b"\x01\x02\x03\x04\x00\x00\x00", 2, 0)]))
    assert reg.lookup(b"\x01\x02\x03\x04", 4) == 4
    assert reg.lookup(b"\x01\x02\x03\x04\x00\x00\x00", 7) == 8
    buf = bytearray(10)
    buf[0:4] = b"\x01\x02\x03\x04"
    assert reg.lookup(buf, 4) == 4  # the reader's uid buffer, with its length


def test_registry_refuses_duplicates_and_damage():
    assert code_of(UidRegistry.build, SET, [(b"\x01\x02\x03\x04", 1, 0),
                                            (b"\x01\x02\x03\x04", 2, 0)]) == "duplicate"
    assert code_of(UidRegistry.build, SET, [(b"\x01\x02\x03\x04", 1, 0),
                                            (b"\x05\x02\x03\x04", 1, 0)]) == "duplicate"
    assert code_of(UidRegistry.build, SET, [(b"\x01\x02\x03", 1, 0)]) == "bad_uid"
    blob = UidRegistry.build(SET, [(b"\x01\x02\x03\x04", 1, 0)])
    assert code_of(UidRegistry, blob[:-1]) == "corrupt"
    assert code_of(UidRegistry, b"XXXX" + blob[4:]) == "corrupt"


def test_registry_lookup_allocates_nothing_on_micropython():
    entries, reg = _full_registry()
    uid = bytearray(entries[77][0])
    emu_path.needs_micropython()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(100):
            reg.lookup(uid, 7)
        after = gc.mem_alloc()
    finally:
        gc.enable()
    assert after - before < 100


def test_identify_prefers_the_record_and_falls_back_to_the_registry():
    entries, reg = _full_registry()
    uid, t, c = entries[10]
    assert identify(encode(SET, 7, 1), uid, len(uid), SET, reg) == (7, 1)
    assert identify(bytes(8), uid, len(uid), SET, reg) == (t, c)
    assert identify(b"\x03\x0b\xd1\x01\x07\x54\x02\x65", uid, len(uid), SET, reg) == (t, c)
    assert code_of(identify, bytes(8), b"\x09\x09\x09\x09", 4, SET, reg) == "blank"
    assert code_of(identify, encode(SET + 1, 7, 1), uid, len(uid), SET, reg) == "foreign_set"
    assert code_of(identify, bytes(8), uid, len(uid), SET + 1, reg) == "foreign_set"
    assert code_of(identify, bytes(8), uid, len(uid), SET) == "blank"


def test_record_written_and_read_back_through_the_mfrc522():
    tag = tags.ntag213(b"\x04\x51\x2a\x6b\x1c\x73\x80")
    emu = MFRC522Emu([tag])
    rdr = MFRC522(emu, emu.cs, sleep_us=emu.sleep_us)
    assert rdr.poll() == OK
    rec = encode(SET, 27, 3)  # East wind, fourth copy
    assert rdr.write(tile_tag.RECORD_PAGE, rec[0:4]) == OK
    assert rdr.write(tile_tag.RECORD_PAGE + 1, rec[4:8]) == OK
    buf = bytearray(16)
    assert rdr.read(tile_tag.RECORD_PAGE, buf) == OK
    assert identify(buf, rdr.uid, rdr.uid_len, SET) == (27, 3)
