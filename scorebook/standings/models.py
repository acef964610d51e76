"""Seasons, and the standings derived from the deal log and the ledger.

Everything here except ``Season`` and ``StandingsSettings`` is derived: the leaderboard
and rating tables are precomputed so that a page reads one indexed query, and can always
be rebuilt from the deal log (``manage.py rebuild_standings``). ``StaleMark`` is the
outbox: a write to the match record adds one in its own transaction, and the rebuild task
(or the beat sweeper, if no task ran) clears it after bringing the tables up to date.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Club, Player
from scorebook.matches.models import Match, Night

ALL_GAMES = ""  # the ``game`` of the leaderboard over all games


class Season(models.Model):
    """A club's season: a match belongs to the season of its night's date. The last day
    may be open (a season that runs until further notice)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.name}"

    def covers(self, day) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)


class StandingsSettings(models.Model):
    """A club's standings settings (absent: the defaults)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="standings_settings")
    min_matches = models.PositiveSmallIntegerField(
        default=3, help_text=_("Finished matches needed to be ranked in a leaderboard.")
    )
    provisional_matches = models.PositiveSmallIntegerField(
        default=5, help_text=_("Rated matches before a rating stops being provisional.")
    )

    def __str__(self) -> str:
        return f"standings settings of {self.club}"


class LeaderboardRow(models.Model):
    """One player's line in the leaderboard of a season and game (``game`` empty: all
    games). Derived; rebuilt per club and season."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="leaderboard")
    game = models.CharField(max_length=40, blank=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    matches = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    win_rate = models.FloatField(default=0.0, help_text="Won / finished matches, 0..100.")
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    units = models.DecimalField(
        max_digits=14, decimal_places=2, default=0, help_text="Net points/chips (ledger)."
    )
    money = models.JSONField(default=dict, help_text="Net money won (+) or lost, per currency.")
    events = models.JSONField(default=dict, help_text='{"cappotto": {"made": 1, "suffered": 0}}')
    bids = models.JSONField(default=dict, help_text='{"solo": {"made": 3, "won": 2}}')

    class Meta:
        ordering = ["-won", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "game", "player"], name="leaderboard_row_unique"
            )
        ]
        indexes = [models.Index(fields=["season", "game", "-won"], name="leaderboard_page")]

    def __str__(self) -> str:
        return f"{self.season} {self.game or 'all'} {self.player_id}"


class Rating(models.Model):
    """A player's current skill rating in one game at one club (openskill, Plackett-Luce).
    ``display`` is the conservative value mu - 3 sigma."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=40)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-display", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "player"], name="rating_unique")
        ]
        indexes = [models.Index(fields=["club", "game", "-display"], name="rating_page")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.display:.1f}"


class RatedMatch(models.Model):
    """A finished match as the ratings used it: its place in the club's order of finished
    matches of its game, and a fingerprint of what was rated (teams and results). A
    correction that changes the fingerprint re-rates from this match on."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=40)
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    fingerprint = models.CharField(max_length=64)

    class Meta:
        ordering = ["club", "game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "seq"], name="rated_match_seq_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq}: match {self.match_id}"


class RatingChange(models.Model):
    """A player's rating before and after one rated match (the rating history)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=40)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField(help_text="The match's place among the rated matches.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_after = models.FloatField()

    class Meta:
        ordering = ["club", "game", "player", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "player", "seq"], name="rating_change_unique"
            )
        ]
        indexes = [models.Index(fields=["club", "game", "seq"], name="rating_change_from")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} #{self.seq}"


class StaleMark(models.Model):
    """The outbox: something at a club changed (a deal, a correction, a match's end, a
    night's close, a season) and its standings must be brought up to date. Written in the
    same transaction as the change; deleted by the rebuild that took it into account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    night = models.ForeignKey(Night, null=True, blank=True, on_delete=models.CASCADE)
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["club", "id"], name="stale_mark_club")]

    def __str__(self) -> str:
        return f"stale {self.club_id} night {self.night_id} season {self.season_id}"


class Freshness(models.Model):
    """When a club's standings were last brought up to date; its row is also the lock
    that lets only one rebuild of a club run at a time."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="+")
    built_at = models.DateTimeField(null=True, blank=True)
    rebuilds = models.PositiveIntegerField(default=0, help_text="Rebuilds run (coalescing).")

    def __str__(self) -> str:
        return f"{self.club_id} built {self.built_at}"
