"""Tournament system, pure logic: session results in, standings, seatings, awards and exports out.

No I/O and no database: the web server and storage call these functions with plain data
(dataclasses or dicts) and get plain data back.

Modules: ``model`` (shared data and conventions), ``scoring`` (standard scores and standings of
seeds 000, 001, 004; re-exports the others), ``sichuan`` (seed 003 stages and lateness),
``survival`` (one survival table of seed 000, re-exported by scoring), ``survival_live`` (the
survival event while it runs: proposals, confirmations, placings, replay from records),
``attendance`` (a session's tables from the seating, short tables and absences), ``timing``
(absolute deadlines, minutes late, time-limit checks), ``seating`` (draw, rank, Swiss, pre-set
no-repeat schedule, snake, chairs and winds, text), ``awards`` (seed 000 awards), ``exports``
(CSV, EMA results). The survival numbers the box shares are in ``rules_min.survival``;
docs/survival.md lists what the box and the server give these modules.

Decisions where the seeds are silent (each is also stated where it is implemented):

* Standard scores are exact ``Fraction``s: ties share the tied places' points (7/3 for three
  tied first at a 4/2/1/0 table); exports print them exactly when the decimal is finite, else
  to 2 decimals.
* Players equal on every criterion share the rank; the list orders them by draw number when a
  draw order is given, else by player id, so input order never matters.
* Seed 000: ranking counts exact 4, 2 and 1 results only; a 2- or 1-player table ignores the
  entered match scores (the seed sets them to 0); a player missing from a session scores 0/0.
  Finals: the top 16 are ranked over all ten sessions, the rest keep their preliminary order.
* Seed 001: ties share points as in seed 000; N counts the players who played; forfeits score
  0 standard and 0 match (no base); table scores are entered as changes from the 500 base;
  ranking by standard score then match score.
* Seed 003: 积分 includes penalties and 净胜分 does not; play-offs are demanded only for ties
  that straddle an advancement place; stage 2 applies the tie rule to runners-up as well; the
  final's 总净胜分 is the net over the 10 games plus the 2 extra games.
* Seed 004: a forfeit scores 0; the 2-player average is the mean of the 2T top-two scores of the
  T tables that played, the 1-player average the mean of their winners' scores; the final
  compares raw single sessions (4 preliminary + final) for ties.
* Survival event: see ``rules_min.survival``, ``survival`` and ``survival_live`` (penalties
  unmultiplied, threshold inclusive, look-back limited to the table, byes for n mod 4 players,
  places below four by elimination time, hands after a bust refused and listed, not fatal).
* Times: every limit and "first to reach" on one absolute clock (``timing``).
* Sichuan lateness: 10 minutes forfeits the game (scores 0), 15 the stage (ranked last, never
  advances), see ``sichuan``.
* Awards: see ``awards`` (flowers count in fans, best defence needs all sessions played).
* Pre-set schedule: seats rotate so that a different row sits East each session.
"""
