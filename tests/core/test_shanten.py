# Shanten and waits on hands whose answers were worked out by hand (see the comment at each).
# Plain test functions with bare asserts: runs under pytest and under MicroPython
# (tests/mp_run.py).
from rules_min.shanten import (
    HONOURS_AND_KNITTED,
    KNITTED_STRAIGHT,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    is_complete,
    shanten,
    shape_shanten,
    waits,
    waits_into,
)

HONOURS = "ESWNCFP"


def hand(text):
    # "123m456s789pEE" -> bytearray(34) of counts
    counts = bytearray(34)
    digits = []
    for ch in text:
        if "1" <= ch <= "9":
            digits.append(ord(ch) - 49)
        elif ch in "msp":
            base = 9 * "msp".index(ch)
            for d in digits:
                counts[base + d] += 1
            digits = []
        else:
            counts[27 + HONOURS.index(ch)] += 1
    assert not digits
    return counts


def tiles(text):
    # "19m E" -> sorted tile codes, each once
    counts = hand(text.replace(" ", ""))
    return [t for t in range(34) if counts[t]]


def check_ready(text, melds, expected):
    c = hand(text)
    assert sum(c) == 13 - 3 * melds
    assert shanten(c, melds) == 0, text
    w = waits(c, melds)
    assert w == tiles(expected), (text, w)
    for t in w:  # each wait completes the hand
        c[t] += 1
        if c[t] <= 4:
            assert is_complete(c, melds), (text, t)
            assert shanten(c, melds) == -1, (text, t)
        c[t] -= 1


def test_nine_gates_waits_on_all_nine():
    # 1112345678999m (nine gates) + 1: 111 123 456 789 99   + 2: 111 22 345 678 999
    # + 3: 11 123 345 678 999   + 4: 111 234 456 789 99   + 5: 111 234 55 678 999
    # + 6: 11 123 456 678 999   + 7: 111 234 567 789 99   + 8: 111 234 567 88 999
    # + 9: 11 123 456 789 999
    check_ready("1112345678999m", 0, "123456789m")


def test_thirteen_orphans_thirteen_sided():
    check_ready("19m19s19pESWNCFP", 0, "19m19s19pESWNCFP")


def test_thirteen_orphans_single_wait():
    # 1m doubled, white dragon missing: only P
    check_ready("119m19s19pESWNCF", 0, "P")


def test_seven_pairs_single_wait():
    # 6 pairs + E; no three consecutive or three alike, so no regular reading
    check_ready("1122m3344s5566pE", 0, "E")


def test_seven_pairs_four_of_a_kind_counts_as_two_pairs():
    # 1111m = two pairs; 22s 33s 44p 55p; the 9p single is the wait
    check_ready("1111m2233s4455p9p", 0, "9p")
    assert is_complete(hand("1111m2233s4455p99p"), 0)
    assert shanten(hand("1111m2233s4455p99p"), 0) == -1
    assert shape_shanten(hand("1111m2233s4455p9p"), 0, SEVEN_PAIRS) == 0


def test_held_four_still_a_wait():
    # 1111m + sets 456s 789p 789s: 111m + single 1m waits (formally) on a fifth 1m; the
    # pair reading 11m + 11m needs a second pair: nothing else
    check_ready("1111m456s789p789s", 0, "1m")
    # 1111234m 456s 789s: 111 + 234 + single 1m -> 1m; 111 + 123 + single 4m -> 4m
    check_ready("1111234m456s789s", 0, "14m")


def test_honours_and_knitted_tiles():
    # 147m 258s 369p + E S W N: the 3 missing of the 16 are C F P
    check_ready("147m258s369pESWN", 0, "CFP")
    # 14m 258s 36p + E S W N C F: missing 7m, 9p and P
    check_ready("14m258s36pESWNCF", 0, "7m9pP")
    assert is_complete(hand("147m258s369pESWNC"), 0)
    assert shanten(hand("147m258s369pESWNC"), 0) == -1


def test_knitted_straight():
    # 147m 258s 36p (9p missing) + EEE + 11s: the rest is complete, wait 9p
    check_ready("147m258s36p11sEEE", 0, "9p")
    # full knitted straight + 45s + 99p: rest 45s 99p waits 3s / 6s
    check_ready("147m258s369p45s99p", 0, "36s")
    # full knitted straight + EE CC: shanpon on E / C
    check_ready("147m258s369pEECC", 0, "EC")
    # one meld: knitted straight + 2s, pair wait on 2s
    check_ready("147m258s369p2s", 1, "2s")
    assert is_complete(hand("147m258s369p22s"), 1)
    assert is_complete(hand("147m258s369p11sEEE"), 0)


def test_regular_ready_hands():
    # 123m 456s 789s 78p EE: 6p / 9p
    check_ready("123m456s789s78pEE", 0, "69p")
    # melds: 123m 456s 78p EE with one meld declared
    check_ready("123m456s78pEE", 1, "69p")
    # two melds: 55m 678s 99p, shanpon 5m / 9p
    check_ready("55m678s99p", 2, "5m9p")
    # three melds: 2345m -> 2m or 5m
    check_ready("2345m", 3, "25m")
    # 3334m -> 333+4 (4m), 33+34 (2m 5m)
    check_ready("3334m", 3, "245m")
    # four melds and one tile: a single wait on it
    check_ready("7p", 4, "7p")


def test_one_shanten_and_worse():
    # 5 pairs + 6p E W: seven pairs one away; regular: 55p pair + 4 partials = 3
    c = hand("1122m3344s556pEW")
    assert shanten(c, 0) == 1
    assert shape_shanten(c, 0, SEVEN_PAIRS) == 1
    assert shape_shanten(c, 0, REGULAR) == 3
    assert waits(c, 0) == []
    # 3 sets + 1m 5s 9p E: a fourth set and a pair missing -> 2
    c = hand("123m456s789p1m5s9pE")
    assert shanten(c, 0) == 2
    assert waits(c, 0) == []
    # 159m 159s 159p E S W N: 10 of the 13 orphans, no pair -> 3; regular 8 (no partials)
    c = hand("159m159s159pESWN")
    assert shanten(c, 0) == 3
    assert shape_shanten(c, 0, THIRTEEN_ORPHANS) == 3
    assert shape_shanten(c, 0, REGULAR) == 8
    # 147m 258s + E S W N with a meld: knitted straight missing 369p (3) and a pair (0) -> 3;
    # regular: no partials, 3 sets + pair wanted -> 8 - 2 = 6
    c = hand("147m258sESWN")
    assert shanten(c, 1) == 3
    assert shape_shanten(c, 1, KNITTED_STRAIGHT) == 3
    assert shape_shanten(c, 1, REGULAR) == 6
    assert shape_shanten(c, 1, SEVEN_PAIRS) is None
    # 13579m 13579s 135p: partials 13m 57m 13s 57s 13p, capped at 4, no pair -> 4
    c = hand("13579m13579s135p")
    assert shanten(c, 0) == 4
    assert shape_shanten(c, 0, REGULAR) == 4


def test_isolated_tiles_and_cap():
    # 4 melds + 1 tile: ready (single wait) whatever the tile
    assert shanten(hand("E"), 4) == 0
    # 3 melds + 4 isolated tiles: 1 set missing (2 tiles) + pair (1 tile) -> 2
    assert shanten(hand("1m5m9sE"), 3) == 2
    # 2 melds + 7 isolated: 2 sets (4 tiles) + pair (1) -> 4
    assert shanten(hand("1m5m9m3s7sEC"), 2) == 4
    # 13 tiles, no two within 2 of each other, no pair, no orphan shape: regular 8
    c = hand("15m48s26pESWNCFP")
    assert shape_shanten(c, 0, REGULAR) == 8


def test_complete_hands():
    c = hand("123m456s789p123pEE")
    assert is_complete(c, 0)
    assert shanten(c, 0) == -1
    assert is_complete(hand("1122m3344s5566pEE"), 0)  # seven pairs only
    assert is_complete(hand("19m19s19pESWNCFPP"), 0)
    assert is_complete(hand("77p"), 4)
    assert shanten(hand("77p"), 4) == -1
    assert shanten(hand("78p"), 4) == 0  # discard one, wait on it
    # 14 tiles, not complete: 3 sets + 12p + EE + W -> discard W, ready: 0
    c = hand("123m456s789p12pEEW")
    assert not is_complete(c, 0)
    assert shanten(c, 0) == 0
    # wrong tile count: not complete
    assert not is_complete(hand("123m456s789p123pE"), 0)


def test_not_ready_has_no_waits():
    out = bytearray(34)
    c = hand("123m456s789p1m5s9pE")
    assert waits_into(c, 0, out) == 0
    assert sum(out) == 0
    c = hand("3334m")
    assert waits_into(c, 3, out) == 3
    assert [t for t in range(34) if out[t]] == tiles("245m")


def test_counts_not_modified_and_list_accepted():
    c = hand("1111234m456s789s")
    before = bytes(c)
    shanten(c, 0)
    waits(c, 0)
    is_complete(c, 0)
    shape_shanten(c, 0, KNITTED_STRAIGHT)
    assert bytes(c) == before
    lst = list(c)
    assert shanten(lst, 0) == 0
    assert waits(lst, 0) == tiles("14m")
    assert lst == list(before)


def test_bad_input_raises():
    for args in ((hand("123m"), 0), (hand("123m456s789p12pE"), 1), (hand("1m"), 5)):
        try:
            shanten(*args)
            assert False, args
        except ValueError:
            pass
    c = bytearray(34)
    c[0] = 5
    c[1] = 8
    try:
        waits(c, 0)
        assert False
    except ValueError:
        pass


def test_no_allocation_on_micropython():
    # shanten(), waits_into() and is_complete() allocate nothing, on every path (MicroPython
    # heap-allocates the frame of a function whose state exceeds 11 words: none does)
    import sys
    if sys.implementation.name != "micropython":
        return  # a MicroPython property: checked by the MicroPython half of make test
    import gc
    import micropython

    out = bytearray(34)
    cases = (
        (hand("1111234m456s789s"), 0),
        (hand("19m19s19pESWNCFP"), 0),
        (hand("147m258s369p45s99p"), 0),
        (hand("147m258s36p11sEEE"), 0),
        (hand("14m258s36pESWNCF"), 0),
        (hand("1122m3344s5566pE"), 0),
        (hand("13579m13579s135p"), 0),
        (hand("147m258s369p2s"), 1),
        (hand("55m678s99p"), 2),
        (hand("3334m"), 3),
        (hand("7p"), 4),
    )
    full = bytearray(34)
    for c, m in cases:  # warm-up
        shanten(c, m)
        waits_into(c, m, out)
    gc.collect()
    for c, m in cases:
        waits_into(c, m, out)
        add = 33
        for t in range(34):
            full[t] = c[t]
            if out[t] and c[t] < 4:
                add = t
        full[add] += 1  # complete, when c has a wait it does not hold four of
        a = micropython.mem_total()
        shanten(c, m)
        waits_into(c, m, out)
        is_complete(full, m)
        shanten(full, m)
        assert micropython.mem_total() == a, (c, m)
