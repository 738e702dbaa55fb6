# The numbers of the survival event (勇者争先赛, seed 000 §三.2), shared by the box and the
# tournament system: start score, multiplier schedule, bust, how a hand changes the scores, and
# the order of a table that ends (追平胜 and simultaneous busts). Plain lists and ints: it runs on
# MicroPython. Times are whole seconds (the box's clock and the records use epoch seconds).
#
#   m = hand_multiplier(event_start, hand_start)        # at the dealer's dice roll
#   play, pen = split(deltas, total, winner, discarder)  # settle's deltas -> win part, penalty part
#   new = apply(scores, change(play, pen, m))            # then busted(new)
#
# The seed's text this follows:
# * 2) 每位选手起始50分，打立出局（比赛分为0分）: start at 50; a player at 0 or below is out.
# * 4) 每30分钟，单盘得失分翻倍 ... 30分钟后2倍, 60分钟后4倍, 90分钟后6倍, 120分钟后8倍，以此类推:
#   x2 from 30 minutes after the event started, x4 from 60, x6 from 90, x8 from 120, +2 every
#   30 minutes. 若牌局正在进行中（庄家掷骰起至选手报和且和牌成立间），则从下一盘起翻倍: a hand is in
#   progress from its dealer's dice roll, so a hand takes the multiplier in force at its roll.
#   DECISION: a roll exactly on a threshold (30:00) takes the new multiplier.
# * Penalties are not multiplied. §一.3.1: 比赛分由底分、基本分、罚分组成 -- the match score is made
#   of the base (底分, 8 from each loser), the fan points (基本分) and penalties (罚分), three
#   separate parts. What §三.2.4 doubles is 单盘得失分, what the hand's play wins and loses; the
#   penalties of §一.4 (错和 10 to each, 诈和 20 to each, the escalating 5/10/20, 5-60 for
#   exposing tiles) are fixed amounts with no word of doubling. So a 错和 at x6 costs 30, not 180.
# * DECISION: a player is out when the hand that put them at 0 or below is settled (§一.4.5:
#   after a 错和 或 诈和 当盘比赛继续, the hand goes on), so a penalty during a hand ends the table
#   at the end of that hand, and the hand's own win still counts.
# * 5) ties among survivors: 追平胜, 前一盘落后，当盘追平者列前；若前一盘仍是平分，则继续向前同理追溯.
#   Several out at once: 若当盘被自摸或幸存者点炮，则前一盘比赛分高者列前；若当盘为出局者点炮，则未点炮者列前.
#   DECISIONS: the look-back stops at the table's start (earlier hands were at other tables);
#   still equal there, the place is shared. Out on a hand without a win (penalties only): higher
#   previous score first, as on a self-draw. Several non-discarders out with a busted discarder:
#   among themselves by previous score.
START_SCORE = 50
STEP_S = 1800  # 30 minutes


def multiplier(elapsed_s):
    """Multiplier of a hand whose dice were rolled elapsed_s seconds after the event started:
    1 before 30 minutes, then 2 x (elapsed // 30 min): 2, 4, 6, 8, 10, ..."""
    if elapsed_s < 0:
        raise ValueError("a hand cannot start before the event")
    k = int(elapsed_s // STEP_S)
    return 1 if k == 0 else 2 * k


def hand_multiplier(event_start_s, hand_start_s):
    """The multiplier of a hand from absolute times (epoch seconds) of the event start and of the
    hand's dice roll -- never from when the previous hand was keyed."""
    return multiplier(hand_start_s - event_start_s)


def next_step_s(event_start_s, now_s):
    """Epoch second at which the multiplier next changes (for the box's countdown)."""
    k = (now_s - event_start_s) // STEP_S if now_s >= event_start_s else -1
    return event_start_s + (k + 1) * STEP_S


def is_out(score):
    return score <= 0


def busted(scores):
    """Seats at 0 or below (None entries are empty seats)."""
    return [i for i in range(len(scores)) if scores[i] is not None and scores[i] <= 0]


def play_part(total, winner, discarder=None, seats=4):
    """The win's payments per seat (底分 8 from every loser plus the fan total from the
    discarder, or from each on a self-draw): the part of a hand the multiplier multiplies.
    total: the fan total of the win, flowers included (the record's fans.total); winner None:
    no win, all zeros."""
    out = [0] * seats
    if winner is None:
        return out
    from rules_min.mcr_pay import payments
    return payments(total, winner, discarder, out)


def split(deltas, total, winner, discarder=None):
    """A hand's settled deltas (unmultiplied, as rules_min.settle gives them) -> (play, penalty):
    the win's payments and the rest (错和/诈和 payments, escalating penalties, ...)."""
    play = play_part(total, winner, discarder, len(deltas))
    return play, [deltas[i] - play[i] for i in range(len(deltas))]


def change(play, penalty, mult):
    """What the hand adds to each seat's survival score: the play part multiplied, penalties not."""
    return [mult * play[i] + penalty[i] for i in range(len(play))]


def apply(scores, delta):
    return [None if scores[i] is None else scores[i] + delta[i] for i in range(len(scores))]


def _key_survivor(history, seat):
    # higher score first; equal: lower score before the last hand first (caught up), and so on back
    n = len(history)
    return (-history[n - 1][seat],) + tuple(history[j][seat] for j in range(n - 2, -1, -1))


def _key_out(history, seat, discarder_out):
    n = len(history)
    return (1 if seat == discarder_out else 0,) + tuple(-history[j][seat] for j in range(n - 2, -1, -1))


def table_order(history, winner=None, discarder=None):
    """The order of a table that ended, best first, as [(seat, place, out)].

    history: the scores per seat at the table's start and after every hand ([start, after hand
    1, ..., after the last hand]); winner / discarder: seats of the last hand's win (discarder
    None = self-drawn; winner None = no win). Survivors come first by score (追平胜 on ties), then
    the busted seats by the seed's rule. Equal on everything: the same place."""
    last = history[len(history) - 1]
    seats = [i for i in range(len(last)) if last[i] is not None]
    alive = [s for s in seats if last[s] > 0]
    out = [s for s in seats if last[s] <= 0]
    d_out = discarder if (winner is not None and discarder is not None and discarder in out) else -1
    ka = {}
    for s in alive:
        ka[s] = _key_survivor(history, s)
    ko = {}
    for s in out:
        ko[s] = _key_out(history, s, d_out)
    alive.sort(key=lambda s: (ka[s], s))
    out.sort(key=lambda s: (ko[s], s))
    order = []
    for group, keys, is_out_ in ((alive, ka, False), (out, ko, True)):
        for j in range(len(group)):
            s = group[j]
            if j and keys[group[j - 1]] == keys[s]:
                place = order[len(order) - 1][1]
            else:
                place = len(order) + 1
            order.append((s, place, is_out_))
    return order
