"""Property tests: table totals, rankings are permutations, input order never matters."""
from fractions import Fraction as F
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from host_tools.tournament.exports import format_score
from host_tools.tournament.formats.guangdong_004 import gd_standings
from host_tools.tournament.formats.mcr_000 import mcr_standings, mcr_table
from host_tools.tournament.formats.mcr_swiss_001 import swiss_standings, swiss_table
from host_tools.tournament.formats.sichuan_003 import PlayoffRequired, SichuanLine, sichuan_rank_table
from host_tools.tournament.model import TableResult
from host_tools.tournament.seating import rank_seating, swiss_seating
from host_tools.tournament.survival import SurvivalHand, Waiting, play_survival_table, survival_multiplier, survival_retable

small = st.integers(-4, 4)  # narrow range: ties are common


@st.composite
def table(draw, max_forfeits=3):
    n = draw(st.integers(1, 4))
    players = ["p%d" % i for i in range(n)]
    forfeits = draw(st.integers(0, min(max_forfeits, 4 - n)))
    return TableResult({p: draw(small) for p in players}, forfeits=tuple("f%d" % i for i in range(forfeits)))


MCR_TOTAL = {4: 7, 3: 7, 2: 6, 1: 4}


@given(table())
def test_mcr_table_total_and_monotone(t):
    r = mcr_table(t)
    n = len(t.scores)
    assert sum(s.standard for s in r.values()) == MCR_TOTAL[n]
    assert all(r[p].standard == 0 and r[p].match == 0 for p in t.forfeits)
    if n >= 3:
        for a, b in combinations(t.scores, 2):
            if t.scores[a] > t.scores[b]:
                assert r[a].standard > r[b].standard
            if t.scores[a] == t.scores[b]:
                assert r[a].standard == r[b].standard


@given(table())
def test_swiss_table_total(t):
    r = swiss_table(t)
    n = len(t.scores)
    # N + (N-1) + ... : first N, then N-2, N-3, ..., 0 -> N + (N-1)(N-2)/2
    assert sum(s.standard for s in r.values()) == n + F((n - 1) * (n - 2), 2)
    assert all(r[p].match == 500 + t.scores[p] for p in t.scores)


@st.composite
def tournament(draw, full_first_table=False):
    k = draw(st.integers(4, 13))
    players = ["p%02d" % i for i in range(k)]
    sessions = []
    for _ in range(draw(st.integers(1, 4))):
        order = draw(st.permutations(players))
        tables = []
        for i in range(0, k, 4):
            group = order[i : i + 4]
            out = [] if (full_first_table and i == 0) else [p for p in group if draw(st.integers(0, 9)) == 0]
            scores = {p: draw(small) for p in group if p not in out}
            tables.append(TableResult(scores, forfeits=tuple(out)))
        sessions.append(tables)
    return players, sessions


def shuffled(sessions):
    """Same results, every order reversed: sessions, tables, players within tables."""
    return [
        [TableResult(dict(reversed(list(t.scores.items()))), tuple(reversed(t.forfeits))) for t in reversed(s)]
        for s in reversed(sessions)
    ]


def check_ranking(standings, players):
    assert sorted(s.player for s in standings) == sorted(players)
    for i, s in enumerate(standings):
        if i == 0:
            assert s.rank == 1
        elif s.key == standings[i - 1].key:
            assert s.rank == standings[i - 1].rank
        else:
            assert s.key < standings[i - 1].key and s.rank == i + 1


def summary(standings):
    return [(s.rank, s.player, s.standard, s.match) for s in standings]


@settings(max_examples=60)
@given(tournament())
def test_mcr_standings_properties(data):
    players, sessions = data
    a = mcr_standings(sessions)
    check_ranking(a, players)
    assert summary(a) == summary(mcr_standings(shuffled(sessions)))


@settings(max_examples=60)
@given(tournament())
def test_swiss_standings_properties(data):
    players, sessions = data
    a = swiss_standings(sessions)
    check_ranking(a, players)
    assert summary(a) == summary(swiss_standings(shuffled(sessions)))


@settings(max_examples=60)
@given(tournament(full_first_table=True))
def test_gd_standings_properties(data):
    players, sessions = data
    a = gd_standings(sessions)
    check_ranking(a, players)
    assert summary(a) == summary(gd_standings(shuffled(sessions)))


@given(st.lists(st.tuples(small, small, st.integers(0, 2), st.integers(-2, 2)), min_size=2, max_size=4))
def test_sichuan_rank_table_order_free(rows):
    lines = [SichuanLine("s%d" % i, sc, net, w) for i, (sc, net, w, _) in enumerate(rows)]
    playoff = {"s%d" % i: po for i, (_, _, _, po) in enumerate(rows)}

    def run(ls):
        try:
            return [(p.place, p.player) for p in sichuan_rank_table(ls, playoff)]
        except PlayoffRequired as e:
            return ("playoff", sorted(e.players))

    a = run(lines)
    assert a == run(list(reversed(lines)))
    if a[0] != "playoff":
        assert sorted(p for _, p in a) == sorted(l.player for l in lines)


@st.composite
def survival_table(draw):
    players = ["A", "B", "C", "D"]
    start = {p: draw(st.integers(1, 80)) for p in players}
    hands, t = [], 0
    for _ in range(draw(st.integers(0, 8))):
        t += draw(st.integers(0, 25))
        winner = draw(st.sampled_from(players))
        others = [p for p in players if p != winner]
        fans = draw(st.integers(8, 30))
        discarder = draw(st.sampled_from(others + [None]))
        if discarder is None:
            deltas = {winner: 3 * (8 + fans), **{p: -(8 + fans) for p in others}}
        else:
            deltas = {winner: 24 + fans, **{p: -8 for p in others}}
            deltas[discarder] -= fans
        hands.append(SurvivalHand(t, deltas, winner, discarder))
    return start, hands


@given(survival_table())
def test_survival_table_properties(data):
    start, hands = data
    # keep the hands up to the first elimination, as a table would
    kept, scores = [], dict(start)
    for h in hands:
        kept.append(h)
        m = survival_multiplier(h.start)
        scores = {p: scores[p] + m * h.deltas.get(p, 0) for p in scores}
        if min(scores.values()) <= 0:
            break
    r = play_survival_table(start, kept)
    assert dict(r.scores) == scores
    assert sum(r.scores.values()) == sum(start.values())  # payments are zero-sum, multiplied or not
    assert r.finished == (min(scores.values()) <= 0)
    assert sorted(p.player for p in r.order) == sorted(start)
    assert [p.out for p in r.order] == sorted(p.out for p in r.order)  # survivors first
    assert all(h.multiplier == survival_multiplier(h.start) for h in r.hands)


@given(st.lists(st.tuples(st.integers(1, 200), st.integers(0, 3)), min_size=0, max_size=14))
def test_retable_keeps_everyone(rows):
    waiting = [Waiting("w%d" % i, s, since) for i, (s, since) in enumerate(rows)]
    tables, rest = survival_retable(waiting)
    seated = [p for t in tables for p in t] + [w.player for w in rest]
    assert sorted(seated) == sorted(w.player for w in waiting)
    assert len(rest) < 4 and all(len(t) == 4 for t in tables)
    score = {w.player: w.score for w in waiting}
    assert all([score[p] for p in t] == sorted((score[p] for p in t), reverse=True) for t in tables)


@settings(max_examples=40)
@given(st.integers(4, 24).filter(lambda n: n != 5), st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23)), max_size=30))
def test_swiss_seating_partition_and_repeat_count(n, pairs):
    players = ["q%d" % i for i in range(n)]
    hist = {}
    for a, b in pairs:
        if a < n and b < n and a != b:
            hist.setdefault(players[a], set()).add(players[b])
    s = swiss_seating(players, hist, node_budget=2000)
    seated = [p for t in s.tables for p in t.players]
    assert sorted(seated) == sorted(players)
    recount = sum(1 for t in s.tables for a, b in combinations(t.players, 2) if b in hist.get(a, ()) or a in hist.get(b, ()))
    assert s.repeats == recount == len(s.repeated_pairs)
    if not hist:
        assert s.repeats == 0 and list(s.tables) == rank_seating(players)  # no history: plain rank order


@given(st.integers(-10**6, 10**6), st.sampled_from([1, 2, 4, 5, 8, 10, 20, 25, 40, 3, 6, 7]))
def test_format_score_exact_when_finite(num, den):
    x = F(num, den)
    text = format_score(x)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:  # finite decimal: exact
        assert F(text) == x
    else:  # rounded to 2 places
        assert abs(F(text) - x) <= F(1, 200) and len(text.split(".")[1]) == 2
