"""What a sync run (``run.sync``) or an upload of offline files (``store.upload_dir``) did: the
counts the CLI prints, where the server put the records (its per-record ``place``: a table, a
tournament's quarantine and why), the refusals and what waits on the box for a referee."""
from __future__ import annotations

from dataclasses import dataclass, field

from .server import HELD, KNOWN, STORED, Outcome
from .text import clean


@dataclass
class Summary:
    pulled: int = 0
    uploaded: int = 0
    known: int = 0
    refused: int = 0
    held: int = 0  # stored by the server and held there for a referee
    device: str = ""
    acked: int = 0
    refusals: list = field(default_factory=list)  # (seq, HTTP status, reason)
    set_aside: list = field(default_factory=list)  # (seq, reason): set aside in this run
    released: list = field(default_factory=list)  # seqs the server took on a retry
    aside: list = field(default_factory=list)  # (seq, reason): set aside on the box after the run
    link: dict = field(default_factory=dict)  # HostLink.stats: bytes and frames on the wire
    auth_requests: int = 0  # authenticated requests (ACK, CLOCK, ASIDE...), each with a CHALLENGE
    unacked: bool = False  # uploaded, but not acknowledged: no key here
    places: dict = field(default_factory=dict)  # where the server put them (a line each) -> records
    head: str = ""  # why the box's journal head was not reported to the server ("": it was, or no server)

    def count(self, o: Outcome) -> None:
        if o.status == STORED:
            self.uploaded += 1
        elif o.status == KNOWN:
            self.known += 1
        elif o.status == HELD:
            self.uploaded += 1
            self.held += 1
        where = place_line(o.place)
        if where:
            self.places[where] = self.places.get(where, 0) + 1

    def line(self) -> str:
        return "pulled %d, uploaded %d, already known %d, refused %d, set aside %d" % (
            self.pulled, self.uploaded, self.known, self.refused, len(self.aside))

    def details(self) -> list[str]:
        """Lines for the referee after the summary: what waits for a decision."""
        out = ["%s: %d record(s)" % (where, n) for where, n in self.places.items()]
        if self.held:
            out.append("held by the server for a referee: %d record(s)" % self.held)
        for seq in self.released:
            out.append("released: record %d was taken by the server on a retry" % seq)
        for seq, why in self.aside:
            out.append("set aside: record %d: %s" % (seq, clean(why, 120)))
        return out


def place_line(place) -> str:
    """Where the server says it put a record, as a line of the summary ("" if it did not say)."""
    if not isinstance(place, dict):
        return ""
    st = place.get("status")
    if st == "table":
        return "to %s session %s table %s" % (clean(place.get("tournament"), 64), clean(place.get("session"), 12), clean(place.get("table"), 12))
    if st == "quarantine":
        t = place.get("tournament")
        where = "the quarantine of %s" % clean(t, 64) if t else "no tournament's quarantine yet"
        return "to %s: %s" % (where, clean(place.get("reason"), 160))
    if st == "correction":
        return "corrections of hands"
    return ""
