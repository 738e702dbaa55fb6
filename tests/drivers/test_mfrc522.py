# MFRC522 driver against the register-level emulator; runs under pytest and tests/mp_run.py.
import gc

import emu_path
from emulators import tags
from emulators.mfrc522_emu import MFRC522Emu
from firmware.drivers import mfrc522
from firmware.drivers.mfrc522 import (ERR_CRC, ERR_NAK, LOST, MULTIPLE, NO_TAG, OK, MFRC522,
                                      crc_a)

UID7 = b"\x04\x51\x2a\x6b\x1c\x73\x80"
UID7B = b"\x04\x51\x2a\x92\x03\x44\x81"  # same first bytes: collides at cascade level 2 only
UID4 = b"\x3a\x9c\x51\xd2"


def make(*tag_list, **kw):
    emu = MFRC522Emu(tag_list)
    rdr = MFRC522(emu, emu.cs, sleep_us=emu.sleep_us, **kw)
    return emu, rdr


def polled(emu, rdr, wakeup=False):
    t = emu.transactions
    r = rdr.poll(wakeup)
    return r, emu.transactions - t


def test_crc_a_known_vectors():
    hlta = bytearray(b"\x50\x00")
    assert crc_a(hlta, 0, 2) == 0xCD57  # sent as 57 CD
    assert crc_a(bytearray(b"\x00\x00"), 0, 2) == 0x1EA0  # ISO 14443-3 annex B example
    frame = bytearray(b"\x30\x04\x93\x70\x88\x04\x51\x2a")
    for n in range(len(frame) + 1):
        assert crc_a(frame, 0, n) == tags.crc_a(frame[:n])


def test_init_programs_timer_field_and_ask():
    emu, rdr = make()
    assert rdr.version == 0x92
    assert emu.reg(0x2A) & 0x80  # TAuto
    assert emu.reg(0x2B) == 0xA9
    assert emu.field_on() and emu.reg(0x15) & 0x40


def test_missing_chip_raises_oserror():
    emu = MFRC522Emu(version=0x00)
    try:
        MFRC522(emu, emu.cs, sleep_us=emu.sleep_us)
    except OSError:
        return
    assert False, "no OSError"


def test_empty_poll_is_no_tag_in_a_bounded_number_of_transactions():
    emu, rdr = make()
    r, first = polled(emu, rdr)
    assert r == NO_TAG
    counts = []
    for _ in range(5):
        t0 = emu.now
        r, n = polled(emu, rdr)
        assert r == NO_TAG
        counts.append(n)
        assert emu.now - t0 < 2 * 13560  # under 2 ms of bus and sleep time
    assert first < 30 and max(counts) < 30
    assert max(counts) <= 12
    print("MFRC522 empty poll: %d transactions (first %d)" % (max(counts), first))


def test_empty_poll_allocates_nothing_on_micropython():
    emu, rdr = make()
    rdr.poll()  # first use of each frame length makes its views
    emu_path.needs_micropython()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(100):
            rdr.poll()
        after = gc.mem_alloc()
    finally:
        gc.enable()
    print("MFRC522 empty poll: %d bytes allocated over 100 polls" % (after - before))
    assert after - before < 100  # i.e. not one block per poll


def test_reads_a_7_byte_uid_through_two_cascade_levels():
    emu, rdr = make(tags.ntag213(UID7))
    r, n = polled(emu, rdr)
    assert r == OK
    assert rdr.uid_len == 7 and bytes(rdr.uid[:7]) == UID7
    assert rdr.sak == 0x00 and rdr.atqa == 0x0044
    print("MFRC522 poll with a 7-byte UID: %d transactions" % n)


def test_a_tile_read_takes_few_bus_transactions():
    # poll + read + halt of a 7-byte tag: the answers' status registers in one burst, no Idle /
    # FIFO flush / Transceive between frames the chip already waits in, a halt not waited for
    # (each transaction costs the Pico ~50 us of Python). It was 50 + 10 + 9.
    tag = tags.ntag213(UID7)
    tag.write_page(4, b"\x11\x22\x33\x44")
    emu, rdr = make(tag)
    assert rdr.poll() == OK and rdr.halt() == OK
    t = emu.transactions
    assert rdr.poll(wakeup=True) == OK and bytes(rdr.uid[:7]) == UID7
    polled = emu.transactions - t
    buf = bytearray(16)
    assert rdr.read(4, buf) == OK and bytes(buf[:4]) == b"\x11\x22\x33\x44"
    read = emu.transactions - t - polled
    assert rdr.halt() == OK
    halted = emu.transactions - t - polled - read
    print("MFRC522 tile read: poll %d, read %d, halt %d transactions" % (polled, read, halted))
    assert polled <= 28 and read <= 5 and halted <= 3
    assert rdr.poll() == NO_TAG  # the halt went out whole: the tag is silent
    assert rdr.poll(wakeup=True) == OK  # and a frame after the halt starts cleanly


def test_reads_a_4_byte_uid():
    emu, rdr = make(tags.ultralight4(UID4))
    assert rdr.poll() == OK
    assert rdr.uid_len == 4 and bytes(rdr.uid[:4]) == UID4


def test_read_pages_and_roll_over():
    tag = tags.ntag213(UID7)
    for p in range(4, 8):
        tag.write_page(p, bytes((p, p + 1, p + 2, p + 3)))
    emu, rdr = make(tag)
    assert rdr.poll() == OK
    buf = bytearray(16)
    assert rdr.read(4, buf) == OK
    assert bytes(buf) == bytes(tag.mem[16:32])
    assert rdr.read(44, buf) == OK  # last page, then pages 0..2
    assert bytes(buf) == tag.page(44) + bytes(tag.mem[0:12])


def test_write_a_page_and_read_it_back():
    tag = tags.ntag213(UID7)
    emu, rdr = make(tag)
    assert rdr.poll() == OK
    assert rdr.write(5, b"\xde\xad\xbe\xef") == OK
    assert tag.page(5) == b"\xde\xad\xbe\xef"
    buf = bytearray(16)
    assert rdr.read(4, buf) == OK and bytes(buf[4:8]) == b"\xde\xad\xbe\xef"


def test_write_waits_for_the_eeprom_cycle_not_just_the_short_timer():
    # the ACK comes ~4.1 ms after the frame; a 1 ms timer would call the tag lost
    tag = tags.ntag213(UID7)
    emu, rdr = make(tag)
    assert rdr.poll() == OK
    t0 = emu.now
    assert rdr.write(6, b"\x01\x02\x03\x04") == OK
    assert emu.now - t0 > tags.NTAG_WRITE_FC


def test_nak_for_a_page_out_of_range_or_locked():
    tag = tags.ultralight4(UID4)
    emu, rdr = make(tag)
    buf = bytearray(16)
    assert rdr.poll() == OK
    assert rdr.read(16, buf) == ERR_NAK
    assert rdr.poll() == OK  # a NAK sends the tag back to IDLE
    tag.read_only = True
    assert rdr.write(4, b"\x00\x00\x00\x01") == ERR_NAK
    assert rdr.poll() == OK
    assert rdr.write(1, b"\x00\x00\x00\x01") == ERR_NAK


def read_all(emu, rdr, most=10):
    """Poll, read and halt until the field is quiet: the UIDs in the order they were read."""
    got = []
    buf = bytearray(16)
    for _ in range(most):
        r = rdr.poll()
        if r == NO_TAG:
            return got
        assert r == OK, r
        got.append(bytes(rdr.uid[:rdr.uid_len]))
        assert rdr.read(4, buf) == OK
        assert rdr.halt() == OK
    raise AssertionError("still reading after %d tags: %r" % (most, got))


def test_two_tags_are_told_apart_and_read_one_after_the_other():
    # same ATQA and cascade level 1 (04 51 2a): they collide at level 2, in UID byte 3
    emu, rdr = make(tags.ntag213(UID7), tags.ntag213(UID7B, name="b"))
    got = read_all(emu, rdr)
    assert sorted(got) == sorted([UID7, UID7B])
    # ISO 14443-3 §6.5.3: the reader adds a 1 at the first colliding bit. 0x6b vs 0x92: bit 0
    # differs first, UID7's is 1
    assert got[0] == UID7


def test_tags_of_different_uid_sizes_collide_in_atqa_and_are_both_read():
    emu, rdr = make(tags.ntag213(UID7), tags.ultralight4(UID4))
    assert rdr.request() == OK  # 0x44 vs 0x04: a collision in the ATQA still means tags
    rdr.request()  # the tags are READY now: this one is an error to them, back to IDLE
    assert sorted(read_all(emu, rdr)) == sorted([UID7, UID4])


def test_two_tiles_left_on_the_reader_are_each_read_once():
    emu, rdr = make(tags.ntag213(UID7), tags.ntag213(UID7B, name="b"))
    assert len(read_all(emu, rdr)) == 2
    for _ in range(4):
        assert rdr.poll() == NO_TAG  # both halted: silent while they stay in the field


def test_collision_at_level_1_is_resolved_from_collpos():
    emu, rdr = make(tags.ultralight4(UID4), tags.ultralight4(b"\x3a\x9c\x52\x11", name="b"))
    emu.log = []
    assert rdr.request() == OK  # identical ATQAs do not collide
    assert rdr.select() == OK
    # UID byte 2 is 0x51 vs 0x52, LSB first: bit 17 of the frame collides (CollPos 17, 1-based);
    # the reader sends back 16 + 1 bits (NVB 0x41) with that bit set: 0x51's bit 0 is 1
    sent = [f for f, _ in emu.log]
    assert sent[1][:2] == b"\x93\x20" and sent[2][:2] == b"\x93\x41" and sent[2][4] & 1
    assert bytes(rdr.uid[:4]) == UID4


def test_three_tags_in_the_field_are_all_read():
    uids = [b"\x04\x51\x2a\x6b\x1c\x73\x80", b"\x04\x51\x2a\x6b\x1c\x73\x81",
            b"\x04\x11\x2a\x6b\x1c\x73\x80"]
    emu, rdr = make(*[tags.ntag213(u, name=str(i)) for i, u in enumerate(uids)])
    assert sorted(read_all(emu, rdr)) == sorted(uids)


def test_clone_tags_with_one_uid_cannot_be_told_apart():
    # two tags answering the same UID: nothing collides until their memory differs
    a = tags.ntag213(UID7)
    b = tags.ntag213(UID7, name="clone")
    a.write_page(4, b"\x01\x02\x03\x04")
    b.write_page(4, b"\x05\x06\x07\x08")
    emu, rdr = make(a, b)
    assert rdr.poll() == OK and bytes(rdr.uid[:7]) == UID7
    buf = bytearray(16)
    assert rdr.read(4, buf) != OK  # the two answers collide in the data


def test_tag_removed_mid_read_is_lost_not_a_hang():
    tag = tags.ntag213(UID7)
    emu, rdr = make(tag)
    tag.leave_after = 5  # REQA, 2 x (anticollision, select), then gone
    assert rdr.poll() == OK
    t = emu.transactions
    buf = bytearray(16)
    assert rdr.read(4, buf) == LOST
    assert emu.transactions - t < 30
    assert rdr.poll() == NO_TAG


def test_tag_removed_during_select_is_lost():
    tag = tags.ntag213(UID7)
    emu, rdr = make(tag)
    tag.leave_after = 2
    assert rdr.poll() == LOST


def test_corrupted_crc_from_the_tag_is_an_error():
    tag = tags.ntag213(UID7)
    tag.corrupt_crc = True
    emu, rdr = make(tag)
    assert rdr.poll() == OK
    buf = bytearray(16)
    assert rdr.read(4, buf) == ERR_CRC


def test_halt_silences_the_tag_until_wakeup():
    tag = tags.ntag213(UID7)
    emu, rdr = make(tag)
    assert rdr.poll() == OK
    assert rdr.halt() == OK
    assert rdr.poll() == NO_TAG  # still in the field, but halted: one read per tap
    assert rdr.poll(wakeup=True) == OK and bytes(rdr.uid[:7]) == UID7


def test_field_off_resets_halted_tags():
    tag = tags.ntag213(UID7)
    emu, rdr = make(tag)
    assert rdr.poll() == OK and rdr.halt() == OK
    rdr.antenna(False)
    assert rdr.poll() == NO_TAG
    rdr.antenna(True)
    assert rdr.poll() == OK


def test_coprocessor_crc_gives_the_same_results():
    tag = tags.ntag213(UID7)
    tag.write_page(4, b"\x11\x22\x33\x44")
    emu, rdr = make(tag, hw_crc=True)
    assert rdr.poll() == OK and bytes(rdr.uid[:7]) == UID7
    buf = bytearray(16)
    assert rdr.read(4, buf) == OK and bytes(buf[:4]) == b"\x11\x22\x33\x44"
    assert rdr.write(7, b"\x01\x02\x03\x04") == OK and tag.page(7) == b"\x01\x02\x03\x04"
    tag.corrupt_crc = True
    assert rdr.read(4, buf) == ERR_CRC


def test_hard_reset_pin_instead_of_soft_reset():
    emu = MFRC522Emu([tags.ultralight4(UID4)])
    rdr = MFRC522(emu, emu.cs, rst=emu.rst, sleep_us=emu.sleep_us)
    assert rdr.poll() == OK


def test_result_codes_are_distinct():
    codes = (mfrc522.OK, mfrc522.NO_TAG, mfrc522.MULTIPLE, mfrc522.LOST, mfrc522.ERR_CRC,
             mfrc522.ERR_PROTOCOL, mfrc522.ERR_NAK, mfrc522.ERR_CHIP)
    assert len(set(codes)) == len(codes)


def test_a_timer_that_never_fires_still_ends_the_poll():
    # TModeReg.TAuto lost (a glitch, a clone chip): no TimerIRq ever; the wait is still bounded
    emu, rdr = make()
    rdr._wr(0x2A, 0x00)
    r, n = polled(emu, rdr)
    assert r == NO_TAG and n < 30
