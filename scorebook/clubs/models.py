"""Clubs, who belongs to them with which role, and the players who sit at their tables."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class ConfirmationPolicy(models.TextChoices):
    """What a club counts as a player's confirmation of a deal, from the loosest: a tap on
    the phone the deal was entered on (one phone per table; guests too), a PIN typed on it,
    or only the player's own phone. A player's own phone and a director's override always
    count."""

    TABLE_PHONE = "table_phone", _("A tap on the table phone (or a PIN, or their own phone)")
    PIN = "pin", _("A PIN typed on the table phone (or their own phone)")
    OWN_PHONE = "own_phone", _("Only the player's own phone")


class Club(models.Model):
    """A café, circle or association that runs club nights. Its data is private to its
    members unless it opts in to public results."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    public = models.BooleanField(default=False, help_text="Results visible to anyone.")
    confirmation_policy = models.CharField(
        max_length=12,
        choices=ConfirmationPolicy.choices,
        default=ConfirmationPolicy.TABLE_PHONE,
        help_text="What counts as a player's confirmation of a deal.",
    )
    #: The club's usual night, for the calendar feeds (nights store a date only): when
    #: it starts, how long it lasts, in which time zone (blank: the installation's).
    night_starts = models.TimeField(
        default=datetime.time(21, 0), help_text="When the club's nights usually start."
    )
    night_minutes = models.PositiveSmallIntegerField(
        default=180, help_text="How long a night usually lasts, in minutes."
    )
    time_zone = models.CharField(
        max_length=64, blank=True, help_text="The club's time zone (blank: the installation's)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone_name(self) -> str:
        """The club's time zone's name: its own, else the installation's."""
        return self.time_zone or settings.TIME_ZONE


class Role(models.TextChoices):
    OWNER = "owner", "owner"
    DIRECTOR = "director", "director"
    SCORER = "scorer", "scorer"
    MEMBER = "member", "member"


#: What each role may do, from most to least (a role can do all the later roles can).
ROLE_RANK = {Role.OWNER: 4, Role.DIRECTOR: 3, Role.SCORER: 2, Role.MEMBER: 1}


class Membership(models.Model):
    """A user's role in a club: members read, scorers enter deals, directors correct and
    settle, owners manage the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.club}"

    def at_least(self, role: str) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]


class Player(models.Model):
    """A name at the table. It may be linked to a user account; guests have none."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    guest = models.BooleanField(default=False)
    active = models.BooleanField(default=True)
    #: Set once, by the erasure (``archive.services``), never unset: the name is a
    #: pseudonym and the player is locked (no seat, no entry, no rename, no reactivation:
    #: ``clubs.services.PlayerErased``). The ``Erasure`` row keeps who erased and when.
    erased = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # "nino" beside "Nino" is the same name (every seat picker offered both)
            models.UniqueConstraint(
                "club", Lower("name"), name="player_name_unique_in_club_any_case"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Invitation(models.Model):
    """A link (and its QR code) a director hands out to join the club with a role.

    Joining is the invitee's act: nobody is added to a club, or linked to a player at its
    tables, without accepting. The token is the only secret; it expires and can be used a
    set number of times (one phone, or everyone at a table for a club night)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        help_text="The player the new member becomes (linked to their account).",
    )
    token = models.CharField(max_length=64, unique=True)
    max_uses = models.PositiveSmallIntegerField(default=1)
    uses = models.PositiveSmallIntegerField(default=0)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(uses__lte=models.F("max_uses")), name="invitation_uses_capped"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club} invitation ({self.role})"
