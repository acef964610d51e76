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
        # Read only (entries are booked by the services): no uniqueness check of its own.
        extra_kwargs: dict[str, dict[str, list[object]]] = {"reverses": {"validators": []}}


# -- a night's settlement: answers built by the ledger's selectors, described here --------


def _money(help_text: str) -> serializers.CharField:
    return serializers.CharField(help_text=f"{help_text}: a decimal with 2 places, as text.")


class TransferSerializer(serializers.Serializer):
    """One transfer of a settlement: the ledger accounts that pay and are paid and, beside
    each, its name and its player (null when the account is a pot)."""

    id = serializers.IntegerField(allow_null=True, help_text="Null in a provisional plan.")
    payer = serializers.IntegerField(help_text="The paying ledger account.")
    payer_name = serializers.CharField()
    payer_player = serializers.IntegerField(allow_null=True, help_text="Its player, if any.")
    payee = serializers.IntegerField(help_text="The ledger account paid.")
    payee_name = serializers.CharField()
    payee_player = serializers.IntegerField(allow_null=True, help_text="Its player, if any.")
    amount = _money("What is paid")
    unit = serializers.CharField(help_text="money, points, chips...")
    currency = serializers.CharField(allow_blank=True)
    paid_at = serializers.DateTimeField(allow_null=True)
    paid_by = serializers.CharField(allow_null=True, help_text="Who marked it paid.")


class NetSerializer(serializers.Serializer):
    account = serializers.IntegerField()
    name = serializers.CharField()
    player = serializers.IntegerField(allow_null=True, help_text="Null for a pot.")
    net = _money("Positive: is owed")


class NetGroupSerializer(serializers.Serializer):
    unit = serializers.CharField()
    currency = serializers.CharField(allow_blank=True)
    nets = NetSerializer(many=True)


class SettlementSerializer(serializers.Serializer):
    """A night's settlement: the kept version, or a provisional plan (not kept) while none
    has been computed; transfers still open and those already paid."""

    night = serializers.IntegerField()
    date = serializers.DateField()
    status = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    provisional = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    groups = NetGroupSerializer(many=True)
    transfers = TransferSerializer(many=True)
    paid = TransferSerializer(many=True)
    method = serializers.CharField()


class MatchLineSerializer(serializers.Serializer):
    """A match of the night and what it moved, per unit (``money:EUR``) and account id."""

    id = serializers.IntegerField()
    game = serializers.CharField()
    table = serializers.CharField(allow_null=True)
    status = serializers.CharField()
    seats = serializers.DictField(child=serializers.IntegerField(), help_text="Seat: player.")
    winners = serializers.ListField(child=serializers.CharField())
    multiplier = serializers.IntegerField()
    totals = serializers.DictField(child=serializers.IntegerField())
    stake = _money("The stake")
    currency = serializers.CharField(allow_blank=True)
    moved = serializers.DictField(
        child=serializers.DictField(child=serializers.CharField()),
        help_text="Unit (money:EUR) -> ledger account id -> amount.",
    )


class SettlementSheetSerializer(SettlementSerializer):
    """The settlement with the night's matches."""

    matches = MatchLineSerializer(many=True)


class SettlementVersionSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    computed_at = serializers.DateTimeField()
    nets = serializers.DictField(
        child=serializers.DictField(child=serializers.CharField()),
        help_text="Unit (money:EUR) -> ledger account id -> net, as kept.",
    )
    transfers = TransferSerializer(many=True)
