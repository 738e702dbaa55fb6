"""Tournament system, pure logic: session results in, standings, seatings, awards and exports out.

No I/O and no database: the web server and storage call these functions with plain data
(dataclasses or dicts) and get plain data back.

Modules: ``formats`` (one module per tournament format, found through its registry
``formats.get(name)``: what each format declares and how its standings are computed),
``model`` (shared data and conventions), ``survival`` (one survival table of seed 000) and
``survival_live`` (the survival event while it runs: proposals, confirmations, placings,
replay from records), ``attendance`` (a session's tables from the seating, short tables and
absences), ``timing`` (absolute deadlines, minutes late, time-limit checks), ``seating`` (draw,
rank, Swiss, pre-set no-repeat schedule, snake, chairs and winds, text), ``awards`` (seed 000
awards), ``exports`` (CSV, EMA results). The numbers the box shares are in ``rules_min``:
``rules_min.tournament`` (session hands and minutes, points per place, late ladders, the Swiss
base) and ``rules_min.survival``; docs/survival.md lists what the box and the server give
these modules.

Decisions where the seeds are silent (each is also stated where it is implemented):

* Standard scores are exact ``Fraction``s: ties share the tied places' points (7/3 for three
  tied first at a 4/2/1/0 table); exports print them exactly when the decimal is finite, else
  to 2 decimals.
* Players equal on every criterion share the rank; the list orders them by draw number when a
  draw order is given, else by player id, so input order never matters.
* Each format's own decisions are listed at the top of its module (``formats.mcr_000``,
  ``mcr_swiss_001``, ``sichuan_003``, ``guangdong_004``, ``mcr_survival``), those of the formats
  that rank over sessions in ``formats.standings``.
* Survival event: see ``rules_min.survival``, ``survival`` and ``survival_live`` (penalties
  unmultiplied, threshold inclusive, look-back limited to the table, byes for n mod 4 players,
  places below four by elimination time, hands after a bust refused and listed, not fatal).
* Times: every limit and "first to reach" on one absolute clock (``timing``).
* Sichuan lateness: 10 minutes forfeits the game (scores 0), 15 the stage (ranked last, never
  advances), see ``formats.sichuan_003``.
* Awards: see ``awards`` (flowers count in fans, best defence needs all sessions played).
* Pre-set schedule: seats rotate so that a different row sits East each session.
"""
