"""Leagues, their fixtures and tables, and player statistics.

Members read; directors create, configure, start a league (round robin or knockout),
add entries and withdraw them, record a fixture forfeited "a tavolino" and undo it; a
scorer may link the match being played to its fixture. The services check the
roles and refuse with ``Refusal``s, mapped by ``api.errors``. Public versions (no login)
serve the clubs that publish their results.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import ClubRole
from api.scoping import OwnClubsField
from api.serializers.public import PublicLeagueSerializer
from api.views.public import PublicView, public_club
from scorebook.clubs.models import Club, Player, Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.numbers import MAX_ID
from scorebook.core.people import signed_in
from scorebook.ledger.exports import as_csv
from scorebook.matches.models import Match
from scorebook.standings import stats
from scorebook.standings.leagues import selectors as tables
from scorebook.standings.leagues import services as leagues
from scorebook.standings.leagues.tiebreaks import CRITERIA
from scorebook.standings.models import Fixture, League, LeagueEntry

# -- serializers ----------------------------------------------------------------------------


class LeagueSerializer(serializers.ModelSerializer):
    club = OwnClubsField(queryset=Club.objects.all())
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=CRITERIA), required=False
    )

    class Meta:
        model = League
        fields = [
            "id", "club", "name", "kind", "game", "legs", "points_win", "points_draw",
            "points_loss", "tiebreaks", "withdrawals", "format", "seeding", "series",
            "series_games", "points_per_game", "forfeit_points", "started_at", "created_at",
        ]  # fmt: skip
        read_only_fields = ["started_at", "created_at"]


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
        ]  # fmt: skip
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


class BracketSlotSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    slot = serializers.IntegerField()
    home = serializers.IntegerField(allow_null=True)
    away = serializers.IntegerField(allow_null=True)
    fixture = serializers.IntegerField(allow_null=True, help_text="Null for a bye.")
    bye = serializers.BooleanField()
    decided = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)


class StandingsSerializer(serializers.Serializer):
    league: serializers.ModelSerializer = LeagueSerializer()
    series = serializers.DictField(
        help_text="kind, games and whether a level series needs la bella"
    )
    rows = StandingRowSerializer(many=True)
    rounds = serializers.ListField(child=serializers.DictField())
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
            }  # fmt: skip
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
                }  # fmt: skip
                for s in round_slots
            ]
            for round_slots in table.bracket
        ],
    }


def fixture_data(score: tables.FixtureScore) -> dict[str, Any]:
    f = score.fixture
    forfeit = score.forfeit
    return {
        "id": f.pk, "round": f.round, "leg": f.leg, "slot": f.slot,
        "home": f.home_id, "away": f.away_id,
        "home_name": f.home.name if f.home else None,
        "away_name": f.away.name if f.away else None,
        "status": score.status,
        "home_wins": score.home_wins, "away_wins": score.away_wins,
        "home_points": score.home_points, "away_points": score.away_points,
        "winner": score.winner.pk if score.winner else None,
        "bella": score.outcome.bella, "decided": score.outcome.complete,
        "accepts": score.outcome.accepts and forfeit is None and f.home_id is not None,
        "matches": score.matches, "surplus": score.surplus,
        "forfeit": None if forfeit is None else {
            "entry": forfeit.entry_id, "entry_name": forfeit.entry.name,
            "reason": forfeit.reason,
            # a string now, so a replayed answer is the first one to the microsecond
            "recorded_at": serializers.DateTimeField().to_representation(forfeit.recorded_at),
        },
    }  # fmt: skip


def standings_csv(table: tables.LeagueTable) -> HttpResponse:
    """The league table as CSV, as a secretary files it."""
    response = HttpResponse(
        as_csv(tables.league_sheet(table)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="league-{table.league.pk}.csv"'
    return response


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


MIN_SHARED = OpenApiParameter(
    "min_shared", int, description="Matches needed for best partner, rival and nemesis."
)


def min_shared_of(request: Request) -> int:
    field = serializers.IntegerField(min_value=1, max_value=1000, default=stats.MIN_SHARED)
    return int(field.run_validation(request.query_params.get("min_shared", stats.MIN_SHARED)))


# -- members' endpoints ---------------------------------------------------------------------


class LeagueViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):  # fmt: skip
    """A club's leagues. The table is computed from the fixtures' matches when read."""

    serializer_class = LeagueSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["club"]

    def get_queryset(self):
        return League.objects.filter(club__in=clubs_of(self.request.user)).order_by("-id")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = LeagueSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        club: Club = data.pop("club")
        league = leagues.league_create(club=club, user=signed_in(request), **data)
        return Response(LeagueSerializer(league).data, status=201)

    @extend_schema(request=LeagueChangeSerializer, responses=LeagueSerializer)
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = self.get_object()
        serializer = LeagueChangeSerializer(league, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        league = leagues.league_update(
            league=league, changes=dict(serializer.validated_data), user=signed_in(request)
        )
        return Response(LeagueSerializer(league).data)

    @extend_schema(methods=["get"], responses=LeagueEntrySerializer(many=True))
    @extend_schema(
        methods=["post"], request=LeagueEntrySerializer, responses={201: LeagueEntrySerializer}
    )
    @action(detail=True, methods=["get", "post"])
    def entries(self, request: Request, pk: Any = None) -> Response:
        """The entries (GET), or add one before the league starts (POST, directors)."""
        league = self.get_object()
        if request.method == "GET":
            return Response(LeagueEntrySerializer(tables.league_entries(league), many=True).data)
        return self._add_entry(request, league)

    def _add_entry(self, request: Request, league: League) -> Response:
        serializer = LeagueEntrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = leagues.entry_add(
            league=league,
            name=serializer.validated_data["name"],
            player_ids=serializer.validated_data["players"],
            user=signed_in(request),
        )
        return Response(LeagueEntrySerializer(entry).data, status=201)

    @extend_schema(request=None, responses=LeagueSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: Any = None) -> Response:
        """Make the fixtures (circle method) and draw the lots, once."""
        league = leagues.league_start(league=self.get_object(), user=signed_in(request))
        return Response(LeagueSerializer(league).data)

    @extend_schema(
        request=KnockoutStageSerializer,
        responses={201: LeagueSerializer},
        description=(
            "Directors: make a knockout stage from this round robin: a new knockout league "
            "(a draft, to start) of the top `top` entries of the table, seeded in table "
            "order. 400 `league.too_few_entries`, `league.bad_series`; 403 below director; "
            "409 `league.not_round_robin` (a knockout, or not started)."
        ),
    )
    @action(detail=True, methods=["post"])
    def knockout(self, request: Request, pk: Any = None) -> Response:
        league = self.get_object()
        serializer = KnockoutStageSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        stage = leagues.knockout_stage(
            league=league, user=signed_in(request), **serializer.validated_data
        )
        return Response(LeagueSerializer(stage).data, status=201)

    @extend_schema(responses=StandingsSerializer)
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: Any = None) -> Response:
        """The table (with the tie-break that decided each place) and every fixture."""
        return Response(standings_data(tables.league_table(self.get_object())))

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="standings/csv")
    def standings_csv(self, request: Request, pk: Any = None) -> HttpResponse:
        return standings_csv(tables.league_table(self.get_object()))


class LeagueEntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = LeagueEntrySerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR

    def get_queryset(self):
        return LeagueEntry.objects.filter(
            league__club__in=clubs_of(self.request.user)
        ).select_related("league")

    @extend_schema(request=WithdrawSerializer, responses=LeagueEntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: Any = None) -> Response:
        """Withdraw the entry: its results are voided or kept as the league says."""
        serializer = WithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = leagues.entry_withdraw(
            entry=self.get_object(),
            user=signed_in(request),
            reason=serializer.validated_data["reason"],
        )
        return Response(LeagueEntrySerializer(entry).data)


class FixtureViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Fixtures; POST ``/fixtures/{id}/matches`` counts a match for one (scorers)."""

    serializer_class = FixtureScoreSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.SCORER
    filterset_fields = ["league", "round"]

    def get_queryset(self):
        return (
            Fixture.objects.filter(league__club__in=clubs_of(self.request.user))
            .select_related("league", "home", "away")
            .order_by("league", "round", "id")
        )

    def _scores(self, fixtures: list[Fixture]) -> list[dict[str, Any]]:
        found = {}
        for league in {f.league for f in fixtures}:
            for r in tables.league_table(league).rounds:
                found.update({s.fixture.pk: s for s in r.fixtures})
        return [fixture_data(found[f.pk]) for f in fixtures]

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset())) or []
        return self.get_paginated_response(self._scores(list(page)))

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(self._scores([self.get_object()])[0])

    def _fixture_and_match(self, request: Request) -> tuple[Fixture, Match]:
        fixture = self.get_object()
        serializer = LinkSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = get_object_or_404(
            Match, pk=serializer.validated_data["match"], night__club_id=fixture.league.club_id
        )
        return fixture, match

    @extend_schema(
        request=LinkSerializer,
        responses={201: FixtureScoreSerializer},
        description=(
            "Count a match for this fixture; it may still be open. 400 "
            "`league.match_not_for_fixture`; 409 `league.match_linked`, "
            "`league.series_decided` (a best of N already won, or a series over), "
            "`league.series_full` (its games are all linked; la bella once level), "
            "`league.fixture_forfeited`, `league.fixture_not_ready` (a knockout fixture "
            "whose entries are not known yet), `league.entry_withdrawn`."
        ),
    )
    @action(detail=True, methods=["post"])
    def matches(self, request: Request, pk: Any = None) -> Response:
        """Count a match for this fixture; it may still be open."""
        fixture, match = self._fixture_and_match(request)
        leagues.fixture_match_link(fixture=fixture, match=match, user=signed_in(request))
        return Response(self._scores([fixture])[0], status=201)

    @extend_schema(
        request=ForfeitSerializer,
        responses={201: FixtureScoreSerializer},
        description=(
            "Directors: record the fixture as lost *a tavolino* by `entry` (one of its two "
            "entries), with a reason. The other entry wins it with the league's forfeit "
            "score and, in a knockout, goes on. 400 `league.reason_required`, "
            "`league.entry_not_in_fixture`; 403 below director; 409 "
            "`league.fixture_forfeited`, `league.series_decided`, `league.fixture_not_ready`."
        ),
    )
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: Any = None) -> Response:
        fixture = self.get_object()
        serializer = ForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = get_object_or_404(
            LeagueEntry, pk=serializer.validated_data["entry"], league_id=fixture.league_id
        )
        score = leagues.fixture_forfeit(
            fixture=fixture,
            entry=entry,
            reason=serializer.validated_data["reason"],
            user=signed_in(request),
        )
        return Response(fixture_data(score), status=201)

    @extend_schema(
        request=UndoForfeitSerializer,
        responses=FixtureScoreSerializer,
        description=(
            "Directors: undo the fixture's forfeit, with a reason (audited). 400 "
            "`league.reason_required`; 403 below director; 409 `league.not_forfeited`, "
            "`league.later_round_played` (a knockout whose next round was played)."
        ),
    )
    @action(detail=True, methods=["post"], url_path="forfeit/undo")
    def forfeit_undo(self, request: Request, pk: Any = None) -> Response:
        fixture = self.get_object()
        serializer = UndoForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        score = leagues.fixture_forfeit_undo(
            fixture=fixture, reason=serializer.validated_data["reason"], user=signed_in(request)
        )
        return Response(fixture_data(score))

    @extend_schema(request=LinkSerializer, responses=FixtureScoreSerializer)
    @action(detail=True, methods=["post"])
    def unlink(self, request: Request, pk: Any = None) -> Response:
        """A match linked by mistake stops counting (directors)."""
        fixture, match = self._fixture_and_match(request)
        leagues.fixture_match_unlink(fixture=fixture, match=match, user=signed_in(request))
        return Response(self._scores([fixture])[0])


class PlayerStatisticsView(APIView):
    """A player's record by game, head-to-head, partners, rival, nemesis, streak and
    rating history."""

    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[MIN_SHARED], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk, club__in=clubs_of(request.user))
        found = stats.player_statistics(player, min_shared=min_shared_of(request))
        return Response(statistics_data(found))


# -- public versions ------------------------------------------------------------------------


class PublicLeagues(PublicView, APIView):
    """A public club's leagues."""

    @extend_schema(responses=PublicLeagueSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = public_club(slug)
        return Response(PublicLeagueSerializer(tables.leagues_of_club(club.pk), many=True).data)


class PublicLeagueStandings(PublicView, APIView):
    """A public club's league table and fixtures (``?format=csv`` for the CSV)."""

    @extend_schema(responses=PublicStandingsSerializer)
    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = public_club(slug)
        table = tables.league_table(get_object_or_404(League, pk=pk, club=club))
        return Response(standings_data(table, public=True))


class PublicLeagueStandingsCsv(PublicView, APIView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str, pk: int) -> HttpResponse:
        club = public_club(slug)
        return standings_csv(tables.league_table(get_object_or_404(League, pk=pk, club=club)))


class PublicPlayerStatistics(PublicView, APIView):
    @extend_schema(parameters=[MIN_SHARED], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = public_club(slug)
        player = get_object_or_404(Player, pk=pk, club=club)
        found = stats.player_statistics(player, min_shared=min_shared_of(request))
        return Response(statistics_data(found))
