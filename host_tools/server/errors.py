"""Domain errors shared by the API (mapped to 400 / 404 / 409) and the pages (shown on the form)."""


class Invalid(ValueError):
    status = 400


class NotFound(LookupError):
    status = 404


class Conflict(Exception):
    status = 409
