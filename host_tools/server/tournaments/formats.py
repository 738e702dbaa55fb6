"""The five tournament formats, their rule sets and settings (defaults and checks).

One home for what a format needs from the organizer: ``FORMATS`` maps a format to its default
settings; ``check_settings`` validates a settings object before it is stored. Numbers are checked
as text before any parsing (``numeric``): a carry ratio is a short decimal or fraction.
"""
from __future__ import annotations

from typing import Any

from host_tools.server import numeric

FORMATS = {
    "mcr_000": {"prelim_sessions": 8, "finalists": 16},
    "mcr_swiss_001": {"base": 500},
    "sichuan_003": {"stage2_quota": None},
    "guangdong_004": {"prelim_sessions": 4, "carry_ratio": None},
    # start_time: 比赛开始 (epoch seconds; the first confirmed tables set it when empty);
    # individual: the individual event (mcr_000) whose preliminary ranking gives the draw
    "mcr_survival": {"start_time": None, "individual": None, "finalists": 16},
}
RULES = {"mcr_000": "mcr", "mcr_swiss_001": "mcr", "sichuan_003": "sichuan", "guangdong_004": "guangdong", "mcr_survival": "mcr"}
TITLES = {
    "mcr_000": "Chinese Official, 2016 TMT (seed 000)",
    "mcr_swiss_001": "Chinese Official, Swiss (seed 001)",
    "sichuan_003": "Sichuan 血战到底 stages (seed 003)",
    "guangdong_004": "Guangdong 推倒胡 (seed 004)",
    "mcr_survival": "Chinese Official survival event 勇者争先赛 (seed 000)",
}
# How the next session is seated by default, per format (the organizer may pick another).
SEATING = {
    "mcr_000": ("draw", "rank"),
    "mcr_swiss_001": ("draw", "swiss"),
    "sichuan_003": ("draw", "rank"),
    "guangdong_004": ("preset", "rank"),
    "mcr_survival": ("draw", "rank"),
}
ALLOW_THREE = {"mcr_000": True, "mcr_swiss_001": True}
HANDS_PER_SESSION = {"mcr": 16, "sichuan": 8, "guangdong": 12}
SESSION_MINUTES = {"mcr_000": 120, "mcr_swiss_001": 120, "sichuan_003": 120, "guangdong_004": 50, "mcr_survival": 180}
MAX_SESSION = 10000
MAX_TABLE = 10000


class Invalid(ValueError):
    pass


def default_method(fmt: str, session: int) -> str:
    first, later = SEATING[fmt]
    if fmt == "guangdong_004":
        return "preset" if session <= 3 else "rank"
    return first if session == 1 else later


def check_settings(fmt: str, settings: Any) -> dict:
    if fmt not in FORMATS:
        raise Invalid("format must be one of %s" % ", ".join(FORMATS))
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise Invalid("settings must be an object")
    out = dict(FORMATS[fmt])
    for k, v in settings.items():
        if k not in out:
            raise Invalid("format %s has no setting %r (settings: %s)" % (fmt, k, ", ".join(out) or "none"))
        if k == "carry_ratio":
            if v is None or v == "":
                v = None
            else:
                if isinstance(v, bool) or not isinstance(v, (str, int)):
                    raise Invalid('carry_ratio must be a string such as "0.3" or "1/3"')
                try:
                    r = numeric.ratio(str(v))
                except numeric.BadNumber as e:
                    raise Invalid("carry_ratio: %s" % e) from None
                if not 0 <= r <= 1:
                    raise Invalid("carry_ratio must be between 0 and 1")
                v = str(v)
        elif v is None and k in ("stage2_quota", "start_time", "individual"):
            pass
        elif k == "individual":
            if not isinstance(v, str) or not 1 <= len(v) <= 64 or any(ord(c) <= 32 or ord(c) == 127 for c in v):
                raise Invalid("individual must be the id of the individual event (a tournament id)")
        else:
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 2**40:
                raise Invalid("setting %s must be a non-negative integer" % k)
        out[k] = v
    if fmt == "mcr_000" and (not 1 <= out["prelim_sessions"] <= MAX_SESSION or out["finalists"] < 4):
        raise Invalid("prelim_sessions must be 1..10000 and finalists at least 4")
    if fmt == "guangdong_004" and not 1 <= out["prelim_sessions"] <= MAX_SESSION:
        raise Invalid("prelim_sessions must be 1..10000")
    if fmt == "mcr_survival" and not 0 <= out["finalists"] <= MAX_SESSION:
        raise Invalid("finalists (players of the individual final, who do not enter) must be 0..10000")
    if fmt == "mcr_swiss_001" and not 0 <= out["base"] <= 10**6:
        raise Invalid("base must be 0..1000000")
    return out
