"""Club nights, tables, matches and the append-only log of deals.

A deal row is never edited: a correction is a new version that supersedes the previous
one, and the old version stays readable. The match's running state is derived from the
current versions by the rules engine and only cached on the match.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext

from scorebook.clubs.models import Club, Player


class Night(models.Model):
    """One evening of play at a club."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        CLOSED = "closed", "closed"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="nights")
    date = models.DateField()
    venue = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.club} {self.date}"


class Table(models.Model):
    """A table of a night; its matches are played in turn."""

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="table_number_unique")
        ]

    def __str__(self) -> str:
        # In the reader's language: the Italian night page said "Table 1".
        return self.name or gettext("Table %(number)s") % {"number": self.number}


class Match(models.Model):
    """A game at a table: the game key, the house rules as a snapshot, who sits where,
    the stake, and the derived state (always recomputable from the deals). Deal entry
    resumes from ``state``: only the services write it, and other writes name their
    fields (``save(update_fields=...)``) so a stale instance cannot put an old one back."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        FINISHED = "finished", "finished"
        #: Ended before its end by a director, with a reason (a tournament's forfeit "a
        #: tavolino"): no deal is added; its deals stay as played; it counts for nothing.
        ABANDONED = "abandoned", "abandoned"

    class StakeUnit(models.TextChoices):
        MONEY = "money", "money"
        POINTS = "points", "points"

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="matches")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    game = models.CharField(max_length=40)
    rules = models.JSONField(help_text="The resolved house rules, as played.")
    players = models.PositiveSmallIntegerField()
    seats = models.JSONField(help_text="Seat name to player id.")
    first_dealer = models.CharField(max_length=4)
    stake_amount = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    stake_currency = models.CharField(max_length=3, blank=True)
    stake_unit = models.CharField(max_length=6, choices=StakeUnit.choices, default="points")
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    ended_reason = models.CharField(
        max_length=200, blank=True, help_text="Why it was abandoned (status abandoned)."
    )
    state = models.JSONField(default=dict, help_text="Derived: running totals, next dealer.")
    result = models.JSONField(null=True, blank=True, help_text="Derived: the outcome.")
    #: The final totals per scorer of a match recorded without its deals (a paper score
    #: sheet that kept only the final score): part of the record, replayed after the
    #: (no) deals by the engine's ``record_final``, which decides the result from them.
    final_score = models.JSONField(
        null=True, blank=True, help_text="Final totals per scorer, for a match without deals."
    )
    #: Who won such a match (a scorer: ``A``, ``P2``), where its final totals cannot tell
    #: under its house rules (both sides past the target when the first to reach it wins);
    #: blank where they tell. Replayed with ``final_score``.
    final_winner = models.CharField(
        max_length=8, blank=True, default="", help_text="The scorer who won, for a final score."
    )
    #: Ended by a director at the night's close with its scores as they stood: a match
    #: with no end of its own (a chips session of no set number of deals, the engine's
    #: ``open_ended``), replayed after its deals by the engine's ``stop``.
    stopped = models.BooleanField(
        default=False, help_text="Ended at the night's close with its scores as they stood."
    )
    version = models.PositiveIntegerField(default=0, help_text="Bumped on every deal write.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    @property
    def club(self) -> Club:
        return self.night.club

    def seat_of(self, player: Player) -> str | None:
        return next((s for s, pid in self.seats.items() if pid == player.pk), None)

    def seat_order(self) -> tuple[str, ...]:
        """The seats in playing order, as the engine keeps them in the stored state:
        ``seats`` is a JSON object, and PostgreSQL's jsonb does not keep its keys' order
        (N, E, S, W come back E, N, S, W)."""
        return tuple((self.state or {}).get("seats") or self.seats)


class Deal(models.Model):
    """One version of one deal of a match, as entered and as the engine scored it."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="deals")
    number = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)
    is_current = models.BooleanField(default=True)
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    input = models.JSONField()
    level = models.CharField(max_length=8)
    result = models.JSONField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    #: Who entered this version at the table: the side (the seat, where the game's sides
    #: are not fixed) of the player who typed it. The account's own when it is seated at
    #: the match; on another account's phone (the table phone), the side the form named;
    #: blank when nobody said (an import, the API without it). The table phone's one tap
    #: is for the other side only (``selectors.table_confirmers``).
    entered_side = models.CharField(max_length=16, blank=True)
    client = models.CharField(max_length=200, blank=True)
    client_id = models.UUIDField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text="Why this version corrects the last.")

    class Meta:
        ordering = ["match", "number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number", "version"], name="deal_version_unique"
            ),
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(is_current=True),
                name="one_current_version_per_deal",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} deal {self.number} v{self.version}"

    @property
    def etag(self) -> str:
        return f'"{self.pk}-{self.version}"'


class Confirmation(models.Model):
    """A seat at the table confirms a deal version (as East does on a Bridgemate), and how:
    from the player's own phone, by their PIN typed on another phone, by a tap on the table
    phone (the phone the table shares: ``device_user`` is the account signed in on it, who
    handed it over), or a director's override with a reason. One per seat; a director not
    seated at the match confirms by override only."""

    class Method(models.TextChoices):
        OWN_PHONE = "own_phone", "own phone"
        PIN = "pin", "PIN"
        TABLE_PHONE = "table_phone", "table phone"
        OVERRIDE = "override", "director override"

    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="confirmations")
    seat = models.CharField(max_length=4, blank=True)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    method = models.CharField(max_length=12, choices=Method.choices, default=Method.OWN_PHONE)
    #: Who confirmed with an account of their own (own phone, PIN, override); none for a tap
    #: on the table phone, which a guest may give.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: The account signed in on the phone the confirmation was given on.
    device_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["deal", "user"],
                condition=Q(user__isnull=False),
                name="one_confirmation_per_user",
            ),
            models.UniqueConstraint(
                fields=["deal", "seat"], condition=~Q(seat=""), name="one_confirmation_per_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal} confirmed by {self.seat or self.user} ({self.method})"

    @property
    def override(self) -> bool:
        return self.method == self.Method.OVERRIDE


class SeatFact(models.Model):
    """What a finished match or a deal means for one seat, in plain columns, as the
    engine's result says (``facts``): stored by the services in the transaction that
    stores the deal or changes the match's result, so that the standings' full rebuild
    sums columns instead of decoding every match's and deal's JSON. Derived: always
    recomputable from the deal log (``manage.py fill_seat_facts``).

    A row with no deal is the match's result for the seat (finished matches only): won,
    lost, the points of its side and of the others, the stake units, the score a
    free-for-all rating ranks by. A row with a deal belongs to that deal version (only
    deals that mean something beyond their count have rows: an event, a bid, a contest
    rated on its own); a reader keeps the current versions' rows. A correction writes
    the new version's rows and replaces those of the later deals it re-derives and the
    match's."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, db_constraint=False, related_name="seat_facts"
    )
    deal = models.ForeignKey(
        Deal,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="seat_facts",
    )
    player = models.ForeignKey(
        Player, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    seat = models.CharField(max_length=16)
    position = models.PositiveSmallIntegerField(help_text="The seat's place in playing order.")
    # the match's result (no deal)
    side = models.CharField(max_length=16, blank=True)
    won = models.BooleanField(default=False)
    lost = models.BooleanField(default=False)
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    units = models.IntegerField(default=0)
    score = models.FloatField(default=0)
    # a deal's
    event = models.CharField(max_length=40, blank=True, help_text="Made or suffered.")
    made = models.BooleanField(default=False)
    bid = models.CharField(max_length=40, blank=True, help_text="The bidder's contract.")
    bid_won = models.BooleanField(default=False)
    team = models.SmallIntegerField(null=True, blank=True)
    team_place = models.SmallIntegerField(null=True, blank=True)
    winner = models.SmallIntegerField(null=True, blank=True, help_text="The winning team.")
    contract = models.CharField(max_length=40, blank=True, help_text="What the deal rated.")

    class Meta:
        indexes = [models.Index(fields=["match", "deal"], name="seatfact_match_deal")]

    def __str__(self) -> str:
        return f"{self.match_id} {self.deal_id or '-'} {self.seat}"
