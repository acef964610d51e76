"""Stakes: ledger entries, a night's settlement (with CSV and PDF sheets), paid marks.

Members read; directors settle and mark transfers paid (as for matches)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.permissions import ClubRole
from api.serializers.ledger import (
    EntrySerializer,
    SettlementSerializer,
    SettlementSheetSerializer,
    SettlementVersionSerializer,
    TransferSerializer,
)
from scorebook.clubs.models import Role
from scorebook.clubs.selectors import clubs_of
from scorebook.core.people import signed_in
from scorebook.core.times import utc_iso
from scorebook.ledger import exports, selectors, services
from scorebook.ledger.models import Entry, Transfer
from scorebook.matches.models import Night


class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Every booked transfer, reversals included: the trail from a deal to a balance."""

    serializer_class = EntrySerializer
    permission_classes = [IsAuthenticated, ClubRole]
    filterset_fields = ["night", "match", "deal", "kind", "unit"]

    def get_queryset(self):
        return (
            Entry.objects.filter(club__in=clubs_of(self.request.user))
            .select_related("payer__player", "payee__player")
            .order_by("id")
        )


class TransferViewSet(viewsets.GenericViewSet):
    permission_classes = [IsAuthenticated, ClubRole]
    write_role = Role.DIRECTOR

    def get_queryset(self):
        return Transfer.objects.filter(
            settlement__night__club__in=clubs_of(self.request.user)
        ).select_related("settlement__night")

    @extend_schema(request=None, responses={200: TransferSerializer})
    @action(detail=True, methods=["post"])
    def paid(self, request: Request, pk: Any = None) -> Response:
        """Mark the transfer paid (who, when); marking it twice changes nothing."""
        transfer = self.get_object()
        transfer = services.transfer_mark_paid(transfer=transfer, user=signed_in(request))
        holders = selectors.account_holders([transfer.payer_id, transfer.payee_id])
        return Response(selectors.transfer_dict(transfer, holders))


def _night_sheet(night) -> tuple[dict, list, str]:
    rows, name = selectors.sheet_export(night)
    return selectors.sheet(night), rows, name


class SettlementActions:
    """Added to the nights endpoint: /nights/{id}/settlement and friends."""

    get_object: Callable[[], Night]  # the nights viewset's

    @extend_schema(responses={200: SettlementSheetSerializer})
    @action(detail=True, methods=["get"])
    def settlement(self, request: Request, pk: Any = None) -> Response:
        """Nets, the fewest transfers and the paid marks; provisional while no settlement
        has been computed (the night closes, or a director asks)."""
        night = self.get_object()
        body = selectors.sheet(night)
        body["matches"] = selectors.match_lines(night)
        return Response(body)

    @extend_schema(request=None, responses={200: SettlementSerializer})
    @action(detail=True, methods=["post"])
    def settle(self, request: Request, pk: Any = None) -> Response:
        """Compute and keep the settlement now (a new version only if anything changed)."""
        night = self.get_object()
        services.night_settle(night=night, user=signed_in(request))
        return Response(selectors.sheet(night))

    @extend_schema(responses=SettlementVersionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def settlements(self, request: Request, pk: Any = None) -> Response:
        """Every settlement version of the night, newest first."""
        night = self.get_object()
        versions = list(selectors.history(night))
        ids = [a for s in versions for t in s.transfers.all() for a in (t.payer_id, t.payee_id)]
        holders = selectors.account_holders(ids)
        return Response(
            [
                {
                    "version": s.version,
                    "computed_at": utc_iso(s.computed_at),
                    "nets": s.nets,
                    "transfers": [selectors.transfer_dict(t, holders) for t in s.transfers.all()],
                }
                for s in versions
            ]
        )

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="settlement/csv")
    def settlement_csv(self, request: Request, pk: Any = None) -> HttpResponse:
        _sheet, rows, name = _night_sheet(self.get_object())
        response = HttpResponse(exports.as_csv(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return response

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"], url_path="settlement/pdf")
    def settlement_pdf(self, request: Request, pk: Any = None) -> HttpResponse:
        night = self.get_object()
        _sheet, rows, name = _night_sheet(night)
        title = f"{night.club.name} — {night.date.isoformat()}"
        response = HttpResponse(exports.as_pdf(title, rows), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
        return response
