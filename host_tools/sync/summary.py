"""What a sync run (``run.sync``) or an upload of offline files (``store.upload_dir``) did: the
counts the CLI prints, the refusals and what waits on the box for a referee."""
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

    def count(self, o: Outcome) -> None:
        if o.status == STORED:
            self.uploaded += 1
        elif o.status == KNOWN:
            self.known += 1
        elif o.status == HELD:
            self.uploaded += 1
            self.held += 1

    def line(self) -> str:
        return "pulled %d, uploaded %d, already known %d, refused %d, set aside %d" % (
            self.pulled, self.uploaded, self.known, self.refused, len(self.aside))

    def details(self) -> list[str]:
        """Lines for the referee after the summary: what waits for a decision."""
        out = []
        if self.held:
            out.append("held by the server for a referee: %d record(s)" % self.held)
        for seq in self.released:
            out.append("released: record %d was taken by the server on a retry" % seq)
        for seq, why in self.aside:
            out.append("set aside: record %d: %s" % (seq, clean(why, 120)))
        return out
