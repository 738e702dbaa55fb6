# Every state of the table application, in one place: its name, the flow module that draws it
# and takes its keys and taps (firmware/flows/<flow>.py, a row of that module's HANDLERS), and
# whether # turns the pages of its screen. app.state is always one of these names (a test checks
# that every state the flows name is here).
#
#   flow      state         the screen
#   setup     idle          no session: the box's id; D keys one in
#             cfg           a keyed-in session config, one field a step
#   table     main          the hand in progress: totals, this hand's points; A B C D
#   menu      more          D: declared win, wall end, time-out, referee, language
#             timeout       the session's time is up: close the hand
#   end       ended         the session is over: places, points, standard scores
#   win       win_who       who won
#             win_from      who dealt in (0: self-drawn)
#             confirm       fans with points, the total, payments by player; each seat confirms
#   win_fix   refused       the hand is no win, and why; fix the tiles or key a false win
#             flags         the win's flags (table WIN_FLAGS in firmware/flows/win.py)
#             kong_discard  Sichuan: was it the discard right after the discarder's kong (杠上炮)?
#             kong_flower   MCR, 杠上开花 claimed: was the kong's replacement a flower?
#             another       Guangdong: another winner on the same discard?
#   tiles     tiles         tiles as they are tapped: claimed melds (each closed by #), then the
#                           concealed tiles, the winning tile last (win, declared win, wall end)
#   kong      kong_who      who konged
#             kong_how      concealed, added, or from whom
#             kong_ok       its payments; # records it
#   penalty   pen_who       who is penalised
#             pen_kind      which penalty (the rule set's, rules_min/keyed.py), or 停和陪打
#             pen_victim    whose tiles were exposed (the penalty is paid to them)
#             pen_bar       points or a bar: barred as well?
#             pen_value     a number the penalty needs (minutes late, points the referee keys)
#             pen_reason    停和陪打: why (the rule set's reasons, rules_min/keyed.py)
#             pen_ok        its consequence; # records it
#   declare   decl_who      who declared a win that fails
#             decl_ok       the false win's payments; each seat confirms
#   wall      wall_ok       the wall is used up: payments (Sichuan: after the hands still in)
#   referee   pin           the referee's PIN
#             ref           referee menu: correct a hand, end the session
#             end_ok        end the session? what of the unfinished hand does not count; #
#             corr_hand     which hand to correct
#             corr_delta    the hand's new points, seat by seat
#   survival  roll          a survival table between hands: the scores, the multiplier now; #
#                           when the dealer starts the hand (its start and multiplier are fixed)
#             sv_end        a survival table is over (a player at 0): its order, who is out

# The step data (app.d): what a step keeps between its keys. app.go(state, key=value, ...) starts
# it afresh, app.to(state) keeps it; a flow reads and writes it as app.d["key"]. Every key any
# flow (or the App) uses is listed here with what it holds (tests/app/test_states.py checks both
# ways), so a key means one thing in every flow.
#
#   key           set by                 what it holds
#   owner         tiles' callers         the flow that started a tile entry: it stays loaded while
#                                        its tiles go in (App._tidy)
#   entry         tiles, win, declare    the tiles being entered (firmware/entry.py Entry)
#   who           tiles                  who(app): the line naming whose tiles these are
#   done          tiles                  done(app): run (app.later) once the entry is complete
#   back          tiles                  back(app): run when * leaves the entry
#   take_flowers  tiles                  whether flower tiles count in this entry (MCR wins)
#   flowers       tiles, win             the flower tiles read, each once
#   pend          tiles                  a digit keyed for a tile, waiting for its suit key
#   kong?         tiles                  four tiles closed as a meld: concealed or claimed?
#   winner        win                    the chair that won
#   src           win                    the chair that dealt the winning tile; None: self-drawn
#   same          win                    one more winner on the discard of the last win
#   flags         win, win_fix           the win's flags: field -> True, or the flower count
#   extra         win                    ("f" | "h", tile) of each flower or horse tapped on the
#                                        result, last first for *
#   horses        win                    Guangdong: the horse tiles tapped
#   result        win                    the win as the rules core scored it (settle.Hand.wins[-1])
#   err           win                    (code, message) of a win the rules refused
#   ok            win, declare           the chairs that confirmed the result
#   event         win, kong, penalty,    the event previewed, which the step's last key confirms
#                 declare, wall, referee (referee, menu: the time-out cutting the hand off)
#                 menu
#   pay           win, kong, penalty,    its payments per chair (referee, menu: the points of the
#                 declare, wall,         unfinished hand that the cut-off takes away)
#                 referee, menu
#   seat          kong, penalty, declare the chair the step is about: who konged, is penalised,
#                                        declared
#   kind          penalty                the penalty (rules_min/keyed.py's kinds)
#   victim        penalty                whose tiles were exposed (the penalty is paid to them)
#   bar           penalty                barred from winning as well
#   need          penalty                (field, lo, hi) of the number the penalty takes, or None
#   still         wall                   Sichuan: (chairs still in, their entries), or None
#   redo          table                  the event undo took back, which # puts back
#   step          setup                  the config field being keyed (its index)
#   cfg           setup                  the config keyed so far
#   seq           referee                the record number of the hand being corrected
#   hand          referee                its hand number
#   seats         referee                its players by chair
#   was           referee                its points by chair, as recorded
#   deltas        referee                its new points, chair by chair as they are keyed
#   neg           referee                the number being keyed is negative

# flow -> its states
FLOWS = (
    ("setup", ("idle", "cfg")),
    ("table", ("main",)),
    ("menu", ("more", "timeout")),
    ("end", ("ended",)),
    ("win", ("win_who", "win_from", "confirm")),
    ("win_fix", ("refused", "flags", "kong_discard", "kong_flower", "another")),
    ("tiles", ("tiles",)),
    ("kong", ("kong_who", "kong_how", "kong_ok")),
    ("penalty", ("pen_who", "pen_kind", "pen_victim", "pen_bar", "pen_value", "pen_reason", "pen_ok")),
    ("declare", ("decl_who", "decl_ok")),
    ("wall", ("wall_ok",)),
    ("referee", ("pin", "ref", "end_ok", "corr_hand", "corr_delta")),
    ("survival", ("roll", "sv_end")),
)

# screens that list things to read: # turns their pages (elsewhere # is OK and the layout
# keeps to one page)
PAGED = ("confirm", "decl_ok", "ended", "pen_kind", "pen_reason", "refused", "more", "flags", "sv_end")

# flows that stay loaded; the others (steps taken a few times a session) are loaded when the
# table enters them and dropped when it leaves, so they cost no heap the rest of the time
RESIDENT = ("table",)
# flows every hand passes through: dropped like the others where the heap is tight, kept where
# it has room (firmware/flows/__init__.py roomy(): nothing to gain, and no import per hand)
EVERY_HAND = ("win", "tiles")


def flow_of(state):
    for name, states in FLOWS:
        if state in states:
            return name
    return None
