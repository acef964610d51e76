"""Nights, tables, matches and deals. Writes go through ``scorebook.matches.services``;
these views only translate HTTP to service calls (their refusals are mapped once, by
``api.errors.handler``)."""

from __future__ import annotations

import re
from typing import Any

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.lookups import found, missing
from api.permissions import ClubRole
from api.serializers.engine import MatchStateAnswerSerializer
from api.serializers.matches import (
    ConfirmationSerializer,
    ConfirmRemainingSerializer,
    ConfirmSerializer,
    DealSerializer,
    DealWriteSerializer,
    FinalScoreSerializer,
    MatchCreateSerializer,
    MatchSerializer,
    NightCloseSerializer,
    NightSerializer,
    TableSerializer,
)
from api.views.ledger import SettlementActions
from scorebook.clubs.models import Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.numbers import parse_id
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.matches import selectors, services, visitors
from scorebook.matches.models import Deal, Match, Night, Table


class IfMatchRequired(Refusal):
    """A correction must name the version it edits (two directors, one deal)."""

    code = "deal.if_match_required"
    status = 428
    message = _("Say which version you are correcting: send If-Match with the deal's ETag.")


def my_clubs(request: Request) -> Any:
    return clubs_of(request.user)


class NightViewSet(
    SettlementActions,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = NightSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["club", "status", "date"]

    def get_queryset(self):
        return Night.objects.filter(club__in=my_clubs(self.request)).order_by("-date", "-id")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.night_open(
            club_id=data["club"].pk,
            date=data["date"],
            venue=data.get("venue", ""),
            user=signed_in(request),
        )
        return Response(NightSerializer(result).data, status=201)

    @extend_schema(request=NightCloseSerializer, responses=NightSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: Any = None) -> Response:
        """Close the night (it is settled). While a match is open the close is refused
        with 409 `night.open_matches` naming them, unless `end_open` lists exactly the
        open matches: then each is ended with the night, in one step."""
        night = self.get_object()
        body = NightCloseSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        result = services.night_close(
            night=night,
            user=signed_in(request),
            end_open=body.validated_data.get("end_open"),
            reason=body.validated_data["reason"],
        )
        return Response(NightSerializer(result).data)


class TableViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = TableSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR
    filterset_fields = ["night"]

    def get_queryset(self):
        return Table.objects.filter(night__club__in=my_clubs(self.request)).order_by("id")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.table_create(
            night=data["night"],
            number=data["number"],
            name=data.get("name", ""),
            user=signed_in(request),
        )
        return Response(TableSerializer(result).data, status=201)


class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = MatchSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.SCORER
    filterset_fields = ["night", "table", "game", "status"]

    def get_queryset(self):
        return (
            Match.objects.filter(night__club__in=my_clubs(self.request))
            .select_related("night")
            .order_by("-id")
        )

    @extend_schema(request=MatchCreateSerializer, responses={201: MatchSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = MatchCreateSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.match_create(
            night=data["night"],
            game=data["game"],
            rules=data.get("rules"),
            seats=data["seats"],
            user=signed_in(request),
            table=data.get("table"),
            first_dealer=data.get("first_dealer"),
            stake_amount=data.get("stake_amount", 0),
            stake_currency=data.get("stake_currency", ""),
        )
        return Response(MatchSerializer(result).data, status=201)

    @extend_schema(responses={200: MatchStateAnswerSerializer})
    @action(detail=True, methods=["get"])
    def state(self, request: Request, pk: Any = None) -> Response:
        """Running totals, whose deal, the end and the per-deal breakdown, re-derived."""
        match = self.get_object()
        deals = selectors.current_deals(match)
        folded = selectors.fold(match, [d.input for d in deals])
        return Response(
            {
                "match": folded.state.as_dict(),
                "deals": [
                    {"id": d.id, "number": d.number, "version": d.version, "result": r.as_dict()}
                    for d, r in zip(deals, folded.results, strict=True)
                ],
            }
        )

    @extend_schema(
        request=ConfirmRemainingSerializer, responses={200: ConfirmationSerializer(many=True)}
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="confirm-remaining",
        pagination_class=None,
        filter_backends=[],
    )
    def confirm_remaining(self, request: Request, pk: Any = None) -> Response:
        """ "Confirm the remaining deals": one tap on the caller's phone confirms, for the
        ``seat`` named, every current deal its side has not confirmed and did not enter
        (a table-phone confirmation where the club counts one; the caller's own seat is
        their own phone's). Answers the confirmations made, none when nothing was left."""
        match = found(self.get_queryset(), pk=pk)
        serializer = ConfirmRemainingSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        done = services.deal_confirm_remaining(
            match=match, seat=serializer.validated_data["seat"], user=signed_in(request)
        )
        return Response(ConfirmationSerializer(done, many=True).data)

    @extend_schema(request=FinalScoreSerializer, responses={200: MatchSerializer})
    @action(detail=True, methods=["post"], url_path="final-score", filter_backends=[])
    def final_score(self, request: Request, pk: Any = None) -> Response:
        """Close a match that has no deals with its final score (a paper sheet that kept
        nothing else; directors): the rules engine decides the result from the totals, and
        asks for ``winner`` where they cannot tell (``final.winner_needed``)."""
        match = found(self.get_queryset(), pk=pk)
        serializer = FinalScoreSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.match_record_final(
            match=match, totals=data["totals"], winner=data.get("winner"), user=signed_in(request)
        )
        return Response(MatchSerializer(result).data)

    @extend_schema(
        methods=["POST"],
        request=DealWriteSerializer,
        responses={201: DealSerializer},
    )
    @extend_schema(methods=["GET"], responses=DealSerializer(many=True))
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def deals(self, request: Request, pk: Any = None) -> Response:
        if request.method == "GET":
            match = self.get_object()
            queryset = (
                Deal.objects.filter(match=match, is_current=True)
                .select_related("entered_by")
                .prefetch_related("confirmations")
                .order_by("number")
            )
            page = self.paginate_queryset(queryset)
            return self.get_paginated_response(DealSerializer(page, many=True).data)
        return self._create_deal(request, pk)

    def _create_deal(self, request: Request, pk: Any = None) -> Response:
        match_id = parse_id(pk)
        if match_id is None:
            raise missing(Match)
        serializer = DealWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.deal_create(
            match=match_id,
            data=data["deal"],
            expected_number=data.get("number"),
            user=signed_in(request),
            client=request.META.get("HTTP_USER_AGENT", ""),
            client_id=data.get("client_id"),
            entered_side=data.get("entered_side", ""),
        )
        # A deal just stored has no confirmations yet: say so, rather than ask.
        data = DealSerializer(result, context={"confirmations": []}).data
        response = Response(data, status=status.HTTP_201_CREATED)
        response["ETag"] = result.etag
        return response


class DealViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = DealSerializer
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.SCORER

    def get_queryset(self):
        return (
            Deal.objects.filter(match__night__club__in=my_clubs(self.request))
            .select_related("match__night", "entered_by")
            .prefetch_related("confirmations")
        )

    def _visiting(self, pk: Any) -> Deal:
        """A deal of another club's match the caller corrects from outside that club (the
        away club's director of a championship fixture: ``matches.visitors``); else the
        404 of a deal that is not the caller's."""
        number = parse_id(pk)
        deal = Deal.objects.filter(pk=number).first() if number is not None else None
        user = self.request.user
        if (
            deal is None
            or not user.is_authenticated
            or visitors.visiting(deal.match_id, user) is None
        ):
            raise missing(Deal)
        return deal

    def _deal(self, pk: Any) -> Deal:
        number = parse_id(pk)
        mine = self.get_queryset().filter(pk=number).first() if number is not None else None
        return mine if mine is not None else self._visiting(pk)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A deal of the caller's club; or of a championship fixture's match at the home
        club, for a director of the away club (to read its ETag before a correction)."""
        try:
            deal = self.get_object()
        except (Http404, NotFound):
            deal = self._visiting(kwargs.get("pk"))
        response = Response(DealSerializer(deal).data)
        response["ETag"] = deal.etag
        return response

    @extend_schema(
        request=DealWriteSerializer,
        responses={201: DealSerializer},
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=True)],
    )
    @action(detail=True, methods=["post"])
    def correct(self, request: Request, pk: Any = None) -> Response:
        """A new version of the deal; needs If-Match with the version it edits. A
        director of the away club of a championship fixture corrects the deals of its
        matches at the home club too."""
        deal = self._deal(pk)
        tag = request.META.get("HTTP_IF_MATCH")
        if not tag:
            raise IfMatchRequired(path="If-Match")
        deal_id, version = _tag_of(tag)
        serializer = DealWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.deal_correct(
            deal=deal,
            data=data["deal"],
            reason=data.get("reason", ""),
            user=signed_in(request),
            expected_version=version,
            expected_id=deal_id,
        )
        response = Response(DealSerializer(result).data, status=201)
        response["ETag"] = result.etag
        return response

    @extend_schema(request=ConfirmSerializer, responses={201: ConfirmationSerializer})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: Any = None) -> Response:
        """Confirm this deal version: from the caller's own seat (``{}``), for a seat by a
        tap on the caller's phone (``{"seat": "E", "method": "table_phone"}``, where the
        club counts it: never the seat or the side of who entered it), or a director's
        override (``{"override_reason": "..."}``). Confirming again gives the same one."""
        deal = found(self.get_queryset(), pk=pk)
        serializer = ConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = signed_in(request)
        if data["method"] == "table_phone":
            result = services.deal_confirm_at_table(deal=deal, seat=data["seat"], user=user)
        else:
            reason = data.get("override_reason", "") if data["method"] == "override" else ""
            result = services.deal_confirm(deal=deal, user=user, override_reason=reason)
        return Response(ConfirmationSerializer(result).data, status=201)

    @extend_schema(responses=DealSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def history(self, request: Request, pk: Any = None) -> Response:
        """Every version of this deal, oldest first, with who, when and why."""
        deal = self.get_object()
        versions = (
            Deal.objects.filter(match=deal.match, number=deal.number)
            .select_related("entered_by")
            .prefetch_related("confirmations")
            .order_by("version")
        )
        return Response(DealSerializer(versions, many=True).data)


def _tag_of(tag: str) -> tuple[int | None, int | None]:
    """ETags are ``"<id>-<version>"``: both must be the current version's. ``*`` matches
    whatever is current; anything else matches no version."""
    if tag.strip() == "*":
        return None, None
    found = re.fullmatch(r'(?:W/)?"?(\d+)-(\d+)"?', tag.strip())
    return (int(found.group(1)), int(found.group(2))) if found else (-1, -1)
