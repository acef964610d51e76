"""Reads about federations, their member clubs and the persons behind the players, each
scoped to what the asker may see. The competitions built on the federation (championships,
federal tournaments, the ranking) read through these.

Who sees what (docs/federation.md): an officer sees the federation, its officers, its
member clubs and the persons linked in them (their number, their linked players' names and
clubs); a member of a member club sees the federation and its member clubs; anyone sees a
federation that publishes. A club's own records stay the club's: nothing here reads a
night, a match, the money or the members of a club.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext

from scorebook.clubs.models import Club, Membership, Player, Role
from scorebook.core.people import Anyone, User
from scorebook.matches.models import Match

from .models import (
    Affiliation,
    ChampionshipFixture,
    ClubInvitation,
    Federation,
    FederationNumber,
    FixtureTable,
    Officer,
    OfficerRole,
    PersonLink,
)


def _signed_in(user: Anyone) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def _id(user: Anyone) -> int:
    return int(user.pk or 0)


# -- officers ---------------------------------------------------------------------------------


def officer_of(user: Anyone, federation_id: int) -> Officer | None:
    """The user's office in the federation (None: not an officer, or not signed in)."""
    if not _signed_in(user):
        return None
    return Officer.objects.filter(user_id=_id(user), federation_id=federation_id).first()


def is_officer(user: Anyone, federation_id: int, role: str = OfficerRole.OFFICER) -> bool:
    """Whether the user holds ``role`` or a higher one in the federation."""
    office = officer_of(user, federation_id)
    return office is not None and office.at_least(role)


def federations_officered(user: Anyone) -> QuerySet[Federation]:
    """The federations where the user is an officer (any role)."""
    if not _signed_in(user):
        return Federation.objects.none()
    return Federation.objects.filter(officers__user_id=_id(user))


#: The officers' order on every list: presidents, secretaries, officers.
_RANKED = Case(
    *(
        When(role=role, then=Value(rank))
        for rank, role in enumerate(
            (OfficerRole.PRESIDENT, OfficerRole.SECRETARY, OfficerRole.OFFICER)
        )
    ),
    output_field=IntegerField(),
)


def officers(federation: Federation) -> QuerySet[Officer]:
    """The federation's officers, presidents first (with their accounts)."""
    rows = Officer.objects.filter(federation=federation).select_related("user")
    return rows.order_by(_RANKED, "user__username")


def sole_presidencies(user: Anyone) -> QuerySet[Federation]:
    """The federations whose only president is the user (a federation keeps one)."""
    if not _signed_in(user):
        return Federation.objects.none()
    mine = Federation.objects.filter(
        officers__user_id=_id(user), officers__role=OfficerRole.PRESIDENT
    )
    others = Officer.objects.filter(role=OfficerRole.PRESIDENT).exclude(user_id=_id(user))
    return mine.exclude(pk__in=others.values("federation_id"))


# -- member clubs -----------------------------------------------------------------------------


def _current(at: datetime.datetime | None) -> Q:
    """Affiliations current at ``at`` (None: now)."""
    if at is None:
        return Q(left_at__isnull=True)
    return Q(joined_at__lte=at) & (Q(left_at__isnull=True) | Q(left_at__gt=at))


def member_clubs(
    federation: Federation | int, at: datetime.datetime | None = None
) -> QuerySet[Club]:
    """The federation's member clubs (now, or at ``at``), by name."""
    periods = Affiliation.objects.filter(_current(at), federation=federation)
    return Club.objects.filter(pk__in=periods.values("club_id")).order_by("name", "pk")


def is_member_club(federation: Federation | int, club: Club | int) -> bool:
    return Affiliation.objects.filter(
        federation=federation, club=club, left_at__isnull=True
    ).exists()


def affiliations(federation: Federation) -> QuerySet[Affiliation]:
    """Every period of every club in the federation, current first, then by name."""
    return (
        Affiliation.objects.filter(federation=federation)
        .select_related("club")
        # nulls first on every database (SQLite puts them last in a plain descending order)
        .order_by(F("left_at").desc(nulls_first=True), "club__name", "-joined_at", "pk")
    )


def current_affiliations(federation: Federation) -> QuerySet[Affiliation]:
    """The member clubs' current periods, by the club's name."""
    return (
        Affiliation.objects.filter(federation=federation, left_at__isnull=True)
        .select_related("club")
        .order_by("club__name", "pk")
    )


def club_affiliations(club: Club | int) -> QuerySet[Affiliation]:
    """The club's periods in federations, current ones first."""
    return (
        Affiliation.objects.filter(club=club)
        .select_related("federation")
        .order_by("-left_at", "federation__name")
    )


def club_federations(club: Club | int) -> QuerySet[Federation]:
    """The federations the club belongs to now."""
    periods = Affiliation.objects.filter(club=club, left_at__isnull=True)
    return Federation.objects.filter(pk__in=periods.values("federation_id")).order_by("name")


def federations_visible(user: Anyone) -> QuerySet[Federation]:
    """The federations the user may see: where they are an officer, those their clubs
    belong to, those of the clubs they are a linked person of (they register for its
    tournaments and are in its ranking), and every federation that publishes."""
    seen = Q(publishes=True)
    if _signed_in(user):
        mine = Affiliation.objects.filter(
            left_at__isnull=True, club__memberships__user_id=_id(user)
        ).values("federation_id")
        linked = PersonLink.objects.filter(
            user_id=_id(user), status=PersonLink.Status.ACCEPTED
        ).values("club_id")
        theirs = Affiliation.objects.filter(left_at__isnull=True, club_id__in=linked).values(
            "federation_id"
        )
        seen |= Q(officers__user_id=_id(user)) | Q(pk__in=mine) | Q(pk__in=theirs)
    return Federation.objects.filter(seen).distinct().order_by("name")


def open_club_invitations(
    *, federation: Federation | None = None, club: Club | None = None
) -> QuerySet[ClubInvitation]:
    """Invitations still open and not expired, of a federation or to a club."""
    rows = ClubInvitation.objects.filter(
        status=ClubInvitation.Status.OPEN, expires_at__gt=timezone.now()
    ).select_related("federation", "club")
    if federation is not None:
        rows = rows.filter(federation=federation)
    if club is not None:
        rows = rows.filter(club=club)
    return rows.order_by("-created_at", "-id")


# -- persons ----------------------------------------------------------------------------------


def person_of(player: Player | int) -> User | None:
    """The account behind a player: the one its accepted link names (None: nobody has
    linked it). A player's account in its own club (``Player.user``) is not enough: the
    federation knows a person only through a link both sides accepted."""
    link = (
        PersonLink.objects.filter(player=player, status=PersonLink.Status.ACCEPTED)
        .select_related("user")
        .first()
    )
    return link.user if link is not None else None


def persons_of_players(player_ids: Any) -> dict[int, int]:
    """player id -> account id, for the players among ``player_ids`` that are linked."""
    rows = PersonLink.objects.filter(
        player_id__in=list(player_ids), status=PersonLink.Status.ACCEPTED
    ).values_list("player_id", "user_id")
    return dict(rows)


def linked_players(user: Anyone, clubs: Any = None) -> QuerySet[Player]:
    """The players the user's accepted links name (of ``clubs`` only, when given)."""
    if not _signed_in(user):
        return Player.objects.none()
    links = PersonLink.objects.filter(user_id=_id(user), status=PersonLink.Status.ACCEPTED)
    if clubs is not None:
        links = links.filter(club__in=clubs)
    return Player.objects.filter(pk__in=links.values("player_id")).select_related("club")


def person_links_of(user: Anyone) -> QuerySet[PersonLink]:
    """The user's own links, live first (for their account page)."""
    if not _signed_in(user):
        return PersonLink.objects.none()
    return (
        PersonLink.objects.filter(user_id=_id(user))
        .select_related("club", "player")
        .order_by("-proposed_at", "-id")
    )


def club_person_links(club: Club | int) -> QuerySet[PersonLink]:
    """The club's links (for its directors), with the accounts and players."""
    return (
        PersonLink.objects.filter(club=club)
        .select_related("user", "player")
        .order_by("-proposed_at", "-id")
    )


def persons_of(federation: Federation) -> QuerySet[Any]:
    """The accounts linked to a player of a current member club of the federation."""
    clubs = member_clubs(federation)
    linked = PersonLink.objects.filter(status=PersonLink.Status.ACCEPTED, club__in=clubs)
    return get_user_model().objects.filter(pk__in=linked.values("user_id"))


def number_of(federation: Federation | int, user: Anyone) -> int | None:
    """The person's number in the federation (None: they have none)."""
    if not _signed_in(user):
        return None
    return (
        FederationNumber.objects.filter(federation=federation, user_id=_id(user))
        .values_list("number", flat=True)
        .first()
    )


def numbers_of(user: Anyone) -> QuerySet[FederationNumber]:
    """The person's numbers, one per federation."""
    if not _signed_in(user):
        return FederationNumber.objects.none()
    return FederationNumber.objects.filter(user_id=_id(user)).select_related("federation")


def federation_persons(federation: Federation) -> list[dict[str, Any]]:
    """The officers' list of the federation's persons: each numbered person (their number,
    username) with their linked players in the current member clubs (club and name), by
    number. Three queries."""
    numbers = list(
        FederationNumber.objects.filter(federation=federation)
        .select_related("user")
        .order_by("number")
    )
    links = PersonLink.objects.filter(
        status=PersonLink.Status.ACCEPTED,
        club__in=member_clubs(federation),
        user_id__in=[n.user_id for n in numbers],
    ).select_related("club", "player")
    players: dict[int, list[Player]] = {}
    for link in links.order_by("club__name"):
        assert link.player is not None  # an accepted link names its player (a constraint)
        players.setdefault(link.user_id, []).append(link.player)
    return [{"number": n, "user": n.user, "players": players.get(n.user_id, [])} for n in numbers]


# -- the night's close ------------------------------------------------------------------------


def night_close_waits_for(night: Any) -> list[str]:
    """What of the championship fixtures played on the night keeps it open, in words:
    every fixture being played there with a table whose match is still open. Closing the
    night would abandon those matches, and an abandoned table is no result a championship
    can count (neither side won it; the score is half a match): the tables are finished,
    or an officer records the fixture's forfeit (its result then no longer reads the
    tables), and then the night closes. ``matches.services.night_close`` asks (a member of
    ``matches.closing.CHECKS``)."""
    unfinished = FixtureTable.objects.filter(
        fixture__night_id=night.pk,
        fixture__status=ChampionshipFixture.Status.PLAYING,
        match__status=Match.Status.OPEN,
    ).values("fixture_id")
    fixtures = (
        ChampionshipFixture.objects.filter(pk__in=unfinished)
        .select_related("home", "away")
        .order_by("pk")
    )
    return [
        gettext(
            "the championship fixture '%(home)s – %(away)s' has tables still being played: "
            "finish them, or ask the federation's officer to record a forfeit, then close "
            "the night."
        )
        % {"home": f.home.name, "away": f.away.name}
        for f in fixtures
    ]


# -- a deal corrected by the away club --------------------------------------------------------


def corrects_as_visitor(match_id: int, user: Any) -> dict[str, Any] | None:
    """A director (or owner) of the away club of the championship fixture whose table
    match ``match_id`` is corrects its deals as the home club's directors do (issue 34
    item 3): what the home club's audit log keeps of it (the fixture, the away club), or
    None for any other match or caller. ``matches.services.deal_correct`` asks (a member
    of ``matches.visitors.CHECKS``)."""
    table = (
        FixtureTable.objects.filter(match_id=match_id).select_related("fixture__away__club").first()
    )
    if table is None or not user.is_authenticated:
        return None
    away = table.fixture.away.club
    held = Membership.objects.filter(club_id=away.pk, user_id=user.pk).first()
    if held is None or not held.at_least(Role.DIRECTOR):
        return None
    return {
        "fixture": table.fixture_id,
        "federation": table.fixture.championship.federation.slug,
        "club": away.pk,
        "club_name": away.name,
    }
