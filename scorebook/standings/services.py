"""Writes of the standings' own settings: seasons (a season's leaderboard is rebuilt after
it is opened or its days move: see ``outbox``) and the club's standings settings.

The rest of the app: ``outbox`` (the stale marks a write to the match record leaves, and
the publisher that schedules their refresh), ``refresh`` (the incremental refresh and the
rebuild from the deal log, with the bulk writer in ``bulk``), ``leagues`` (a package: its
services and selectors, and the pure round robin, knockout and tie-break modules).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.dates import check_date
from scorebook.core.people import User
from scorebook.core.refusals import Refusal, unique_or

from .models import Season, StandingsSettings
from .outbox import stale_mark


class SeasonDates(Refusal):
    code = "season.dates"
    message = _("A season cannot end before it starts.")


class SeasonNameTaken(Refusal):
    code = "season.name_taken"
    status = 409
    message = _("The club already has a season called %(name)s.")


# -- seasons and settings ------------------------------------------------------------------


def _check_season(
    club_id: int, name: str, starts_on: Any, ends_on: Any, pk: Any = None
) -> tuple[date, date | None]:
    """The season's days, each in the range (core.dates), the last not before the first;
    its name not another season's."""
    first = check_date(starts_on, path="starts_on")
    last = check_date(ends_on, path="ends_on") if ends_on is not None else None
    if last is not None and last < first:
        raise SeasonDates(path="ends_on")
    if Season.objects.filter(club_id=club_id, name=name).exclude(pk=pk).exists():
        raise SeasonNameTaken(path="name", name=name)
    return first, last


@transaction.atomic
def season_create(
    *, club_id: int, name: str, starts_on: date, ends_on: date | None, user: User
) -> Season:
    """A director opens a season; its leaderboard is built by the next rebuild."""
    require_role(user, club_id, Role.DIRECTOR)
    starts_on, ends_on = _check_season(club_id, name, starts_on, ends_on)
    season = unique_or(
        SeasonNameTaken(path="name", name=name),
        lambda: Season.objects.create(
            club_id=club_id, name=name, starts_on=starts_on, ends_on=ends_on
        ),
    )
    stale_mark(club_id=club_id, season_id=season.pk)
    return season


@transaction.atomic
def season_update(*, season: Season, changes: dict[str, Any], user: User) -> Season:
    """Rename a season or move its days; its leaderboard is rebuilt."""
    require_role(user, season.club_id, Role.DIRECTOR)
    for key in ("name", "starts_on", "ends_on"):
        if key in changes:
            setattr(season, key, changes[key])
    season.starts_on, season.ends_on = _check_season(
        season.club_id, season.name, season.starts_on, season.ends_on, season.pk
    )
    unique_or(SeasonNameTaken(path="name", name=season.name), season.save)
    stale_mark(club_id=season.club_id, season_id=season.pk)
    return season


def settings_of(club_id: int) -> StandingsSettings:
    """The club's standings settings, the defaults if never set (not saved)."""
    found = StandingsSettings.objects.filter(club_id=club_id).first()
    return found or StandingsSettings(club_id=club_id)


@transaction.atomic
def settings_update(*, club_id: int, changes: dict[str, Any], user: User) -> StandingsSettings:
    """A director sets the minimum matches to be ranked and the provisional count. Both
    apply when reading, so nothing needs rebuilding."""
    require_role(user, club_id, Role.DIRECTOR)
    found, _ = StandingsSettings.objects.get_or_create(club_id=club_id)
    for key in ("min_matches", "provisional_matches"):
        if key in changes:
            setattr(found, key, changes[key])
    found.save()
    return found
