"""The tournament formats, one module each, found by name through this registry.

    from host_tools.tournament import formats
    f = formats.get("mcr_swiss_001")     # UnknownFormat for a name it does not know
    f.rules, f.title, f.hands, f.minutes(settings), f.late(12), f.default_method(2)
    settings = f.check_settings({"base": 500})     # SettingsInvalid names what is wrong
    outcome = f.results(event, problems)           # standings over plain data (base.Event)
    [f.name for f in formats.all()]                # in the order the pages list them

Each module holds one format whole: its declaration (``FORMAT``: rule set, title, settings with
defaults and checks, seating, session hands and minutes, late arrivals, what it offers) and its
standings. ``base`` says what a format declares and the plain data in and out; ``standings``
is what the formats ranking over sessions share.

* ``mcr_000``: Chinese Official 2016 TMT, standard scores 4/2/1/0, finals (seed 000).
* ``mcr_swiss_001``: Chinese Official, Swiss system from a base of 500 (seed 001).
* ``sichuan_003``: Sichuan 血战到底 stages of table groups (seed 003).
* ``guangdong_004``: Guangdong 推倒胡, pre-set schedule, final with carried scores (seed 004).
* ``mcr_survival``: the survival event 勇者争先赛 of seed 000.

Every number a format uses that the box uses too (hands, minutes, points per place, the late
ladders, the Swiss base) is ``rules_min.tournament``'s.
"""
from __future__ import annotations

from . import guangdong_004, mcr_000, mcr_survival, mcr_swiss_001, sichuan_003
from .base import Event, Format, Outcome, Setting, SettingsInvalid, UnknownFormat

_ALL: tuple = (mcr_000.FORMAT, mcr_swiss_001.FORMAT, sichuan_003.FORMAT, guangdong_004.FORMAT, mcr_survival.FORMAT)
_BY_NAME = {f.name: f for f in _ALL}

__all__ = ["Event", "Format", "Outcome", "Setting", "SettingsInvalid", "UnknownFormat", "all", "get", "names"]


def get(name: str) -> Format:
    """The format called ``name``; UnknownFormat (a SettingsInvalid) names the ones there are."""
    f = _BY_NAME.get(name) if isinstance(name, str) else None
    if f is None:
        raise UnknownFormat("format must be one of %s" % ", ".join(_BY_NAME))
    return f


def all() -> tuple:  # noqa: A001 (the registry's own word: every format)
    return _ALL


def names() -> tuple:
    return tuple(_BY_NAME)
