"""Checks of the random hand generator (tests/handgen.py) and the MahjongGB oracle (tests/oracle.py)."""

import collections
import os
import random
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handgen  # noqa: E402
import oracle  # noqa: E402

SEED = 20261129
N_HANDS = 20000


def _fans_tsv():
    here = Path(__file__).resolve()
    cands = [os.environ.get("MCR_FANS_TSV"), here.parents[1] / "testdata" / "mcr_fans.tsv"]
    for c in cands:
        if c and Path(c).is_file():
            return Path(c)
    pytest.fail("mcr_fans.tsv not found (set MCR_FANS_TSV)")


def _read_fans():
    rows = []
    lines = _fans_tsv().read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["points", "name", "en"]
    for line in lines[1:]:
        if line.strip():
            pts, name, en = line.split("\t")
            rows.append((name, int(pts), en))
    return rows


@pytest.fixture(scope="module")
def corpus():
    rng = random.Random(SEED)
    t0 = time.perf_counter()
    reqs = [handgen.random_win(rng) for _ in range(N_HANDS)]
    dt = time.perf_counter() - t0
    print("\ngenerated %d hands in %.2f s" % (N_HANDS, dt))
    return reqs


@pytest.fixture(scope="module")
def scored(corpus):
    out = []
    refused = []
    for req in corpus:
        try:
            out.append((req, oracle.oracle_raw(req)))
        except oracle.OracleRefused as exc:
            refused.append((req, str(exc)))
    return out, refused


# ---------------------------------------------------------------- (a) oracle accepts all, every fan seen

def test_oracle_accepts_every_generated_win(scored):
    _, refused = scored
    assert not refused, "%d refused, e.g. %r" % (len(refused), refused[:5])


def test_every_fan_is_produced(scored):
    table = _read_fans()
    assert len(table) == 82
    names = {n for n, _, _ in table}
    seen = collections.Counter()
    for req, _ in scored[0]:
        for name, _pts, _cnt in oracle.oracle_score(req)[0]:
            seen[name] += 1
    lines = ["%-8s %6d" % (n, seen[n]) for n, _, _ in sorted(table, key=lambda r: seen[r[0]])]
    msg = "fan coverage over %d hands (rarest first):\n%s\nnot in table: %s" % (
        N_HANDS, "\n".join(lines), sorted(set(seen) - names))
    print("\nrarest fans:", ", ".join("%s %d" % (n, seen[n]) for n, _, _ in
                                      sorted(table, key=lambda r: seen[r[0]])[:10]))
    assert set(seen) == names, msg


def test_oracle_names_and_points_match_table(scored):
    # MahjongGB's English names and points agree with the table; Chinese names after renaming.
    table = {n: (p, en) for n, p, en in _read_fans()}
    by_en = {en: (n, p) for n, p, en in _read_fans()}
    for req, raw in scored[0][:3000]:
        for pts, _cnt, cn, en in raw:
            name, p = by_en[en]
            assert p == pts
            assert oracle.RENAME.get(cn, cn) == name
            assert table[name] == (pts, en)


# ---------------------------------------------------------------- (b) never a fifth copy, counted independently

_TILE_RE = re.compile(r"([1-9]+)([msp])|([ESWNCFP])")


def _expand(text):
    out = []
    pos = 0
    for m in _TILE_RE.finditer(text):
        assert m.start() == pos, "junk in %r" % text
        pos = m.end()
        if m.group(3):
            out.append(m.group(3))
        else:
            out.extend(d + m.group(2) for d in m.group(1))
    assert pos == len(text), "junk in %r" % text
    return out


def _independent_count(hand):
    """(Counter of tiles, number of bracketed melds, number of kongs, concealed tiles) of a hand."""
    c = collections.Counter()
    melds = re.findall(r"\[([^\]]*)\]", hand)
    rest = re.sub(r"\[[^\]]*\]", "", hand)
    assert hand.startswith("[" * bool(melds)) and "[" not in rest
    kongs = 0
    for body in melds:
        body = body.split(",")[0]
        body = re.sub(r"[0-9]$", "", body) if re.search(r"[msp]\d$|[ESWNCFP]\d$", body) else body
        tiles = _expand(body)
        assert len(tiles) in (3, 4)
        kongs += len(tiles) == 4
        c.update(tiles)
    conc = _expand(rest)
    c.update(conc)
    return c, len(melds), kongs, conc


def test_no_fifth_copy_and_tile_count(corpus):
    for req in corpus:
        c, n_melds, kongs, conc = _independent_count(req["hand"])
        assert max(c.values()) <= 4, req
        assert sum(c.values()) == 14 + kongs, req
        assert len(conc) == 14 - 3 * n_melds, req
        # and handgen's parser agrees
        assert handgen.tile_counts(req["hand"]) == [c[handgen.tile_name(t)] for t in range(34)]


def test_generated_hands_are_wins_by_independent_check(corpus):
    for req in corpus[:5000]:
        melds, tiles = handgen.parse_hand(req["hand"])
        cnt = [0] * 34
        for t in tiles:
            cnt[t] += 1
        assert handgen.is_win_counts(cnt, len(melds)), req


def test_flags_are_never_dropped_or_added_by_oracle(scored):
    # Physically consistent flags: MahjongGB silently drops 抢杠和 / 杠上开花 / 和绝张 that cannot be,
    # and adds 和绝张 when three copies of the winning tile are in the winner's melds.
    for req, raw in scored[0]:
        names = {oracle.RENAME.get(cn, cn) for _, _, cn, _ in raw}
        if req["kong"]:
            assert ("杠上开花" if req["self_drawn"] else "抢杠和") in names, req
            assert not req["last_tile"], req
        if req["last_tile"]:
            assert ("妙手回春" if req["self_drawn"] else "海底捞月") in names, req
        if req["last_of_kind"] and "抢杠和" not in names:
            assert "和绝张" in names, req
        if "和绝张" in names:
            assert req["last_of_kind"], req
        if req["flowers"]:
            assert ("花牌", 1, req["flowers"]) in oracle.oracle_score(req)[0]


def test_corpus_shapes(corpus):
    hands = [r["hand"] for r in corpus]
    n_melds = collections.Counter(len(re.findall(r"\[", h)) for h in hands)
    assert set(n_melds) == {0, 1, 2, 3, 4}
    assert any(re.search(r",[1-3]\]", h) for h in hands)          # comma form
    assert any(re.search(r"\[(\d)\1\1\1[msp][5-7]\]", h) for h in hands)  # promoted kong
    assert any(re.search(r"\[(\d)\1\1\1[msp]\]", h) for h in hands)       # concealed suited kong
    assert any(re.search(r"\[([ESWNCFP])\1\1\1\]", h) for h in hands)     # concealed honour kong
    chows = [m for h in hands for m in re.findall(r"\[(\d)(\d)(\d)[msp],?([1-3])\]", h)]
    assert {c[3] for c in chows if int(c[0]) + 1 == int(c[1]) == int(c[2]) - 1} == {"1", "2", "3"}
    assert any(re.search(r"\d[msp]\d[msp]", h.split("]")[-1][:-2]) for h in hands)  # unshared suffix
    assert {r["seat_wind"] for r in corpus} == set("ESWN") == {r["prevalent_wind"] for r in corpus}
    assert {r["flowers"] for r in corpus} == set(range(9))
    for key in ("self_drawn", "last_of_kind", "last_tile", "kong"):
        assert {r[key] for r in corpus} == {False, True}


def test_special_shapes(scored):
    combos = collections.Counter()
    for req, raw in scored[0]:
        names = {oracle.RENAME.get(cn, cn) for _, _, cn, _ in raw}
        hand = req["hand"]
        if {"七对", "四归一"} <= names:
            combos["seven pairs with a four of a kind"] += 1
        if {"全不靠", "组合龙"} <= names:
            combos["lesser honours with the whole knitted straight"] += 1
        if "组合龙" in names and "[" in hand:
            combos["knitted straight with a claimed set"] += 1
        if "组合龙" in names and "全不靠" not in names and "[" not in hand:
            combos["concealed knitted straight with set and pair"] += 1
        if {"明暗杠", "杠上开花"} <= names:
            combos["replacement win with a concealed and a melded kong"] += 1
        if {"四杠", "四暗刻"} <= names:
            combos["four concealed kongs"] += 1
        if {"全求人", "双明杠"} <= names:
            combos["melded hand with kongs"] += 1
        if "抢杠和" in names and req["last_of_kind"]:
            combos["robbing the kong with last_of_kind set"] += 1
        melds, tiles = handgen.parse_hand(hand)
        in_melds = sum((3 if k != "GANG" else 4) * (t == tiles[-1]) if k != "CHI" else
                       (tiles[-1] in (t - 1, t, t + 1)) for k, t, _ in melds)
        if in_melds == 3:
            combos["winning tile with three copies in own melds"] += 1
    print("\n", dict(combos))
    assert len(combos) == 9, combos


def test_deterministic():
    a = [handgen.random_win(random.Random(SEED)) for _ in range(1)]
    r1, r2 = random.Random(7), random.Random(7)
    assert [handgen.random_win(r1) for _ in range(300)] == [handgen.random_win(r2) for _ in range(300)]
    assert a == [handgen.random_win(random.Random(SEED))]
    r1, r2 = random.Random(8), random.Random(8)
    assert [handgen.random_near_miss(r1) for _ in range(100)] == [handgen.random_near_miss(r2) for _ in range(100)]


# ---------------------------------------------------------------- (c) near misses

def test_near_misses_are_refused_as_not_win():
    rng = random.Random(SEED + 1)
    for _ in range(3000):
        req = handgen.random_near_miss(rng)
        c, n_melds, kongs, conc = _independent_count(req["hand"])
        assert max(c.values()) <= 4, req
        assert len(conc) == 14 - 3 * n_melds, req
        with pytest.raises(oracle.OracleRefused, match="ERROR_NOT_WIN"):
            oracle.oracle_score(req)
        # without its last tile the hand is a legal 13-tile hand for the shanten oracle
        win = handgen.tile_name(handgen.parse_hand(req["hand"])[1][-1])
        assert req["hand"].endswith(win)
        assert oracle.oracle_shanten(req["hand"][:-len(win)]) >= 0


# ---------------------------------------------------------------- (d) to_mahjonggb round trips

def _req(hand, **kw):
    r = {"hand": hand, "self_drawn": False, "last_of_kind": False, "last_tile": False, "kong": False,
         "seat_wind": "E", "prevalent_wind": "E", "flowers": 0}
    r.update(kw)
    return r


def _norm(args):
    packs, hand, win = args[:3]
    return (sorted(packs), sorted(hand), win) + tuple(args[3:])


@pytest.mark.parametrize("hand,packs,standing,win", [
    ("[345m3]258m1488s369p7s", [("CHI", "W4", 3)],
     "W2 W5 W8 T1 T4 T8 T8 B3 B6 B9", "T7"),
    ("[EEE,2][5555p][6666s5]123m99p9p", [("PENG", "F1", 2), ("GANG", "B5", 0), ("GANG", "T6", 1)],
     "W1 W2 W3 B9 B9", "B9"),
    ("[EEE2][123s,1][7777m7][CCCC]PP", [("PENG", "F1", 2), ("CHI", "T2", 1), ("GANG", "W7", 3),
                                        ("GANG", "J1", 0)], "J3", "J3"),
    ("[FFF1][PPP3][987p2]1m2m3m44sN", [("PENG", "J2", 1), ("PENG", "J3", 3), ("CHI", "B8", 2)],
     "W1 W2 W3 T4 T4", "F4"),
    ("[1111m,6][999s3]55p123pSSS", [("GANG", "W1", 2), ("PENG", "T9", 3)],
     "B5 B5 B1 B2 B3 F2 F2", "F2"),
    ("19m19s19pESWNCFPP", [], "W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3", "J3"),
    (" [234s1] 555m 678p NN 9m9m", [("CHI", "T3", 1)], "W5 W5 W5 B6 B7 B8 F4 F4 W9", "W9"),
])
def test_to_mahjonggb_examples(hand, packs, standing, win):
    args = handgen.to_mahjonggb(_req(hand))
    assert _norm(args) == _norm((tuple(packs), tuple(standing.split()), win, 0, False, False, False, False, 0, 0))


def test_to_mahjonggb_flags():
    args = handgen.to_mahjonggb(_req("[345m3]258m1488s369p7s", self_drawn=True, last_of_kind=True,
                                     kong=True, last_tile=True, seat_wind="N", prevalent_wind="S",
                                     flowers=5))
    assert args[3:] == (5, True, True, True, True, 3, 1)


@pytest.mark.parametrize("bad", ["[345m]12m", "[3456m1]1m", "[124m1]1m", "[EEE4]EE", "[5555p4]EE",
                                 "[ESW1]EE", "12", "1x", "EE[EEE1]", "0m"])
def test_to_mahjonggb_rejects_bad_notation(bad):
    with pytest.raises(ValueError):
        handgen.to_mahjonggb(_req(bad))


def test_oracle_examples():
    fans, total = oracle.oracle_score(_req("[345m3]258m1488s369p7s", flowers=2))
    assert fans == [("平和", 2, 1), ("组合龙", 12, 1), ("花牌", 1, 2)] and total == 16
    # the three waits carry the table's names, not MahjongGB's 独听・边张 / 独听・嵌张 / 独听・单钓
    assert ("边张", 1, 1) in oracle.oracle_score(_req("12m456s789p111pNN3m"))[0]
    assert ("嵌张", 1, 1) in oracle.oracle_score(_req("13m456s789p111pNN2m"))[0]
    assert oracle.oracle_score(_req("[EEE1][SSS1][WWW1]NNN5m5m")) == (
        [("单钓将", 1, 1), ("大四喜", 88, 1), ("混一色", 6, 1)], 95)
    with pytest.raises(oracle.OracleRefused, match="ERROR_NOT_WIN"):
        oracle.oracle_score(_req("123m456s789p11pES1p"))
    with pytest.raises(oracle.OracleRefused, match="ERROR_WRONG_TILES_COUNT"):
        oracle.oracle_score(_req("123m456s789p11pE1p"))


def test_oracle_shanten():
    assert oracle.oracle_shanten("19m19s19pESWNCFP") == 0
    assert oracle.oracle_shanten("[345m3]258m1488s369p") == 0
    assert oracle.oracle_shanten("[345m3][EEE1]123s456p9p") == 0
    assert oracle.oracle_shanten("123m456s789p11p1sE") == 1
    assert oracle.oracle_shanten("147m258s369pESWN") == 0  # honours and knitted, ready
    with pytest.raises(oracle.OracleRefused):
        oracle.oracle_shanten("[345m3]123m456s789p11p")
