"""The ledger's serializers: a booked entry."""

from rest_framework import serializers

from scorebook.ledger.models import Entry


class EntrySerializer(serializers.ModelSerializer):
    payer_name = serializers.CharField(source="payer.__str__", read_only=True)
    payee_name = serializers.CharField(source="payee.__str__", read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "night",
            "match",
            "deal",
            "deal_version",
            "match_version",
            "kind",
            "payer",
            "payer_name",
            "payee",
            "payee_name",
            "amount",
            "unit",
            "currency",
            "reverses",
            "booked_at",
        ]
