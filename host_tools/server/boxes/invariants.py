"""Results that add up, checked at the door of every way a result enters: a box's hand record
and its correction (``contract``, versions 1 and 2), a hand a referee enters and a referee's
correction (``referee``). One module, so that no path holds itself to less.

* A hand's deltas are the sum of its transfers (payer pays, payee gets).
* Nothing is ever credited from nobody: no transfer without a payer.
* Only deductions (penalties paid to nobody: a transfer without a payee) may leave the deltas'
  sum below zero: the sum is minus the deductions, never above zero.
* Every number is a whole number within protocol/record.py's ``POINTS_MAX``, either way.

A record that carries no transfers (a correction, a version-1 hand) is held to what it can be:
with its deductions known (a version-1 Sichuan hand's tier penalties, a referee's deductions)
the sum must be exactly minus them; without, it must not be above zero.

Standard library only (and protocol/), so it is tested without a server.
"""
from __future__ import annotations

from typing import Optional

from host_tools.server.errors import BadRecord
from protocol.record import POINTS_MAX


SEATS = (0, 1, 2, 3)


class Unbalanced(ValueError):
    """What does not add up, in a sentence naming it."""


def _points(deltas, what: str) -> list:
    if not isinstance(deltas, (list, tuple)) or len(deltas) != 4:
        raise Unbalanced("%s must be 4 numbers, one per seat" % what)
    for i, d in enumerate(deltas):
        if isinstance(d, bool) or not isinstance(d, int) or not -POINTS_MAX <= d <= POINTS_MAX:
            raise Unbalanced("%s[%d] must be a whole number between %d and %d" % (what, i, -POINTS_MAX, POINTS_MAX))
    return list(deltas)


def _sum(deltas: list, deducted: Optional[int], what: str) -> None:
    total = sum(deltas)
    if deducted is None:
        if total > 0:
            raise Unbalanced("the %s sum to %d: points are only paid from one player to another, and nothing is credited from nobody"
                             % (what, total))
    elif total != -deducted:
        raise Unbalanced("the %s sum to %d: only deductions (points paid to nobody, %d here) may leave the sum below 0, and nothing is "
                         "credited from nobody" % (what, total, deducted))


def hand(deltas, transfers=None, deductions=None) -> None:
    """A hand's deltas by seat; ``transfers`` [[payer, payee, points, why], ...] as settled (the
    deductions are the ones without a payee), or else ``deductions`` by seat when known."""
    d = _points(deltas, "deltas")
    deducted = None if deductions is None else sum(_deductions(deductions))
    if transfers is not None:
        got = [0, 0, 0, 0]
        deducted = 0
        for i, t in enumerate(transfers):
            payer, payee, points = t[0], t[1], t[2]
            if isinstance(points, bool) or not isinstance(points, int) or not 0 < points <= POINTS_MAX:
                raise Unbalanced("transfers[%d] must move a whole number of points between 1 and %d" % (i, POINTS_MAX))
            if payer is None:
                raise Unbalanced("transfers[%d] credits %s with %d points from nobody" % (i, "nobody" if payee is None else "seat %d" % payee, points))
            if payer not in SEATS or (payee is not None and payee not in SEATS) or payer == payee:
                raise Unbalanced("transfers[%d] must go from one seat to another (or to nobody)" % i)
            got[payer] -= points
            if payee is None:
                deducted += points
            else:
                got[payee] += points
        if got != d:
            raise Unbalanced("the deltas %s are not the sum of the transfers %s" % (d, got))
    _sum(d, deducted, "deltas")


def correction(deltas, deductions=None) -> None:
    """A hand's new deltas by seat; ``deductions`` by seat when known (a referee's)."""
    d = _points(deltas, "deltas")
    _sum(d, None if deductions is None else sum(_deductions(deductions)), "corrected deltas")


def _deductions(v) -> list:
    out = list(v)
    for i, x in enumerate(out):
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= POINTS_MAX:
            raise Unbalanced("deductions[%d] must be a whole number between 0 and %d" % (i, POINTS_MAX))
    return out


def balanced(body: dict, deductions=None) -> None:
    """A checked record's hand or correction adds up (the device contract's last check, both
    record versions); raises BadRecord."""
    try:
        if body["kind"] == "hand":
            hand(body["deltas"], body.get("transfers"), deductions)
        elif body["kind"] == "correction":
            correction(body["deltas"])
    except Unbalanced as e:
        raise BadRecord(str(e)) from None
