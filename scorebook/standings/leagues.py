"""Writes to leagues, each in one transaction: create and configure a league, add its
entries, start it (fixtures by the circle method and the drawing of lots, once), link
the matches that count for a fixture, withdraw an entry.

Directors run the league; a scorer at the table may link the match being played to its
fixture. Every write leaves an audit event.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Club, Player, Role
from scorebook.clubs.services import audit, require_role
from scorebook.core.people import User
from scorebook.core.refusals import Refusal
from scorebook.matches.models import Match

from . import tiebreaks
from .models import Fixture, FixtureMatch, League, LeagueEntry
from .roundrobin import circle_rounds
from .selectors import sides_of

#: players an entry needs, per kind: (fewest, most)
PLAYERS_PER_ENTRY = {
    League.Kind.PLAYERS: (1, 1),
    League.Kind.PAIRS: (2, 2),
    League.Kind.TEAMS: (2, 12),
}
SETTINGS = ("points_win", "points_draw", "points_loss", "tiebreaks", "withdrawals", "game")


class LeagueStarted(Refusal):
    code = "league.started"
    status = 409
    message = _("The league has started: its entries and fixtures are fixed.")


class LeagueNotStarted(Refusal):
    code = "league.not_started"
    status = 409
    message = _("The league has not started yet: start it to make the fixtures.")


class TooFewEntries(Refusal):
    code = "league.too_few_entries"
    message = _("A league needs at least two entries; it has %(count)s.")


class BadTiebreaks(Refusal):
    code = "league.bad_tiebreaks"
    message = _(
        "The tie-break chain starts with points, names each of %(allowed)s at most once and "
        "ends with the drawing of lots if it has one."
    )


class BadEntryPlayers(Refusal):
    code = "league.bad_entry_players"
    message = _("An entry of this league needs %(fewest)s to %(most)s different players.")


class PlayerNotInClub(Refusal):
    code = "league.player_not_in_club"
    message = _("Player %(player)s is not a player of this club.")


class PlayerInAnotherEntry(Refusal):
    code = "league.player_taken"
    status = 409
    message = _("%(player)s already plays for %(entry)s in this league.")


class EntryWithdrawn(Refusal):
    code = "league.entry_withdrawn"
    status = 409
    message = _("%(entry)s has withdrawn from the league.")


class MatchNotForFixture(Refusal):
    code = "league.match_not_for_fixture"
    message = _("This match cannot count for %(home)s v %(away)s: %(reason)s")


class MatchAlreadyLinked(Refusal):
    code = "league.match_linked"
    status = 409
    message = _("This match already counts for a fixture (round %(round)s).")


def _check_chain(chain: Iterable[str]) -> list[str]:
    try:
        return list(tiebreaks.check_chain(chain))
    except ValueError:
        raise BadTiebreaks(path="tiebreaks", allowed=", ".join(tiebreaks.CRITERIA)) from None


def _unstarted(league: League) -> League:
    """The league row locked; refused if it has started."""
    league = League.objects.select_for_update().get(pk=league.pk)
    if league.started_at is not None:
        raise LeagueStarted()
    return league


@transaction.atomic
def league_create(
    *,
    club: Club,
    name: str,
    user: User,
    kind: str = League.Kind.PAIRS,
    game: str = "",
    legs: int = 1,
    points_win: int = 2,
    points_draw: int = 1,
    points_loss: int = 0,
    tiebreaks: Iterable[str] = tiebreaks.DEFAULT_CHAIN,
    withdrawals: str = League.Withdrawals.VOID,
) -> League:
    require_role(user, club.pk, Role.DIRECTOR)
    league = League.objects.create(
        club=club,
        name=name,
        kind=kind,
        game=game,
        legs=legs,
        points_win=points_win,
        points_draw=points_draw,
        points_loss=points_loss,
        tiebreaks=_check_chain(tiebreaks),
        withdrawals=withdrawals,
        created_by=user,
    )
    audit(club_id=club.pk, actor=user, verb="league_created", obj=league, after={"name": name})
    return league


@transaction.atomic
def league_update(*, league: League, changes: dict[str, Any], user: User) -> League:
    """Change the points, the tie-break chain, the withdrawal rule or the game. They may
    change while the league runs (the table is computed from them on read); the kind and
    the legs are fixed once it starts."""
    require_role(user, league.club_id, Role.DIRECTOR)
    league = League.objects.select_for_update().get(pk=league.pk)
    if "tiebreaks" in changes:
        changes = {**changes, "tiebreaks": _check_chain(changes["tiebreaks"])}
    fixed = {"kind", "legs"} & set(changes)
    if fixed and league.started_at is not None:
        raise LeagueStarted(path=sorted(fixed)[0])
    changes = {f: v for f, v in changes.items() if getattr(league, f) != v}
    if not changes:
        return league
    before = {f: getattr(league, f) for f in changes}
    for field, value in changes.items():
        setattr(league, field, value)
    league.save(update_fields=list(changes))
    audit(
        club_id=league.club_id,
        actor=user,
        verb="league_changed",
        obj=league,
        before=before,
        after=changes,
    )
    return league


@transaction.atomic
def entry_add(*, league: League, name: str, player_ids: list[int], user: User) -> LeagueEntry:
    """Add a pair, team or player to a league that has not started."""
    require_role(user, league.club_id, Role.DIRECTOR)
    league = _unstarted(league)
    fewest, most = PLAYERS_PER_ENTRY[League.Kind(league.kind)]
    if not fewest <= len(set(player_ids)) == len(player_ids) <= most:
        raise BadEntryPlayers(path="players", fewest=fewest, most=most)
    players = Player.objects.filter(club_id=league.club_id, pk__in=player_ids)
    found = {p.pk for p in players}
    for index, pid in enumerate(player_ids):
        if pid not in found:
            raise PlayerNotInClub(path=f"players[{index}]", player=pid)
    taken = (
        LeagueEntry.objects.filter(league=league, players__in=player_ids)
        .values_list("name", "players__name")
        .first()
    )
    if taken is not None:
        raise PlayerInAnotherEntry(path="players", player=taken[1], entry=taken[0])
    seed = league.entries.count() + 1
    entry = LeagueEntry.objects.create(league=league, name=name, seed=seed)
    entry.players.set(players)
    audit(
        club_id=league.club_id,
        actor=user,
        verb="league_entry_added",
        obj=entry,
        after={"name": name, "players": sorted(found)},
    )
    return entry


@transaction.atomic
def league_start(*, league: League, user: User) -> League:
    """Make every fixture (circle method, entries in seeding order) and draw the lots:
    each entry's place in a random order, recorded now and never drawn again."""
    require_role(user, league.club_id, Role.DIRECTOR)
    league = _unstarted(league)
    entries = list(league.entries.order_by("seed"))
    if len(entries) < 2:
        raise TooFewEntries(count=len(entries))
    Fixture.objects.bulk_create(
        Fixture(league=league, round=r.number, leg=r.leg, home=home, away=away)
        for r in circle_rounds(entries, legs=league.legs)
        for home, away in r.pairings
    )
    drawn = list(entries)
    secrets.SystemRandom().shuffle(drawn)
    for lot, entry in enumerate(drawn, start=1):
        entry.lot = lot
    LeagueEntry.objects.bulk_update(entries, ["lot"])
    league.started_at = timezone.now()
    league.save(update_fields=["started_at"])
    audit(
        club_id=league.club_id,
        actor=user,
        verb="league_started",
        obj=league,
        after={"lots": {e.name: e.lot for e in entries}, "fixtures": league.fixtures.count()},
    )
    return league


@transaction.atomic
def entry_withdraw(*, entry: LeagueEntry, user: User, reason: str = "") -> LeagueEntry:
    """Withdraw an entry. Its results are voided or kept as the league says (the table
    applies the rule on read, so changing the rule later applies it to past withdrawals
    too); its unplayed fixtures are cancelled."""
    require_role(user, entry.league.club_id, Role.DIRECTOR)
    entry = LeagueEntry.objects.select_for_update().select_related("league").get(pk=entry.pk)
    if entry.league.started_at is None:
        raise LeagueNotStarted()
    if entry.withdrawn_at is None:
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        audit(
            club_id=entry.league.club_id,
            actor=user,
            verb="league_entry_withdrawn",
            obj=entry,
            after={"policy": entry.league.withdrawals},
            reason=reason,
        )
    return entry


@transaction.atomic
def fixture_match_link(*, fixture: Fixture, match: Match, user: User) -> FixtureMatch:
    """Count ``match`` for ``fixture``. Every seat must hold a player of one of the two
    entries, each side of the match must belong to one entry, and both entries must
    play. The match may still be open: it counts once it is finished."""
    fixture = Fixture.objects.select_related("league", "home", "away").get(pk=fixture.pk)
    league = fixture.league
    require_role(user, league.club_id, Role.SCORER)
    match = Match.objects.select_related("night").get(pk=match.pk)
    home, away = fixture.home, fixture.away

    def refuse(reason: Any, path: str = "match") -> MatchNotForFixture:
        return MatchNotForFixture(path=path, home=home.name, away=away.name, reason=reason)

    if match.night.club_id != league.club_id:
        raise refuse(_("it was played at another club."))
    for entry in (home, away):
        if entry.withdrawn_at is not None:
            raise EntryWithdrawn(entry=entry.name)
    if league.game and match.game != league.game:
        raise refuse(_("the league plays %(game)s.") % {"game": league.game})
    linked = FixtureMatch.objects.filter(match=match).select_related("fixture").first()
    if linked is not None:
        raise MatchAlreadyLinked(round=linked.fixture.round)
    entry_of = dict.fromkeys(home.players.values_list("pk", flat=True), home.pk)
    entry_of.update(dict.fromkeys(away.players.values_list("pk", flat=True), away.pk))
    side_entries: dict[str, set[int | None]] = {}
    for seat, side in sides_of(match).items():
        side_entries.setdefault(side, set()).add(entry_of.get(match.seats[seat]))
    entries = set().union(*side_entries.values())
    if None in entries:
        raise refuse(_("a player at the table plays for neither entry."))
    if any(len(found) > 1 for found in side_entries.values()):
        raise refuse(_("partners at the table play for different entries."))
    if entries != {home.pk, away.pk}:
        raise refuse(_("both entries must play in it."))
    link = FixtureMatch.objects.create(fixture=fixture, match=match, linked_by=user)
    audit(
        club_id=league.club_id,
        actor=user,
        verb="fixture_match_linked",
        obj=fixture,
        after={"match": match.pk},
    )
    return link


@transaction.atomic
def fixture_match_unlink(*, fixture: Fixture, match: Match, user: User) -> None:
    """A match linked by mistake stops counting (directors only)."""
    require_role(user, fixture.league.club_id, Role.DIRECTOR)
    deleted, _rows = FixtureMatch.objects.filter(fixture=fixture, match=match).delete()
    if deleted:
        audit(
            club_id=fixture.league.club_id,
            actor=user,
            verb="fixture_match_unlinked",
            obj=fixture,
            before={"match": match.pk},
        )
