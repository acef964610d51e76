"""A one-night pairs tournament: its settings, its entries (pairs, or single players drawn
into pairs by lot), its rounds and the pairings of each round, each played as one or more
matches at a table of the night.

Models store facts; the standings, the bracket and the round's state are worked out on
read (``selectors``) from the pairings' matches, so a correction shows at once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Club, Player
from scorebook.matches.models import Match, Night, Table

from .ranking import CRITERIA


def default_chain() -> list[str]:
    return list(CRITERIA)


class Tournament(models.Model):
    """One night's tournament at a club: the game and house rules every match is played
    under, the format chosen before round 1, the tie-break chain, the money."""

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss rounds")
        GROUPS = "groups", _("groups, then a knockout")
        KNOCKOUT = "knockout", _("straight knockout")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("concluded")
        CANCELLED = "cancelled", _("cancelled")

    class Seeding(models.TextChoices):
        ORDER = "order", _("in the order the entries were added")
        LOTS = "lots", _("by the drawing of lots")

    class PrizeKind(models.TextChoices):
        PERCENT = "percent", _("percentages of the pot")
        FIXED = "fixed", _("fixed amounts")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=80)
    game = models.CharField(max_length=40)
    rules = models.JSONField(help_text="The house-rule spec each match is created with.")
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(default=3, help_text="Swiss: the rounds played.")
    group_size = models.PositiveSmallIntegerField(default=4, help_text="Groups: 3 to 5.")
    qualifiers = models.PositiveSmallIntegerField(
        default=1, help_text="Groups: how many of each group go on to the knockout."
    )
    seeding = models.CharField(max_length=5, choices=Seeding.choices, default=Seeding.ORDER)
    #: How a pairing is played, as the leagues define a fixture's series
    #: (``standings.leagues.knockout.Series``): matches, best_of or games.
    series = models.CharField(max_length=8, default="matches")
    series_games = models.PositiveSmallIntegerField(default=1)
    tiebreaks = models.JSONField(default=default_chain)
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    entry_fee = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    currency = models.CharField(max_length=3, blank=True, help_text="Blank: no money.")
    prize_kind = models.CharField(
        max_length=8, choices=PrizeKind.choices, default=PrizeKind.PERCENT
    )
    #: Per place, from the first: a percentage of the pot or a fixed amount (strings).
    prizes = models.JSONField(default=list, blank=True)
    #: The club's share: a percentage of the pot, or a fixed amount (the rest of the pot
    #: after the prizes goes to the club too).
    club_share = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    #: The seed of every random choice (the draw of pairs, the lots): stored, so the
    #: draw can be checked and is never made again differently.
    seed = models.BigIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "name"], name="tournament_name_per_night"),
            models.CheckConstraint(
                condition=Q(group_size__gte=3, group_size__lte=5), name="tournament_group_3_to_5"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def plays_for_money(self) -> bool:
        return bool(self.currency) and self.entry_fee > 0


class Entry(models.Model):
    """A pair in the tournament. ``seed`` is its order of arrival; ``lot`` its number in
    the drawing of lots (drawn once at the start, the last tie-break). A late arrival
    joins from ``first_round``; a withdrawal plays no round after ``withdrawn_after``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(max_length=170)
    first = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveSmallIntegerField()
    lot = models.PositiveSmallIntegerField(null=True, blank=True)
    drawn = models.BooleanField(default=False, help_text="Made by the draw of singles.")
    first_round = models.PositiveSmallIntegerField(default=1)
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The last round played before withdrawing."
    )
    withdrawal_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="tournament_seed_once"),
            models.UniqueConstraint(fields=["tournament", "lot"], name="tournament_lot_once"),
            models.CheckConstraint(
                condition=~Q(first=models.F("second")), name="tournament_entry_two_players"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class Single(models.Model):
    """A player who came alone, waiting to be drawn into a pair (``entry``, once drawn:
    never drawn again)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="singles")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="singles"
    )
    draw = models.ForeignKey(
        "Draw", null=True, blank=True, on_delete=models.PROTECT, related_name="singles"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="single_once")]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Draw(models.Model):
    """A draw of singles into pairs: its random seed and the pairs it made, as made."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="draws")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    pairs = models.JSONField(help_text="The player ids of each pair, in the order drawn.")
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="draw_number_once")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} draw {self.number}"


class Round(models.Model):
    """A round: paired first (the director may still swap entries or give a bye), then
    started (tables and matches made), closed when the next one is paired or the
    tournament finishes. ``stage``: swiss, group or knockout."""

    class Stage(models.TextChoices):
        SWISS = "swiss", _("Swiss round")
        GROUP = "group", _("group round")
        KNOCKOUT = "knockout", _("knockout round")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=8, choices=Stage.choices)
    paired_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def started(self) -> bool:
        return self.started_at is not None


class Pairing(models.Model):
    """Two entries meeting in a round at a table (``away`` None: ``home`` rests with a
    bye). A forfeit "a tavolino" by one entry gives the other the win whatever its
    matches say. ``group``: the group of a group round; ``slot``: the place in a knockout
    round's bracket."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField(help_text="Order in the round, top first.")
    home = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    away = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    forfeited_by = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    forfeit_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="pairing_board_once"),
            models.UniqueConstraint(fields=["round", "home"], name="pairing_home_once"),
            models.UniqueConstraint(fields=["round", "away"], name="pairing_away_once"),
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="pairing_two_sides"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.home_id} v {self.away_id or 'bye'}"

    @property
    def is_bye(self) -> bool:
        return self.away_id is None


class PairingMatch(models.Model):
    """A match played for a pairing, in order (a series, or la bella of a knockout)."""

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="tournament_game")

    class Meta:
        ordering = ["pairing", "id"]

    def __str__(self) -> str:
        return f"{self.pairing} <- match {self.match_id}"
