"""Seating: who sits at which table and in which chair, for every format. Pure functions.

A ``Table`` lists its players in seat order East, South, West, North (the first hand's winds;
three-player tables use East, South, West). ``render_seating`` prints a seating for the hall.

* ``draw_seating``: first session by draw number, in fours (seed 000, seed 003 stages).
* ``rank_seating``: "高碰高", by current rank in fours (seed 000 sessions 2+, seed 004 session 4,
  seed 004 final by preliminary rank E S W N: ``final_seating``).
* ``swiss_seating``: Swiss tables close in rank avoiding repeat opponents (seed 001).
* ``preset_schedule``: sessions 1-3 of seed 004, no two players meet twice.
* ``snake_seating``: first round of the survival event (seed 000 §三.2).
* ``mcr_round_chairs`` / ``mcr_hand_seats``: MCR chair changes after each round (RULES.md
  "Table flow") and the seat winds of every hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable, Mapping, Optional, Sequence

from .model import WINDS, TournamentError, check_player


@dataclass(frozen=True)
class Table:
    number: int
    players: tuple[str, ...]

    def seats(self) -> tuple[tuple[str, str], ...]:
        """((wind, player), ...) in seat order E S W N."""
        return tuple(zip(WINDS, self.players))


def _ids(players: Iterable[Any]) -> list[str]:
    out = [check_player(getattr(p, "player", p)) for p in players]  # Standing objects or ids
    if len(set(out)) != len(out):
        raise TournamentError("a player is listed twice")
    return out


def table_sizes(n: int, allow_three: bool = True) -> list[int]:
    """Table sizes for n players: fours, then as few three-player tables as needed (MCR allows
    three-player tables, seed 000 §一.3). Refuses 1, 2 and 5 players, and any n not a multiple of
    4 when allow_three is False. DECISION: the three-player tables are the last (lowest ranked)."""
    if n < 0:
        raise TournamentError("negative number of players")
    if n % 4 == 0:
        return [4] * (n // 4)
    if not allow_three:
        raise TournamentError("%d players cannot be seated in fours" % n)
    t = -(-n // 4)
    threes = 4 * t - n
    if threes > t:
        raise TournamentError("%d players cannot be seated in tables of 3 and 4" % n)
    return [4] * (t - threes) + [3] * threes


def seat_in_order(players: Iterable[Any], allow_three: bool = True, first_table: int = 1) -> list[Table]:
    ids = _ids(players)
    out, i = [], 0
    for k, size in enumerate(table_sizes(len(ids), allow_three)):
        out.append(Table(first_table + k, tuple(ids[i : i + size])))
        i += size
    return out


def draw_seating(players_by_draw: Iterable[Any], allow_three: bool = True) -> list[Table]:
    """First session (seed 000 §三.1.3): players in draw-number order, seated in fours:
    draw 1-4 at table 1 (E S W N), 5-8 at table 2, ..."""
    return seat_in_order(players_by_draw, allow_three)


def rank_seating(ranked: Iterable[Any], allow_three: bool = True) -> list[Table]:
    """"高碰高" (seed 000 §三.1.3, seed 004 session 4): players in current rank order (a standings
    list or ids, best first), seated in fours, better rank in the earlier seat."""
    return seat_in_order(ranked, allow_three)


def final_seating(ranked: Iterable[Any], size: int = 4) -> Table:
    """Seed 004 final: the top ``size`` by preliminary rank sit E S W N in rank order."""
    ids = _ids(ranked)
    if len(ids) < size:
        raise TournamentError("only %d players for a final table of %d" % (len(ids), size))
    return Table(1, tuple(ids[:size]))


def snake_seating(ranked: Iterable[Any]) -> tuple[list[Table], list[str]]:
    """Snake seating in tables of four (survival event, seed 000 §三.2.3).

    With T = n // 4 tables, rank r (0-based) goes to row r // T; even rows fill tables
    1..T, odd rows T..1: table 1 gets ranks 1, 2T, 2T+1, 4T. Each table seats its players E S W N
    by rank. The n mod 4 lowest-ranked players are returned as not seated (they wait).
    """
    ids = _ids(ranked)
    t = len(ids) // 4
    if t == 0:
        return [], ids
    tables: list[list[str]] = [[] for _ in range(t)]
    for r in range(4):
        row = ids[r * t : (r + 1) * t]
        for i, p in enumerate(row):
            tables[i if r % 2 == 0 else t - 1 - i].append(p)
    return [Table(i + 1, tuple(ps)) for i, ps in enumerate(tables)], ids[4 * t :]


# --------------------------------------------------------------------------- Swiss (seed 001)

def opponents(sessions: Iterable[Iterable[Any]]) -> dict[str, set[str]]:
    """Past seatings (each a list of Tables or of player lists) -> player -> opponents met."""
    met: dict[str, set[str]] = {}
    for session in sessions:
        for t in session:
            ps = list(t.players if isinstance(t, Table) else t)
            for a in ps:
                met.setdefault(a, set()).update(q for q in ps if q != a)
    return met


@dataclass(frozen=True)
class SwissSeating:
    """tables: the seating. repeats: pairs seated together who met before. repeated_pairs: those
    pairs. minimal: True when no seating with fewer repeats exists (every smaller allowance was
    searched exhaustively); False when the search budget ran out first (best effort)."""

    tables: tuple[Table, ...]
    repeats: int
    repeated_pairs: tuple[tuple[str, str], ...]
    minimal: bool = True


def swiss_seating(
    ranked: Iterable[Any],
    history: Mapping[str, Iterable[str]],
    node_budget: int = 20000,
    allow_three: bool = True,
) -> SwissSeating:
    """Swiss seating (seed 001 §二.4): tables close in rank that avoid repeat opponents.

    ranked: players best first (standings or ids). history: player -> opponents met so far
    (``opponents`` builds it; it is made symmetric here).
    Method: depth-first search in rank order (each table takes the best unseated player, then
    the next best who have not met anyone at the table), backtracking when stuck, with a node
    budget per attempt. If no seating without repeats is found it allows 1, 2, ... 8 repeated
    pairs, then 16, 32, ...; as a last resort it seats greedily with the fewest repeats per
    choice. ``repeats`` is exact for the seating returned; ``minimal`` says whether it is proven
    minimal.
    """
    ids = _ids(ranked)
    n = len(ids)
    sizes = table_sizes(n, allow_three)
    index = {p: i for i, p in enumerate(ids)}
    conf = [set() for _ in ids]
    for p, qs in history.items():
        for q in qs:
            if p in index and q in index and p != q:
                conf[index[p]].add(index[q])
                conf[index[q]].add(index[p])
    total_pairs = sum(len(c) for c in conf) // 2

    def count(tables: list[list[int]]) -> int:
        return sum(1 for t in tables for a, b in combinations(t, 2) if b in conf[a])

    allowed, found, proven, last_failed = 0, None, True, -1
    while found is None and allowed <= total_pairs:
        found, exhausted = _swiss_search(n, sizes, conf, allowed, node_budget)
        if found is None:
            proven = proven and exhausted
            last_failed = allowed
            allowed = allowed + 1 if allowed < 8 else allowed * 2
    greedy = _swiss_greedy(n, sizes, conf)
    if found is None or count(greedy) < count(found):
        found = greedy
    # narrow the gap left by doubling: binary search between the last failure and the count found
    lo, hi = last_failed + 1, count(found)
    while lo < hi:
        mid = (lo + hi) // 2
        better, exhausted = _swiss_search(n, sizes, conf, mid, node_budget)
        if better is not None:
            found, hi = better, count(better)
        else:
            proven = proven and exhausted
            last_failed, lo = mid, mid + 1
    tables, pairs = [], []
    for k, members in enumerate(found):
        tables.append(Table(k + 1, tuple(ids[i] for i in members)))
        for a, b in combinations(members, 2):
            if b in conf[a]:
                pairs.append((ids[a], ids[b]))
    # minimal when every allowance below the actual count was tried and failed exhaustively
    minimal = not pairs or (proven and len(pairs) <= last_failed + 1)
    return SwissSeating(tuple(tables), len(pairs), tuple(pairs), minimal)


def _swiss_search(n: int, sizes: list[int], conf: list[set], allowed: int, budget: int):
    """Returns (tables, True) or (None, exhausted): exhausted False when the budget ran out."""
    slots = [(t, s) for t, size in enumerate(sizes) for s in range(size)]
    assigned = [False] * n
    tables: list[list[int]] = [[] for _ in sizes]
    stack: list[list] = []  # per slot: [candidates, next pointer, chosen, cost]
    cost = nodes = k = 0
    while True:
        if k == len(slots):
            return tables, True
        t, s = slots[k]
        if len(stack) == k:
            if s == 0:
                cands = [next(i for i in range(n) if not assigned[i])]
            else:
                left = sizes[t] - s - 1  # seats after this one at the table
                cands = [i for i in range(tables[t][-1] + 1, n - left) if not assigned[i]]
            stack.append([cands, 0, None, 0])
        frame = stack[k]
        if frame[2] is not None:
            assigned[frame[2]] = False
            tables[t].pop()
            cost -= frame[3]
            frame[2] = None
        cands = frame[0]
        while frame[1] < len(cands):
            i = cands[frame[1]]
            frame[1] += 1
            c = sum(1 for q in tables[t] if q in conf[i])
            if cost + c <= allowed:
                assigned[i] = True
                tables[t].append(i)
                cost += c
                frame[2], frame[3] = i, c
                nodes += 1
                k += 1
                break
        else:
            stack.pop()
            k -= 1
            if k < 0:
                return None, True
        if nodes > budget:
            return None, False


def _swiss_greedy(n: int, sizes: list[int], conf: list[set]) -> list[list[int]]:
    free = list(range(n))
    out = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(free, key=lambda i: (sum(1 for q in table if q in conf[i]), i))
            free.remove(best)
            table.append(best)
        out.append(sorted(table))
    return out


# --------------------------------------------------------------------------- pre-set schedule (seed 004)

def _find_maps(m: int, sessions: int):
    """Row shifts f_k: {0,1,2,3} -> group of order m, f_0 = 0, such that for every two rows the
    differences f_k(r) - f_k(r') are distinct over k. Tries the cyclic group Z_m, then for m = 4
    the Klein group Z_2 x Z_2 (Z_4 has no orthomorphism). Returns (add, maps) or None."""
    groups = [(lambda a, b: (a + b) % m, lambda a, b: (a - b) % m)]
    if m == 4:
        groups.append((lambda a, b: a ^ b, lambda a, b: a ^ b))
    for add, sub in groups:
        maps = [(0, 0, 0, 0)]

        def ok(f: list[int]) -> bool:
            r = len(f) - 1
            for g in maps:
                d = sub(f[r], g[r])
                if any(sub(f[q], g[q]) == d for q in range(r)):
                    return False
            return True

        def extend() -> bool:
            if len(maps) == sessions:
                return True
            f = [0]

            def fill() -> bool:
                if len(f) == 4:
                    maps.append(tuple(f))
                    if extend():
                        return True
                    maps.pop()
                    return False
                for v in range(m):
                    f.append(v)
                    if ok(f) and fill():
                        return True
                    f.pop()
                return False

            return fill()

        if extend():
            return add, maps
    return None


def preset_schedule(players: Any, sessions: int = 3) -> list[list[Table]]:
    """Seed 004 §四 预赛.3: sessions 1-3 seated in advance so that no two players meet twice.

    players: the players in draw-number order, or an int n (players "1".."n").
    Construction: player k (0-based) is the point (row k mod 4, column k // 4) of a 4 x m grid,
    m = n / 4 tables. Table j of session s seats {(r, j + f_s(r)) : r = 0..3} with f_0 = 0, so
    session 1 seats draw numbers in fours. Two players in rows r != r' meet in session s exactly
    when their column difference is f_s(r') - f_s(r); these differences are distinct over the
    sessions, so no pair meets twice (players of one row never meet). This is a transversal
    design TD(4, m) restricted to ``sessions`` parallel classes (MOLS-style shifts: f_1(r) = r,
    f_2(r) = 2r-like, found by a small search in Z_m, or in Z_2 x Z_2 for m = 4).
    Exists for every m >= 4 with 3 sessions; 4, 8 and 12 players are impossible (a table of
    session 2 has four players, who must come from four different tables of session 1).
    Seats rotate by session: in session s (0-based) row s mod 4 sits East, so nobody is East
    in every session (DECISION).
    """
    ids = [str(i) for i in range(1, players + 1)] if isinstance(players, int) else _ids(players)
    n = len(ids)
    if n % 4:
        raise TournamentError("the pre-set schedule seats tables of 4: %d players is not a multiple of 4" % n)
    m = n // 4
    if sessions < 1:
        raise TournamentError("at least one session")
    if sessions > 1 and m < 4:
        raise TournamentError(
            "no schedule without repeat meetings exists for %d players: each table of session 2 "
            "needs players from 4 different tables of session 1, so at least 16 players are needed" % n
        )
    found = _find_maps(m, sessions)
    if found is None:
        raise TournamentError("no %d-session no-repeat schedule found for %d players" % (sessions, n))
    add, maps = found
    out = []
    for s, f in enumerate(maps):
        rows = [(s + i) % 4 for i in range(4)]
        out.append([Table(j + 1, tuple(ids[4 * add(j, f[r]) + r] for r in rows)) for j in range(m)])
    return out


def schedule_problems(schedule: Sequence[Sequence[Any]], table_size: int = 4) -> list[str]:
    """Check a multi-session schedule: every session seats the same players once each, in tables
    of ``table_size``, and no two players share a table twice. Returns the problems (empty = valid)."""
    problems: list[str] = []
    seen: dict[frozenset, int] = {}
    everyone = None
    for s, session in enumerate(schedule, 1):
        ps = [list(t.players if isinstance(t, Table) else t) for t in session]
        flat = [p for t in ps for p in t]
        if len(set(flat)) != len(flat):
            problems.append("session %d seats a player twice" % s)
        if everyone is None:
            everyone = set(flat)
        elif set(flat) != everyone:
            problems.append("session %d seats different players" % s)
        for k, t in enumerate(ps, 1):
            if len(t) != table_size:
                problems.append("session %d table %d has %d players" % (s, k, len(t)))
            for a, b in combinations(t, 2):
                pair = frozenset((a, b))
                if pair in seen:
                    problems.append("%s and %s meet in sessions %d and %d" % (a, b, seen[pair], s))
                else:
                    seen[pair] = s
    return problems


# --------------------------------------------------------------------------- chairs and winds

def mcr_round_chairs(players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """MCR chair changes (seed 000 "换位", RULES.md "Table flow"): the chairs at the start of the
    East, South, West and North rounds, each as (East chair, South, West, North).

    After East: East<->South and West<->North. After South: E->W, W->S, S->N, N->E. After West:
    East<->South and West<->North again. Every player sits in every chair once.
    """
    e, s, w, n = _ids(players) if len(players) == 4 else _bad_chairs(players)
    r1 = (e, s, w, n)
    r2 = (r1[1], r1[0], r1[3], r1[2])
    r3 = (r2[3], r2[2], r2[0], r2[1])  # new E = old N, new S = old W, new W = old E, new N = old S
    r4 = (r3[1], r3[0], r3[3], r3[2])
    return (r1, r2, r3, r4)


def _bad_chairs(players):
    raise TournamentError("MCR chair changes are defined for 4 players, not %d" % len(players))


def mcr_hand_seats(players: Sequence[str], hand: int) -> tuple[str, tuple[str, ...]]:
    """Prevalent wind and the players seated East, South, West, North (seats 0-3 of RULES.md) for
    hand ``hand`` (0-15) of an MCR session: the dealer passes every hand, 4 hands a round."""
    if not 0 <= hand < 16:
        raise TournamentError("an MCR session has hands 0-15")
    chairs = mcr_round_chairs(players)[hand // 4]
    d = hand % 4  # the chair that deals this hand
    return WINDS[hand // 4], tuple(chairs[(w + d) % 4] for w in range(4))


# --------------------------------------------------------------------------- text

def render_seating(tables: Iterable[Table], title: Optional[str] = None, names: Optional[Mapping[str, str]] = None) -> str:
    """Printable seating: a header line, then one line per seat: table number, wind, player
    (and the name when ``names`` has one)."""
    lines = [title] if title else []
    lines.append("Table  Wind  Player")
    for t in tables:
        for wind, p in t.seats():
            label = "%s  %s" % (p, names[p]) if names and p in names else p
            lines.append("%5d  %-4s  %s" % (t.number, wind, label))
    return "\n".join(lines) + "\n"


def render_schedule(schedule: Sequence[Sequence[Table]], names: Optional[Mapping[str, str]] = None) -> str:
    return "\n".join(render_seating(s, "Session %d" % (i + 1), names) for i, s in enumerate(schedule))
