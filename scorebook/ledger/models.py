"""The stakes ledger: immutable transfers between accounts, and night settlements.

Every entry moves an amount from one account to another, so every balance (of a match, a
night, a club) sums to zero by construction. Nothing is edited or deleted: a correction
books reversing entries and new ones.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from scorebook.clubs.models import Club, Player
from scorebook.matches.models import Deal, Match, Night


class Account(models.Model):
    """Who holds a balance: a player, a pot of a match (Spinado's pools carry over from
    deal to deal), or a pot of a night (the piatto of Tressette in pairs under marcio e
    batuffa, carried from match to match at a table: ``piatto:<table number>``)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="accounts"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="pot_accounts"
    )
    night = models.ForeignKey(
        Night, null=True, blank=True, on_delete=models.PROTECT, related_name="pot_accounts"
    )
    pot = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(pot=""), name="one_account_per_player"
            ),
            models.UniqueConstraint(
                fields=["match", "pot"], condition=~Q(pot=""), name="one_account_per_pot"
            ),
            models.UniqueConstraint(
                fields=["night", "pot"],
                condition=~Q(pot="") & Q(match__isnull=True),
                name="one_account_per_night_pot",
            ),
            models.CheckConstraint(
                condition=(
                    Q(player__isnull=False, pot="", night__isnull=True)
                    | Q(player__isnull=True, match__isnull=False, night__isnull=True) & ~Q(pot="")
                    | Q(player__isnull=True, match__isnull=True, night__isnull=False) & ~Q(pot="")
                ),
                name="account_is_player_or_pot",
            ),
        ]

    def __str__(self) -> str:
        if self.player is not None:
            return self.player.name
        if self.match_id is None:
            return f"pot {self.pot}"
        return f"pot {self.pot} (match {self.match_id})"


Unit = Match.StakeUnit  # money (with a currency) or plain points/chips


class Entry(models.Model):
    """One transfer, as booked. ``source`` says what produced it: a deal version (per-deal
    games), the match result (per-match games), what a match put into or took out of a
    night's pot (``pot``), a night's fee or prize (a tournament's entry fees into its
    pot, its prizes and the club's share out of it: no match), or the reversal of an
    earlier entry."""

    class Kind(models.TextChoices):
        DEAL = "deal", "deal"
        MATCH = "match", "match"
        POT = "pot", "pot"
        FEE = "fee", "fee"
        PRIZE = "prize", "prize"
        REVERSAL = "reversal", "reversal"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="entries")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    deal_version = models.PositiveIntegerField(null=True, blank=True)
    match_version = models.PositiveIntegerField(
        default=0, help_text="The match version that booked it (0: no match)."
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    payer = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="paid")
    payee = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="received")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    unit = models.CharField(max_length=6, choices=Unit.choices)
    currency = models.CharField(max_length=3, blank=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    booked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    booked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="entry_amount_positive"),
            models.CheckConstraint(
                condition=~Q(payer=models.F("payee")), name="entry_between_two_accounts"
            ),
        ]
        indexes = [models.Index(fields=["night", "unit", "currency"])]

    def __str__(self) -> str:
        return f"{self.payer} -> {self.payee}: {self.amount} {self.currency or self.unit}"


class Settlement(models.Model):
    """A night's settlement as computed at one moment: each account's net and the fewest
    transfers. A later correction to the night computes a new version; old ones stay."""

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="settlements")
    version = models.PositiveIntegerField()
    nets = models.JSONField(help_text="Account id -> net, per unit and currency.")
    computed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    computed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["night", "version"], name="settlement_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.night} settlement v{self.version}"


class Transfer(models.Model):
    """One payment a settlement asks for; marked paid when the money changes hands."""

    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="transfers")
    payer = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    unit = models.CharField(max_length=6, choices=Unit.choices)
    currency = models.CharField(max_length=3, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["settlement", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_amount_positive")
        ]

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.amount} {self.currency or self.unit}"
