# The fast paths of the rules core against plain reference versions written here: the group-wise
# shape checks and wait test of mcr_shapes (a search over sets, as they were first written), the
# one-pass exclusions of mcr, name lookups by offset, the streamed JSON of journal records, and
# that scoring allocates nothing. Plain test functions with bare asserts: runs under pytest and
# under MicroPython (tests/mp_run.py). On the Pico the same kernels run natively
# (rules_min/mcr_viper.py); bench/pico_score.py checks those reply by reply against CPython.
from rules_min import mcr, mcr_shapes as sh, mcr_table as T, jsonout
from rules_min.notation import parse
from rules_min.win import Win

KNITTED = sh.KNITTED
ORPHANS = sh.ORPHANS


class Rng:
    # a small LCG: the same hands on CPython and MicroPython
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


# ---- reference shape checks: a search, lowest tile first ----

def ref_sets(c, need, t):
    if need == 0:
        for x in range(34):
            if c[x]:
                return False
        return True
    while t < 34 and c[t] == 0:
        t += 1
    if t == 34:
        return False
    if c[t] >= 3:
        c[t] -= 3
        ok = ref_sets(c, need - 1, t)
        c[t] += 3
        if ok:
            return True
    if t < 27 and t % 9 < 7 and c[t + 1] and c[t + 2]:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        ok = ref_sets(c, need - 1, t)
        c[t] += 1
        c[t + 1] += 1
        c[t + 2] += 1
        return ok
    return False


def ref_regular(c, nsets):
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = ref_sets(c, nsets, 0)
            c[p] += 2
            if ok:
                return True
    return False


def ref_special(c, nmelds):
    # thirteen orphans, honours and knitted, knitted straight, of 14 - 3*nmelds tiles
    if nmelds == 0:
        pair = 0
        full = True
        for t in ORPHANS:
            if c[t] == 0:
                full = False
            if c[t] == 2:
                pair += 1
        if full and pair == 1:
            return True
        single = True
        for t in range(34):
            if c[t] > 1:
                single = False
        if single:
            for kt in KNITTED:
                ok = True
                for t in range(27):
                    if c[t] and t not in kt:
                        ok = False
                if ok:
                    return True
    if nmelds <= 1:
        for kt in KNITTED:
            if all(c[t] for t in kt):
                for t in kt:
                    c[t] -= 1
                ok = ref_regular(c, 1 - nmelds)
                for t in kt:
                    c[t] += 1
                if ok:
                    return True
    return False


def ref_other_wait(c, skip, nmelds):
    # some tile other than skip completes c (13 - 3*nmelds tiles) in any shape
    for t in range(34):
        if t == skip:
            continue
        c[t] += 1
        ok = ref_regular(c, 4 - nmelds)
        if not ok and nmelds == 0:
            ok = True
            for x in range(34):
                if c[x] & 1:
                    ok = False
        if not ok:
            ok = ref_special(c, nmelds)
        c[t] -= 1
        if ok:
            return True
    return False


def random_concealed(rng, nsets, win_like):
    # counts of nsets sets and a pair (win_like), or of random tiles of that number; counts can
    # reach 5, as in the formal wait test
    c = bytearray(34)
    if win_like:
        for _ in range(nsets):
            if rng.below(3):
                t = rng.below(3) * 9 + rng.below(7)
                c[t] += 1
                c[t + 1] += 1
                c[t + 2] += 1
            else:
                c[rng.below(34)] += 3
        c[rng.below(34)] += 2
        # sometimes move one tile, so some hands are one off
        if rng.below(3) == 0:
            t = rng.below(34)
            if c[t]:
                c[t] -= 1
                c[rng.below(34)] += 1
    else:
        for _ in range(3 * nsets + 2):
            c[rng.below(34) if rng.below(2) else rng.below(9)] += 1
    for t in range(34):
        if c[t] > 5:
            return None
    return c


def test_regular_agrees_with_a_search():
    rng = Rng(11)
    checked = wins = 0
    while checked < 600:
        nsets = rng.below(5)
        c = random_concealed(rng, nsets, rng.below(4) != 0)
        if c is None:
            continue
        want = ref_regular(c, nsets)
        before = bytes(c)
        assert sh.regular(c, nsets) == want, (list(c), nsets)
        assert bytes(c) == before  # counts restored
        checked += 1
        wins += want
    assert 150 < wins < 550  # both answers exercised


def test_decompose_finds_every_split_once():
    rng = Rng(12)
    kinds = bytearray(5)
    tiles = bytearray(5)
    seen = []

    def note():
        seen.append((bytes(kinds), bytes(tiles)))

    checked = multi = 0
    while checked < 300:
        first = rng.below(3)
        c = random_concealed(rng, 4 - first, True)
        if c is None:
            continue
        for i in range(first):
            kinds[i] = 1
            tiles[i] = 30 + i
        del seen[:]
        n = sh.decompose(c, first, kinds, tiles, note)
        assert n == len(seen)
        splits = set()
        for k, t in seen:
            # each split is sets + the pair that use up exactly c
            left = bytearray(c)
            left[t[4]] -= 2
            for i in range(first, 4):
                if k[i] == sh.CHOW:
                    for d in range(3):
                        left[t[i] + d] -= 1
                else:
                    left[t[i]] -= 3
            assert bytes(left) == bytes(34), (list(c), k, t)
            splits.add((k[first:4], t[first:5]))
        assert len(splits) == n  # never the same split twice
        assert (n > 0) == ref_regular(c, 4 - first)
        assert n == ref_count_splits(c, 4 - first), (list(c), first)
        multi += n > 1
        checked += 1
    assert multi > 2
    for text, n in (("111222333m456s77p", 2), ("11122233344455m", 4), ("22223333444455s", 3)):
        del seen[:]
        assert sh.decompose(counts13(text), 0, kinds, tiles, note) == n == ref_count_splits(counts13(text), 4), text


def ref_count_splits(c, nsets):
    # every multiset of nsets sets (from the sets that fit c) whose rest is a pair
    cand = []
    for t in range(34):
        if c[t] >= 3:
            cand.append((t, 1))
        if t < 27 and t % 9 < 7 and c[t] and c[t + 1] and c[t + 2]:
            cand.append((t, 0))
    idx = [0] * nsets

    def rest_is_pair(choice):
        left = list(c)
        for t, pung in choice:
            if pung:
                left[t] -= 3
            else:
                for d in range(3):
                    left[t + d] -= 1
        n = 0
        for t in range(34):
            if left[t] < 0:
                return False
            if left[t]:
                if left[t] != 2:
                    return False
                n += 1
        return n == 1

    def walk(i, start):
        if i == nsets:
            return 1 if rest_is_pair([cand[k] for k in idx]) else 0
        total = 0
        for k in range(start, len(cand)):
            idx[i] = k
            total += walk(i + 1, k)
        return total

    if nsets == 0:
        return 1 if rest_is_pair([]) else 0
    return walk(0, 0)


def test_the_wait_test_agrees_with_trying_every_tile():
    rng = Rng(13)
    checked = unique = 0
    while checked < 400:
        nm = rng.below(3)
        c = random_concealed(rng, 4 - nm, True)
        if c is None or not ref_regular(c, 4 - nm):
            continue
        win = rng.below(34)
        if not c[win]:
            continue
        c[win] -= 1
        want = ref_other_wait(c, win, nm)
        before = bytes(c)
        assert sh.other_wait(c, win, nm) == want, (list(c), win, nm)
        assert bytes(c) == before
        checked += 1
        unique += not want
    assert 20 < unique < 380


def test_the_wait_test_on_special_shapes():
    # 13 orphans: 13-sided and single waits; honours and knitted; knitted straight
    cases = (
        ("19m19s19pESWNCFP", 0),          # 13 orphans waiting on any of them
        ("19m19s1pESWNCFPP", 0),          # waits on 9p only
        ("147m258s369pESWN", 0),          # honours and knitted: 13 different tiles
        ("147m258s369p234m5s", 0),        # knitted straight, waiting on the pair
        ("147m258s369p5s", 1),            # with a meld: the pair wait
        ("147m258s36p234m55s", 0),        # knitted straight missing 9p, the rest complete
        ("147m258s36p55s", 1),
    )
    for text, nm in cases:
        c = counts13(text)
        for skip in range(34):
            assert sh.other_wait(c, skip, nm) == ref_other_wait(c, skip, nm), (text, skip)


def counts13(text):
    c = bytearray(34)
    digits = []
    for ch in text:
        if "1" <= ch <= "9":
            digits.append(ord(ch) - 49)
        elif ch in "msp":
            for d in digits:
                c[9 * "msp".index(ch) + d] += 1
            digits = []
        else:
            c[27 + "ESWNCFP".index(ch)] += 1
    return c


# ---- exclusions ----

def ref_exclude_total(ft):
    mark = bytearray(T.NUM_FANS)
    for f in T.ORDER:
        if ft[f] and not mark[f]:
            for k in range(T.EXCL_AT[f], T.EXCL_AT[f + 1]):
                mark[T.EXCL[k]] = 1
    tot = 0
    for f in range(T.NUM_FANS):
        if mark[f]:
            ft[f] = 0
        tot += T.POINTS[f] * ft[f]
    return tot


def test_one_pass_exclusions_match_two_passes():
    rng = Rng(14)
    mark = bytearray(T.NUM_FANS + 1)
    for n in range(700):  # past 255 passes: the pass number wraps
        ft = bytearray(T.NUM_FANS)
        for _ in range(1 + rng.below(12)):
            ft[rng.below(T.NUM_FANS)] = 1 + rng.below(2)
        if n % 7 == 0:  # the pair that rules each other out
            ft[T.PURE_TRIPLE_CHOW] = 1
            ft[T.PURE_SHIFTED_PUNGS] = 1
        a = bytearray(ft)
        b = bytearray(ft)
        assert mcr._exclude_total(a, mark) == ref_exclude_total(b)
        assert a == b


# ---- names, replies, records ----

def test_names_by_offset():
    assert T.name(0) == "大四喜" and T.name(81) == "明暗杠"
    assert T.name(0, True) == "Big Four Winds" and T.name(81, True) == "Concealed Kong and Melded Kong"
    cn = []
    en = []
    for f in range(T.NUM_FANS):
        assert T.name_bytes(f).decode() == T.name(f) and T.name_bytes(f, True).decode() == T.name(f, True)
        cn.append(T.name(f))
        en.append(T.name(f, True))
    assert "|".join(cn).encode() == T.CN and "|".join(en).encode() == T.EN
    for s in cn + en:
        # the reply writes names without escaping them
        assert s and jsonout.q(s) == '"' + s + '"'


def test_json_quoting_in_c_and_by_hand_agree():
    for s in ("", "abc", "大三元", 'say "hi"', "back\\slash", "tab\there", "nl\n", "\x01", "é\x7f"):
        out = '"'
        for ch in s:
            if ch == '"' or ch == "\\":
                out += "\\" + ch
            elif ord(ch) < 32:
                out += "\\u%04x" % ord(ch)
            else:
                out += ch
        assert jsonout.q(s) == out + '"', s


# ---- allocation ----

def test_scoring_into_the_callers_table_allocates_nothing():
    # heap locked (MicroPython): any allocation raises MemoryError. Frames of bytecode functions
    # then go on the C stack. On CPython: the same results as unlocked.
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        heap_lock = heap_unlock = None
    hands = ("123m456m789m123s55p", "[123m1]456m789m123s5p5p", "1112345678999m5m", "19m19s19pESWNCFPP",
             "147m258s369p234m55s", "11223344556677m", "[EEE1][SSS2][WWW3]NN11m1m", "22334455667788p",
             "147m258s369pESWNC")
    ft = bytearray(T.NUM_FANS)
    for text in hands:
        melds, counts, win, _ = parse(text)
        p = Win(melds, counts, win, True)
        want = mcr.score(p, ft)
        want = (None if want < 0 else bytes(ft), max(want, 0))
        if heap_lock is not None:
            heap_lock()
        try:
            total = mcr.score(p, ft)
        finally:
            if heap_unlock is not None:
                heap_unlock()
        assert (None if total < 0 else bytes(ft), max(total, 0)) == want, text


# ---- the quick reading of hands ----

def _slow_parse(text, size=14):
    from rules_min import notation
    return notation.parse(text, size)


def _outcome(fn, text, size):
    try:
        melds, counts, win, flowers = fn(text, size)
        return (bytes(melds), bytes(counts), win, flowers)
    except ValueError as e:
        return ("error", e.args[0])


def test_quick_parse_reads_what_parse_reads():
    from rules_min import notation_quick as notation
    rng = Rng(15)
    pieces = ("1", "2", "5", "9", "123", "456", "789", "55", "111", "m", "s", "p", "E", "S", "C", "P", "W",
              "[", "]", ",", "0", "1", "2", "3", "5", "a", "h", " ", "x", "é", "[123m1]", "[EEE2]", "[5555p]",
              "[5555p6]", "[7777s,1]", "[234s3]")
    valid = 0
    for n in range(3000):
        text = "".join(pieces[rng.below(len(pieces))] for _ in range(1 + rng.below(14)))
        if n % 3 == 0:  # mostly well-formed: a random winning hand's notation with noise
            text = ("[123m1]" if rng.below(2) else "") + "456m789s" + ("EE" if rng.below(2) else "11p") \
                + ("123p" if rng.below(2) else "[5555p]") + "5s5s" + ("ab" if rng.below(3) == 0 else "")
        for size in (13, 14):
            want = _outcome(_slow_parse, text, size)
            got = notation._quick(text, size)
            if got is not None:
                got = (bytes(got[0]), bytes(got[1]), got[2], got[3])
                assert got == want, (text, size, got, want)
                valid += 1
            else:
                assert want[0] == "error", (text, size, want)
            assert _outcome(notation.parse, text, size) == want
    assert valid > 150
    edge = ("[1111m]111m234s55p5p", "[111m1]11m234s567p55s", "11111m234s567p55s", "123m456m789m123s5pa a",
            "123m456m789m123s55pab", "123m456m789m123s55paa", "123m456m789m[123s]55p", "[EEE1]123m456m789m55p",
            "[EEE4]123m456m789m55p", "[5555p4]123m456m789m55s", "[5555p5]123m456m789m55s",
            "[5555p8]123m456m789m55s", "[123m0]456m789m123s55p", "[123m4]456m789m123s55p",
            "[ESW1]456m789m123s55p", "[5555p,7]123m456m789m55s", "[5555p,]123m456m789m55s",
            "[55 5p]123m456m789m55s", "123m 456m 789m 123s 5p 5p ", "1 23m456m789m123s55p", "123m456m789m123s505p",
            "[123m1][456m2][789m3][123s1]5p5p", "[123m1][456m2][789m3][123s1][EEE1]", "[12m]3m456m789m123s55p",
            "[1234m]456m789m123s55p", "[11112m]456m789m123s55p", "EESSWWNNCCFFPP", "[]123m456m789m123s55p")
    for text in edge:
        for size in (13, 14):
            want = _outcome(_slow_parse, text, size)
            got = notation._quick(text, size)
            if got is not None:
                assert (bytes(got[0]), bytes(got[1]), got[2], got[3]) == want, (text, size)
            else:
                assert want[0] == "error", (text, size, want)


def test_quick_parse_takes_every_corpus_hand():
    from rules_min import notation_quick as notation
    from paths import repo_root
    import json
    n = 0
    with open(repo_root() + "/bench/corpus_pico_mcr.txt") as f:
        for line in f:
            hand = json.loads(line)["hand"]
            assert notation._quick(hand, 14) is not None, hand
            n += 1
    assert n == 500
