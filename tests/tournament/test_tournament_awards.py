"""Seed 000 awards over the preliminary sessions, worked by hand."""
import pytest

from host_tools.tournament.awards import HandRecord as R, biggest_hand, mcr_awards, most_self_draws
from host_tools.tournament.formats.mcr_000 import mcr_standings
from host_tools.tournament.model import TableResult, TournamentError

# Session 1: A4 B2 C1 D0 | E4 F2 G1 H0.  Session 2: E4 A2 B1/2 F1/2 | C4 G2 H1, D forfeits
# Standard: E 8, A 6, C 5, G 3, B 5/2 (match 0), F 5/2 (-10), H 1, D 0
PRELIM = mcr_standings([
    [{"A": 40, "B": 10, "C": -20, "D": -30}, {"E": 30, "F": 0, "G": -10, "H": -20}],
    [{"A": 0, "E": 20, "B": -10, "F": -10}, TableResult({"C": 30, "G": 0, "H": -30}, forfeits=("D",))],
])

HANDS = [
    R(1, 1, 1, "A", "B", 10, at=5),
    R(1, 1, 2, "C", None, 24, at=10),
    R(1, 1, 3, "A", "D", 8, at=20),
    R(1, 2, 1, "E", "F", 24, at=12),
    R(1, 2, 2, "G", None, 8, at=30),
    R(1, 2, 3, None),  # drawn
    R(2, 1, 1, "E", None, 16, at=4),
    R(2, 1, 2, "A", "E", 24, at=3),
    R(2, 2, 1, "G", None, 8, at=6),
    R(2, 2, 2, "G", None, 12, at=9),
    R(2, 2, 3, "C", "H", 9, at=15),
    R(9, 1, 1, "H", None, 88, at=1),  # a final session: not counted
]


def test_preliminary_order():
    assert [s.player for s in PRELIM] == ["E", "A", "C", "G", "B", "F", "H", "D"]


def test_awards_by_hand():
    a = mcr_awards(PRELIM, HANDS)
    # wins: A 3, G 3 (tie: A ranks 2nd, G 4th), C 2, E 2
    assert a["most_wins"].winner == "A"
    assert [(l.player, l.value) for l in a["most_wins"].ranking[:4]] == [("A", 3), ("G", 3), ("E", 2), ("C", 2)]
    # deal-ins: A, C, G none (A ranks best); D forfeited session 2 and is not eligible
    assert a["fewest_deal_ins"].winner == "A"
    assert [l.player for l in a["fewest_deal_ins"].ranking] == ["A", "C", "G", "E", "B", "F", "H"]
    # 24 fans three times: C in session 1 at minute 10 came first (E at 12, A in session 2)
    assert a["biggest_hand"].winner == "C"
    assert a["biggest_hand"].hand.at == 10
    assert [l.player for l in a["biggest_hand"].ranking[:3]] == ["C", "E", "A"]
    # self-draws: G 3, then C 1, E 1 (each one in a session: E ranks better)
    assert a["most_self_draws"].winner == "G"
    assert [(l.player, l.value) for l in a["most_self_draws"].ranking[:3]] == [("G", 3), ("E", 1), ("C", 1)]


def test_self_draw_tie_broken_by_most_in_one_session():
    hands = [R(1, 1, 1, "E", None, 8), R(2, 1, 1, "E", None, 8), R(2, 2, 1, "H", None, 8), R(2, 2, 2, "H", None, 8)]
    # E and H both 2; H drew both in session 2, so H wins although E ranks better
    assert most_self_draws(PRELIM, hands).winner == "H"


def test_biggest_hand_same_session_needs_times():
    with pytest.raises(TournamentError, match="time"):
        biggest_hand(PRELIM, [R(1, 1, 1, "C", None, 24), R(1, 2, 1, "E", "F", 24)])
    # same minute: better preliminary rank
    assert biggest_hand(PRELIM, [R(1, 1, 1, "C", None, 24, at=7), R(1, 2, 1, "E", "F", 24, at=7)]).winner == "E"


def test_unknown_player_refused():
    with pytest.raises(TournamentError):
        mcr_awards(PRELIM, [R(1, 1, 1, "Z", None, 8)])
