# PN532 driver against the frame-level emulator, over I2C and over SPI (both bit orders).
import gc

import emu_path
from emulators import tags
from emulators.pn532_emu import PN532Emu, frame, parse
from firmware.drivers import mfrc522, pn532
from firmware.drivers.pn532 import (ERR_CRC, ERR_FRAME, ERR_NAK, LOST, MULTIPLE, NO_TAG, OK,
                                    PN532, PN532_I2C, PN532_SPI)

UID7 = b"\x04\x51\x2a\x6b\x1c\x73\x80"
UID4 = b"\x3a\x9c\x51\xd2"


def on_i2c(*tag_list, **kw):
    emu = PN532Emu(tag_list)
    return emu, PN532(PN532_I2C(emu.i2c()), sleep_us=emu.sleep_us, **kw)


def on_spi(*tag_list, **kw):
    lsb_first = kw.pop("lsb_first", True)
    reverse = kw.pop("reverse", False)
    emu = PN532Emu(tag_list)
    bus = emu.spi(lsb_first)
    return emu, PN532(PN532_SPI(bus, bus.cs, reverse=reverse), sleep_us=emu.sleep_us, **kw)


def all_buses(*tag_list):
    # fresh tags for each bus: a tag's state belongs to one reader
    yield "i2c", on_i2c(*[t() for t in tag_list])
    yield "spi", on_spi(*[t() for t in tag_list])
    yield "spi-msb", on_spi(*[t() for t in tag_list], lsb_first=False, reverse=True)


def ntag():
    t = tags.ntag213(UID7)
    for p in range(4, 8):
        t.write_page(p, bytes((0x10 * p, 1, 2, 3)))
    return t


def ul4():
    return tags.ultralight4(UID4)


def test_frames_of_the_emulator_follow_the_user_manual():
    # GetFirmwareVersion as printed in the PN532 user manual
    assert frame(b"\x02", tfi=0xD4) == b"\x00\x00\xff\x02\xfe\xd4\x02\x2a\x00"
    assert parse(b"\x00\x00\xff\x02\xfe\xd4\x02\x2a\x00") == (0x02, b"")
    assert parse(b"\x00\x00\xff\x02\xfe\xd4\x02\x2b\x00") is None


def test_init_reads_the_firmware_and_bounds_the_passive_activation():
    for name, (emu, nfc) in all_buses():
        assert nfc.firmware == (0x32, 0x01, 0x06, 0x07), name
        assert emu.sam_configured and emu.retries == 0x01, name
        assert nfc.firmware_version() == (0x32, 0x01, 0x06, 0x07)


def test_empty_poll_is_no_tag_in_a_bounded_number_of_transactions():
    for name, (emu, nfc) in all_buses():
        t = emu.transactions
        assert nfc.poll() == NO_TAG
        n = emu.transactions - t
        assert n < 30, (name, n)
        print("PN532 %s empty poll: %d transactions" % (name, n))


def test_irq_pin_saves_the_status_reads():
    emu = PN532Emu()
    nfc = PN532(PN532_I2C(emu.i2c()), irq=emu.irq, sleep_us=emu.sleep_us)
    t = emu.transactions
    assert nfc.poll() == NO_TAG
    assert emu.transactions - t == 3  # command, ACK, answer: no status reads


def test_poll_reads_7_and_4_byte_uids():
    for name, (emu, nfc) in all_buses(ntag):
        assert nfc.poll() == OK, name
        assert bytes(nfc.uid[:nfc.uid_len]) == UID7 and nfc.atqa == 0x0044 and nfc.sak == 0
    for name, (emu, nfc) in all_buses(ul4):
        assert nfc.poll() == OK, name
        assert bytes(nfc.uid[:nfc.uid_len]) == UID4


def test_two_tags_are_multiple():
    for name, (emu, nfc) in all_buses(ntag, ul4):
        assert nfc.poll() == MULTIPLE, name
        assert nfc.poll() == MULTIPLE, name


def test_read_and_write_pages():
    for name, (emu, nfc) in all_buses(ntag):
        tag = emu.tags[0]
        assert nfc.poll() == OK
        buf = bytearray(16)
        assert nfc.read(4, buf) == OK, name
        assert bytes(buf) == bytes(tag.mem[16:32])
        assert nfc.write(6, b"\xca\xfe\x00\x01") == OK, name
        assert tag.page(6) == b"\xca\xfe\x00\x01"
        assert nfc.read(6, buf) == OK and bytes(buf[:4]) == b"\xca\xfe\x00\x01"


def test_nak_from_the_tag():
    emu, nfc = on_i2c(ul4())
    assert nfc.poll() == OK
    buf = bytearray(16)
    assert nfc.read(200, buf) == ERR_NAK
    assert nfc.poll() == OK
    assert nfc.write(0, b"\x00\x00\x00\x00") == ERR_NAK


def test_corrupted_frames_from_the_chip_are_errors_and_the_next_command_works():
    for how in ("dcs", "lcs", "tfi", "ack"):
        emu, nfc = on_i2c(ntag())
        emu.corrupt_next = how
        assert nfc.poll() == ERR_FRAME, how
        assert nfc.poll() == OK, how
        emu.corrupt_next = how
        buf = bytearray(16)
        assert nfc.read(4, buf) == ERR_FRAME, how
        assert nfc.read(4, buf) == OK, how


def test_corrupted_frame_over_spi():
    emu, nfc = on_spi(ntag())
    emu.corrupt_next = "dcs"
    assert nfc.firmware_version() is None
    assert nfc.firmware_version() == (0x32, 0x01, 0x06, 0x07)


def test_tag_lifted_mid_read_is_lost():
    for name, (emu, nfc) in all_buses(ntag):
        assert nfc.poll() == OK
        emu.tags[0].remove()
        buf = bytearray(16)
        assert nfc.read(4, buf) == LOST, name
        assert nfc.status == 0x01
        assert nfc.poll() == NO_TAG


def test_corrupted_crc_from_the_tag():
    emu, nfc = on_i2c(ntag())
    emu.tags[0].corrupt_crc = True
    assert nfc.poll() == OK
    assert nfc.read(4, bytearray(16)) == ERR_CRC


def test_halt_hides_the_tag_until_it_leaves_the_field():
    emu, nfc = on_i2c(ntag())
    assert nfc.poll() == OK
    assert nfc.halt() == OK
    assert nfc.poll() == NO_TAG
    emu.tags[0].enter_field()
    assert nfc.poll() == OK


def test_a_chip_searching_forever_is_aborted():
    # MaxRetries back at the chip's default: InListPassiveTarget never answers without a tag
    emu, nfc = on_i2c()
    emu.retries = 0xFF
    t = emu.transactions
    assert nfc.poll() == NO_TAG
    assert emu.aborts == 1 and emu.transactions - t < 80
    assert nfc.firmware_version() == (0x32, 0x01, 0x06, 0x07)


def test_bit_order_mismatch_fails_cleanly():
    emu = PN532Emu()
    bus = emu.spi(lsb_first=False)
    try:
        PN532(PN532_SPI(bus, bus.cs, reverse=False), sleep_us=emu.sleep_us)
    except OSError:
        return
    assert False, "no OSError"


def test_missing_chip_on_i2c():
    emu = PN532Emu()
    bus = emu.i2c()
    try:
        PN532(PN532_I2C(bus, addr=0x48), sleep_us=emu.sleep_us)
    except OSError:
        return
    assert False, "no OSError"


def test_result_codes_match_the_mfrc522_driver():
    for name in ("OK", "NO_TAG", "MULTIPLE", "LOST", "ERR_CRC", "ERR_PROTOCOL", "ERR_NAK",
                 "ERR_CHIP"):
        assert getattr(pn532, name) == getattr(mfrc522, name), name


class CannedI2C:
    """Answers each command with a fixed frame, allocating nothing: enough to measure the
    driver's own allocations (the frame-level emulator allocates as it parses)."""

    def __init__(self):
        self.ack = b"\x01" + bytes((0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00))
        self.answers = {0x02: b"\x01" + frame(b"\x03\x32\x01\x06\x07"),
                        0x14: b"\x01" + frame(b"\x15"),
                        0x32: b"\x01" + frame(b"\x33"),
                        0x4A: b"\x01" + frame(b"\x4b\x00")}  # no target
        self.cmd = 0x02

    def writeto(self, addr, buf, stop=True):
        if buf[3]:  # not the host's ACK
            self.cmd = buf[6]

    def readfrom_into(self, addr, buf, stop=True):
        src = self.ack if len(buf) == 7 else self.answers[self.cmd]
        for i in range(len(buf)):
            buf[i] = src[i] if i < len(src) else 0


def test_empty_poll_allocates_nothing_on_micropython():
    nfc = PN532(PN532_I2C(CannedI2C()), sleep_us=lambda us: None)
    assert nfc.poll() == NO_TAG
    emu_path.needs_micropython()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(100):
            nfc.poll()
        after = gc.mem_alloc()
    finally:
        gc.enable()
    print("PN532 empty poll: %d bytes allocated over 100 polls" % (after - before))
    assert after - before < 100
