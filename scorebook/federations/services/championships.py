"""Writes to championships (issue 34 item 3): an officer creates one and starts it (the
calendar is drawn), a club's director enters teams, the home club's director plays a
fixture at the club's night (the line-ups seated as matches of the home club's record,
the away players as the home club's guests), the away captain confirms the result, an
officer records a forfeit or moves a fixture's night; a groups-then-knockout championship
goes on to its bracket. Each write is one transaction; a refusal changes nothing. A
team's withdrawal and a forfeit undone are in ``withdrawals``.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from scorebook.clubs.models import Club, Player, Role
from scorebook.clubs.selectors import membership_of
from scorebook.clubs.services import player_create, refuse_erased, require_role
from scorebook.core.audit import audit
from scorebook.core.dates import check_date, today_in
from scorebook.core.people import User
from scorebook.matches.models import Night
from scorebook.matches.services import match_create
from scorebook.rules import Rejection, get_game

from .. import championship_rules as rules
from .. import championship_selectors as reads
from ..models import (
    Championship,
    ChampionshipFixture,
    Federation,
    FixtureTable,
    OfficerRole,
    RosterPlayer,
    Team,
    Visitor,
)
from ..refusals import (
    CaptainNotOfClub,
    CaptainRequired,
    ChampionshipGame,
    ChampionshipNameTaken,
    ChampionshipNotOpen,
    ChampionshipNotStarted,
    ChampionshipShape,
    ClubNotInFederation,
    FixtureAlreadyPlaying,
    FixtureClosed,
    FixtureNotFinished,
    HomeDirectorRequired,
    KnockoutNotReady,
    LineupInvalid,
    NoNightTonight,
    NotInFixture,
    RosterPlayers,
    RosterSize,
    TeamNameTaken,
    TooFewTeams,
)
from ..selectors import is_member_club, linked_players, person_of
from .guards import require_officer

Status = ChampionshipFixture.Status
#: a fixture no one plays, confirms, forfeits or moves any more (an annulled one: its
#: team withdrew before half of its fixtures were settled)
SETTLED = (Status.CONFIRMED, Status.FORFEITED, Status.ANNULLED)


def _check_game(game: str, spec: Any) -> dict[str, Any]:
    """The house rules as given, once the engine accepts them at a table of two sides."""
    try:
        engine = get_game(game)
        resolved = engine.rules(spec or {})
    except Rejection as rejection:
        raise ChampionshipGame(path="game", reason=str(rejection)) from None
    seats = engine.seats(resolved, engine.default_players(resolved))
    sides = list(engine.table_shape(resolved.values, seats).members.values())
    if len(sides) != 2 or len(sides[0]) != len(sides[1]):
        raise ChampionshipGame(path="game", reason=game)
    return dict(spec or {})


def _shape(fmt: str, tables: int, legs: int, groups: int, advance: int, subs: int) -> None:
    checks = (
        (1 <= tables <= 8, "tables", "A fixture has 1 to 8 tables."),
        (legs in (1, 2), "legs", "A round robin has one leg or two (home and away)."),
        (0 <= subs <= 8, "substitutes", "A roster has 0 to 8 substitutes."),
        (1 <= groups <= 8, "groups", "A championship has 1 to 8 groups."),
        (1 <= advance <= 4, "advance", "1 to 4 teams of each group go on to the knockout."),
        (
            fmt in Championship.Format.values,
            "format",
            "The format is a round robin, or groups then a knockout.",
        ),
    )
    for ok, path, reason in checks:
        if not ok:
            raise ChampionshipShape(path=path, reason=reason)


@transaction.atomic
def championship_create(
    *,
    federation: Federation,
    name: str,
    season: str,
    game: str,
    user: User,
    rules_spec: Any = None,
    tables: int = 2,
    substitutes: int = 2,
    format: str = Championship.Format.ROUND_ROBIN,
    legs: int = 2,
    groups: int = 1,
    advance: int = 2,
    first_day: datetime.date | None = None,
    every_days: int = 7,
) -> Championship:
    """A championship of the federation, open for entries (any officer)."""
    require_officer(user, federation.pk, OfficerRole.OFFICER)
    spec = _check_game(game, rules_spec)
    if format == Championship.Format.ROUND_ROBIN:
        groups = 1
    _shape(format, tables, legs, groups, advance, substitutes)
    if first_day is not None:
        first_day = check_date(first_day, path="first_day")
    if Championship.objects.filter(federation=federation, season=season, name=name).exists():
        raise ChampionshipNameTaken(path="name", name=name, season=season)
    championship = Championship.objects.create(
        federation=federation,
        name=name,
        season=season,
        game=game,
        rules=spec,
        tables=tables,
        substitutes=substitutes,
        format=format,
        legs=legs,
        groups=groups,
        advance=advance,
        first_day=first_day,
        every_days=max(1, every_days),
        created_by=user,
    )
    audit(club_id=None, actor=user, verb="championship_created", obj=championship)
    return championship


def changed(championship_id: int) -> None:
    """Bump the championship's ``version`` (in the caller's transaction): every write of
    it, its teams or its fixtures calls this, so that the public table's cache key changes
    with the rows it is computed from (``championship_selectors.public_table``)."""
    Championship.objects.filter(pk=championship_id).update(version=F("version") + 1)


def locked(championship: Championship) -> Championship:
    return Championship.objects.select_for_update().get(pk=championship.pk)


def _roster(club: Club, championship: Championship, ids: Sequence[int]) -> list[Player]:
    players = {
        p.pk: p
        for p in Player.objects.filter(club=club, pk__in=list(ids), active=True, erased=False)
    }
    taken = RosterPlayer.objects.filter(team__championship=championship, player_id__in=ids)
    if len(set(ids)) != len(ids) or set(players) != set(ids) or taken.exists():
        raise RosterPlayers(path="players")
    return [players[i] for i in ids]


@transaction.atomic
def team_enter(
    *,
    championship: Championship,
    club: Club,
    name: str,
    player_ids: Sequence[int],
    user: User,
    substitute_ids: Sequence[int] = (),
    captain: User | None = None,
) -> Team:
    """A club's team with its roster (a director of the club, while entries are open)."""
    require_role(user, club.pk, Role.DIRECTOR)
    championship = locked(championship)
    if championship.status != Championship.Status.OPEN:
        raise ChampionshipNotOpen()
    if not is_member_club(championship.federation_id, club):
        raise ClubNotInFederation(path="club", club=club.name)
    side = reads.side_size(championship)
    needed = championship.tables * side
    if len(player_ids) != needed or len(substitute_ids) > championship.substitutes:
        raise RosterSize(
            path="players",
            needed=needed,
            tables=championship.tables,
            side=side,
            substitutes=championship.substitutes,
            regulars=len(player_ids),
            extra=len(substitute_ids),
        )
    players = _roster(club, championship, [*player_ids, *substitute_ids])
    captain = captain or user
    if membership_of(captain, club.pk) is None:
        raise CaptainNotOfClub(path="captain", club=club.name)
    if championship.teams.filter(name__iexact=name).exists():
        raise TeamNameTaken(path="name", name=name)
    team = Team.objects.create(
        championship=championship,
        club=club,
        name=name,
        captain=captain,
        # after the last one entered (a team withdrawn leaves a gap, never a seed twice)
        seed=(championship.teams.aggregate(last=Max("seed"))["last"] or 0) + 1,
        entered_by=user,
    )
    RosterPlayer.objects.bulk_create(
        RosterPlayer(team=team, player=p, substitute=i >= needed, order=i)
        for i, p in enumerate(players)
    )
    changed(championship.pk)
    audit(club_id=club.pk, actor=user, verb="championship_team_entered", obj=team)
    return team


def _day(championship: Championship, round_number: int) -> datetime.date | None:
    return reads.round_day(championship, round_number)


@transaction.atomic
def championship_start(*, championship: Championship, user: User) -> Championship:
    """Draw the groups and the calendar (any officer): each group a round robin of one or
    two legs, a round every ``every_days`` days from ``first_day``."""
    require_officer(user, championship.federation_id, OfficerRole.OFFICER)
    championship = locked(championship)
    if championship.status != Championship.Status.OPEN:
        raise ChampionshipNotOpen()
    entered = list(championship.teams.order_by("seed", "id"))
    if len(entered) < 2 * championship.groups:
        raise TooFewTeams(count=2 * championship.groups)
    for number, group in enumerate(rules.split_groups(entered, championship.groups), start=1):
        grouped = championship.format == Championship.Format.GROUPS_KNOCKOUT
        for team in group:
            team.group = number if grouped else None
            team.save(update_fields=["group"])
        for rnd in rules.calendar(group, championship.legs):
            for home, away in rnd.pairings:
                ChampionshipFixture.objects.create(
                    championship=championship,
                    group=number if grouped else None,
                    round=rnd.number,
                    home=home,
                    away=away,
                    planned_on=_day(championship, rnd.number),
                )
    championship.status = Championship.Status.STARTED
    championship.save(update_fields=["status"])
    changed(championship.pk)
    audit(club_id=None, actor=user, verb="championship_started", obj=championship)
    return championship


def fixture_locked(fixture: ChampionshipFixture) -> ChampionshipFixture:
    return (
        ChampionshipFixture.objects.select_for_update(of=("self",))
        .select_related("championship", "home__club", "away__club")
        .get(pk=fixture.pk)
    )


def _is_director(user: User, club_id: int) -> bool:
    mine = membership_of(user, club_id)
    return mine is not None and mine.at_least(Role.DIRECTOR)


@transaction.atomic
def fixture_plan(
    *, fixture: ChampionshipFixture, day: datetime.date | None, user: User, reason: str = ""
) -> ChampionshipFixture:
    """Move a fixture's planned night (a postponement): an officer, or a director of the
    home club; not once it is being played or settled."""
    fixture = fixture_locked(fixture)
    if not _is_director(user, fixture.home.club_id):
        require_officer(user, fixture.championship.federation_id, OfficerRole.OFFICER)
    if day is not None:
        day = check_date(day, path="day")
    if fixture.status in SETTLED:
        raise FixtureClosed(status=fixture.get_status_display())
    if fixture.status == Status.PLAYING:
        raise FixtureAlreadyPlaying(date=fixture.night.date if fixture.night else "")
    fixture.planned_on = day
    fixture.reason = reason[:200]
    fixture.save(update_fields=["planned_on", "reason"])
    changed(fixture.championship_id)
    return fixture


def _lineup(team: Team, given: Sequence[int] | None, needed: int, side: int) -> list[Player]:
    """The team's players for tonight, in table order: the given ones (of its roster), or
    its regulars."""
    roster = {r.player_id: r for r in team.roster.select_related("player")}
    if given is None:
        given = [pid for pid, r in roster.items() if not r.substitute]
    given = list(given)
    if len(given) != needed or len(set(given)) != needed or not set(given) <= set(roster):
        raise LineupInvalid(path="lineups", needed=needed, side=side)
    return [roster[pid].player for pid in given]


def _guest_name(host: Club, player: Player, away: Club) -> str:
    base = f"{player.name} ({away.name})"[:80]
    name, n = base, 1
    while Player.objects.filter(club=host, name__iexact=name).exists():
        n += 1
        name = f"{base[:76]} {n}"
    return name


def visitor_guest(*, host: Club, player: Player, user: User) -> Player:
    """The away player as the home club's record knows them. A person (an account linked
    to the away player) whose own accepted link names a player of the home club plays as
    that player (as at a federal tournament). Anyone else: a guest player of the home
    club named after them and their club, made at their first visit and reused after
    (``Visitor``). No link is made for them: the away club put them on its roster (its
    consent), the person's consent to the home club is theirs to give; the home club
    learns their name as the roster shows it, nothing else."""
    person = person_of(player)
    if person is not None:
        linked = linked_players(person, clubs=[host.pk]).first()
        if linked is not None:
            return linked
    found = Visitor.objects.filter(club=host, player=player).select_related("guest").first()
    if found is not None:
        return found.guest
    guest = player_create(
        club=host, name=_guest_name(host, player, player.club), user=user, guest=True
    )
    Visitor.objects.create(club=host, player=player, guest=guest)
    return guest


def _tonight(club: Club) -> Night:
    night = (
        Night.objects.filter(club=club, status=Night.Status.OPEN, date=today_in(club.zone_name))
        .order_by("-pk")
        .first()
    )
    if night is None:
        raise NoNightTonight(club=club.name)
    return night


@transaction.atomic
def fixture_play(
    *,
    fixture: ChampionshipFixture,
    user: User,
    lineups: dict[str, Sequence[int]] | None = None,
) -> ChampionshipFixture:
    """Play the fixture at the home club's night open today (a director of the home club):
    each table a match of the championship's game and house rules, the home team's
    players on the first side, the away team's (as the home club's guests) on the
    second. ``lineups``: {"home": [...], "away": [...]} player ids of each roster in
    table order (default: the regulars)."""
    fixture = fixture_locked(fixture)
    championship = fixture.championship
    if not _is_director(user, fixture.home.club_id):
        raise HomeDirectorRequired()
    if championship.status == Championship.Status.OPEN:
        raise ChampionshipNotStarted()
    if fixture.status in SETTLED:
        raise FixtureClosed(status=fixture.get_status_display())
    if fixture.status == Status.PLAYING:
        raise FixtureAlreadyPlaying(date=fixture.night.date if fixture.night else "")
    night = _tonight(fixture.home.club)
    engine = get_game(championship.game)
    resolved = engine.rules(championship.rules)
    seats = engine.seats(resolved, engine.default_players(resolved))
    first, second = engine.table_shape(resolved.values, seats).members.values()
    side = len(first)
    needed = side * championship.tables
    lineups = lineups or {}
    home = _lineup(fixture.home, lineups.get("home"), needed, side)
    away = _lineup(fixture.away, lineups.get("away"), needed, side)
    # an erased player stays on the roster as its pseudonym, and is seated nowhere: not at
    # the home club as a guest standing for them either (a new Visitor would join the
    # pseudonym to a player again)
    refuse_erased([p.pk for p in (*home, *away)], path="lineups")
    for number in range(championship.tables):
        ours = home[number * side : (number + 1) * side]
        theirs = away[number * side : (number + 1) * side]
        guests = [visitor_guest(host=fixture.home.club, player=p, user=user) for p in theirs]
        seating = {
            **{seat: p.pk for seat, p in zip(first, ours, strict=True)},
            **{seat: g.pk for seat, g in zip(second, guests, strict=True)},
        }
        match = match_create(
            night=night, game=championship.game, rules=championship.rules, seats=seating, user=user
        )
        FixtureTable.objects.create(
            fixture=fixture,
            number=number + 1,
            match=match,
            home_players=[p.pk for p in ours],
            away_players=[p.pk for p in theirs],
            away_seats=list(second),
        )
    fixture.status = Status.PLAYING
    fixture.night = night
    fixture.played_by = user
    fixture.save(update_fields=["status", "night", "played_by"])
    changed(championship.pk)
    audit(club_id=fixture.home.club_id, actor=user, verb="championship_fixture_played", obj=fixture)
    return fixture


@transaction.atomic
def fixture_confirm(*, fixture: ChampionshipFixture, user: User) -> ChampionshipFixture:
    """The away captain (or a director of the away club) confirms the result once every
    table's match is over; the table counts it from then on."""
    fixture = fixture_locked(fixture)
    if user.pk != fixture.away.captain_id and not _is_director(user, fixture.away.club_id):
        raise CaptainRequired()
    if fixture.status in SETTLED:
        raise FixtureClosed(status=fixture.get_status_display())
    found = reads.result(fixture)
    if fixture.status != Status.PLAYING or found is None or not found.complete:
        done = sum(1 for t in fixture.boards.select_related("match") if reads.board(t).finished)
        raise FixtureNotFinished(done=done, tables=fixture.championship.tables)
    fixture.status = Status.CONFIRMED
    fixture.confirmed_result = found.as_dict()
    fixture.confirmed_by = user
    fixture.confirmed_at = timezone.now()
    fixture.save(update_fields=["status", "confirmed_result", "confirmed_by", "confirmed_at"])
    settled(fixture.championship)
    return fixture


@transaction.atomic
def fixture_forfeit(
    *, fixture: ChampionshipFixture, team: Team, reason: str, user: User
) -> ChampionshipFixture:
    """An officer records that ``team`` forfeits the fixture: the other team wins every
    table to the game's target."""
    fixture = fixture_locked(fixture)
    require_officer(user, fixture.championship.federation_id, OfficerRole.OFFICER)
    if team.pk not in (fixture.home_id, fixture.away_id):
        raise NotInFixture(path="team")
    if fixture.status in SETTLED:
        raise FixtureClosed(status=fixture.get_status_display())
    fixture.status = Status.FORFEITED
    fixture.forfeited_by = team
    fixture.reason = reason[:200]
    fixture.save(update_fields=["status", "forfeited_by", "reason"])
    audit(
        club_id=None,
        actor=user,
        verb="championship_fixture_forfeited",
        obj=fixture,
        after={"forfeited_by": team.pk},
        reason=fixture.reason,
    )
    settled(fixture.championship)
    return fixture


def settled(championship: Championship) -> None:
    """After a result counts: the knockout's next fixtures, and the end."""
    changed(championship.pk)
    open_left = championship.fixtures.exclude(status__in=SETTLED)
    ko = championship.fixtures.filter(stage=ChampionshipFixture.Stage.KNOCKOUT)
    if ko.exists():
        _advance(championship)
        final = reads.bracket(championship)
        if final and final[-1][0].decided:
            _finish(championship)
    elif championship.format == Championship.Format.ROUND_ROBIN and not open_left.exists():
        _finish(championship)


def _finish(championship: Championship) -> None:
    Championship.objects.filter(pk=championship.pk).update(status=Championship.Status.FINISHED)


def _advance(championship: Championship) -> None:
    """A fixture for every slot of the bracket whose two teams are known; a team that
    withdrew during the knockout loses its new fixture by forfeit at once, which may
    make the next slot known (so again, until nothing is new)."""
    while _advance_once(championship):
        pass


def _advance_once(championship: Championship) -> bool:
    made = set(
        championship.fixtures.filter(stage=ChampionshipFixture.Stage.KNOCKOUT).values_list(
            "round", "slot"
        )
    )
    gone = {t.pk: t for t in championship.teams.filter(withdrawn=True)}
    new = False
    for slots in reads.bracket(championship, started=True):
        for slot in slots:
            if slot.ready and slot.home and slot.away and (slot.round, slot.slot) not in made:
                loser = gone.get(slot.home) or gone.get(slot.away)
                ChampionshipFixture.objects.create(
                    championship=championship,
                    stage=ChampionshipFixture.Stage.KNOCKOUT,
                    round=slot.round,
                    slot=slot.slot,
                    home_id=slot.home,
                    away_id=slot.away,
                    planned_on=None,
                    status=Status.FORFEITED if loser else Status.PLANNED,
                    forfeited_by=loser,
                    reason=loser.withdrawal_reason if loser else "",
                )
                new = new or loser is not None
    return new


@transaction.atomic
def knockout_start(*, championship: Championship, user: User) -> Championship:
    """The groups are over: the knockout's first round, seeded from the group tables
    (every group's winners, then the runners-up...). Any officer."""
    require_officer(user, championship.federation_id, OfficerRole.OFFICER)
    championship = locked(championship)
    if championship.format != Championship.Format.GROUPS_KNOCKOUT:
        raise KnockoutNotReady(reason="This championship is a round robin: it has no knockout.")
    if championship.status != Championship.Status.STARTED:
        raise ChampionshipNotStarted()
    fixtures = championship.fixtures
    if fixtures.filter(stage=ChampionshipFixture.Stage.KNOCKOUT).exists():
        raise KnockoutNotReady(reason="The knockout has already begun.")
    if fixtures.exclude(status__in=SETTLED).exists():
        raise KnockoutNotReady(reason="Every group fixture must be settled first.")
    _advance(championship)
    changed(championship.pk)
    return championship
