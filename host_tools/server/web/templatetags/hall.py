"""Times as the hall reads them: ``{{ value|when }}`` (or ``|when:"H:i"``) shows an aware
datetime, an ISO 8601 string or epoch seconds in the active time zone (the tournament's hall's,
``common.page`` activates it), never a raw UTC string."""
from __future__ import annotations

import datetime

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format

register = template.Library()


def as_datetime(value):
    if isinstance(value, datetime.datetime):
        dt = value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        dt = datetime.datetime.fromtimestamp(value, datetime.timezone.utc)
    elif isinstance(value, str) and value:
        try:
            dt = datetime.datetime.fromisoformat(value)
        except ValueError:
            return None
    else:
        return None
    if timezone.is_naive(dt):
        dt = timezone.make_aware(dt, datetime.timezone.utc)
    return timezone.localtime(dt)


@register.filter
def when(value, fmt: str = "Y-m-d H:i"):
    dt = as_datetime(value)
    return "" if dt is None else date_format(dt, fmt)
