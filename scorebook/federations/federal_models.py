"""Federal tournaments (issue 34 item 4), as stored facts; imported by ``models.py``.

- A :class:`FederalTournament` is announced by an officer: its date, its host (a member
  club), its level (``points.LEVELS``), the game and format of the one-night tournament
  the host will run (``scorebook.tournaments``), the fee, the federation's share of it and
  the cap on pairs. When the host's director opens it on its night, it points at the
  host's own :class:`~scorebook.tournaments.models.Tournament`: its placings are read
  from there.
- A :class:`FederalRegistration` is a pair of persons (accounts) of member clubs,
  registered ahead of the night: ``registered`` within the cap, ``waiting`` past it
  (promoted in order on a withdrawal), ``withdrawn``. Opening the tournament enters each
  registered pair (``entry``).

A visiting person plays as a player of the host club: the one their link names, else a
guest of the host made for them at the opening and linked to them (``PersonLink``: their
registration is their consent, the host director's opening the club's), found again at the
next federal tournament there.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorebook.clubs.models import Club
from scorebook.tournaments.models import Entry, Tournament


class TournamentLevel(models.TextChoices):
    """The level of a federal tournament, lowest first (as FIBUR's club, federal,
    regional and national tournaments): it sets the points (``points.FIRST_PLACE``)."""

    CLUB = "club", pgettext_lazy("tournament level", "club")
    PROVINCIAL = "provincial", pgettext_lazy("tournament level", "provincial")
    REGIONAL = "regional", pgettext_lazy("tournament level", "regional")
    NATIONAL = "national", pgettext_lazy("tournament level", "national")


class FederalTournament(models.Model):
    class Status(models.TextChoices):
        ANNOUNCED = "announced", _("registrations open")
        OPENED = "opened", _("on the host's night")
        CANCELLED = "cancelled", _("cancelled")

    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(max_length=80)
    date = models.DateField()
    host = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="federal_tournaments")
    level = models.CharField(max_length=10, choices=TournamentLevel.choices)
    game = models.CharField(max_length=40)
    rules = models.JSONField(default=dict, blank=True)
    format = models.CharField(
        max_length=8, choices=Tournament.Format.choices, default=Tournament.Format.SWISS
    )
    rounds = models.PositiveSmallIntegerField(default=3)
    group_size = models.PositiveSmallIntegerField(default=4)
    qualifiers = models.PositiveSmallIntegerField(default=1)
    #: Each player's fee, and the federation's share of it (each player's), in ``currency``.
    fee = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    federation_share = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    currency = models.CharField(max_length=3, blank=True)
    cap = models.PositiveSmallIntegerField(help_text="The most pairs; past it, a waiting list.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ANNOUNCED)
    tournament = models.OneToOneField(
        Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="federal"
    )
    cancel_reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(federation_share__lte=models.F("fee")), name="federal_share_within_fee"
            ),
            models.CheckConstraint(condition=Q(cap__gte=2), name="federal_cap_two_pairs"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class FederalRegistration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        WAITING = "waiting", _("on the waiting list")
        WITHDRAWN = "withdrawn", _("withdrawn")

    LIVE = (Status.REGISTERED, Status.WAITING)

    federal_tournament = models.ForeignKey(
        FederalTournament, on_delete=models.CASCADE, related_name="registrations"
    )
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    promoted_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="federal"
    )

    class Meta:
        ordering = ["federal_tournament", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(first=models.F("second")), name="federal_pair_two_persons"
            )
        ]

    def __str__(self) -> str:
        return f"{self.first_id} & {self.second_id} in {self.federal_tournament_id}"
