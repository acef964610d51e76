"""The federation API's POSTs (issue 34) for tests/api/test_idempotency.py: who may make
each one and a builder of a valid request, in that module's shape (route -> (who posts,
build(people, match) -> (url, body, extra headers))). Kept apart so that module stays
under the size the house allows.

The personas hold the federations' offices here: the director founds a federation (its
president names officers, invites clubs, withdraws invitations); San Rocco's owner answers
an invitation or takes the club out; the stranger is the person a link names."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from scorebook.federations.models import (
    ClubInvitation,
    FederalRegistration,
    FederalTournament,
    Federation,
    PersonLink,
)
from scorebook.federations.services import federal_tournaments as federal
from scorebook.federations.services import federation as federations
from scorebook.federations.services import links, membership
from tests import builders
from tests.federations.federal import person


def _presided(people: Any) -> Federation:
    """A federation the director founded (and so presides)."""
    return federations.federation_create(name="Lega D", slug="lega-d", user=people.director)


def _invited(people: Any) -> ClubInvitation:
    """San Rocco invited to a federation of others (its president's invitation)."""
    lega = builders.federation(name="Lega I", slug="lega-i")
    president = lega.officers.get(role="president").user
    return membership.club_invite(federation=lega, slug=people.club.slug, user=president)


def _withdrawable(people: Any) -> ClubInvitation:
    """The Altrove invited by the director's federation."""
    return membership.club_invite(
        federation=_presided(people), slug=people.other.slug, user=people.director
    )


def _proposed(people: Any) -> PersonLink:
    """The director proposes that the stranger is Salvo."""
    salvo = people.seated[2]
    return links.person_link_propose(player=salvo, username="stranger", user=people.director)


def _invitation_answer(verb: str) -> Any:
    return lambda people, match: (
        f"/api/v1/federation-invitations/{_invited(people).pk}/{verb}",
        {},
        {},
    )


def _link_answer(verb: str, made: Any) -> Any:
    return lambda people, match: (f"/api/v1/person-links/{made(people).pk}/{verb}", {}, {})


FEDERATION_POSTS = {
    "v1:federation-list": (
        "scorer",
        lambda people, match: (
            "/api/v1/federations",
            {"name": "Lega Nuova", "slug": "lega-nuova", "level": "regional"},
            {},
        ),
    ),
    "v1:federation-officers": (
        "director",
        lambda people, match: (
            f"/api/v1/federations/{_presided(people).pk}/officers",
            {"username": people.member.username, "role": "secretary"},
            {},
        ),
    ),
    "v1:federation-invitations": (
        "director",
        lambda people, match: (
            f"/api/v1/federations/{_presided(people).pk}/invitations",
            {"club": people.other.slug, "days": 10},
            {},
        ),
    ),
    "v1:club-invitation-accept": ("owner", _invitation_answer("accept")),
    "v1:club-invitation-decline": ("owner", _invitation_answer("decline")),
    "v1:club-invitation-withdraw": (
        "director",
        lambda people, match: (
            f"/api/v1/federation-invitations/{_withdrawable(people).pk}/withdraw",
            {},
            {},
        ),
    ),
    "v1:affiliation-leave": (
        "owner",
        lambda people, match: (
            f"/api/v1/affiliations/{builders.joined(_presided(people), people.club).pk}/leave",
            {},
            {},
        ),
    ),
    "v1:person-link-list": (
        "director",
        lambda people, match: (
            "/api/v1/person-links",
            {"player": people.seated[1].pk, "username": people.stranger.username},
            {},
        ),
    ),
    "v1:person-link-ask": (
        "stranger",
        lambda people, match: ("/api/v1/person-links/ask", {"club": people.club.slug}, {}),
    ),
    "v1:person-link-accept": ("stranger", _link_answer("accept", _proposed)),
    "v1:person-link-decline": ("stranger", _link_answer("decline", _proposed)),
    "v1:person-link-remove": (
        "stranger",
        _link_answer("remove", lambda people: builders.linked(people.seated[3], people.stranger)),
    ),
}


# -- federal tournaments (issue 34 item 4): the director presides a federation San Rocco
# belongs to, so announces, cancels and (as San Rocco's director) opens; the member, linked
# to Nino, registers with a partner of San Rocco and may withdraw the pair.


def _member_federation(people: Any) -> Federation:
    """The director's federation with San Rocco in it."""
    return builders.joined(_presided(people), people.club).federation


def _announcement(people: Any) -> dict[str, Any]:
    return {
        "name": "Provinciale",
        "date": timezone.localdate().isoformat(),
        "host": people.club.slug,
        "level": "provincial",
        "game": builders.GAME,
        "rules": builders.RULES,
        "rounds": 1,
        "cap": 8,
    }


def _announced(people: Any) -> FederalTournament:
    values = {**_announcement(people), "date": timezone.localdate()}
    return federal.federal_tournament_announce(
        federation=_member_federation(people), user=people.director, **values
    )


def _registrable(people: Any) -> FederalTournament:
    """An announced tournament; the member (Nino) and ``sr-partner`` persons of San Rocco."""
    made = _announced(people)
    builders.linked(people.seated[0], people.member)
    person(people.club, "sr-partner")
    return made


def _registered(people: Any) -> FederalRegistration:
    """The member and ``sr-partner`` registered."""
    made = _registrable(people)
    return federal.registration_add(
        federal_tournament=made, partner="sr-partner", user=people.member
    )


def _tonight(people: Any) -> int:
    """San Rocco's night of today (the tournament's date)."""
    return builders.night(people, date=timezone.localdate()).pk


FEDERAL_POSTS: dict[str, Any] = {
    "v1:federation-tournaments": (
        "director",
        lambda people, match: (
            f"/api/v1/federations/{_member_federation(people).pk}/tournaments",
            _announcement(people),
            {},
        ),
    ),
    "v1:federal-tournament-registrations": (
        "member",
        lambda people, match: (
            f"/api/v1/federal-tournaments/{_registrable(people).pk}/registrations",
            {"partner": "sr-partner"},
            {},
        ),
    ),
    "v1:federal-registration-withdraw": (
        "member",
        lambda people, match: (
            f"/api/v1/federal-registrations/{_registered(people).pk}/withdraw",
            {},
            {},
        ),
    ),
    "v1:federal-tournament-cancel": (
        "director",
        lambda people, match: (
            f"/api/v1/federal-tournaments/{_announced(people).pk}/cancel",
            {"reason": "pioggia"},
            {},
        ),
    ),
    "v1:federal-tournament-open": (
        "director",
        lambda people, match: (
            f"/api/v1/federal-tournaments/{_registered(people).federal_tournament_id}/open",
            {"night": _tonight(people)},
            {},
        ),
    ),
}
FEDERATION_POSTS.update(FEDERAL_POSTS)

#: For each federal POST, another body than FEDERAL_POSTS' (the first's body changed): sent
#: with the first's key it is refused, and changes nothing.
FEDERAL_OTHER_BODIES: dict[str, Any] = {
    "v1:federation-tournaments": lambda body: {**body, "cap": 4},
    "v1:federal-tournament-registrations": lambda body: {"partner": "member"},
    "v1:federal-registration-withdraw": lambda body: {"reason": "un'altra volta"},
    "v1:federal-tournament-cancel": lambda body: {"reason": "neve"},
    "v1:federal-tournament-open": lambda body: {"night": body["night"] + 1000},
}
