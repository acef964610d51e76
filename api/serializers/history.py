"""The import of a club's history (docs/import.md): the upload and the import's state."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.scoping import OwnClubsField
from scorebook.clubs.models import Club
from scorebook.history.models import Import
from scorebook.history.selectors import summary


class ImportUploadSerializer(serializers.Serializer):
    club = OwnClubsField(queryset=Club.objects.all())
    file = serializers.FileField(
        help_text="The import template as CSV or XLSX (docs/import.md); at most 10 MB."
    )


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
    percent = serializers.IntegerField(read_only=True, help_text="Nights done, in percent.")
    summary = serializers.SerializerMethodField()

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
            "summary",
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
