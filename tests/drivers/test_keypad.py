# Keypad matrix scanner against an electrical model of a diode-free key matrix.
import gc

import emu_path
from emulators.keypad_emu import KeyMatrix
from firmware.drivers.keypad import DOWN, GHOST, Keypad, is_down, key_index

KEYS = "123A456B789C*0#D"  # a 4x4 membrane keypad, row-major


def make(debounce=3, events=16, nrows=4, ncols=4, keymap=KEYS):
    m = KeyMatrix(nrows, ncols)
    return m, Keypad(m.rows, m.cols, keymap, debounce=debounce, events=events)


def drain(kp):
    out = []
    while True:
        ev = kp.get()
        if ev < 0:
            return out
        out.append(ev)


def scans(kp, n):
    for _ in range(n):
        kp.scan()


def test_keymap_must_cover_the_matrix():
    m = KeyMatrix(4, 4)
    for bad in ("123", KEYS + "X"):
        try:
            Keypad(m.rows, m.cols, bad)
        except ValueError:
            continue
        assert False, bad
    try:
        Keypad(m.rows, m.cols, KEYS, debounce=0)
    except ValueError:
        return
    assert False


def test_press_needs_n_stable_scans_then_one_down_event():
    m, kp = make(debounce=3)
    m.press(2, 1)  # "8"
    scans(kp, 2)
    assert drain(kp) == []
    kp.scan()
    evs = drain(kp)
    assert evs == [(2 * 4 + 1) | DOWN]
    assert is_down(evs[0]) and kp.name(evs[0]) == "8" and kp.code(evs[0]) == ord("8")
    assert kp.is_pressed(2, 1)
    scans(kp, 10)
    assert drain(kp) == []  # held: no repeats
    m.release(2, 1)
    scans(kp, 3)
    evs = drain(kp)
    assert evs == [9] and not is_down(evs[0]) and key_index(evs[0]) == 9


def test_bouncing_contact_settles_before_it_counts():
    m, kp = make(debounce=3)
    for level in (1, 0, 1, 1, 0, 1, 0):  # chatter: never 3 equal scans in a row
        m.set(0, 0, level)
        kp.scan()
    assert drain(kp) == []
    m.press(0, 0)
    scans(kp, 2)
    assert drain(kp) == []
    kp.scan()
    assert drain(kp) == [0 | DOWN]
    for level in (0, 1, 0, 1):  # release chatter
        m.set(0, 0, level)
        kp.scan()
    assert drain(kp) == []
    m.release(0, 0)
    scans(kp, 3)
    assert drain(kp) == [0]


def test_debounce_of_one_scan_is_immediate():
    m, kp = make(debounce=1)
    m.press(3, 3)
    kp.scan()
    assert [kp.name(e) for e in drain(kp)] == ["D"]


def test_keys_sharing_a_row_or_a_column_are_not_ghosts():
    m, kp = make(debounce=2)
    m.press(1, 0)
    m.press(1, 2)
    scans(kp, 2)
    assert sorted(kp.name(e) for e in drain(kp)) == ["4", "6"]
    m.press(3, 0)  # same column as (1,0), another row: still unambiguous
    m.release(1, 2)
    scans(kp, 2)
    evs = drain(kp)
    assert sorted((kp.name(e), is_down(e)) for e in evs) == [("*", True), ("6", False)]


def test_three_corners_of_a_rectangle_are_a_ghost_and_ignored():
    m, kp = make(debounce=2)
    m.press(0, 0)
    m.press(0, 1)
    m.press(1, 0)  # the matrix now also shows (1,1): the scan cannot be trusted
    scans(kp, 5)
    assert drain(kp) == [GHOST]  # one GHOST for the whole ambiguous stretch, no keys
    assert kp.ghost_scans == 5
    m.release(0, 1)  # down to (0,0) and (1,0): one column, no rectangle
    scans(kp, 2)
    assert sorted(kp.name(e) for e in drain(kp)) == ["1", "4"]
    m.press(1, 1)
    m.press(0, 1)  # all four corners: also ambiguous
    scans(kp, 3)
    assert drain(kp) == [GHOST]


def test_ghost_in_a_chain_through_three_rows():
    # (0,0)-(1,0) share column 0, (1,1)-(2,1) share column 1: row 0 low pulls column 1 low too
    m, kp = make(debounce=1)
    for r, c in ((0, 0), (1, 0), (1, 1), (2, 1)):
        m.press(r, c)
    kp.scan()
    assert drain(kp) == [GHOST]


def test_diagonal_keys_are_not_ghosts():
    m, kp = make(debounce=1)
    m.press(0, 0)
    m.press(1, 1)
    m.press(2, 2)
    kp.scan()
    assert sorted(kp.name(e) for e in drain(kp)) == ["1", "5", "9"]


def test_full_ring_drops_new_events_and_counts_them():
    m, kp = make(debounce=1, events=2)
    m.press(0, 0)
    m.press(1, 1)
    m.press(2, 2)
    kp.scan()
    assert kp.pending() == 2 and kp.overflows == 1
    assert [kp.name(e) for e in drain(kp)] == ["1", "5"]


def test_pins_as_callables_and_bytes_keymap():
    m = KeyMatrix(2, 3)
    rows = [lambda v, p=p: p.value(v) for p in m.rows]
    cols = [lambda c=c: c.value() for c in m.cols]
    kp = Keypad(rows, cols, b"ABCDEF", debounce=1)
    m.press(1, 2)
    kp.scan()
    assert [kp.name(e) for e in drain(kp)] == ["F"]
    assert all(p.value() == 1 for p in m.rows)  # every row released after a scan


def test_scan_allocates_nothing_on_micropython():
    m, kp = make(debounce=2)
    kp.scan()
    emu_path.needs_micropython()
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for i in range(100):
            m.set(i % 4, (i // 4) % 4, i & 2)  # presses, releases, the odd ghost
            kp.scan()
            while kp.get() >= 0:
                pass
        after = gc.mem_alloc()
    finally:
        gc.enable()
    print("keypad scan: %d bytes allocated over 100 scans" % (after - before))
    assert after - before < 100
