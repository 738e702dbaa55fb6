"""What stops a sync run, and the exit status it gives."""
from __future__ import annotations

from protocol.codec import ERROR_NAMES, TYPE_NAMES

from .text import clean

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_REFUSED = 0, 1, 2, 3


class SyncError(Exception):
    """Stops a run: the message says what happened and what to do."""

    exit_code = EXIT_FAIL


class LinkError(SyncError):
    """The serial line: no reply, a lost port."""


class DeviceError(SyncError):
    """The box answered a request with an error code."""

    def __init__(self, typ: int, code: int, message: str):
        self.typ = typ
        self.code = code
        self.message = clean(message, 200)
        super().__init__("box refused %s: %s (%s)" % (TYPE_NAMES.get(typ, typ), self.message,
                                                      ERROR_NAMES.get(code, "error %d" % code)))


class ProtocolError(SyncError):
    """The box broke the protocol (a malformed reply, a lie about its range...)."""


class ServerError(SyncError):
    pass
