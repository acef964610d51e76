"""Tonight's tournament (issue 27) through the API.

Members read; directors create one on an open night, register pairs (players or new
guests in one step) and singles, draw the singles into pairs, pair and start the rounds
(each pairing seated at a table with its match created, so the table phones enter deals
as on any night), swap, give a bye, record a forfeit, withdraw a pair and finish. Every
write is a service of ``scorebook.tournaments.services``; its refusals go through the one
handler (``api.errors``). An entry or pairing id of another tournament is a 404.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.permissions import ClubRole
from api.serializers.tournaments import (
    TournamentCancelSerializer,
    TournamentDrawSerializer,
    TournamentEntryAddSerializer,
    TournamentEntryRefSerializer,
    TournamentEntrySerializer,
    TournamentForfeitSerializer,
    TournamentNextStepSerializer,
    TournamentPairingRefSerializer,
    TournamentPrizeSerializer,
    TournamentRegistrationSerializer,
    TournamentRoundSerializer,
    TournamentSerializer,
    TournamentSingleAddSerializer,
    TournamentSingleSerializer,
    TournamentSingleWithdrawSerializer,
    TournamentStandingSerializer,
    TournamentSwapSerializer,
    TournamentUpdateSerializer,
    TournamentWithdrawSerializer,
    next_data,
    round_data,
    standing_data,
)
from scorebook.clubs.models import Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.people import signed_in
from scorebook.tournaments import boards, exports, selectors
from scorebook.tournaments.models import Entry, Pairing, Single, Tournament
from scorebook.tournaments.services import registration, results, rounds, setup


def _entry(tournament: Tournament, pk: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("tournament"), pk=pk, tournament=tournament
    )


def _round_answer(tournament: Tournament, round_: Any) -> Response:
    return Response(round_data(boards.round_board(tournament, round_)))


class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The tournaments of the caller's clubs (``?night=`` for one night's)."""

    serializer_class = TournamentSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["night", "club"]

    def get_queryset(self):
        return Tournament.objects.filter(club__in=clubs_of(self.request.user)).order_by("-id")

    @extend_schema(
        responses={201: TournamentSerializer},
        description=(
            "Directors: a tournament on an open night. 400 `tournament.settings`, "
            "`tournament.not_pairs`, `tournament.prizes_over`; 409 `tournament.name_taken`, "
            "`tournament.night_closed`."
        ),
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = TournamentSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        night = data.pop("night")
        data.setdefault("rules", {})
        tournament = setup.tournament_create(night=night, user=signed_in(request), **data)
        return Response(TournamentSerializer(tournament).data, status=201)

    @extend_schema(
        request=TournamentUpdateSerializer,
        responses=TournamentSerializer,
        description=(
            "Directors: change settings. Before round 1 is paired any of them (the fee not "
            "once paid); afterwards the name, the tie-breaks, the points and the prizes "
            "only (400 `tournament.settings` names the one that cannot change)."
        ),
    )
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        serializer = TournamentUpdateSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        changes = dict(serializer.validated_data)
        if "prizes" in changes:
            changes["prizes"] = [str(p) for p in changes["prizes"]]
        tournament = setup.tournament_update(
            tournament=tournament, changes=changes, user=signed_in(request)
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(responses=TournamentNextStepSerializer)
    @action(detail=True, methods=["get"], url_path="next", filter_backends=[])
    def next_step(self, request: Request, pk: Any = None) -> Response:
        """What the director can do now: register, draw, pair, start, finish."""
        return Response(next_data(boards.next_step(self.get_object())))

    # -- registration -------------------------------------------------------------------

    @extend_schema(methods=["get"], responses=TournamentRegistrationSerializer)
    @extend_schema(
        methods=["post"],
        request=TournamentEntryAddSerializer,
        responses={201: TournamentEntrySerializer},
        description=(
            "Directors: a pair at the door, each player an id or a new guest's name. "
            "400 `tournament.same_player`, `tournament.unknown_player`; 409 "
            "`tournament.player_in`, `tournament.registration_closed`."
        ),
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def entries(self, request: Request, pk: Any = None) -> Response:
        """The pairs and the singles waiting for the draw (GET), or add a pair (POST)."""
        tournament = self.get_object()
        if request.method == "GET":
            return Response(
                {
                    "entries": TournamentEntrySerializer(
                        selectors.entries_of(tournament), many=True
                    ).data,
                    "singles": TournamentSingleSerializer(
                        tournament.singles.filter(entry=None).select_related("player"), many=True
                    ).data,
                }
            )
        serializer = TournamentEntryAddSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = registration.entry_add(
            tournament=tournament,
            players=serializer.validated_data["players"],
            name=serializer.validated_data["name"],
            user=signed_in(request),
        )
        return Response(TournamentEntrySerializer(entry).data, status=201)

    @extend_schema(
        request=TournamentSingleAddSerializer, responses={201: TournamentSingleSerializer}
    )
    @action(detail=True, methods=["post"])
    def singles(self, request: Request, pk: Any = None) -> Response:
        """Directors: a player who came alone, to be drawn into a pair."""
        tournament = self.get_object()
        serializer = TournamentSingleAddSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        single = registration.single_add(
            tournament=tournament,
            player=serializer.validated_data["player"],
            user=signed_in(request),
        )
        return Response(TournamentSingleSerializer(single).data, status=201)

    @extend_schema(
        request=TournamentSingleWithdrawSerializer,
        responses={204: None},
        description="Directors: a single leaves before being drawn, with a reason; the fee is "
        "given back (409 `tournament.single_drawn` once drawn: the pair withdraws instead).",
    )
    @action(detail=True, methods=["post"], url_path="singles/withdraw")
    def single_withdraw(self, request: Request, pk: Any = None) -> Response:
        tournament = self.get_object()
        serializer = TournamentSingleWithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        single = get_object_or_404(
            Single.objects.select_related("tournament"),
            pk=serializer.validated_data["single"],
            tournament=tournament,
        )
        registration.single_withdraw(
            single=single, reason=serializer.validated_data["reason"], user=signed_in(request)
        )
        return Response(status=204)

    @extend_schema(
        request=None,
        responses={201: TournamentDrawSerializer},
        description="Directors: draw the waiting singles into pairs by lot, once (409 "
        "`tournament.nothing_to_draw`, 400 `tournament.singles_odd`).",
    )
    @action(detail=True, methods=["post"])
    def draw(self, request: Request, pk: Any = None) -> Response:
        draw = registration.singles_draw(tournament=self.get_object(), user=signed_in(request))
        made = Entry.objects.filter(singles__draw=draw).distinct().select_related("first", "second")
        return Response(
            {
                "number": draw.number,
                "seed": draw.seed,
                "pairs": draw.pairs,
                "entries": TournamentEntrySerializer(made.order_by("seed"), many=True).data,
            },
            status=201,
        )

    @extend_schema(request=TournamentWithdrawSerializer, responses=TournamentEntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: Any = None) -> Response:
        """Directors: a pair leaves between rounds, with a reason (refunded before round 1)."""
        tournament = self.get_object()
        serializer = TournamentWithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = registration.entry_withdraw(
            entry=_entry(tournament, serializer.validated_data["entry"]),
            reason=serializer.validated_data["reason"],
            user=signed_in(request),
        )
        return Response(TournamentEntrySerializer(entry).data)

    # -- rounds ---------------------------------------------------------------------------

    @extend_schema(responses=TournamentRoundSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def rounds(self, request: Request, pk: Any = None) -> Response:
        """Every round by table ("table 3: Nino & Salvo vs Lia & Tano"), with its matches."""
        return Response([round_data(b) for b in boards.boards(self.get_object())])

    @extend_schema(
        request=None,
        responses={201: TournamentRoundSerializer},
        description="Directors: pair the next round (the previous one over). 409 "
        "`tournament.match_open`, `tournament.round_in_progress`, `tournament.no_round_left`.",
    )
    @action(detail=True, methods=["post"])
    def pair(self, request: Request, pk: Any = None) -> Response:
        tournament = self.get_object()
        round_ = rounds.round_pair(tournament=tournament, user=signed_in(request))
        return Response(round_data(boards.round_board(tournament, round_)), status=201)

    @extend_schema(
        request=None,
        responses=TournamentRoundSerializer,
        description="Directors: start the round paired (pairing it first if needed): each "
        "pairing gets a table and its match, the players seated.",
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: Any = None) -> Response:
        tournament = self.get_object()
        round_ = rounds.round_start(tournament=tournament, user=signed_in(request))
        return _round_answer(tournament, round_)

    @extend_schema(request=TournamentSwapSerializer, responses=TournamentRoundSerializer)
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: Any = None) -> Response:
        """Directors: swap two entries between the pairings of the round not started."""
        tournament = self.get_object()
        serializer = TournamentSwapSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = rounds.pairing_swap(
            tournament=tournament,
            first=_entry(tournament, serializer.validated_data["first"]),
            second=_entry(tournament, serializer.validated_data["second"]),
            user=signed_in(request),
        )
        return _round_answer(tournament, round_)

    @extend_schema(request=TournamentEntryRefSerializer, responses=TournamentRoundSerializer)
    @action(detail=True, methods=["post"])
    def bye(self, request: Request, pk: Any = None) -> Response:
        """Directors: give an entry the bye in the round not started (Swiss)."""
        tournament = self.get_object()
        serializer = TournamentEntryRefSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = rounds.pairing_bye(
            tournament=tournament,
            entry=_entry(tournament, serializer.validated_data["entry"]),
            user=signed_in(request),
        )
        return _round_answer(tournament, round_)

    @extend_schema(request=TournamentForfeitSerializer, responses=TournamentRoundSerializer)
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: Any = None) -> Response:
        """Directors: ``entry`` loses its pairing "a tavolino", with a reason."""
        tournament = self.get_object()
        serializer = TournamentForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        pairing = get_object_or_404(
            Pairing.objects.select_related("round__tournament"),
            pk=data["pairing"],
            round__tournament=tournament,
        )
        results.pairing_forfeit(
            pairing=pairing,
            entry=_entry(tournament, data["entry"]),
            reason=data["reason"],
            user=signed_in(request),
        )
        return _round_answer(tournament, pairing.round)

    @extend_schema(
        request=TournamentPairingRefSerializer, responses={201: TournamentRoundSerializer}
    )
    @action(detail=True, methods=["post"], url_path="next-match")
    def next_match(self, request: Request, pk: Any = None) -> Response:
        """Directors: la bella of a level knockout pairing, or a series' next match."""
        tournament = self.get_object()
        serializer = TournamentPairingRefSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pairing = get_object_or_404(
            Pairing.objects.select_related("round__tournament"),
            pk=serializer.validated_data["pairing"],
            round__tournament=tournament,
        )
        results.pairing_next_match(pairing=pairing, user=signed_in(request))
        return Response(round_data(boards.round_board(tournament, pairing.round)), status=201)

    # -- standings, money, the end ----------------------------------------------------------

    @extend_schema(
        responses=TournamentStandingSerializer(many=True),
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: Any = None) -> Response:
        """The standings, each row with the tie-break criterion that placed it."""
        tournament = self.get_object()
        rows = selectors.standings(tournament)
        return Response([standing_data(row) for row in rows])

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="standings/csv", filter_backends=[])
    def standings_csv(self, request: Request, pk: Any = None) -> HttpResponse:
        """The standings as CSV (formula-safe), as a secretary files them."""
        tournament = self.get_object()
        response = HttpResponse(
            exports.standings_csv(tournament), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = (
            f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
        )
        return response

    @extend_schema(responses=TournamentPrizeSerializer)
    @action(detail=True, methods=["get"], filter_backends=[])
    def prizes(self, request: Request, pk: Any = None) -> Response:
        """The money: no money, or the fee, the pot as it stands and the prize split."""
        return Response(selectors.money(self.get_object()))

    @extend_schema(
        request=None,
        responses=TournamentSerializer,
        description="Directors: close the tournament once its last round is decided and pay "
        "the prizes and the club's share out of the pot. 409 `tournament.not_finished`.",
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: Any = None) -> Response:
        tournament = results.tournament_finish(
            tournament=self.get_object(), user=signed_in(request)
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        request=TournamentCancelSerializer,
        responses=TournamentSerializer,
        description="Directors: call the tournament off, with a reason: the fees still in the "
        "pot go back to who paid them, its open matches are abandoned, and the night can close.",
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: Any = None) -> Response:
        tournament = self.get_object()
        serializer = TournamentCancelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = results.tournament_cancel(
            tournament=tournament,
            reason=serializer.validated_data["reason"],
            user=signed_in(request),
        )
        return Response(TournamentSerializer(tournament).data)
