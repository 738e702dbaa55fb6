"""The tournament formats as the server offers them. What a format is (rule set, title, settings
with defaults and checks, seating, a session's hands and minutes, late arrivals, what it offers,
its standings) is its module's, found through the registry ``host_tools.tournament.formats``;
the server reads a tournament's format with ``of(t)`` and its attributes, never by name. Here:
the choices for forms and the API, the settings check before anything is stored, and the
server's bounds on session and table numbers (the box's: protocol/config.py).
"""
from __future__ import annotations

from host_tools.tournament import formats as registry
from protocol.config import NUMBER_MAX

MAX_SESSION = NUMBER_MAX
MAX_TABLE = NUMBER_MAX

Invalid = registry.SettingsInvalid  # settings (or a format name) the format refuses
get = registry.get  # the format called so


def of(t) -> registry.Format:
    """The format of tournament ``t`` (a model or anything with ``format``)."""
    return registry.get(t.format)


def names() -> tuple:
    return registry.names()


def choices() -> list:
    """(name, title) of every format, for a choice field."""
    return [(f.name, f.title) for f in registry.all()]


def check_settings(fmt: str, settings) -> dict:
    """The settings to store for a tournament of format ``fmt``; Invalid says what is wrong."""
    return registry.get(fmt).check_settings(settings)
