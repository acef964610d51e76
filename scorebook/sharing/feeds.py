"""Calendar feeds (iCalendar, RFC 5545, written with the ``icalendar`` library): a club's
nights and its leagues' fixtures, for a phone's calendar app to subscribe to.

- Nights have a date and no hour: each is an event from the club's usual start
  (``Club.night_starts``, 21:00 unless the club says otherwise) for its usual length
  (``Club.night_minutes``, 3 hours) in the club's time zone (``Club.time_zone``, else the
  installation's ``TIME_ZONE``), with the zone's VTIMEZONE in the file so every calendar
  app places it right.
- A fixture is on the night of its first linked match once one is played; until then on
  the date the director planned for it (``Fixture.planned_on``); a fixture with neither
  is not in the feed.
- A tournament (one night, pairs at the door) is one event on its night; its entry fee and
  prizes are never in it.
- A championship fixture of the federation (issue 34) is in the feeds of both its clubs:
  on the night it was played once it was, else on its planned night (so a postponement
  moves it), at the home club's hours; a player's feed has those of the teams whose
  roster names them; a league's feed has none.
- A federation's own calendar (``federation_calendar``) holds every fixture of its
  championships and its federal tournaments (one called off stays, marked cancelled).
  A championship fixture annulled by a team's withdrawal stays too, marked cancelled,
  in both clubs' feeds and the federation's (the same UID: a calendar app takes it out).
- UIDs are stable (``night-<id>@<host>``, ``fixture-<id>@<host>``): a calendar app
  updates an event when the feed changes instead of adding it twice.
- The words (SUMMARY, DESCRIPTION) are in the reader's language: the member's, kept with
  their token; a night's description says its scores, never money (``night_text``).
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, Min, OuterRef, Q
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from scorebook.clubs.models import Club, Player
from scorebook.core.dates import DATE_MAX, today, today_in
from scorebook.federations.models import ChampionshipFixture, FederalTournament
from scorebook.matches.models import Match, Night
from scorebook.standings.models import Fixture, League
from scorebook.tournaments.models import Tournament

from .texts import names_of, night_text

#: How far back a feed reaches: a calendar app keeps what it has already seen.
PAST_DAYS = 400


@dataclass(frozen=True)
class Feed:
    """What one feed holds: the club's nights (all, or those of one player and every
    night still to come), and the fixtures of some leagues (all, one, or one player's)."""

    club: Club
    nights: bool = True
    league: League | None = None
    player: Player | None = None
    fixtures: bool = True
    tournaments: bool = True


def club_zone(club: Club) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(club.zone_name)


def _event(
    club: Club, uid: str, summary: str, day: datetime.date, stamp: datetime.datetime
) -> Event:
    """An event on ``day`` at the club's usual hours, in its zone."""
    start = datetime.datetime.combine(day, club.night_starts, tzinfo=club_zone(club))
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    event.add("dtend", start + datetime.timedelta(minutes=club.night_minutes))
    event.add("summary", summary)
    return event


def _nights(feed: Feed, since: datetime.date) -> list[Night]:
    # (a night stored past the dates kept, before they were checked, is left out: its
    # end overflowed Python's dates, and every feed answered 500)
    nights = Night.objects.filter(club=feed.club, date__gte=since, date__lte=DATE_MAX)
    nights = nights.order_by("date", "id")
    if feed.player is not None:
        # the nights the player sat at (seats are JSON: read them, one query), and every
        # night still to come (who plays is not known yet)
        played = list(
            Match.objects.filter(night__club=feed.club, night__date__gte=since)
            .values_list("night_id", "seats")
            .iterator()
        )
        mine = {night_id for night_id, seats in played if feed.player.pk in seats.values()}
        today = today_in(feed.club.zone_name)
        nights = nights.filter(Q(pk__in=mine) | Q(date__gte=today))
    return list(nights)


def _fixtures(feed: Feed, since: datetime.date) -> list[Fixture]:
    fixtures = (
        Fixture.objects.filter(league__club=feed.club)
        .select_related("league", "home", "away")
        .annotate(day=Coalesce(Min("links__match__night__date"), "planned_on"))
        .filter(day__isnull=False, day__gte=since, day__lte=DATE_MAX)
        .order_by("day", "id")
    )
    if feed.league is not None:
        fixtures = fixtures.filter(league=feed.league)
    if feed.player is not None:
        entries = Q(home__players=feed.player) | Q(away__players=feed.player)
        mine = Fixture.objects.filter(entries, pk=OuterRef("pk"))
        fixtures = fixtures.filter(Exists(mine))
    return list(fixtures)


def _tournaments(feed: Feed, since: datetime.date) -> list[Tournament]:
    """The club's tournaments; a player's: those they entered and those to come."""
    tournaments = (
        Tournament.objects.filter(club=feed.club, night__date__gte=since, night__date__lte=DATE_MAX)
        .select_related("night")
        .order_by("night__date", "id")
    )
    if feed.player is not None:
        entered = Q(entries__first=feed.player) | Q(entries__second=feed.player)
        tournaments = tournaments.filter(
            entered | Q(night__date__gte=today_in(feed.club.zone_name))
        )
    return list(tournaments.distinct())


def _championship_fixtures(feed: Feed, since: datetime.date) -> list[ChampionshipFixture]:
    """The championship fixtures of the club's teams, home or away (a player's: those of
    their teams), on the night played or else the planned one."""
    if feed.league is not None:
        return []
    club = Q(home__club=feed.club) | Q(away__club=feed.club)
    fixtures = ChampionshipFixture.objects.filter(club)
    if feed.player is not None:
        rostered = Q(home__roster__player=feed.player) | Q(away__roster__player=feed.player)
        fixtures = fixtures.filter(rostered)
    return list(
        fixtures.select_related("championship", "home__club", "away")
        .annotate(day=Coalesce("night__date", "planned_on"))
        .filter(day__isnull=False, day__gte=since, day__lte=DATE_MAX)
        .distinct()
        .order_by("day", "id")
    )


def championship_summary(fixture: ChampionshipFixture) -> str:
    """ "Campionato a squadre, turno 2: San Rocco – Kalsa" (the leagues' words)."""
    return _("%(league)s, round %(round)s: %(home)s – %(away)s") % {
        "league": fixture.championship.name,
        "round": fixture.round,
        "home": fixture.home.name,
        "away": fixture.away.name,
    }


def fixture_summary(fixture: Fixture) -> str:
    """ "Coppa d'inverno, turno 2: Nino & Salvo – Ettore & Walter"."""
    undecided = _("to be decided")
    home = fixture.home.name if fixture.home else undecided
    away = fixture.away.name if fixture.away else undecided
    return _("%(league)s, round %(round)s: %(home)s – %(away)s") % {
        "league": fixture.league.name,
        "round": fixture.round,
        "home": home,
        "away": away,
    }


def calendar(feed: Feed, *, host: str, language: str, name: str, links: dict[int, str]) -> bytes:
    """The feed as an .ics file. ``links``: night id -> the page to open (absolute)."""
    since = today_in(feed.club.zone_name) - datetime.timedelta(days=PAST_DAYS)
    stamp = timezone.now().replace(microsecond=0)
    with translation.override(language):
        cal = Calendar()
        cal.add("prodid", "-//Scorebook//Club calendar//EN")
        cal.add("version", "2.0")
        cal.add("calscale", "GREGORIAN")
        cal.add("x-wr-calname", name)
        cal.add("x-wr-timezone", feed.club.zone_name)
        if feed.nights:
            nights = _nights(feed, since)
            names = names_of(feed.club.pk) if nights else {}
            matches = _matches_by_night(nights)
            for night in nights:
                night.club = feed.club
                summary = _("Club night: %(club)s") % {"club": feed.club.name}
                event = _event(feed.club, f"night-{night.pk}@{host}", summary, night.date, stamp)
                if night.venue:
                    event.add("location", night.venue)
                if matches.get(night.pk):
                    event.add("description", night_text(night, names, matches[night.pk]))
                if night.pk in links:
                    event.add("url", links[night.pk])
                cal.add_component(event)
        if feed.fixtures:
            for fixture in _fixtures(feed, since):
                day = fixture.day  # type: ignore[attr-defined]
                uid = f"fixture-{fixture.pk}@{host}"
                event = _event(feed.club, uid, fixture_summary(fixture), day, stamp)
                cal.add_component(event)
            for played in _championship_fixtures(feed, since):
                day = played.day  # type: ignore[attr-defined]
                uid = f"championship-fixture-{played.pk}@{host}"
                home = played.home.club
                event = _event(home, uid, championship_summary(played), day, stamp)
                event.add("location", home.name)
                if played.reason and played.status == ChampionshipFixture.Status.PLANNED:
                    event.add("description", played.reason)
                if played.status == ChampionshipFixture.Status.ANNULLED:
                    event.add("status", "CANCELLED")  # its team withdrew: never played
                cal.add_component(event)
        # the zone's rules over the feed's span (the default, 1970-2038, is 6 KB of dates)
        if feed.tournaments:
            for tournament in _tournaments(feed, since):
                summary = _("Tournament: %(name)s") % {"name": tournament.name}
                uid = f"tournament-{tournament.pk}@{host}"
                event = _event(feed.club, uid, summary, tournament.night.date, stamp)
                if tournament.night.venue:
                    event.add("location", tournament.night.venue)
                if tournament.night_id in links:
                    event.add("url", links[tournament.night_id])
                cal.add_component(event)
        cal.add_missing_timezones(
            first_date=since, last_date=since + datetime.timedelta(days=3 * 365)
        )
    return cal.to_ical()


def _matches_by_night(nights: Iterable[Night]) -> dict[int, list[Match]]:
    found: dict[int, list[Match]] = {}
    ids = [night.pk for night in nights]
    for match in Match.objects.filter(night_id__in=ids).order_by("id"):
        found.setdefault(match.night_id, []).append(match)
    return found


def _federation_fixtures(federation_id: int, since: datetime.date) -> list[ChampionshipFixture]:
    """Every fixture of the federation's championships, on the night played or else the
    planned one (a fixture with neither, e.g. a knockout's still to be drawn, is left
    out)."""
    return list(
        ChampionshipFixture.objects.filter(championship__federation_id=federation_id)
        .select_related("championship", "home__club", "away")
        .annotate(day=Coalesce("night__date", "planned_on"))
        .filter(day__isnull=False, day__gte=since, day__lte=DATE_MAX)
        .order_by("day", "id")
    )


def federation_calendar(federation: Any, *, host: str, language: str) -> bytes:
    """The federation's calendar as an .ics file (issue 34 item 7): every championship
    fixture (at the home club's hours and place; a postponement moves it, the same UID)
    and every federal tournament (at the host's hours and place; one called off stays,
    marked cancelled, so a calendar app that has it takes it out). Never a fee."""
    since = today() - datetime.timedelta(days=PAST_DAYS)
    stamp = timezone.now().replace(microsecond=0)
    with translation.override(language):
        cal = Calendar()
        cal.add("prodid", "-//Scorebook//Federation calendar//EN")
        cal.add("version", "2.0")
        cal.add("calscale", "GREGORIAN")
        cal.add("x-wr-calname", federation.name)
        for played in _federation_fixtures(federation.pk, since):
            day = played.day  # type: ignore[attr-defined]
            home = played.home.club
            uid = f"championship-fixture-{played.pk}@{host}"
            event = _event(home, uid, championship_summary(played), day, stamp)
            event.add("location", home.name)
            if played.reason and played.status == ChampionshipFixture.Status.PLANNED:
                event.add("description", played.reason)
            if played.status == ChampionshipFixture.Status.ANNULLED:
                event.add("status", "CANCELLED")  # its team withdrew: never played
            cal.add_component(event)
        tournaments = (
            FederalTournament.objects.filter(federation=federation, date__gte=since)
            .select_related("host")
            .order_by("date", "id")
        )
        for federal in tournaments:
            summary = _("Tournament: %(name)s") % {"name": federal.name}
            uid = f"federal-tournament-{federal.pk}@{host}"
            event = _event(federal.host, uid, summary, federal.date, stamp)
            event.add("location", federal.host.name)
            if federal.status == FederalTournament.Status.CANCELLED:
                event.add("status", "CANCELLED")
            cal.add_component(event)
        cal.add_missing_timezones(
            first_date=since, last_date=since + datetime.timedelta(days=3 * 365)
        )
    return cal.to_ical()
