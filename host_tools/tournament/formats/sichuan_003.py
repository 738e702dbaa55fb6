"""Sichuan 血战到底 stages (seed 003): table groups play a stage's games (局: 8, 6, 8, then the
final table's 10); stage 1 and 3 advance each table's top two, stage 2 each table's winner and
the best runners-up up to a quota the organizer sets; ties by net score, then wins, then a
play-off the referee records. No time limit unless the organizer sets one (RULES.md).

* ``sichuan_lines`` (games -> a player's line at a table), ``sichuan_rank_table`` (第十四条.2:
  积分, 净胜分, 胡牌次数, play-off), ``sichuan_top_per_table`` (stages 1 and 3),
  ``sichuan_stage2`` (第十五条), ``sichuan_final`` (第十七条), and ``FORMAT``, whose results
  rank the event: session n is stage n, game n of a table is its hand n.
* Lateness, §五.1 (第五条 赛场纪律 1): 迟到10分钟直接判本局弃权，迟到15分钟取消当场参赛资格.
  ``sichuan_late`` gives the ruling (``rules_min.tournament``'s numbers); ``sichuan_lines(games,
  late=...)`` applies it: the game (局) the player was late for is forfeited, 15 minutes or more
  takes the player out of the stage (场). DECISIONS: late 10 minutes or more forfeits (迟到10分钟
  counts from the 10th minute), under 10 nothing (the seed names no penalty); a forfeited game
  scores 0 for that player (0 points, 0 net, no win: the seeds' 弃权 scores nothing, seed 000
  §一.4.1), the others keep what their game recorded; a player out of the stage keeps the points
  shown for the record but ranks below everyone at the table who is not, and never advances
  (another player moves up); ties among players out of the stage share the place and need no
  play-off.
* DECISIONS (the seed is silent): 积分 includes penalties and 净胜分 does not; play-offs are
  demanded only for ties that straddle an advancement place; stage 2 applies the tie rule to
  runners-up as well; the final's 总净胜分 is the net over the 10 games plus the 2 extra games.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Mapping, Optional, Sequence

from ..exports import format_score
from ..model import LateRuling, Score, Standing, TournamentError, check_player, check_score
from . import standings as common
from .base import Event, Format, Outcome, Setting, SettingsInvalid, late_ruling

def sichuan_late(minutes: Any) -> LateRuling:
    """Seed 003 §五.1: 10 minutes late or more forfeits the game (本局弃权); 15 or more, the
    stage (取消当场参赛资格). No points."""
    return late_ruling("sichuan", minutes)


@dataclass(frozen=True)
class SichuanLine:
    """A player's totals at one table over one stage (seed 003 第五章).

    score: 积分, the sum of the player's game totals, penalties included.
    net: 净胜分, points won minus points lost in play, penalties excluded. DECISION: the seed
        ranks by 积分 and breaks ties by 净胜分, which only differ by the penalties
        (一级/二级违规 deduct points that nobody receives); None means equal to score.
    wins: number of games the player won (胡牌次数; in 血战 at most one per game).
    disqualified: out of the stage (late 15 minutes or more): ranked last, never advances.
    forfeits: games forfeited (late 10 minutes or more), for display.
    """

    player: str
    score: Score
    net: Optional[Score] = None
    wins: int = 0
    disqualified: bool = False
    forfeits: int = 0

    def __post_init__(self) -> None:
        check_player(self.player)
        check_score(self.score)
        if self.net is None:
            object.__setattr__(self, "net", self.score)
        check_score(self.net, "net score")
        if isinstance(self.wins, bool) or not isinstance(self.wins, int) or self.wins < 0:
            raise TournamentError("wins must be a non-negative int")


@dataclass(frozen=True)
class SichuanGame:
    """One player's line in one game: delta = play settlement (wins, kongs, 查叫), penalty <= 0;
    forfeit: the player forfeited the game (counts 0 whatever else is given)."""

    delta: Score = 0
    penalty: Score = 0
    won: bool = False
    forfeit: bool = False


def _late_of(v: Any) -> tuple[Any, int]:
    if isinstance(v, tuple) and len(v) == 2:
        return v[0], v[1]
    return v, 1


def sichuan_lines(games: Sequence[Mapping[str, Any]], late: Optional[Mapping[str, Any]] = None) -> list[SichuanLine]:
    """Per-game lines of one table (player -> SichuanGame or dict) -> SichuanLine per player.

    late: player -> minutes late, or (minutes, game) with the game (1-based) the player was late
    for (default 1: the stage's first game, 比赛开始时), ruled by ``sichuan_late``: the game is
    forfeited at 10 minutes, the stage lost at 15. A late player without a line in that game
    gets a forfeited one, so a player who never played still appears at the table."""
    games = [dict(g) for g in games]
    out_of_stage = set()
    for p, v in (late or {}).items():
        mins, game = _late_of(v)
        if isinstance(game, bool) or not isinstance(game, int) or not 1 <= game <= max(1, len(games)):
            raise TournamentError("late %s: game %r is not a game of this table" % (p, game))
        ruling = sichuan_late(mins)
        if ruling.stage:
            out_of_stage.add(check_player(p))
        if ruling.forfeit:
            while len(games) < game:
                games.append({})
            games[game - 1][check_player(p)] = SichuanGame(forfeit=True)
    acc: dict[str, list] = {}
    for g in games:
        for p, line in g.items():
            if isinstance(line, Mapping):
                line = SichuanGame(**line)
            a = acc.setdefault(check_player(p), [0, 0, 0, 0])
            if line.forfeit:
                a[3] += 1
                continue
            a[0] += check_score(line.delta) + check_score(line.penalty)
            a[1] += line.delta
            a[2] += 1 if line.won else 0
    for p in out_of_stage:
        acc.setdefault(p, [0, 0, 0, 0])
    return [SichuanLine(p, s, n, w, p in out_of_stage, f) for p, (s, n, w, f) in acc.items()]


@dataclass(frozen=True)
class SichuanPlace:
    place: int
    player: str
    score: Score
    net: Score
    wins: int
    playoff: Optional[Score] = None
    disqualified: bool = False


class PlayoffRequired(TournamentError):
    """Players tied on every criterion across a place that matters: the play-off must be entered."""

    def __init__(self, message: str, players: Sequence[str], table: Optional[int] = None):
        super().__init__(message)
        self.players = tuple(players)
        self.table = table


def _lines(lines: Iterable[Any]) -> list[SichuanLine]:
    out = [l if isinstance(l, SichuanLine) else SichuanLine(**l) for l in lines]
    if len({l.player for l in out}) != len(out):
        raise TournamentError("a player appears twice at one table")
    return out


def _place_groups(items: list, key, playoff: Optional[Mapping[str, Any]], cuts: Sequence[int], table, what: str):
    """Order items (with .player) by key desc; tied groups use the play-off score when every
    member has one; a remaining tie that straddles a cut (after position c) raises PlayoffRequired.
    Returns [(place, item, playoff score or None)] with shared places for remaining ties."""
    items = sorted(items, key=lambda x: x.player)
    items.sort(key=key, reverse=True)
    out = []
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and key(items[j]) == key(items[i]):
            j += 1
        group = items[i:j]
        po = {}
        if len(group) > 1 and playoff and all(x.player in playoff for x in group):
            po = {x.player: check_score(playoff[x.player], "play-off score") for x in group}
            group.sort(key=lambda x: po[x.player], reverse=True)
        k = 0
        while k < len(group):
            m = k
            while m < len(group) and po.get(group[m].player) == po.get(group[k].player):
                m += 1
            lo, hi = i + k, i + m
            if hi - lo > 1 and any(lo < c < hi for c in cuts):
                players = [x.player for x in group[k:m]]
                raise PlayoffRequired(
                    "%s: players %s are tied on %s across place %d; enter the play-off result"
                    % ("table %s" % table if table is not None else "ranking", players, what, min(c for c in cuts if lo < c < hi)),
                    players,
                    table,
                )
            for x in group[k:m]:
                out.append((lo + 1, x, po.get(x.player)))
            k = m
        i = j
    return out


def sichuan_rank_table(
    lines: Iterable[Any],
    playoff: Optional[Mapping[str, Any]] = None,
    cuts: Sequence[int] = (2,),
    table: Optional[int] = None,
) -> list[SichuanPlace]:
    """Rank one table of a stage (seed 003 第十四条.2): 积分, then 净胜分, then wins, then the
    play-off game the referee records (player -> score in that game, higher first).

    cuts: places after which the order decides something (after 2: the top two advance).
    Players out of the stage (late, §五.1) rank below the others.
    A tie on all criteria straddling a cut raises PlayoffRequired naming the players; ties that
    decide nothing keep a shared place (DECISION: no play-off is demanded for them).
    """
    ls = _lines(lines)
    eligible = sum(1 for l in ls if not l.disqualified)
    cuts = [c for c in cuts if c < eligible]  # an order among players out of the stage decides nothing
    ranked = _place_groups(ls, lambda l: (not l.disqualified, l.score, l.net, l.wins), playoff, cuts, table, "score, net score and wins")
    return [SichuanPlace(pl, l.player, l.score, l.net, l.wins, po, l.disqualified) for pl, l, po in ranked]


@dataclass(frozen=True)
class SichuanStage:
    """tables: ranked table per input table (table numbers start at 1); advancing: who advances."""

    tables: tuple[tuple[SichuanPlace, ...], ...]
    advancing: tuple[str, ...]
    runners_up: tuple[SichuanPlace, ...] = ()


def sichuan_top_per_table(
    tables: Sequence[Iterable[Any]],
    per_table: int = 2,
    playoffs: Optional[Mapping[int, Mapping[str, Any]]] = None,
) -> SichuanStage:
    """Stage 1 (初赛, 8 games) and stage 3 (半决赛, 8 games): the top ``per_table`` of each table advance.

    playoffs: table number (1-based) -> player -> play-off score.
    """
    ranked, adv = [], []
    for n, t in enumerate(tables, 1):
        r = sichuan_rank_table(t, (playoffs or {}).get(n), (per_table,), n)
        ranked.append(tuple(r))
        adv.extend(p.player for p in r[:per_table] if not p.disqualified)
    return SichuanStage(tuple(ranked), tuple(adv))


def sichuan_stage2(
    tables: Sequence[Iterable[Any]],
    quota: int,
    playoffs: Optional[Mapping[int, Mapping[str, Any]]] = None,
    runner_up_playoff: Optional[Mapping[str, Any]] = None,
) -> SichuanStage:
    """Stage 2 (复赛, 6 games, seed 003 第十五条): each table's winner advances; the runners-up
    are ordered by total score and the best fill the quota.

    DECISIONS: the seed's tie rule (net score, wins, play-off) applies within tables and
    among runners-up; runners-up tied on all three across the cut need ``runner_up_playoff``
    (player -> score in the play-off game), else PlayoffRequired. advancing lists the table
    winners in table order, then the chosen runners-up best first.
    """
    ranked = [tuple(sichuan_rank_table(t, (playoffs or {}).get(n), (1, 2), n)) for n, t in enumerate(tables, 1)]
    winners = [r[0].player for r in ranked if r and not r[0].disqualified]
    runners = [r[1] for r in ranked if len(r) > 1 and not r[1].disqualified]
    need = quota - len(winners)
    if need < 0:
        raise TournamentError("quota %d is smaller than the %d table winners" % (quota, len(winners)))
    if need > len(runners):
        raise TournamentError("quota %d needs %d runners-up but there are %d" % (quota, need, len(runners)))
    order = _place_groups(runners, lambda l: (l.score, l.net, l.wins), runner_up_playoff, (need,), None, "score, net score and wins among runners-up")
    chosen = [x.player for _, x, _ in order[:need]]
    ru = tuple(SichuanPlace(pl, x.player, x.score, x.net, x.wins, po) for pl, x, po in order)
    return SichuanStage(tuple(ranked), tuple(winners + chosen), ru)


def sichuan_final(lines: Iterable[Any], extra_games: Optional[Mapping[str, Any]] = None) -> list[SichuanPlace]:
    """The final table (10 games, seed 003 第十七条): by total score; tied players play 2 extra
    games and are then ordered by total net score.

    extra_games: player -> net score over the 2 extra games, for every tied player; missing
    raises PlayoffRequired. DECISION: "总净胜分" is the net over the 10 games plus the 2 extra
    games; players still equal share the place (the seed has no further rule). The playoff
    field of SichuanPlace holds the extra games' net score.
    """
    ls = _lines(lines)
    by_score: dict[Score, list[SichuanLine]] = {}
    for l in ls:
        if not l.disqualified:
            by_score.setdefault(l.score, []).append(l)
    tied = sorted(p.player for g in by_score.values() if len(g) > 1 for p in g)
    missing = [p for p in tied if not extra_games or p not in extra_games]
    if missing:
        raise PlayoffRequired("final: players %s are tied on score; play 2 extra games and enter their net scores" % missing, missing)
    extra = {p: check_score(extra_games[p], "extra games net") for p in tied}

    def key(l: SichuanLine):
        return (not l.disqualified, l.score, l.net + extra.get(l.player, 0))

    ordered = sorted(ls, key=lambda l: l.player)
    ordered.sort(key=key, reverse=True)
    out = []
    for i, l in enumerate(ordered):
        place = out[-1].place if i and key(ordered[i - 1]) == key(l) else i + 1
        out.append(SichuanPlace(place, l.player, l.score, l.net, l.wins, extra.get(l.player), l.disqualified))
    return out


# --------------------------------------------------------------------------- the event's standings

def _late(event: Event) -> dict:
    """(stage, player) -> (minutes, game) of the late arrivals (the longest when keyed twice)."""
    out: dict = {}
    for p in event.penalties:
        if p["kind"] != "late":
            continue
        key = (p["session"], p["player"])
        m = Fraction(p["minutes"])  # stored minutes were checked as short decimals
        if key not in out or m > out[key][0]:
            out[key] = (m, p.get("game") or 1)
    return out


def _games(tb) -> list:
    """The table's games (局: hand numbers 1..n) as player -> SichuanGame: the play part, the
    penalties paid to nobody, the win."""
    games: list = [{} for _ in range(max((h.number for h in tb.hands), default=0))]
    for h in tb.hands:
        g = games[h.number - 1]
        for i, p in enumerate(h.seats):
            if p is not None:
                g[p] = SichuanGame(h.deltas[i] + h.deductions[i], -h.deductions[i], i in h.winners)
    return games


def _minutes_setting(s: Setting, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 600:
        raise SettingsInvalid("%s (a session's time limit) must be 1..600, or empty for none" % s.name)
    return v


class Sichuan003(Format):
    name = "sichuan_003"
    rules = "sichuan"
    title = "Sichuan 血战到底 stages (seed 003)"
    # stage2_quota: how many advance from stage 2; minutes: a time limit for the stage's games
    # (RULES.md: none unless the organizer sets one)
    settings = (Setting("stage2_quota", None, optional=True), Setting("minutes", None, optional=True, check=_minutes_setting))
    seating = ("draw", "rank")
    every_hand = True
    late_per_game = True
    standings_view = "stages"

    def minutes(self, settings=None) -> Optional[int]:
        return (settings or {}).get("minutes")

    def results(self, event: Event, problems: list) -> Outcome:
        """Session n is stage n. Seed 003 §五.1 lateness: a late arrival (an off-table ``late``
        penalty with its minutes and the game it was for, default the stage's first) forfeits
        that game from 10 minutes and the stage from 15 (``sichuan_lines``): the player is placed
        last at the table and never advances. Off-table points count in 积分, not in 净胜分."""
        tables = event.tables
        points, _forfeits, dq = common.session_penalties(event, self, problems)
        late = _late(event)
        names = event.names()
        subs = event.substitutes()
        seated = {(s, p): t for s, ts in event.seatings.items() for t, ps in ts.items() for p in ps}
        keys = set(tables)
        late_at: dict = {}
        for (s, p), v in late.items():
            t = next((t for (s2, t), tb in tables.items() if s2 == s and p in tb.players()), seated.get((s, p)))
            if t is None:
                problems.append("stage %d: %s was late but plays at no table" % (s, p))
                continue
            keys.add((s, t))
            late_at.setdefault((s, t), {})[p] = v
        stages: dict = {}
        for (s, t) in sorted(keys):
            tb = tables.get((s, t))
            try:
                lines = sichuan_lines(_games(tb) if tb else [], late=late_at.get((s, t)))
                if tb is not None:  # seated by the box's session record but no hand yet: 0
                    have = {l.player for l in lines}
                    lines += [SichuanLine(p, 0) for p in tb.players() if p not in have]
                lines = [SichuanLine(l.player, l.score + points.get((s, l.player), 0), l.net, l.wins, l.disqualified, l.forfeits)
                         for l in lines if not (l.player in dq and dq[l.player] <= s)]
            except common.SCORING_ERRORS as e:
                problems.append("stage %d table %d: %s" % (s, t, e))
                continue
            stages.setdefault(s, []).append((t, lines))
        playoffs: dict = {}
        for po in event.playoffs:  # the latest entry for a (session, table) wins
            playoffs[(po["session"], po["table"])] = po["scores"]
        reached: dict = {}
        stage_json = []
        for s in sorted(stages):
            tabs = stages[s]
            numbers = [t for t, _ in tabs]
            pos_po = {i + 1: playoffs[(s, t)] for i, t in enumerate(numbers) if (s, t) in playoffs}
            info: dict[str, Any] = {"stage": s, "tables": [], "advancing": []}
            places = {}
            try:
                if s == 4:
                    extra = playoffs.get((s, numbers[0])) or playoffs.get((s, None))
                    if len(tabs) != 1:
                        raise TournamentError("the final (stage 4) is one table, found %d" % len(tabs))
                    ranked = [sichuan_final(tabs[0][1], extra)]
                    adv: tuple = ()
                elif s == 2:
                    quota = event.settings["stage2_quota"]
                    if quota is None:
                        raise TournamentError("stage 2 needs the stage2_quota setting (how many advance)")
                    st = sichuan_stage2([l for _, l in tabs], quota, pos_po, playoffs.get((s, None)))
                    ranked, adv = list(st.tables), st.advancing
                else:
                    st = sichuan_top_per_table([l for _, l in tabs], 2, pos_po)
                    ranked, adv = list(st.tables), st.advancing
            except common.SCORING_ERRORS as e:
                problems.append("stage %d: %s" % (s, e))
                try:
                    ranked = [sichuan_rank_table(l, cuts=()) for _, l in tabs]
                except common.SCORING_ERRORS as e2:
                    problems.append("stage %d not ranked: %s" % (s, e2))
                    continue
                adv = ()
            for (t, _), places_t in zip(tabs, ranked):
                info["tables"].append({"table": t, "places": [
                    {"place": x.place, "player": x.player, "name": names.get(x.player, ""), "score": format_score(x.score),
                     "net": format_score(x.net), "wins": x.wins, "playoff": format_score(x.playoff)} for x in places_t]})
                for x in places_t:
                    places[x.player] = x
            info["advancing"] = list(adv)
            stage_json.append(info)
            for p, x in places.items():
                reached[p] = (s, x.place, x.score, x.net)
        # DECISION: the event's standings: the furthest stage reached, then the place there, score, net
        order = sorted((p for p in reached if p not in subs), key=lambda p: (-reached[p][0], reached[p][1], -reached[p][2], -reached[p][3], p))
        order = [p for p in order if p not in dq] + [p for p in order if p in dq]
        rows, prev, rank = [], None, 0
        for i, p in enumerate(order):
            key = reached[p]
            if key != prev:
                rank = i + 1
            prev = key
            rows.append({"rank": None if p in dq else rank, "player": p, "name": names.get(p, ""), "stage": key[0], "place": key[1],
                         "score": format_score(key[2]), "net": format_score(key[3]), "status": "disqualified" if p in dq else ""})
        standings = [Standing(r["rank"] or 0, r["player"], None, reached[r["player"]][2], ()) for r in rows]
        return Outcome(standings, rows, {}, dq, None, {"stages": stage_json})


FORMAT = Sichuan003()
