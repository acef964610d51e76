"""The import of a club's history: upload a file for its preview, accept it (a task does
the import; ``percent`` follows it), undo it. Directors only (docs/import.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.parsers import StrictMultiPartParser
from api.serializers.history import ImportSerializer, ImportUploadSerializer
from scorebook.core.people import signed_in
from scorebook.history import services
from scorebook.history.selectors import imports_directed_by
from scorebook.history.template import check_size


class ImportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A club's imports: the preview of an uploaded file, then the import's progress."""

    serializer_class = ImportSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["club", "status"]

    def get_queryset(self):
        return imports_directed_by(self.request.user).order_by("-created_at", "-id")

    @extend_schema(
        request={"multipart/form-data": ImportUploadSerializer},
        responses={202: ImportSerializer},
        description=(
            "Upload the import template (CSV or XLSX) for its preview. A file refused at "
            "once (too large: 413 `import.too_large`; not CSV or XLSX, macros, a zip bomb, "
            "not UTF-8: 400) stores nothing. Otherwise the answer is 202 with the import in "
            "`checking`: every row is checked by the rules engine in a task; follow "
            "`status`, `rows_done` and `percent` with `GET /api/v1/imports/{id}` until it is "
            "`preview` (accept it) or `refused`, whose `problems` hold one entry per problem, "
            "its `params` naming the file's `row`, `column` and column `letter` (the codes "
            "`import.*`; `import.nothing_new` when every night is already imported). "
            "Nothing of the club's record is stored until the preview is accepted; a "
            "preview not accepted expires after IMPORT_PREVIEW_DAYS days."
        ),
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        upload = request.FILES.get("file")
        if upload is not None:
            check_size(upload.size)
        serializer = ImportUploadSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data["file"]
        batch = services.import_upload(
            club=serializer.validated_data["club"],
            user=signed_in(request),
            filename=upload.name or "",
            data=upload.read(),
        )
        batch = self.get_queryset().get(pk=batch.pk)  # checked already where tasks run eagerly
        return Response(ImportSerializer(batch).data, status=status.HTTP_202_ACCEPTED)

    def get_parsers(self):
        if getattr(self, "action", None) == "create" or self.request is None:
            return [StrictMultiPartParser()]
        return super().get_parsers()

    @extend_schema(request=None, responses={202: ImportSerializer})
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: Any = None) -> Response:
        """Accept the preview: the import runs as a task; follow ``percent``."""
        batch = services.import_accept(batch=self.get_object(), user=signed_in(request))
        batch.refresh_from_db()
        return Response(ImportSerializer(batch).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={200: ImportSerializer})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: Any = None) -> Response:
        """Remove everything the import stored; the club is as it was before."""
        batch = services.import_undo(batch=self.get_object(), user=signed_in(request))
        return Response(ImportSerializer(batch).data)
