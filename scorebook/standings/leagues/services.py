"""Writes to leagues, each in one transaction: create and configure a league, add its
entries, start it (fixtures by the circle method, or a knockout bracket, and the drawing
of lots, once), link the matches that count for a fixture (as far as its series allows),
record a fixture forfeited "a tavolino" and undo it, withdraw an entry.

Directors run the league; a scorer at the table may link the match being played to its
fixture. Every write leaves an audit event.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scorebook.clubs.models import Club, Player, Role
from scorebook.clubs.services import refuse_erased, require_role
from scorebook.core.audit import audit
from scorebook.core.dates import check_date
from scorebook.core.people import User
from scorebook.core.reasons import check_reason
from scorebook.core.refusals import Refusal, unique_or
from scorebook.matches.models import Match
from scorebook.matches.refusals import RulesRejected
from scorebook.rules import Rejection, get_game

from ..models import Fixture, FixtureForfeit, FixtureMatch, League, LeagueEntry
from ..selectors import sides_of
from . import knockout, tiebreaks
from .roundrobin import circle_rounds
from .selectors import league_table

#: players an entry needs, per kind: (fewest, most)
PLAYERS_PER_ENTRY = {
    League.Kind.PLAYERS: (1, 1),
    League.Kind.PAIRS: (2, 2),
    League.Kind.TEAMS: (2, 12),
}
SETTINGS = (
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
    "withdrawals",
    "game",
    "format",
    "seeding",
    "series",
    "series_games",
    "points_per_game",
    "count_games_won",
    "forfeit_points",
)
#: settings fixed once the league has started (they make the fixtures or the bracket)
FIXED_ONCE_STARTED = {"kind", "legs", "format", "seeding", "series", "series_games"}


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

    def text(self) -> str:
        """A range that is one number (a pair: 2, a single player: 1) says that number."""
        fewest, most = self.params.get("fewest"), self.params.get("most")
        if fewest is not None and fewest == most:
            return ngettext(
                "An entry of this league needs exactly %(most)s player.",
                "An entry of this league needs exactly %(most)s different players.",
                most,
            ) % {"most": most}
        return super().text()


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


class KnockoutLegs(Refusal):
    code = "league.knockout_legs"
    message = _(
        "A knockout is played once through: to play a round over two games, make the "
        "fixtures a series of two games."
    )


class BadLegs(Refusal):
    code = "league.bad_legs"
    message = _("A round robin is played once (1) or twice, home and away (2).")


class BadSeries(Refusal):
    code = "league.bad_series"
    message = _("A series is played over 1 to %(most)s games.")


class FixtureNotReady(Refusal):
    code = "league.fixture_not_ready"
    status = 409
    message = _(
        "The entries of this fixture are not known yet: it waits for the winners of "
        "round %(round)s."
    )


class SeriesDecided(Refusal):
    code = "league.series_decided"
    status = 409
    message = _("This fixture is decided (%(score)s): no further match counts for it.")


class SeriesFull(Refusal):
    code = "league.series_full"
    status = 409
    message = _(
        "This fixture already has its %(games)s games linked. A deciding game (la bella) "
        "can be linked once they are finished and level."
    )


class FixtureForfeited(Refusal):
    code = "league.fixture_forfeited"
    status = 409
    message = _("This fixture was forfeited by %(entry)s: undo the forfeit first.")


class NotForfeited(Refusal):
    code = "league.not_forfeited"
    status = 409
    message = _("This fixture has no forfeit to undo.")


class EntryNotInFixture(Refusal):
    code = "league.entry_not_in_fixture"
    message = _("%(entry)s does not play in this fixture.")


class ReasonRequired(Refusal):
    code = "league.reason_required"
    message = _("Say why: a reason is required.")


class LaterRoundPlayed(Refusal):
    code = "league.later_round_played"
    status = 409
    message = _(
        "Round %(round)s has been played by the entry this fixture sent on: unlink its "
        "matches or undo its forfeit first."
    )


MOST_GAMES = 15
#: A forfeit's reason, as long as its column.
FORFEIT_REASON_MAX = FixtureForfeit._meta.get_field("reason").max_length or 200


def _check_series(kind: str, games: int) -> None:
    # every kind: a series of 0 games was stored for a league of single matches
    if not 1 <= games <= MOST_GAMES:
        raise BadSeries(path="series_games", most=MOST_GAMES)


def _check_game(game: str) -> None:
    """A league's game is one of the engine's (blank: any game); the engine's own refusal
    (``game.unknown``, the games it knows), as a match's game gets. A league of "poker"
    was stored, and its fixtures, standings and pages answered 500."""
    if game:
        try:
            get_game(game)
        except Rejection as rejection:
            raise RulesRejected(rejection) from None


def _check_legs(legs: int) -> None:
    if legs not in (1, 2):
        raise BadLegs(path="legs")


def _check_name_free(club_id: int, name: str, league_id: int) -> None:
    """A league renamed to another's name (the constraint's IntegrityError was a 500)."""
    others = League.objects.filter(club_id=club_id, name=name).exclude(pk=league_id)
    if others.exists():
        raise LeagueNameTaken(path="name", name=name)


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
    format: str = League.Format.ROUND_ROBIN,
    seeding: str = League.Seeding.ORDER,
    series: str = League.SeriesKind.MATCHES,
    series_games: int = 1,
    points_per_game: int = 1,
    count_games_won: bool = False,
    forfeit_points: int | None = None,
) -> League:
    require_role(user, club.pk, Role.DIRECTOR)
    _check_game(game)
    _check_legs(legs)
    _check_series(series, series_games)
    if format == League.Format.KNOCKOUT and legs != 1:
        raise KnockoutLegs(path="legs")
    taken = LeagueNameTaken(path="name", name=name)
    if League.objects.filter(club=club, name=name).exists():
        raise taken
    league = unique_or(
        taken,
        lambda: League.objects.create(
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
            format=format,
            seeding=seeding,
            series=series,
            series_games=series_games,
            points_per_game=points_per_game,
            count_games_won=count_games_won,
            forfeit_points=forfeit_points,
            created_by=user,
        ),
    )
    audit(club_id=club.pk, actor=user, verb="league_created", obj=league, after={"name": name})
    return league


@transaction.atomic
def league_update(*, league: League, changes: dict[str, Any], user: User) -> League:
    """Change the points, the tie-break chain, the withdrawal rule, the game or the
    forfeit score. They may change while the league runs (the table is computed from them
    on read); the kind, the legs, the format, the seeding and the series are fixed once it
    starts."""
    require_role(user, league.club_id, Role.DIRECTOR)
    league = League.objects.select_for_update().get(pk=league.pk)
    if "tiebreaks" in changes:
        changes = {**changes, "tiebreaks": _check_chain(changes["tiebreaks"])}
    changes = {f: v for f, v in changes.items() if getattr(league, f) != v}
    fixed = FIXED_ONCE_STARTED & set(changes)
    if fixed and league.started_at is not None:
        raise LeagueStarted(path=sorted(fixed)[0])
    if "game" in changes:
        _check_game(changes["game"])
    if "legs" in changes:
        _check_legs(changes["legs"])
    if "name" in changes:
        _check_name_free(league.club_id, changes["name"], league.pk)
    _check_series(
        changes.get("series", league.series), changes.get("series_games", league.series_games)
    )
    knockout_now = changes.get("format", league.format) == League.Format.KNOCKOUT
    if knockout_now and changes.get("legs", league.legs) != 1:
        raise KnockoutLegs(path="legs")
    if not changes:
        return league
    before = {f: getattr(league, f) for f in changes}
    for field, value in changes.items():
        setattr(league, field, value)
    unique_or(
        LeagueNameTaken(path="name", name=league.name),
        lambda: league.save(update_fields=list(changes)),
    )
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
    refuse_erased(player_ids, path="players")
    taken = (
        LeagueEntry.objects.filter(league=league, players__in=player_ids)
        .values_list("name", "players__name")
        .first()
    )
    if taken is not None:
        raise PlayerInAnotherEntry(path="players", player=taken[1], entry=taken[0])
    name_taken = EntryNameTaken(path="name", name=name)
    if league.entries.filter(name=name).exists():
        raise name_taken
    seed = league.entries.count() + 1  # the league's row is locked: one entry at a time
    entry = unique_or(
        name_taken, lambda: LeagueEntry.objects.create(league=league, name=name, seed=seed)
    )
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
    """Draw the lots (each entry's place in a random order, recorded now and never drawn
    again) and make every fixture: a round robin by the circle method (entries in
    seeding order), a knockout as a bracket seeded by entry order or by the lots just
    drawn (``League.seeding``). A knockout's first round is stored with its entries
    (byes have no fixture); the later rounds' fixtures are stored empty, their entries
    being the winners of the fixtures feeding them."""
    require_role(user, league.club_id, Role.DIRECTOR)
    league = _unstarted(league)
    entries = list(league.entries.order_by("seed"))
    if len(entries) < 2:
        raise TooFewEntries(count=len(entries))
    drawn = list(entries)
    secrets.SystemRandom().shuffle(drawn)
    for lot, entry in enumerate(drawn, start=1):
        entry.lot = lot
    LeagueEntry.objects.bulk_update(entries, ["lot"])
    after: dict[str, Any] = {"lots": {e.name: e.lot for e in entries}}
    if league.format == League.Format.KNOCKOUT:
        seeded = drawn if league.seeding == League.Seeding.LOTS else entries
        pairs = knockout.first_round(seeded)
        fixtures = [
            Fixture(league=league, round=1, slot=slot, home=home, away=away)
            for slot, (home, away) in enumerate(pairs)
            if home is not None and away is not None
        ]
        size = len(pairs)
        for number in range(2, knockout.round_count(len(entries)) + 1):
            size //= 2
            fixtures += [Fixture(league=league, round=number, slot=s) for s in range(size)]
        Fixture.objects.bulk_create(fixtures)
        after["seeds"] = [e.name for e in seeded]
        after["byes"] = [h.name for h, a in pairs if h is not None and a is None]
    else:
        Fixture.objects.bulk_create(
            Fixture(league=league, round=r.number, leg=r.leg, home=home, away=away)
            for r in circle_rounds(entries, legs=league.legs)
            for home, away in r.pairings
        )
    league.started_at = timezone.now()
    league.save(update_fields=["started_at"])
    after["fixtures"] = league.fixtures.count()
    audit(club_id=league.club_id, actor=user, verb="league_started", obj=league, after=after)
    return league


@transaction.atomic
def entry_withdraw(*, entry: LeagueEntry, user: User, reason: str = "") -> LeagueEntry:
    """Withdraw an entry. Its results are voided or kept as the league says (the table
    applies the rule on read, so changing the rule later applies it to past withdrawals
    too); its unplayed fixtures are cancelled."""
    require_role(user, entry.league.club_id, Role.DIRECTOR)
    check_reason(reason)
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
    fixture = Fixture.objects.select_related("league").get(pk=fixture.pk)
    league = fixture.league
    require_role(user, league.club_id, Role.SCORER)
    League.objects.select_for_update().get(pk=league.pk)  # one link at a time per league
    match = Match.objects.select_related("night").get(pk=match.pk)
    score = _score_of(fixture)
    home, away = score.fixture.home, score.fixture.away
    if home is None or away is None:
        raise FixtureNotReady(round=fixture.round - 1)

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
    if score.forfeit is not None:
        raise FixtureForfeited(entry=score.forfeit.entry.name)
    if score.outcome.complete or (score.outcome.winner and not score.outcome.accepts):
        raise SeriesDecided(score=f"{score.home_wins}-{score.away_wins}")
    if not score.outcome.accepts:
        raise SeriesFull(games=league.series_games)
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
    """A match linked by mistake stops counting (directors only). In a knockout it is
    refused while the next round's fixture of the entry this one sent on has been played."""
    require_role(user, fixture.league.club_id, Role.DIRECTOR)
    _later_round_untouched(fixture)
    deleted, _rows = FixtureMatch.objects.filter(fixture=fixture, match=match).delete()
    if deleted:
        audit(
            club_id=fixture.league.club_id,
            actor=user,
            verb="fixture_match_unlinked",
            obj=fixture,
            before={"match": match.pk},
        )


def _score_of(fixture: Fixture) -> Any:
    """The fixture as the table stands now (its entries worked out in a knockout)."""
    table = league_table(fixture.league)
    return next(s for r in table.rounds for s in r.fixtures if s.fixture.pk == fixture.pk)


@transaction.atomic
def fixture_plan(*, fixture: Fixture, day: datetime.date | None, user: User) -> Fixture:
    """A director plans the night a fixture is to be played (None: not planned): the
    calendars show it there until a match of it is played."""
    fixture = Fixture.objects.select_related("league").get(pk=fixture.pk)
    require_role(user, fixture.league.club_id, Role.DIRECTOR)
    if day is not None:
        day = check_date(day, path="planned_on")  # the calendars compute with it
    if fixture.planned_on == day:
        return fixture
    before = fixture.planned_on
    fixture.planned_on = day
    fixture.save(update_fields=["planned_on"])
    audit(
        club_id=fixture.league.club_id,
        actor=user,
        verb="fixture_planned",
        obj=fixture,
        before={"planned_on": before.isoformat() if before else None},
        after={"planned_on": day.isoformat() if day else None, "round": fixture.round},
    )
    return fixture


@transaction.atomic
def fixture_forfeit(*, fixture: Fixture, entry: LeagueEntry, reason: str, user: User) -> Any:
    """Record ``fixture`` as lost "a tavolino" by ``entry``: the other entry wins it with
    the league's forfeit score, and in a knockout goes on to the next round. A fixture
    already decided by its games cannot be forfeited."""
    fixture = Fixture.objects.select_related("league").get(pk=fixture.pk)
    league = fixture.league
    require_role(user, league.club_id, Role.DIRECTOR)
    League.objects.select_for_update().get(pk=league.pk)
    if not reason.strip():
        raise ReasonRequired(path="reason")
    check_reason(reason.strip(), most=FORFEIT_REASON_MAX)
    score = _score_of(fixture)
    home, away = score.fixture.home, score.fixture.away
    if home is None or away is None:
        raise FixtureNotReady(round=fixture.round - 1)
    if entry.pk not in (home.pk, away.pk):
        raise EntryNotInFixture(path="entry", entry=entry.name)
    if score.forfeit is not None:
        raise FixtureForfeited(entry=score.forfeit.entry.name)
    if score.outcome.complete:
        raise SeriesDecided(score=f"{score.home_wins}-{score.away_wins}")
    FixtureForfeit.objects.create(
        fixture=fixture, entry=entry, reason=reason.strip(), recorded_by=user
    )
    winner = away if entry.pk == home.pk else home
    audit(
        club_id=league.club_id,
        actor=user,
        verb="fixture_forfeited",
        obj=fixture,
        after={"by": entry.pk, "by_name": entry.name, "winner": winner.pk, "round": fixture.round},
        reason=reason.strip(),
    )
    return _score_of(fixture)


@transaction.atomic
def fixture_forfeit_undo(*, fixture: Fixture, reason: str, user: User) -> Any:
    """Undo a forfeit (directors, with a reason): the fixture goes back to its games. In
    a knockout it is refused while the next round's fixture of the entry it sent on has
    matches or a forfeit of its own."""
    fixture = Fixture.objects.select_related("league").get(pk=fixture.pk)
    league = fixture.league
    require_role(user, league.club_id, Role.DIRECTOR)
    League.objects.select_for_update().get(pk=league.pk)
    if not reason.strip():
        raise ReasonRequired(path="reason")
    check_reason(reason.strip(), most=FORFEIT_REASON_MAX)
    found = FixtureForfeit.objects.filter(fixture=fixture).select_related("entry").first()
    if found is None:
        raise NotForfeited()
    _later_round_untouched(fixture)
    before = {"by": found.entry_id, "by_name": found.entry.name, "reason": found.reason}
    found.delete()
    audit(
        club_id=league.club_id,
        actor=user,
        verb="fixture_forfeit_undone",
        obj=fixture,
        before=before,
        reason=reason.strip(),
    )
    return _score_of(fixture)


def _later_round_untouched(fixture: Fixture) -> None:
    """Refuse to change a knockout fixture's result once the fixture it feeds has
    matches or a forfeit: who plays there would change under a game already played."""
    if fixture.league.format != League.Format.KNOCKOUT or fixture.slot is None:
        return
    later = Fixture.objects.filter(
        league_id=fixture.league_id, round=fixture.round + 1, slot=fixture.slot // 2
    ).first()
    if later is not None and (
        later.links.exists() or FixtureForfeit.objects.filter(fixture=later).exists()
    ):
        raise LaterRoundPlayed(round=later.round)


class LeagueNameTaken(Refusal):
    code = "league.name_taken"
    status = 409
    message = _("The club already has a league called %(name)s.")


class EntryNameTaken(Refusal):
    code = "league.entry_name_taken"
    status = 409
    message = _("The league already has an entry called %(name)s: choose another name.")


class NotARoundRobin(Refusal):
    code = "league.not_round_robin"
    status = 409
    message = _("A knockout stage is made from a round robin that has started.")


@transaction.atomic
def knockout_stage(
    *,
    league: League,
    name: str,
    top: int,
    user: User,
    series: str | None = None,
    series_games: int | None = None,
) -> League:
    """A knockout stage after a round robin: a new knockout league of the same club, kind
    and game whose entries are the top ``top`` of ``league``'s table as it stands (same
    names and players; withdrawn and unplaced entries are passed over), seeded in table
    order. It is left a draft for the director to check and start; its series is the
    round robin's unless given."""
    require_role(user, league.club_id, Role.DIRECTOR)
    league = League.objects.select_related("club").get(pk=league.pk)
    if league.format != League.Format.ROUND_ROBIN or league.started_at is None:
        raise NotARoundRobin()
    placed = [
        entry
        for row, entry in league_table(league).rows
        if row.position is not None and not row.withdrawn
    ]
    if top < 2 or len(placed) < top:
        raise TooFewEntries(path="top", count=min(len(placed), max(top, 0)))
    if League.objects.filter(club_id=league.club_id, name=name).exists():
        raise LeagueNameTaken(path="name", name=name)
    stage = league_create(
        club=league.club,
        name=name,
        user=user,
        kind=league.kind,
        game=league.game,
        format=League.Format.KNOCKOUT,
        seeding=League.Seeding.ORDER,
        series=series or league.series,
        series_games=series_games or league.series_games,
        points_per_game=league.points_per_game,
        count_games_won=league.count_games_won,
        forfeit_points=league.forfeit_points,
    )
    for entry in placed[:top]:
        entry_add(
            league=stage,
            name=entry.name,
            player_ids=[p.pk for p in entry.players.all()],
            user=user,
        )
    audit(
        club_id=league.club_id,
        actor=user,
        verb="league_knockout_stage_made",
        obj=stage,
        after={"from": league.pk, "entries": [e.name for e in placed[:top]]},
    )
    return stage
