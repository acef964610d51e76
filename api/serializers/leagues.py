"""Leagues' serializers: a league, its entries, its table and fixtures, player statistics;
and the answers built from them (``standings_data``, ``fixture_data``, ``statistics_data``).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.scoping import OwnClubsField
from api.serializers.public import PublicLeagueSerializer
from scorebook.clubs.models import Club
from scorebook.core.numbers import MAX_ID
from scorebook.standings import stats
from scorebook.standings.leagues import selectors as tables
from scorebook.standings.leagues.tiebreaks import CRITERIA
from scorebook.standings.models import League, LeagueEntry


class LeagueSerializer(serializers.ModelSerializer):
    club = OwnClubsField(queryset=Club.objects.all())
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=CRITERIA), required=False
    )

    class Meta:
        model = League
        fields = [
            "id",
            "club",
            "name",
            "kind",
            "game",
            "legs",
            "points_win",
            "points_draw",
            "points_loss",
            "tiebreaks",
            "withdrawals",
            "format",
            "seeding",
            "series",
            "series_games",
            "points_per_game",
            "count_games_won",
            "forfeit_points",
            "started_at",
            "created_at",
        ]
        read_only_fields = ["started_at", "created_at"]
        # A taken name or number is the service's 409 in words (races too), never a 400 here.
        validators: list[object] = []


class LeagueChangeSerializer(LeagueSerializer):
    club = OwnClubsField(read_only=True)

    class Meta(LeagueSerializer.Meta):
        read_only_fields = ["club", "started_at", "created_at"]


class PlayerIdsField(serializers.ListField):
    """Player ids, checked by the service against the league's club: a missing id and
    another club's player get the same answer (a lookup here said "does not exist" for
    the one, the service "not a player of this club" for the other)."""

    child = serializers.IntegerField(min_value=1, max_value=MAX_ID)

    def to_representation(self, data: Any) -> list[int]:
        return [player.pk for player in data.all()]


class LeagueEntrySerializer(serializers.ModelSerializer):
    players = PlayerIdsField()

    class Meta:
        model = LeagueEntry
        fields = ["id", "name", "players", "seed", "lot", "withdrawn_at"]
        read_only_fields = ["seed", "lot", "withdrawn_at"]


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class LinkSerializer(serializers.Serializer):
    match = serializers.IntegerField()


class StandingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    points = serializers.IntegerField()
    scored = serializers.IntegerField()
    conceded = serializers.IntegerField()
    difference = serializers.IntegerField()
    head_to_head = serializers.IntegerField(allow_null=True)
    decided_by = serializers.CharField(allow_null=True, help_text="The tie-break that decided.")
    shared = serializers.BooleanField(help_text="Level on every criterion: the place is shared.")
    withdrawn = serializers.BooleanField()


class ForfeitSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="The entry that forfeits the fixture.")
    reason = serializers.CharField(max_length=200)


class KnockoutStageSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    top = serializers.IntegerField(min_value=2, help_text="How many of the table go through.")
    series = serializers.ChoiceField(choices=League.SeriesKind.choices, required=False)
    series_games = serializers.IntegerField(min_value=1, required=False)


class UndoForfeitSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200)


class ForfeitShownSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    entry_name = serializers.CharField()
    reason = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class FixtureScoreSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    leg = serializers.IntegerField()
    slot = serializers.IntegerField(allow_null=True, help_text="Knockouts: the bracket place.")
    home = serializers.IntegerField(allow_null=True, help_text="Null: not known yet.")
    away = serializers.IntegerField(allow_null=True)
    home_name = serializers.CharField(allow_null=True)
    away_name = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(
        choices=[
            "scheduled",
            "waiting",
            "playing",
            "bella",
            "played",
            "forfeit",
            "walkover",
            "cancelled",
            "void",
        ]
    )
    home_wins = serializers.IntegerField(help_text="Games won (a forfeit: the games needed).")
    away_wins = serializers.IntegerField()
    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True)
    bella = serializers.BooleanField(help_text="Level after its games: la bella is (was) needed.")
    decided = serializers.BooleanField(help_text="No further match counts for it.")
    accepts = serializers.BooleanField(help_text="Another match may be linked to it now.")
    matches = serializers.ListField(child=serializers.IntegerField())
    surplus = serializers.ListField(
        child=serializers.IntegerField(), help_text="Linked after it was decided: not counted."
    )
    forfeit = ForfeitShownSerializer(allow_null=True)
    planned_on = serializers.DateField(
        allow_null=True, help_text="The night a director planned it for (the calendars show it)."
    )


class PlanSerializer(serializers.Serializer):
    planned_on = serializers.DateField(allow_null=True, help_text="Null: not planned.")


class BracketSlotSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    slot = serializers.IntegerField()
    home = serializers.IntegerField(allow_null=True)
    away = serializers.IntegerField(allow_null=True)
    fixture = serializers.IntegerField(allow_null=True, help_text="Null for a bye.")
    bye = serializers.BooleanField()
    decided = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)


class SeriesSerializer(serializers.Serializer):
    """How a fixture is played: its kind, its games and whether a level series needs la
    bella (a deciding game)."""

    kind = serializers.CharField()
    games = serializers.IntegerField()
    bella = serializers.BooleanField()


class RoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    leg = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    bye = serializers.IntegerField(allow_null=True, help_text="The entry resting, if any.")
    fixtures = FixtureScoreSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    league: serializers.ModelSerializer = LeagueSerializer()
    series = SeriesSerializer()
    rows = StandingRowSerializer(many=True)
    rounds = RoundSerializer(many=True)
    bracket = serializers.ListField(
        child=BracketSlotSerializer(many=True),
        allow_null=True,
        help_text="Knockouts: every round's places, byes included; null for a round robin.",
    )


class PublicStandingsSerializer(StandingsSerializer):
    league = PublicLeagueSerializer()


def standings_data(table: tables.LeagueTable, public: bool = False) -> dict[str, Any]:
    shown = PublicLeagueSerializer if public else LeagueSerializer
    return {
        "league": shown(table.league).data,
        "rows": [
            {
                "position": row.position,
                "entry": row.entry,
                "name": entry.name,
                "played": row.played,
                "won": row.won,
                "drawn": row.drawn,
                "lost": row.lost,
                "points": row.points,
                "scored": row.scored,
                "conceded": row.conceded,
                "difference": row.difference,
                "head_to_head": row.head_to_head,
                "decided_by": row.decided_by,
                "shared": row.shared,
                "withdrawn": row.withdrawn,
            }
            for row, entry in table.rows
        ],
        "rounds": [
            {
                "round": r.number,
                "leg": r.leg,
                "name": r.name,
                "bye": r.bye.pk if r.bye else None,
                "fixtures": [fixture_data(s) for s in r.fixtures],
            }
            for r in table.rounds
        ],
        "series": {
            "kind": table.series.kind,
            "games": table.series.games,
            "bella": table.series.bella,
        },
        "bracket": None
        if table.bracket is None
        else [
            [
                {
                    "round": s.round,
                    "slot": s.slot,
                    "home": s.home.pk if s.home else None,
                    "away": s.away.pk if s.away else None,
                    "fixture": s.score.fixture.pk if s.score else None,
                    "bye": s.bye,
                    "decided": s.decided,
                    "winner": s.winner.pk if s.winner else None,
                }
                for s in round_slots
            ]
            for round_slots in table.bracket
        ],
    }


def fixture_data(score: tables.FixtureScore) -> dict[str, Any]:
    f = score.fixture
    forfeit = score.forfeit
    return {
        "id": f.pk,
        "round": f.round,
        "leg": f.leg,
        "slot": f.slot,
        "home": f.home_id,
        "away": f.away_id,
        "home_name": f.home.name if f.home else None,
        "away_name": f.away.name if f.away else None,
        "status": score.status,
        "home_wins": score.home_wins,
        "away_wins": score.away_wins,
        "home_points": score.home_points,
        "away_points": score.away_points,
        "winner": score.winner.pk if score.winner else None,
        "bella": score.outcome.bella,
        "decided": score.outcome.complete,
        "accepts": score.outcome.accepts and forfeit is None and f.home_id is not None,
        "matches": score.matches,
        "surplus": score.surplus,
        "planned_on": f.planned_on,
        "forfeit": None
        if forfeit is None
        else {
            "entry": forfeit.entry_id,
            "entry_name": forfeit.entry.name,
            "reason": forfeit.reason,
            # a string now, so a replayed answer is the first one to the microsecond
            "recorded_at": serializers.DateTimeField().to_representation(forfeit.recorded_at),
        },
    }


def statistics_data(found: stats.PlayerStatistics) -> dict[str, Any]:
    names = found.names

    def record(rec: Any) -> dict[str, Any]:
        return {"played": rec.played, "won": rec.won, "lost": rec.lost}

    def person(pid: int | None) -> dict[str, Any] | None:
        return None if pid is None else {"id": pid, "name": names.get(pid, "?")}

    def pair(pid: int, rec: Any) -> dict[str, Any]:
        return {"id": pid, "name": names.get(pid, "?"), **record(rec)}

    return {
        "player": person(found.player.pk),
        "min_shared": found.min_shared,
        "by_game": {game: record(r) for game, r in found.by_game.items()},
        "head_to_head": [
            {"opponent": person(o), **record(r)} for o, r in found.head_to_head.items()
        ],
        "partners": [
            {
                "partner": person(s.partner),
                **record(s.together),
                "baseline": round(float(s.baseline), 4),
                "partner_baseline": round(float(s.partner_baseline), 4),
                "synergy": round(float(s.value), 4),
            }
            for s in found.synergies
        ],
        "best_partner": person(found.best_partner),
        "rival": pair(*found.rival) if found.rival else None,
        "nemesis": pair(*found.nemesis) if found.nemesis else None,
        "longest_streak": {
            "length": found.streak.length,
            "first_match": found.streak.first_match,
            "last_match": found.streak.last_match,
        },
        "ratings": found.ratings,
    }
