"""The dates a person or a program may give Scorebook, in one home (issue 31 item 6).

A night's date, a season's first and last day, a fixture's planned night, an imported
night: each is refused in words outside :data:`DATE_MIN` .. :data:`DATE_MAX` by the
service that stores it (:func:`check_date`), so the API, the pages and the import say the
same. Why a range at all: Python's dates end on 9999-12-31, and a night on that day made
every calendar feed answer 500 (its end, the start plus the night's length, overflowed);
nothing a club records lies outside 1900-2200, and every computation on a date in the
range (a night's start and end in any time zone, a feed's zone rules, a season's span)
stays far from the edges. Readers that meet a date stored before the range existed skip
it (``in_range``).

"Today" is the club's: its time zone, not the installation's (:func:`today_in`). A club
in Kiritimati is already at tomorrow while Rome is at noon: its night of tomorrow (for
Rome) was refused by the import as "in the future". What belongs to no club (a
federation's ranking window, its calendar) takes the installation's zone by name
(:func:`today`), never the zone a request has active: the API's requests run with UTC
active (api/middleware.py), and the ranking read under it was empty from midnight to
1 am in Rome, on the night a federal tournament ended.
"""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from .refusals import Refusal

#: The first and the last date Scorebook keeps (docs/dates.md).
DATE_MIN = datetime.date(1900, 1, 1)
DATE_MAX = datetime.date(2200, 12, 31)


class DateOutOfRange(Refusal):
    code = "date.out_of_range"
    message = _("%(value)s is outside the dates Scorebook keeps: from %(first)s to %(last)s.")

    def words(self) -> dict[str, Any]:
        """The dates as the reader writes them (31/12/2200 in Italian)."""
        return {
            key: _written(value) if key in ("value", "first", "last") else value
            for key, value in self.params.items()
        }


class NotADate(Refusal):
    code = "date.invalid"
    message = _("'%(value)s' is not a date: write it as 2026-11-20.")


def _written(iso: str) -> str:
    try:
        return date_format(datetime.date.fromisoformat(iso), "SHORT_DATE_FORMAT")
    except ValueError:
        return iso


def in_range(day: datetime.date) -> bool:
    """Whether ``day`` is one Scorebook keeps."""
    return DATE_MIN <= day <= DATE_MAX


def check_date(value: Any, *, path: str = "date") -> datetime.date:
    """``value`` (a date, or its ISO text as scripts and tests write it) as a date, refused
    in words outside the range."""
    if isinstance(value, datetime.datetime):
        value = value.date()
    if isinstance(value, str):
        try:
            value = datetime.date.fromisoformat(value)
        except ValueError:
            raise NotADate(path=path, value=value[:40]) from None
    if not isinstance(value, datetime.date):
        raise NotADate(path=path, value=str(value)[:40])
    if not in_range(value):
        raise DateOutOfRange(
            path=path,
            value=value.isoformat(),
            first=DATE_MIN.isoformat(),
            last=DATE_MAX.isoformat(),
        )
    return value


def today_in(zone_name: str) -> datetime.date:
    """Today's date in the time zone ``zone_name`` (a club's ``zone_name``)."""
    return timezone.localdate(timezone=zoneinfo.ZoneInfo(zone_name))


def today() -> datetime.date:
    """Today's date in the installation's zone (``TIME_ZONE``), whatever zone is active."""
    return today_in(settings.TIME_ZONE)
