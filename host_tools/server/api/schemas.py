"""Request and response schemas of the JSON API: the one source for validation and OpenAPI.

Strings refuse control characters (and lone surrogates, through ``Text``'s validator); numbers
are strict integers within bounds, or, where a person may type a decimal (penalty minutes),
short decimal strings checked by ``numeric`` before anything parses them.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from ninja import Schema
from pydantic import AfterValidator, ConfigDict, Field, StrictBool, StrictInt

from host_tools.server.tournaments import formats
from host_tools.server.tournaments.formats import MAX_SESSION, MAX_TABLE
from protocol import config as pconfig
from protocol import envelope as penvelope


def _text(v: str) -> str:
    if any(ord(c) < 32 and c not in "\t\n\r" or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in v):
        raise ValueError("control characters or lone surrogates are not text")
    return v


def _ident(v: str) -> str:
    if not v or any(ord(c) < 33 and c != " " or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in v):
        raise ValueError("an id is 1-64 printable characters")
    return v


def _player_id(v: str) -> str:
    _ident(v)
    if "/" in v:
        raise ValueError("a player id has no / (it is part of the player's page address)")
    return v


Text = Annotated[str, Field(max_length=1000), AfterValidator(_text)]
Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_text)]
Ident = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_ident)]
Session = Annotated[StrictInt, Field(ge=1, le=MAX_SESSION)]
TableNo = Annotated[StrictInt, Field(ge=1, le=MAX_TABLE)]
Points = Annotated[StrictInt, Field(ge=-10**9, le=10**9)]
Seat = Annotated[StrictInt, Field(ge=0, le=3)]
Format = Literal[formats.names()]  # type: ignore[valid-type]


class Strict(Schema):
    model_config = ConfigDict(extra="forbid")


class Error(Schema):
    error: str


# --------------------------------------------------------------------------- the device contract

# as protocol/envelope.py specifies it (a docstring here would change what /openapi.json says)
class Envelope(Strict):
    device: Ident
    seq: Annotated[StrictInt, Field(ge=penvelope.SEQ_MIN, le=penvelope.SEQ_MAX)]
    payload: Annotated[str, Field(max_length=penvelope.PAYLOAD_TEXT_MAX, description=penvelope.PAYLOAD_DOC)]
    sig: Annotated[str, Field(pattern=penvelope.SIG_PATTERN, description=penvelope.SIG_DOC)]


class Place(Schema):
    """Where a stored record went (``boxes.placement``): "table" (the tournament, session and table
    it names: it counts there unless a referee's check finds a problem), "quarantine" (held, in
    ``tournament``'s quarantine, or in none while its box is bound to none; ``reason``), or
    "correction" (it follows the hand it ``corrects``)."""

    status: Literal["table", "quarantine", "correction"]
    tournament: Optional[str] = None
    session: Optional[int] = None
    table: Optional[int] = None
    reason: Optional[str] = None
    corrects: Optional[dict] = None


class Stored(Schema):
    status: Literal["stored", "known"]
    device: str
    seq: int
    place: Optional[Place] = None


class BatchItem(Schema):
    index: int
    status_code: int
    status: Optional[str] = None
    device: Optional[str] = None
    seq: Optional[int] = None
    error: Optional[str] = None
    place: Optional[Place] = None


class HeadIn(Strict):
    """The box's journal head as the sync tool read it, signed with the box's key
    (protocol/sign.py ``head_sig_hex``); ``at``: the report's time, unix seconds."""

    head: Annotated[StrictInt, Field(ge=0, le=2**32 - 1)]
    at: Annotated[StrictInt, Field(ge=0, le=2**32 - 1)]
    sig: Annotated[str, Field(pattern=penvelope.SIG_PATTERN)]


class BatchOut(Schema):
    results: list[BatchItem]
    counts: dict[str, int]


# --------------------------------------------------------------------------- accounts

class LoginIn(Strict):
    username: Annotated[str, Field(min_length=1, max_length=150), AfterValidator(_text)]
    password: Annotated[str, Field(min_length=1, max_length=1000), AfterValidator(_text)]


class TokenOut(Schema):
    token: str
    username: str
    superuser: bool
    expires_in: int


class AccountIn(Strict):
    username: Annotated[str, Field(min_length=1, max_length=150, pattern=r"^[\w.@+-]+$")]
    password: Annotated[str, Field(min_length=8, max_length=1000), AfterValidator(_text)]
    tournament: Optional[Ident] = None
    role: Optional[Literal["organizer", "referee"]] = None


class AccountPatch(Strict):
    password: Optional[Annotated[str, Field(min_length=8, max_length=1000), AfterValidator(_text)]] = None
    active: Optional[StrictBool] = None
    superuser: Optional[StrictBool] = None


class RoleIn(Strict):
    username: Annotated[str, Field(min_length=1, max_length=150)]
    role: Optional[Literal["organizer", "referee"]] = None


# --------------------------------------------------------------------------- tournaments

class TournamentIn(Strict):
    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")]
    name: Name
    format: Format
    settings: Optional[dict[str, Union[StrictInt, str, None]]] = None


class TournamentPatch(Strict):
    name: Optional[Name] = None
    settings: Optional[dict[str, Union[StrictInt, str, None]]] = None
    details: Optional[dict[str, Optional[Annotated[str, Field(max_length=100)]]]] = Field(
        default=None, description="the event: time_zone (IANA name), start_date, end_date (YYYY-MM-DD), city, country (3 letters), mers_weight")


class TournamentOut(Schema):
    id: str
    name: str
    format: str
    settings: dict
    created_at: str
    details: dict


# a player id fits the box's screen (protocol/config.py PLAYER_MAX), or no box could be set up for the player
PlayerId = Annotated[str, Field(min_length=1, max_length=pconfig.PLAYER_MAX), AfterValidator(_player_id)]


class PlayerIn(Strict):
    id: PlayerId
    name: Name
    draw: Optional[Annotated[StrictInt, Field(ge=1, le=10**6)]] = None
    ema_id: Optional[Annotated[str, Field(max_length=20), AfterValidator(_text)]] = None
    country: Optional[Annotated[str, Field(max_length=60), AfterValidator(_text)]] = None
    substitute: Optional[StrictBool] = None
    family_name: Optional[Annotated[str, Field(max_length=100), AfterValidator(_text)]] = None


class PlayerPatch(Strict):
    name: Optional[Name] = None
    draw: Optional[Annotated[StrictInt, Field(ge=1, le=10**6)]] = None
    ema_id: Optional[Annotated[str, Field(max_length=20), AfterValidator(_text)]] = None
    country: Optional[Annotated[str, Field(max_length=60), AfterValidator(_text)]] = None
    substitute: Optional[StrictBool] = None
    family_name: Optional[Annotated[str, Field(max_length=100), AfterValidator(_text)]] = None
    checked_in: Optional[StrictBool] = None
    withdrawn_from: Optional[Session] = None


class PlayerOut(Schema):
    id: str
    name: str
    draw: Optional[int]
    ema_id: str
    country: str
    substitute: bool
    checked_in: bool
    withdrawn_from: Optional[int]
    family_name: str = ""


class ImportOut(Schema):
    added: int
    updated: int


class AbsenceIn(Strict):
    session: Session
    player: Ident
    absent: StrictBool = True
    reason: Optional[Text] = ""


class NumberedTable(Strict):
    table: TableNo
    players: Annotated[list[Ident], Field(min_length=3, max_length=4)]


class SeatingIn(Strict):
    method: Literal["draw", "rank", "swiss", "preset", "snake", "manual"]
    tables: Optional[list[Union[Annotated[list[Ident], Field(min_length=3, max_length=4)], NumberedTable]]] = Field(
        default=None, max_length=MAX_TABLE, description="manual: player lists (E S W N) for tables 1, 2, ..., or {table, players}")
    save: StrictBool = True
    publish: StrictBool = False


class SwapIn(Strict):
    a: Ident
    b: Ident


class SeatingTableOut(Schema):
    table: int
    players: list[str]


class SeatingOut(Schema):
    session: int
    method: str
    published: bool
    tables: list[SeatingTableOut]
    text: str
    info: dict = {}


# --------------------------------------------------------------------------- boxes

class DeviceIn(Strict):
    id: Ident
    key: Annotated[str, Field(pattern=r"^[0-9a-fA-F]{64}$", description="the box's 32-byte key, hex; write-only")]
    label: Optional[Annotated[str, Field(max_length=200), AfterValidator(_text)]] = ""
    tournament: Optional[Ident] = None
    table: Optional[TableNo] = None


class BindIn(Strict):
    tournament: Optional[Ident] = None
    table: Optional[TableNo] = None


class BoxSettingsIn(Strict):
    """The tournament's boxes: their language, the referee PIN (4-8 digits) or back to the factory PIN."""
    lang: Optional[Literal["cn", "en"]] = None
    pin: Optional[Annotated[str, Field(min_length=pconfig.PIN_DIGITS[0], max_length=pconfig.PIN_DIGITS[1], pattern=r"^[0-9]+$")]] = None
    factory_pin: StrictBool = False


class BoxSettingsOut(Schema):
    lang: str
    pin: Optional[str]
    factory_pin: bool


class DeviceOut(Schema):
    id: str
    label: str
    active: bool
    tournament: Optional[str]
    table: Optional[int]
    records: int = 0
    last_sync: Optional[str] = None
    unsynced: int = 0


class BindingOut(Schema):
    tournament: str
    table: Optional[int]
    since: str
    until: Optional[str]
    by: str


class BoxRecordOut(Schema):
    record: int
    seq: int
    kind: str
    tournament: Optional[str]  # where it is accounted for (the one it names, or whose quarantine holds it)
    session: Optional[int]
    table: Optional[int]
    hand: Optional[int]
    status: Literal["counted", "quarantined", "ruled", "duplicate", "waiting"]
    reason: str = ""
    ruling: Optional[str] = None
    claimed: bool = False


class BoxRecordsOut(Schema):
    device: str
    head: Optional[int]  # the journal head the box last reported
    received: int
    counted: int
    quarantined: int
    ruled: int
    duplicates: int
    waiting: int  # corrections whose hand has not arrived
    not_received: int  # the head beyond what arrived, and gaps in what arrived
    records: list[BoxRecordOut]


class ClaimIn(Strict):
    device: Ident
    seq: Annotated[StrictInt, Field(ge=1, le=2**32 - 1)]
    session: Session
    table: TableNo
    players: Optional[dict[Ident, Ident]] = Field(default=None, description="keyed at the box -> registered player, where they differ")
    reason: Optional[Text] = ""


class ClaimOut(Schema):
    id: int
    session: int
    table: int
    records: list[int]


class BoxConfig(Schema):
    rules: str
    tournament: str
    session: int
    table: int
    players: list[Optional[str]]  # null: the empty chair of a three-player table
    first_dealer: int
    hands: Optional[int] = None
    minutes: Optional[int] = None
    # survival (protocol/config.py): mode, the scores the players carry in, the event's start,
    # the last table; ends_at: when time is called for the hall (every mode)
    mode: Optional[str] = None
    scores: Optional[list[int]] = None
    event_start: Optional[int] = None
    final: Optional[bool] = None
    ends_at: Optional[int] = None
    # the organizer's box settings (issue 18.6): the boxes' language, the referee PIN as its MAC
    # with this box's key (protocol/sign.py pin_mac_hex; never the PIN: no login fetches this)
    lang: Optional[str] = None
    pin_mac: Optional[str] = None
    names: Optional[list[Optional[str]]] = None  # the players' registered names by chair, for the screens
    name_bitmaps: Optional[list[Optional[str]]] = None  # those a box's fonts may not hold, drawn (protocol/config.py)
    # a table under way, for the box that goes on with it (issue 18.3): next hand, its dealer, scores so far
    hand: Optional[int] = None
    dealer: Optional[int] = None
    totals: Optional[list[int]] = None


# --------------------------------------------------------------------------- referee

class CorrectionIn(Strict):
    session: Session
    table: TableNo
    hand: Annotated[StrictInt, Field(ge=1, le=10000)]
    points: dict[Ident, Points] = Field(description="player -> the hand's points (payments between players: they sum to 0)")
    deductions: Optional[dict[Ident, Annotated[StrictInt, Field(ge=0, le=100000)]]] = Field(default=None, description="player -> points paid to nobody (penalties)")
    reason: Annotated[str, Field(min_length=1, max_length=1000), AfterValidator(_text)]


class CorrectionOut(Schema):
    id: int
    session: int
    table: int
    hand: int
    deltas: list[int]
    seats: list[Optional[str]]
    reason: str
    referee: str


class HandIn(Strict):
    session: Session
    table: TableNo
    hand: Annotated[StrictInt, Field(ge=1, le=10000)]
    seats: Annotated[list[Optional[Ident]], Field(min_length=4, max_length=4)]
    dealer: Seat = 0
    prevalent_wind: Literal["E", "S", "W", "N"] = "E"
    events: Annotated[list[dict[str, Any]], Field(max_length=200, description="the settle protocol's events (README: Settle protocol)")]
    reason: Annotated[str, Field(min_length=1, max_length=1000), AfterValidator(_text)]


class HandOut(Schema):
    id: int
    session: int
    table: int
    hand: int
    seats: list[Optional[str]]
    deltas: list[int]
    fans: int


class RulingIn(Strict):
    record: Annotated[StrictInt, Field(ge=1)]
    decision: Literal["accept", "reject"]
    reason: Optional[Text] = ""


class PenaltyIn(Strict):
    session: Session
    player: Ident
    kind: Literal["late", "points", "disqualification"]
    minutes: Optional[Union[Annotated[StrictInt, Field(ge=0, le=100000)], Annotated[str, Field(max_length=30, pattern=r"^[0-9]{1,6}(\.[0-9]{1,6})?$")]]] = None
    points: Optional[Annotated[StrictInt, Field(ge=-100000, le=100000)]] = None
    game: Optional[Annotated[StrictInt, Field(ge=1, le=1000)]] = Field(default=None, description="Sichuan late arrival: the game it was for (default 1)")
    reason: Annotated[str, Field(min_length=1, max_length=1000), AfterValidator(_text)]


class PenaltyOut(Schema):
    id: int
    session: int
    player: str
    kind: str
    minutes: Optional[str]
    points: Optional[int]
    game: Optional[int] = None
    reason: str
    referee: str
    revoked: bool


class PlayoffIn(Strict):
    session: Session
    table: Optional[TableNo] = None
    scores: Annotated[dict[Ident, Points], Field(min_length=1, max_length=64)]


class PlayoffOut(Schema):
    id: int
    session: int
    table: Optional[int]
    scores: dict
    referee: str
