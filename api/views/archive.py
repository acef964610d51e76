"""Taking data out and forgetting a person (issue 28): a club's whole record as a ZIP
(directors), one's own data as a ZIP, erasing a player (directors) or one's own account.
The services check who may; objects of another club are 404, as everywhere."""

from typing import Any

from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lookups import found
from api.serializers.archive import ErasedPlayerSerializer, MeEraseRequest, PlayerEraseRequest
from scorebook.archive import exports, services
from scorebook.clubs.models import Player
from scorebook.clubs.selectors import clubs_of
from scorebook.core.people import signed_in

ZIP = {(200, "application/zip"): OpenApiTypes.BINARY}


def _zip(file: Any, name: str) -> FileResponse:
    return FileResponse(file, as_attachment=True, filename=name, content_type="application/zip")


class ClubExportView(APIView):
    """The club's whole record (nights, matches, every deal version, confirmations,
    audit log, ledger, settlements, standings, leagues) as a ZIP of JSON and CSV with a
    README, and the matches in the import template's columns: directors and the owner."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ZIP, operation_id="clubs_export")
    def get(self, request: Request, pk: int) -> FileResponse:
        club = found(clubs_of(request.user), pk=pk)
        file = services.club_export_file(club=club, user=signed_in(request))
        return _zip(file, exports.club_export_name(club))


class MeExportView(APIView):
    """Everything Scorebook keeps about the caller and their players, in every club, as
    a ZIP of JSON with a README."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ZIP, operation_id="me_export")
    def get(self, request: Request) -> FileResponse:
        user = signed_in(request)
        return _zip(services.person_export_file(user=user), "scorebook-my-data.zip")


class PlayerEraseView(APIView):
    """Erase a player's personal data (directors): the name becomes "Erased player #n"
    everywhere and a linked account used only in this club is stripped; the record's
    numbers stay. Cannot be undone; ``name`` must be the player's name."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=PlayerEraseRequest,
        responses={200: ErasedPlayerSerializer},
        operation_id="players_erase",
    )
    def post(self, request: Request, pk: int) -> Response:
        clubs = clubs_of(request.user)
        player = found(Player.objects.filter(club__in=clubs), pk=pk)
        body = PlayerEraseRequest(data=request.data)
        body.is_valid(raise_exception=True)
        erasure = services.player_erase(
            player=player, user=signed_in(request), confirm=body.validated_data["name"]
        )
        erased = {"player": player.pk, "name": erasure.player.name, "number": erasure.number}
        return Response(ErasedPlayerSerializer(erased).data)


class MeEraseView(APIView):
    """Erase your own account: each of your players takes a pseudonym in every club, the
    account is stripped and every token and session ends. Cannot be undone."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=MeEraseRequest, responses={204: None}, operation_id="me_erase")
    def post(self, request: Request) -> Response:
        body = MeEraseRequest(data=request.data)
        body.is_valid(raise_exception=True)
        user = signed_in(request)
        services.account_erase(user=user, confirm=body.validated_data["username"])
        return Response(status=204)
