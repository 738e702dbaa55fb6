# The tournament's numbers, shared by the box and the tournament system: how long a session is,
# how a table's players are scored against each other (standard scores, tied places sharing),
# the Swiss base, and what arriving late costs. Integers and two small functions: the box
# imports what it needs where it needs it (protocol/config.py for a session's length,
# rules_min/penalties.py for a late arrival, firmware/session.py at the session's end) and
# host_tools/tournament/formats/ imports the rest. Exact sharing (7/3) is the host's
# (fractions); the box shows tenths (2.3), from the same sums.

# ---- a session (RULES.md "Table flow") ----
# hands per session: seed 000 §三.1.4 每局16盘; seed 003 a stage's games (8 in stage 1, 6, 8,
# 10: the organizer keys the others); seed 004 §四 每局打满12盘
SESSION_HANDS = {"mcr": 16, "sichuan": 8, "guangdong": 12}
# a three-player table (seed 000 §一.3 三人正常比赛，打15盘（5圈）); the rule sets without an entry
# play their usual number (seed 004 §三.1 此时若有三人，则继续比赛)
SESSION_HANDS_THREE = {"mcr": 15}
# minutes per session; None: no time limit. Seed 000 §三.1.4 120分钟, seed 004 §四 每局50分钟;
# seed 003 sets none and RULES.md decides: a Sichuan table has no time limit unless the
# organizer sets one for the tournament
SESSION_MINUTES = {"mcr": 120, "sichuan": None, "guangdong": 50}

# ---- standard scores (RULES.md "Tournament scoring") ----
# seed 000 §一.3: 4/2/1/0 by match score; three players 4/2/1; a table of two does not play and
# each gets 3, one alone gets 4 (NO_PLAY: players -> each one's standard score)
MCR_POINTS = {4: (4, 2, 1, 0), 3: (4, 2, 1)}
MCR_NO_PLAY = {2: 3, 1: 4}
# seed 001: every session's match score starts from 500
SWISS_BASE = 500


def swiss_points(n):
    """Seed 001 §二.3: first gets N (the players at the table), the others N - place
    (4/2/1/0 for four, 3/1/0 for three)."""
    return (n,) + tuple(n - r for r in range(2, n + 1))


def shared_places(scores, points):
    """Places by score, higher first; tied players share the tied places' points equally.

    scores: a list of numbers, one per player; points: one per place. Returns
    [(index, place, total, n)] best first: the player's index in scores, the best place of its
    tie, the points of the places the tie takes summed, and how many share them: its standard
    score is total / n (two tied first at 4/2/1/0: 6 / 2 = 3 each)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and scores[order[j]] == scores[order[i]]:
            j += 1
        total = 0
        for k in range(i, j):
            total += points[k]
        for k in range(i, j):
            out.append((order[k], i + 1, total, j - i))
        i = j
    return out


# ---- late arrival (迟到), counted from the session's official start ----
# (up to minutes, points deducted) in order; later forfeits the session.
# MCR, seed 000 §一.4.1: 不超过10分钟扣10分；10分钟以上不超过15分钟扣20分；超过15分钟视为当局自动弃权.
# Guangdong, seed 004 §三.1: 不超过10分钟扣8分；10分钟以上视为当局自动弃权.
LATE = {"mcr": ((10, 10), (15, 20)), "guangdong": ((10, 8),)}
# Sichuan, seed 003 §五.1: 迟到10分钟直接判本局弃权，迟到15分钟取消当场参赛资格: from the 10th minute
# the game is forfeited, from the 15th the stage; no points (the seed names none)
SICHUAN_LATE_GAME = 10
SICHUAN_LATE_STAGE = 15


def late(rules, minutes):
    """(points deducted, forfeit, out of the stage) for a player minutes late (int, or any
    number that compares with ints). forfeit: the session (MCR, Guangdong) or the game
    (Sichuan); out of the stage: Sichuan only."""
    if rules == "sichuan":
        return 0, minutes >= SICHUAN_LATE_GAME, minutes >= SICHUAN_LATE_STAGE
    if minutes <= 0:
        return 0, False, False
    for upto, points in LATE[rules]:
        if minutes <= upto:
            return points, False, False
    return 0, True, False
