"""Domain errors shared by the API (mapped to 400 / 404 / 409) and the pages (shown on the form)."""


class Invalid(ValueError):
    status = 400


class NotFound(LookupError):
    status = 404


class Conflict(Exception):
    status = 409


class Forbidden(PermissionError):
    """An action this account may not take (a box of another tournament...)."""

    status = 403


class BadRecord(ValueError):
    """A malformed upload envelope or record payload (the device contract, ``boxes.contract``
    and ``boxes.contract_v1``): HTTP 400 with this message."""
