"""Seasons, and the standings derived from the deal log and the ledger.

Everything here except ``Season`` and ``StandingsSettings`` is derived: the leaderboard
and rating tables are precomputed so that a page reads one indexed query, and can always
be rebuilt from the deal log (``manage.py rebuild_standings``). ``StaleMark`` is the
outbox: a write to the match record adds one in its own transaction, and the rebuild task
(or the beat sweeper, if no task ran) clears it after bringing the tables up to date.
"""

from django.conf import settings
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


#: The derived tables below (rebuilt from the deal log) have no foreign keys in the
#: database, only in Django: a rebuild writes a row per player and rated match, and the
#: database checking two or three keys per row at commit was a sixth of its time
#: (measured with ``make bench-standings``). Deletes still cascade (Django's collector),
#: and every id written comes from rows read in the same transaction. Where an index
#: starting with the club exists, the club's own index is left out (``db_index=False``).


class LeaderboardRow(models.Model):
    """One player's line in the leaderboard of a season and game (``game`` empty: all
    games). Derived; rebuilt per club and season."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, db_constraint=False, related_name="+")
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, db_constraint=False, related_name="leaderboard"
    )
    game = models.CharField(max_length=40, blank=True)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )
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
    sources = models.PositiveIntegerField(
        default=0, help_text="Matches contributing to the row (0: the row goes)."
    )

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


class MatchStanding(models.Model):
    """What one match contributes to the leaderboards, per player, as the last refresh
    counted it: the refresh of a changed match subtracts this and adds the new one to
    the rows of the seasons holding ``day``, so the rows stay exact without rebuilding
    a season. ``players``: ``{"<player id>": {"matches": 1, "won": 1, ..., "units":
    "1.50", "money": {"EUR": "0.50"}, "events": {...}, "bids": {...}}}``, zeros and
    empty parts left out (``contributions.dump``)."""

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, db_constraint=False, db_index=False, related_name="+"
    )
    game = models.CharField(max_length=40)
    day = models.DateField(help_text="The night's date: the seasons it counts in.")
    players = models.JSONField(default=dict)

    class Meta:
        indexes = [models.Index(fields=["club", "day"], name="match_standing_day")]

    def __str__(self) -> str:
        return f"match {self.match_id} standings"


class Rating(models.Model):
    """A player's current skill rating in one game at one club (openskill, Plackett-Luce).
    ``display`` is the conservative value mu - 3 sigma."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, db_constraint=False, db_index=False, related_name="+"
    )
    game = models.CharField(max_length=40)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, db_constraint=False, related_name="ratings"
    )
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

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, db_constraint=False, db_index=False, related_name="+"
    )
    game = models.CharField(max_length=40)
    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )
    seq = models.PositiveIntegerField()
    finished_at = models.DateTimeField(
        null=True, help_text="When it finished (its order key with the match id)."
    )
    fingerprint = models.CharField(max_length=64)
    carry = models.JSONField(
        default=dict, help_text="The contracts' pseudo-player ratings after this match."
    )

    class Meta:
        ordering = ["club", "game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "seq"], name="rated_match_seq_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq}: match {self.match_id}"


class RatingChange(models.Model):
    """A player's rating before and after one rated match (the rating history)."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, db_constraint=False, db_index=False, related_name="+"
    )
    game = models.CharField(max_length=40)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, db_constraint=False, related_name="rating_changes"
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )
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
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    deal = models.ForeignKey(
        "matches.Deal", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
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


# -- leagues ---------------------------------------------------------------------------------


def default_chain() -> list[str]:
    from .leagues.tiebreaks import DEFAULT_CHAIN

    return list(DEFAULT_CHAIN)


class League(models.Model):
    """A club's round-robin competition between pairs, teams or single players.

    Entries are added while it is a draft; starting it makes the fixtures (circle method)
    and draws the lots, once. Its table is computed from the fixtures' matches on read
    (see ``leagues.selectors.league_table``: one query, fresh by construction)."""

    class Kind(models.TextChoices):
        PAIRS = "pairs", _("pairs")
        TEAMS = "teams", _("teams")
        PLAYERS = "players", _("single players")

    class Withdrawals(models.TextChoices):
        VOID = "void", _("results voided")
        KEEP = "keep", _("results kept")

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        KNOCKOUT = "knockout", _("knockout")

    class Seeding(models.TextChoices):
        ORDER = "order", _("in the order the entries were added")
        LOTS = "lots", _("by the drawing of lots")

    class SeriesKind(models.TextChoices):
        MATCHES = "matches", _("matches: more matches won wins the fixture")
        BEST_OF = "best_of", _("best of N games")
        GAMES = "games", _("a fixed number of games, points per game won")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PAIRS)
    game = models.CharField(max_length=40, blank=True, help_text="The game played; blank: any.")
    legs = models.PositiveSmallIntegerField(
        default=1, help_text="1: single, 2: double round robin."
    )
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    tiebreaks = models.JSONField(default=default_chain, help_text="The tie-break chain, in order.")
    withdrawals = models.CharField(
        max_length=4, choices=Withdrawals.choices, default=Withdrawals.VOID
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.ROUND_ROBIN)
    seeding = models.CharField(
        max_length=5,
        choices=Seeding.choices,
        default=Seeding.ORDER,
        help_text="Knockouts: the bracket's seeds, in entry order or by the lots.",
    )
    series = models.CharField(max_length=8, choices=SeriesKind.choices, default=SeriesKind.MATCHES)
    series_games = models.PositiveSmallIntegerField(
        default=1, help_text="N of a best of N, or the games of a fixed series."
    )
    points_per_game = models.PositiveSmallIntegerField(
        default=1, help_text="League points per game won in a fixed series."
    )
    count_games_won = models.BooleanField(
        default=False,
        help_text="The table counts points per game won, not the fixture's result (a best "
        "of N as the code's club sheets count it; a fixed series always does).",
    )
    forfeit_points = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Game points per game the winner of a forfeit gets; blank: the game's target.",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="league_name_unique_in_club"),
            models.CheckConstraint(condition=Q(legs__in=[1, 2]), name="league_legs_1_or_2"),
        ]

    def __str__(self) -> str:
        return self.name


class LeagueEntry(models.Model):
    """A pair, team or player in a league. ``lot`` is its number in the drawing of lots,
    drawn once when the league starts and never redrawn (the last tie-break)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(max_length=80)
    players = models.ManyToManyField(Player, related_name="league_entries")
    seed = models.PositiveSmallIntegerField()
    lot = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="entry_name_unique"),
            models.UniqueConstraint(fields=["league", "seed"], name="entry_seed_unique"),
            models.UniqueConstraint(fields=["league", "lot"], name="entry_lot_unique"),
        ]
        verbose_name_plural = "league entries"

    def __str__(self) -> str:
        return self.name


class Fixture(models.Model):
    """Two entries meeting in a round. It is played as one or more matches (linked by
    ``FixtureMatch``) as the league's series says (``knockout.Series``).

    In a knockout, ``slot`` is the fixture's place in its round; the entries of the
    rounds after the first are not stored: they are the winners of the two fixtures
    feeding it, worked out on read (``leagues.selectors.league_table``), so a correction or an
    undone forfeit redraws the later rounds at once."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField()
    leg = models.PositiveSmallIntegerField(default=1)
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    home = models.ForeignKey(
        LeagueEntry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    away = models.ForeignKey(
        LeagueEntry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    #: The night the director planned it for (the calendars show it there until a match
    #: of it is played; then on that match's night).
    planned_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["league", "round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "round", "home"], name="fixture_home_once"),
            models.UniqueConstraint(fields=["league", "round", "away"], name="fixture_away_once"),
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="fixture_two_sides"),
            models.UniqueConstraint(fields=["league", "round", "slot"], name="fixture_slot_once"),
        ]

    def __str__(self) -> str:
        return f"{self.league} R{self.round}: {self.home_id} v {self.away_id}"


class FixtureMatch(models.Model):
    """A match whose result counts for a fixture (a match counts for one fixture at most)."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="links")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="fixture_link")
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    linked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["fixture", "match"]

    def __str__(self) -> str:
        return f"{self.fixture} <- match {self.match_id}"


class FixtureForfeit(models.Model):
    """A fixture lost "a tavolino" by ``entry`` (it did not turn up, or left): the other
    entry wins it with the score the league awards (``League.forfeit_points`` per game,
    the games a series needs), whatever its matches say. Recorded by a director with a
    reason; undoing it (directors, with a reason) deletes the row; both are audited."""

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="forfeit")
    entry = models.ForeignKey(LeagueEntry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.fixture} forfeited by {self.entry_id}"
