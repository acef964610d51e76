"""The import of a club's history (docs/import.md): the upload and the import's state."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.scoping import OwnClubsField
from scorebook.clubs.models import Club
from scorebook.history.checker import problem_errors
from scorebook.history.models import Import
from scorebook.history.selectors import summary


class ImportUploadSerializer(serializers.Serializer):
    club = OwnClubsField(queryset=Club.objects.all())
    file = serializers.FileField(
        help_text="The import template as CSV or XLSX (docs/import.md); at most "
        f"{settings.IMPORT_MAX_MB} MB (IMPORT_MAX_MB)."
    )


class ImportProblemParamsSerializer(serializers.Serializer):
    """What a problem's words were filled with: a row's problem names its ``row``,
    ``column`` and ``letter``; a problem of the whole file (its kind, its header, a cell
    refused as the file is read) the values its message names. Each is there only where
    the problem has it (tests/api/test_import_problem_params.py keeps the list whole)."""

    row = serializers.IntegerField(
        required=False, min_value=1, help_text="The file's row (the header is row 1)."
    )
    column = serializers.CharField(
        required=False,
        help_text="The template's column (`game`, `seats`...); a header's unknown column: "
        "the name the file gives it; a cell refused as the file is read (a control "
        "character, a formula, too long): its letter, as `letter`.",
    )
    letter = serializers.CharField(
        required=False, help_text="The column's letter, as the spreadsheet shows it (A ... AA)."
    )
    char = serializers.CharField(required=False, help_text="A refused character, as `U+XXXX`.")
    limit = serializers.FloatField(
        required=False,
        help_text="The limit passed: rows (`import.too_many_rows`), characters "
        "(`import.long_cell`) or MB (`import.too_large`, `import.archive_too_large`).",
    )
    size = serializers.FloatField(required=False, help_text="The file's size, in MB.")
    detail = serializers.CharField(
        required=False, help_text="What the file is, or what is wrong with it, in words."
    )
    known = serializers.CharField(
        required=False, help_text="The template's columns, separated by commas."
    )


class ImportErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    path = serializers.CharField()
    params = ImportProblemParamsSerializer()


class ImportSummarySerializer(serializers.Serializer):
    nights = serializers.IntegerField(help_text="Nights the import will store.")
    nights_already = serializers.IntegerField(help_text="Nights of the file already imported.")
    matches = serializers.IntegerField()
    deals = serializers.IntegerField()
    final_scores = serializers.IntegerField(
        help_text="Of the matches, those recorded by their final score (no deals)."
    )
    abandoned = serializers.IntegerField(
        help_text="Of the matches, those the import abandons with their reason."
    )
    stopped_at_close = serializers.IntegerField(
        help_text="Of the matches, chips sessions the file leaves open: the night's close "
        "finishes them with their scores."
    )
    abandoned_at_close = serializers.IntegerField(
        help_text="Of the matches, those the file leaves unfinished (no end, no final score, "
        "not abandoned): the night's close abandons them."
    )
    first = serializers.DateField(allow_null=True)
    last = serializers.DateField(allow_null=True)
    years = serializers.ListField(child=serializers.CharField())
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Names matched to the club's players."
    )
    guests = serializers.ListField(
        child=serializers.CharField(), help_text="Names the import adds as guests."
    )


class ImportSerializer(serializers.ModelSerializer):
    percent = serializers.IntegerField(
        read_only=True,
        help_text="While `checking`: the rows checked, in percent; afterwards the nights "
        "imported, in percent.",
    )
    summary = serializers.SerializerMethodField()
    problems = serializers.SerializerMethodField(
        help_text="When `refused`: why, one entry per problem, in the shape of an error "
        "answer's `errors` (a row's problem: `params` with its `row`, `column` and `letter`)."
    )

    class Meta:
        model = Import
        fields = [
            "id",
            "club",
            "filename",
            "file_hash",
            "status",
            "nights_total",
            "nights_done",
            "deals_total",
            "percent",
            "rows_done",
            "rows_total",
            "summary",
            "problems",
            "error",
            "created_at",
            "accepted_at",
            "finished_at",
            "undone_at",
        ]
        read_only_fields = fields

    @extend_schema_field(ImportSummarySerializer)
    def get_summary(self, batch: Import) -> dict[str, Any]:
        return summary(batch)

    @extend_schema_field(ImportErrorSerializer(many=True))
    def get_problems(self, batch: Import) -> list[dict[str, Any]]:
        if batch.status != Import.Status.REFUSED:
            return []
        return problem_errors(batch.plan.get("problems", []))
