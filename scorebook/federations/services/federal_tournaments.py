"""Federal tournaments (issue 34 item 4): an officer announces one, persons of member clubs
register pairs ahead of the night (a waiting list past the cap, promoted in order on a
withdrawal), the host club's director opens it on its night: the host's own one-night
tournament (``scorebook.tournaments``) is created with the registered pairs already
entered, each person playing as their player of the host club or as a guest of the host
made and linked for them (``host_player``), and is run as any other. The fees go to the
host club's ledger; the federation's share of each fee is booked on the host's night to
the account ``federation:<id>``, the line the host owes the federation
(docs/federation.md, "Federal tournaments")."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scorebook.clubs.models import Club, Player
from scorebook.clubs.services import player_create
from scorebook.core.audit import audit
from scorebook.core.dates import today as dates_today
from scorebook.core.dates import today_in
from scorebook.core.people import User
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Account
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.matches.models import Night
from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.tournaments.models import Entry, Tournament
from scorebook.tournaments.services.guards import checked_reason, pair_seats
from scorebook.tournaments.services.money import checked_amount
from scorebook.tournaments.services.registration import entry_add
from scorebook.tournaments.services.setup import tournament_create

from .. import selectors
from ..federal_models import FederalRegistration, FederalTournament, TournamentLevel
from ..federal_refusals import (
    AlreadyRegistered,
    AlreadyWithdrawn,
    FederalSettings,
    NoPairs,
    NotAnnounced,
    NotAPerson,
    NotInThePair,
    RegistrationDeadline,
    SamePerson,
    WrongNight,
)
from ..models import Federation, OfficerRole, PersonLink
from ..ranked import federations_reading_club, ranking_changed
from ..refusals import NotAMemberClub, UnknownAccount, UnknownClub
from .guards import require_officer
from .numbers import numbers_for_link

#: The most pairs a federal tournament takes (past the cap: the waiting list).
CAP_MOST = 256
#: The account of the host's night that holds the federation's share of the fees.
SHARE_POT = "federation:{id}"


def share_pot(federation_id: int) -> str:
    return SHARE_POT.format(id=federation_id)


def _small(value: Any, low: int, high: int, field: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise FederalSettings(path=field, field=field, problem=f"{low} to {high}")
    return value


def _checked(federation: Federation, values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    name = values.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 80:
        raise FederalSettings(path="name", field="name", problem="1 to 80 characters")
    out["name"] = name.strip()
    host = values.get("host")
    club = Club.objects.filter(slug=host).first() if isinstance(host, str) else host
    date = values.get("date")
    # Today at the host, where the night is: not the zone the request has active (UTC in
    # the API), which from midnight to 1 am in Rome still said yesterday.
    today = today_in(club.zone_name) if isinstance(club, Club) else dates_today()
    if not isinstance(date, datetime.date) or date < today:
        raise FederalSettings(path="date", field="date", problem="today or a later day")
    out["date"] = date
    if not isinstance(club, Club):
        raise UnknownClub(path="host", slug=str(host)[:60])
    if not selectors.is_member_club(federation, club):
        raise NotAMemberClub(path="host", club=club.name, federation=federation.name)
    out["host"] = club
    level = values.get("level", TournamentLevel.PROVINCIAL)
    if level not in TournamentLevel.values:
        raise FederalSettings(path="level", field="level", problem=", ".join(TournamentLevel))
    out["level"] = level
    fmt = values.get("format", Tournament.Format.SWISS)
    if fmt not in Tournament.Format.values:
        raise FederalSettings(path="format", field="format", problem=", ".join(Tournament.Format))
    out["format"] = fmt
    out["rounds"] = _small(values.get("rounds", 3), 1, 20, "rounds")
    out["group_size"] = _small(values.get("group_size", 4), 3, 5, "group_size")
    out["qualifiers"] = _small(values.get("qualifiers", 1), 1, 2, "qualifiers")
    out["cap"] = _small(values.get("cap"), 2, CAP_MOST, "cap")
    out["game"], out["rules"] = values.get("game"), values.get("rules") or {}
    pair_seats(out["game"], out["rules"])  # a game of two fixed pairs, its rules valid
    fee = checked_amount(values.get("fee", 0), "fee")
    share = checked_amount(values.get("federation_share", 0), "federation_share")
    currency = values.get("currency", "")
    if share > fee:
        raise FederalSettings(path="federation_share", field="federation_share", problem="≤ fee")
    if fee and currency not in STAKE_CURRENCIES:
        raise FederalSettings(
            path="currency", field="currency", problem=", ".join(STAKE_CURRENCIES)
        )
    out.update(fee=fee, federation_share=share, currency=currency if fee else "")
    return out


@transaction.atomic
def federal_tournament_announce(
    *, federation: Federation, user: User, **values: Any
) -> FederalTournament:
    """An officer announces a tournament: ``name``, ``date``, ``host`` (a member club, by
    address), ``level``, ``game``, ``rules``, ``format`` (``rounds``, ``group_size``,
    ``qualifiers``), ``fee`` and ``federation_share`` (each player's) in ``currency``,
    ``cap`` (pairs)."""
    require_officer(user, federation.pk, OfficerRole.OFFICER)
    made = FederalTournament.objects.create(
        federation=federation, created_by=user, **_checked(federation, values)
    )
    audit(
        club_id=None,
        actor=user,
        verb="federal_tournament_announced",
        obj=made,
        after={"federation": federation.pk, "host": made.host_id, "date": str(made.date)},
    )
    return made


def _locked(federal: FederalTournament) -> FederalTournament:
    return FederalTournament.objects.select_for_update().get(pk=federal.pk)


def _announced(federal: FederalTournament) -> None:
    if federal.status != FederalTournament.Status.ANNOUNCED:
        raise NotAnnounced(status=federal.get_status_display())


@transaction.atomic
def federal_tournament_cancel(
    *, federal_tournament: FederalTournament, reason: str, user: User
) -> FederalTournament:
    """An officer calls off a tournament not yet opened (once opened, the host's director
    cancels the host's tournament, which gives the fees back)."""
    require_officer(user, federal_tournament.federation_id, OfficerRole.OFFICER)
    federal = _locked(federal_tournament)
    _announced(federal)
    federal.status = FederalTournament.Status.CANCELLED
    federal.cancel_reason = checked_reason(reason)
    federal.save(update_fields=["status", "cancel_reason"])
    audit(club_id=None, actor=user, verb="federal_tournament_cancelled", obj=federal)
    ranking_changed([federal.federation_id])
    return federal


def _person(federation_id: int, username: Any, path: str) -> Any:
    account = (
        get_user_model().objects.filter(username=username).first()
        if isinstance(username, str)
        else None
    )
    if account is None:
        raise UnknownAccount(path=path, username=str(username)[:150])
    federation = Federation.objects.get(pk=federation_id)
    if not selectors.persons_of(federation).filter(pk=account.pk).exists():
        raise NotAPerson(path=path, username=account.username)
    return account


def _live(federal: FederalTournament):
    return FederalRegistration.objects.filter(
        federal_tournament=federal, status__in=FederalRegistration.LIVE
    )


@transaction.atomic
def registration_add(
    *, federal_tournament: FederalTournament, partner: str, user: User
) -> FederalRegistration:
    """The signed-in person registers a pair with ``partner`` (a username), both persons
    of a member club: ``registered`` while the cap allows, ``waiting`` past it."""
    federal = _locked(federal_tournament)
    _announced(federal)
    if federal.date < today_in(federal.host.zone_name):
        raise RegistrationDeadline(date=federal.date.isoformat())
    first = _person(federal.federation_id, getattr(user, "username", None), "user")
    second = _person(federal.federation_id, partner, "partner")
    if first.pk == second.pk:
        raise SamePerson(path="partner")
    for path, account in (("user", first), ("partner", second)):
        if _live(federal).filter(Q(first=account) | Q(second=account)).exists():
            raise AlreadyRegistered(path=path, username=account.username)
    full = _live(federal).filter(status=FederalRegistration.Status.REGISTERED).count()
    status = (
        FederalRegistration.Status.REGISTERED
        if full < federal.cap
        else FederalRegistration.Status.WAITING
    )
    made = FederalRegistration.objects.create(
        federal_tournament=federal, first=first, second=second, status=status, registered_by=user
    )
    audit(
        club_id=None,
        actor=user,
        verb="federal_registration_added",
        obj=made,
        after={"status": status, "persons": [first.pk, second.pk]},
    )
    return made


@transaction.atomic
def registration_withdraw(*, registration: FederalRegistration, user: User) -> FederalRegistration:
    """Either person of the pair (or an officer) withdraws it before the night; a pair
    registered leaves its place to the first pair waiting."""
    federal = _locked(registration.federal_tournament)
    registration = FederalRegistration.objects.select_for_update().get(pk=registration.pk)
    if user.pk not in (registration.first_id, registration.second_id):
        if not selectors.is_officer(user, federal.federation_id):
            raise NotInThePair()
    _announced(federal)
    if registration.status == FederalRegistration.Status.WITHDRAWN:
        raise AlreadyWithdrawn()
    was = registration.status
    registration.status = FederalRegistration.Status.WITHDRAWN
    registration.withdrawn_at = timezone.now()
    registration.withdrawn_by = user
    registration.save(update_fields=["status", "withdrawn_at", "withdrawn_by"])
    promoted = None
    if was == FederalRegistration.Status.REGISTERED:
        promoted = _live(federal).filter(status=FederalRegistration.Status.WAITING).first()
        if promoted is not None:
            promoted.status = FederalRegistration.Status.REGISTERED
            promoted.promoted_at = timezone.now()
            promoted.save(update_fields=["status", "promoted_at"])
    audit(
        club_id=None,
        actor=user,
        verb="federal_registration_withdrawn",
        obj=registration,
        after={"promoted": promoted.pk if promoted else None},
    )
    return registration


def _display(account: Any) -> str:
    full = (account.get_full_name() or "").strip()
    return (full or account.username)[:80]


def host_player(club: Club, account: Any, user: User) -> Player:
    """The host club's player the person plays as: the player their accepted link names;
    else the club's own player of their account; else the player a pending link names (the
    link is accepted now: the registration is the person's consent, the opening the
    club's); else a new guest of the club named after them (their name, or with their
    username when the club already has a player of that name), linked to them the same
    way, so that the next federal tournament at the club finds it."""
    linked = selectors.linked_players(account, clubs=[club.pk]).first()
    if linked is not None:
        return linked
    own = Player.objects.filter(club=club, user=account, erased=False).first()
    if own is not None:
        return own
    pending = PersonLink.objects.filter(club=club, user=account, status=PersonLink.Status.PROPOSED)
    link = pending.first()
    if link is None or link.player is None:
        name = _display(account)
        if Player.objects.filter(club=club, name__iexact=name).exists():
            name = f"{name} ({account.username})"[:80]
        player = player_create(club=club, name=name, user=user, guest=True)
        if link is None:
            link = PersonLink(
                club=club, user=account, origin=PersonLink.Origin.PERSON, proposed_by=account
            )
        link.player = player
    link.status, link.answered_by, link.answered_at = (
        PersonLink.Status.ACCEPTED,
        user,
        timezone.now(),
    )
    link.save()
    numbers_for_link(link)
    audit(
        club_id=club.pk,
        actor=user,
        verb="person_link_accepted",
        obj=link,
        object_type="person_link",
        after={"player": link.player_id, "user": link.user_id, "status": link.status},
    )
    assert link.player is not None
    return link.player


def host_tournament_cancelled(*, tournament: Tournament, reason: str, user: User) -> None:
    """The tournaments' registry member (``tournaments.cancelling.AFTER_CANCEL``), in the
    cancel's transaction: when the host's director calls off the host's tournament of a
    federal tournament, the federation's share each registered player paid on the night
    goes back to them (the entries reversed, as the tournament's own fees are: the night
    stays zero-sum and owes the federation nothing for it), and the federal tournament is
    called off with the same reason (no placings, no points)."""
    federal = FederalTournament.objects.select_for_update().filter(tournament=tournament).first()
    if federal is None:
        return
    night = tournament.night
    pot = Account.objects.filter(
        club_id=night.club_id, night=night, pot=share_pot(federal.federation_id)
    ).first()
    if pot is not None:
        players = [
            p
            for e in Entry.objects.filter(tournament=tournament)
            for p in (e.first_id, e.second_id)
        ]
        shares = LedgerEntry.objects.filter(
            payee=pot,
            kind=LedgerEntry.Kind.FEE,
            reversed_by__isnull=True,
            payer__player_id__in=players,
        )
        ledger.night_reverse(entries=list(shares), user=user)
    federal.status = FederalTournament.Status.CANCELLED
    federal.cancel_reason = reason
    federal.save(update_fields=["status", "cancel_reason"])
    audit(club_id=None, actor=user, verb="federal_tournament_cancelled", obj=federal)
    ranking_changed([federal.federation_id])


@transaction.atomic
def federal_tournament_open(
    *, federal_tournament: FederalTournament, night: Night, user: User
) -> Tournament:
    """The host's director opens the tournament on its night: the host's tournament is
    created (a director of the host only: ``tournament_create``'s check) with the
    registered pairs entered in the order they registered, each paying the fee less the
    federation's share into the tournament's pot and the share into the night's
    ``federation:<id>`` account. The waiting list stays out (the director may still add
    pairs at the door)."""
    federal = _locked(federal_tournament)
    _announced(federal)
    if night.club_id != federal.host_id or night.date != federal.date:
        raise WrongNight(club=federal.host.name, date=federal.date.isoformat())
    pairs = list(
        _live(federal)
        .filter(status=FederalRegistration.Status.REGISTERED)
        .select_related("first", "second")
    )
    if not pairs:
        raise NoPairs()
    tournament = tournament_create(
        night=night,
        name=federal.name,
        game=federal.game,
        rules=federal.rules,
        user=user,
        format=federal.format,
        rounds=federal.rounds,
        group_size=federal.group_size,
        qualifiers=federal.qualifiers,
        entry_fee=federal.fee - federal.federation_share,
        currency=federal.currency if federal.fee > federal.federation_share else "",
    )
    host = federal.host
    shares = []
    for registration in pairs:
        players = [host_player(host, p, user) for p in (registration.first, registration.second)]
        registration.entry = entry_add(
            tournament=tournament, players=[p.pk for p in players], user=user
        )
        registration.save(update_fields=["entry"])
        shares += players
    if federal.federation_share > 0:
        pot = ledger.night_pot_account(night=night, pot=share_pot(federal.federation_id))
        accounts = ledger.player_accounts(host.pk, [p.pk for p in shares])
        ledger.night_book(
            night=night,
            moves=[(accounts[p.pk], pot, federal.federation_share) for p in shares],
            kind=LedgerEntry.Kind.FEE,
            currency=federal.currency,
            user=user,
        )
    federal.tournament = tournament
    federal.status = FederalTournament.Status.OPENED
    federal.save(update_fields=["tournament", "status"])
    audit(
        club_id=host.pk,
        actor=user,
        verb="federal_tournament_opened",
        obj=federal,
        after={"tournament": tournament.pk, "pairs": len(pairs)},
    )
    # the links its pairs' players were given name persons of other tournaments' door pairs
    ranking_changed(federations_reading_club(host.pk))
    return tournament
