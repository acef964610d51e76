"""Inter-club championships (issue 34 item 3), as stored facts; imported by
``federations.models`` (their app's models module), which they do not import.

A championship is the federation's: its teams name a club and the club's own players, its
fixtures are played at the home club's night as matches of the home club's record. The
record knows nothing of it: the link of a fixture's table to its match is kept here
(``FixtureTable.match``), as the leagues keep theirs beside the record.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorebook.clubs.models import Club, Player


class Championship(models.Model):
    """A season's championship between teams of the member clubs: the game and house
    rules it is played with, the tables a fixture has (a team fields one side per table:
    two pairs at Tressette a coppie are two tables), the format and the league points.
    Teams enter while it is ``open``; starting it draws the calendar."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        GROUPS_KNOCKOUT = "groups_knockout", _("groups, then knockout")

    class Status(models.TextChoices):
        OPEN = "open", _("entries open")
        STARTED = "started", _("under way")
        FINISHED = "finished", _("finished")

    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="championships"
    )
    name = models.CharField(max_length=120)
    season = models.CharField(max_length=20)
    game = models.CharField(max_length=40)
    #: the house rules as the engine resolved them (``Rules.as_dict()``)
    rules = models.JSONField(default=dict)
    tables = models.PositiveSmallIntegerField(default=2)
    substitutes = models.PositiveSmallIntegerField(default=2)
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.ROUND_ROBIN)
    #: 2: home and away; 1: one fixture per pair of teams (home by the calendar)
    legs = models.PositiveSmallIntegerField(default=2)
    groups = models.PositiveSmallIntegerField(default=1)
    #: teams of each group that go on to the knockout
    advance = models.PositiveSmallIntegerField(default=2)
    win_points = models.PositiveSmallIntegerField(default=2)
    draw_points = models.PositiveSmallIntegerField(default=1)
    loss_points = models.PositiveSmallIntegerField(default=0)
    first_day = models.DateField(null=True, blank=True)
    #: days between two rounds of the calendar
    every_days = models.PositiveSmallIntegerField(default=7)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: bumped in the same transaction as every write of the championship, its teams and its
    #: fixtures: the public table's cache key (``championship_selectors.public_table``),
    #: with its tables' match versions (a match's own writes bump those)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "season", "name"], name="one_championship_name_a_season"
            ),
            models.CheckConstraint(
                condition=Q(tables__gte=1) & Q(legs__in=[1, 2]) & Q(groups__gte=1),
                name="championship_shape",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class Team(models.Model):
    """A club's team in a championship: a name, a captain (an account of the club, who
    confirms the team's away results) and a roster of the club's own players."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="championship_teams")
    name = models.CharField(max_length=80)
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: 1-based group (groups then knockout), given when the championship starts
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    #: 1-based order of entry: the seeding the calendar and the lots read
    seed = models.PositiveSmallIntegerField(default=0)

    class Withdrawal(models.TextChoices):
        """The rule a withdrawal after the start applied (docs/federation.md, "A team
        withdraws"): its results annulled (before half of its group fixtures were
        settled), its fixtures left lost by forfeit (from half on), or its knockout
        fixtures lost by forfeit (the knockout drawn: its seed kept)."""

        ANNULLED = "annulled", _("results annulled")
        FORFEITS = "forfeits", _("remaining fixtures forfeited")
        KNOCKOUT = "knockout", _("knockout fixtures forfeited")

    withdrawn = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawal = models.CharField(max_length=10, choices=Withdrawal.choices, blank=True)
    withdrawal_reason = models.CharField(max_length=200, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "name"], name="one_team_name")
        ]

    def __str__(self) -> str:
        return self.name


class RosterPlayer(models.Model):
    """A player of the team's club on its roster; a substitute plays when the club's
    line-up names them."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rosters")
    substitute = models.BooleanField(default=False)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["team", "substitute", "order", "id"]
        constraints = [models.UniqueConstraint(fields=["team", "player"], name="one_roster_place")]

    def __str__(self) -> str:
        return f"player {self.player_id} of team {self.team_id}"


class Visitor(models.Model):
    """An away player as the home club's record knows them: a guest player of the home
    club (``guest``), made the first time the player is seated there and reused after. It
    joins the two clubs' players on the federation's side only."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="visits")
    guest = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="visitor_of")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_guest_per_host_club")
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} as guest {self.guest_id}"


class ChampionshipFixture(models.Model):
    """A meeting of two teams on the calendar, at the home team's club. ``planned_on`` is
    the planned night (a postponement moves it); the result is read from its tables'
    matches and counts once the away captain confirms it (or an officer records a
    forfeit)."""

    class Stage(models.TextChoices):
        GROUP = "group", _("group")
        KNOCKOUT = "knockout", _("knockout")

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        PLAYING = "playing", _("being played")
        CONFIRMED = "confirmed", _("confirmed")
        FORFEITED = "forfeited", _("forfeited")
        #: a fixture of a team whose withdrawal annulled its results: never played
        ANNULLED = "annulled", pgettext_lazy("fixture", "annulled")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="fixtures"
    )
    stage = models.CharField(max_length=8, choices=Stage.choices, default=Stage.GROUP)
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    round = models.PositiveSmallIntegerField()
    #: the bracket's slot (knockout), 0-based
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    home = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="home_fixtures")
    away = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="away_fixtures")
    planned_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    #: the home club's night it is played on
    night = models.ForeignKey(
        "matches.Night", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    played_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: the result as confirmed (tables and game points of each side); the table reads the
    #: record again, so a later correction moves it
    confirmed_result = models.JSONField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    forfeited_by = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["championship", "stage", "round", "group", "slot", "id"]

    def __str__(self) -> str:
        return f"{self.home} - {self.away} (round {self.round})"


class FixtureTable(models.Model):
    """One table of a fixture: the match of the home club's record it is played as, and
    who sat for each team (the home team's players and the away team's own players; the
    match seats the away players' guests)."""

    fixture = models.ForeignKey(
        ChampionshipFixture, on_delete=models.CASCADE, related_name="boards"
    )
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "matches.Match", on_delete=models.PROTECT, related_name="championship_table"
    )
    #: the players of each team (of its own club), in seat order
    home_players = models.JSONField(default=list)
    away_players = models.JSONField(default=list)
    #: the seats of the match the away team holds
    away_seats = models.JSONField(default=list)

    class Meta:
        ordering = ["fixture", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="one_table_number")
        ]

    def __str__(self) -> str:
        return f"table {self.number} of fixture {self.fixture_id}"
