"""Federations and one person across clubs (issue 34), as stored facts.

- A :class:`Federation` (provincial, regional or national) has :class:`Officer` s with a
  role (president, secretary, officer) and member clubs: an :class:`Affiliation` is one
  period of a club's membership (joined when the club's owner accepted a
  :class:`ClubInvitation`, left when the owner said so); a club that leaves keeps its
  row, and its history with it.
- A :class:`PersonLink` joins an account to a player of a club: proposed by a director of
  the club and accepted by the person, or asked by the person and accepted by a director
  (who then names the player). Either side removes it; the row stays, marked removed.
- A :class:`FederationNumber` is a person's number within one federation.

The club's own record knows nothing of this: no model below this app points here. Each
club's data stays the club's; an officer is no member of a club by being an officer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Club, Player


class Level(models.TextChoices):
    PROVINCIAL = "provincial", _("provincial")
    REGIONAL = "regional", _("regional")
    NATIONAL = "national", _("national")


class Federation(models.Model):
    """A committee that runs competitions between its member clubs. Its pages are for its
    officers unless it ``publishes`` them (a public home page, never money)."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    level = models.CharField(max_length=12, choices=Level.choices, default=Level.PROVINCIAL)
    publishes = models.BooleanField(
        default=False, help_text="The federation's pages are public (never any money)."
    )
    #: The number the next person gets (``FederationNumber``), counted under the row's lock.
    next_number = models.PositiveIntegerField(default=1)
    #: Bumped in the same transaction as every write of the ranking's own inputs (federal
    #: tournaments opened or called off, person links, numbers, erasures): the ranking's
    #: cache key (``ranking.board_key``) with the hosts' tournaments and the rating's row.
    ranking_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class OfficerRole(models.TextChoices):
    PRESIDENT = "president", _("president")
    SECRETARY = "secretary", _("secretary")
    OFFICER = "officer", _("officer")


#: What each role may do, from most to least (a role can do all the later roles can): the
#: president names officers and changes the federation; a secretary invites clubs and
#: keeps the federation numbers; every officer manages the competitions.
OFFICER_RANK = {OfficerRole.PRESIDENT: 3, OfficerRole.SECRETARY: 2, OfficerRole.OFFICER: 1}


class Officer(models.Model):
    """An account's role in a federation. It gives nothing in any club."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="officers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_offices"
    )
    role = models.CharField(max_length=10, choices=OfficerRole.choices, default=OfficerRole.OFFICER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation", "id"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "user"], name="one_office_per_federation")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.federation}"

    def at_least(self, role: str) -> bool:
        return OFFICER_RANK[OfficerRole(self.role)] >= OFFICER_RANK[OfficerRole(role)]


class ClubInvitation(models.Model):
    """A federation asks a club to join; the club's owner accepts or declines it, an
    officer may withdraw it while it is open. One open invitation per club and
    federation."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")
        EXPIRED = "expired", _("expired")

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="club_invitations"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="federation_invitations")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "club"],
                condition=Q(status="open"),
                name="one_open_club_invitation",
            )
        ]

    def __str__(self) -> str:
        return f"{self.federation} invites {self.club} ({self.status})"


class Affiliation(models.Model):
    """One period of a club's membership of a federation: from the owner's acceptance to
    the owner's leaving (``left_at``). A club that leaves keeps the row (its competitions
    name it); joining again is a new row. At most one current row per club and
    federation."""

    federation = models.ForeignKey(
        Federation, on_delete=models.PROTECT, related_name="affiliations"
    )
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="federation_affiliations")
    invitation = models.OneToOneField(
        ClubInvitation, null=True, blank=True, on_delete=models.SET_NULL, related_name="affiliation"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    joined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    left_at = models.DateTimeField(null=True, blank=True)
    left_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["federation", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "club"],
                condition=Q(left_at__isnull=True),
                name="one_current_affiliation",
            )
        ]

    def __str__(self) -> str:
        return f"{self.club} in {self.federation}"

    @property
    def current(self) -> bool:
        return self.left_at is None


class PersonLink(models.Model):
    """An account joined to a player of a club, with the person's consent and the club's.

    ``origin`` says who began it: a director of the club proposes (the player and the
    account named; the person accepts on their account page), or the person asks (the
    club named; a director accepts, naming the player). While it is ``proposed`` the
    other side accepts or declines it and the side that began may withdraw it
    (``removed``); once ``accepted`` either side removes it. The rows stay: the link's
    history (who proposed, who accepted, who removed, when) is its consent's record.

    One live link (proposed or accepted) per player, and per account in a club."""

    class Origin(models.TextChoices):
        CLUB = "club", _("proposed by the club")
        PERSON = "person", _("asked by the person")

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("waiting for an answer")
        ACCEPTED = "accepted", _("linked")
        DECLINED = "declined", _("declined")
        REMOVED = "removed", _("removed")

    #: The statuses of a link that holds its player and account.
    LIVE = (Status.PROPOSED, Status.ACCEPTED)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="person_links")
    #: Blank only while a person's request waits for a director (who names the player).
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="person_links"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_links"
    )
    origin = models.CharField(max_length=8, choices=Origin.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    proposed_at = models.DateTimeField(auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-proposed_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(status__in=["proposed", "accepted"], player__isnull=False),
                name="one_live_link_per_player",
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(status__in=["proposed", "accepted"]),
                name="one_live_link_per_account_in_a_club",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False)
                | Q(origin="person", status__in=["proposed", "declined", "removed"]),
                name="a_link_names_its_player_once_accepted",
            ),
        ]

    def __str__(self) -> str:
        return f"link {self.pk}: account {self.user_id} - player {self.player_id} ({self.status})"


class FederationNumber(models.Model):
    """A person's number within a federation: given (the next free one) when the person's
    first link to a player of a member club is accepted; a secretary may set it to the
    card number the person already has. One per person and federation, each unique."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="numbers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_numbers"
    )
    number = models.PositiveIntegerField()
    assigned_at = models.DateTimeField(auto_now_add=True)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["federation", "number"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "user"], name="one_number_per_person"),
            models.UniqueConstraint(
                fields=["federation", "number"], name="federation_number_unique"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="federation_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.federation} n. {self.number}"


# The championships' and the federal tournaments' rows live in their own modules (issue 34
# items 3 and 4).
from .championship_models import (  # noqa: E402, F401
    Championship,
    ChampionshipFixture,
    FixtureTable,
    RosterPlayer,
    Team,
    Visitor,
)
from .federal_models import (  # noqa: E402, F401
    FederalRegistration,
    FederalTournament,
    TournamentLevel,
)
from .rating_models import FederationRating, RatingFreshness  # noqa: E402, F401
