"""The people every test knows by name (as healthchecks' ``hc/test.py`` has alice and bob).

The Circolo San Rocco has an owner, a director, a scorer and a member (each user named
after the role); the member is also the player Nino, who sits North at the matches the
tests create. Ettore, Salvo and Walter are players without accounts. The stranger owns
another club, the Circolo Altrove, and sees nothing of San Rocco.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from scorebook.clubs.models import Club, Membership, Player

ROLES = ("owner", "director", "scorer", "member")


@dataclass(frozen=True)
class Personas:
    club: Club
    other: Club
    owner: AbstractBaseUser
    director: AbstractBaseUser
    scorer: AbstractBaseUser
    member: AbstractBaseUser
    stranger: AbstractBaseUser
    #: Nino (the member's player), Ettore, Salvo, Walter: North, East, South, West.
    seated: tuple[Player, Player, Player, Player]

    def __getitem__(self, who: str) -> AbstractBaseUser:
        """``people["scorer"]``, for tests parametrized over who is asking."""
        if who not in (*ROLES, "stranger"):
            raise KeyError(who)
        user: AbstractBaseUser = getattr(self, who)
        return user


def make_personas() -> Personas:
    User = get_user_model()
    home = Club.objects.create(name="Circolo San Rocco", slug="san-rocco")
    users = {}
    for role in ROLES:
        users[role] = User.objects.create_user(role, password="pw-" + role)
        Membership.objects.create(club=home, user=users[role], role=role)
    nino, ettore, salvo, walter = (
        Player.objects.create(club=home, name=name, user=user)
        for name, user in (
            ("Nino", users["member"]),
            ("Ettore", None),
            ("Salvo", None),
            ("Walter", None),
        )
    )
    other = Club.objects.create(name="Circolo Altrove", slug="altrove")
    stranger = User.objects.create_user("stranger", password="pw-stranger")
    Membership.objects.create(club=other, user=stranger, role="owner")
    return Personas(
        club=home, other=other, stranger=stranger, seated=(nino, ettore, salvo, walter), **users
    )
