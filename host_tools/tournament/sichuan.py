"""Seed 003 (Sichuan 血战到底) stages: table rankings, advancement, the final, and lateness.

* ``sichuan_lines`` (games -> a player's line at a table), ``sichuan_rank_table`` (第十四条.2:
  积分, 净胜分, 胡牌次数, play-off), ``sichuan_top_per_table`` (stages 1 and 3),
  ``sichuan_stage2`` (第十五条), ``sichuan_final`` (第十七条).
* Lateness, §五.1 (第五条 赛场纪律 1): 迟到10分钟直接判本局弃权，迟到15分钟取消当场参赛资格.
  ``sichuan_late`` gives the ruling; ``sichuan_lines(games, late=...)`` applies it: the game
  (局) the player was late for is forfeited, 15 minutes or more takes the player out of the
  stage (场). DECISIONS: late 10 minutes or more forfeits (迟到10分钟 counts from the 10th
  minute), under 10 nothing (the seed names no penalty); a forfeited game scores 0 for that
  player (0 points, 0 net, no win: the seeds' 弃权 scores nothing, seed 000 §一.4.1), the others
  keep what their game recorded; a player out of the stage keeps the points shown for the
  record but ranks below everyone at the table who is not, and never advances (another player
  moves up); ties among players out of the stage share the place and need no play-off.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence

from .model import LateRuling, Score, TournamentError, check_player, check_score, minutes as _minutes


def sichuan_late(minutes: Any) -> LateRuling:
    """Seed 003 §五.1: 10 minutes late or more forfeits the game (本局弃权); 15 or more, the
    stage (取消当场参赛资格). No points."""
    m = _minutes(minutes)
    if m >= 15:
        return LateRuling(0, True, True)
    if m >= 10:
        return LateRuling(0, True, False)
    return LateRuling(0, False)


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
