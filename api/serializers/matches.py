from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.deal_schema import DealField, HouseRulesField, ResolvedHouseRulesField
from api.scoping import OwnClubsField
from api.serializers.engine import DealResultSerializer, MatchStateSerializer, OutcomeSerializer
from scorebook.clubs.models import Club
from scorebook.matches.models import Confirmation, Deal, Match, Night, Table


@extend_schema_field(DealResultSerializer)
class DealResultField(serializers.JSONField):
    """A stored deal result, as the engine wrote it (described by ``DealResult``)."""


@extend_schema_field(MatchStateSerializer)
class MatchStateField(serializers.JSONField):
    """A match's stored running state (described by ``MatchState``)."""


@extend_schema_field(OutcomeSerializer(allow_null=True))
class OutcomeField(serializers.JSONField):
    """A finished match's outcome; null while it is played (described by ``Outcome``)."""


class NightSerializer(serializers.ModelSerializer):
    club = OwnClubsField(queryset=Club.objects.all())

    class Meta:
        model = Night
        fields = ["id", "club", "date", "venue", "status", "closed_at"]
        read_only_fields = ["status", "closed_at"]


class NightCloseSerializer(serializers.Serializer):
    """The close's one confirmation: the matches still open, each ended with the night."""

    end_open = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=500,
        help_text=(
            "The ids of the night's matches still open, all of them (a close without them, "
            "or naming others, is refused with `night.open_matches` listing them): each is "
            "ended with the night, a match with no end of its own (a chips session of no set "
            "number of deals) finished with its scores, any other abandoned."
        ),
    )
    reason = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the matches abandoned at the close stop (kept on each).",
    )


class TableSerializer(serializers.ModelSerializer):
    night = OwnClubsField(queryset=Night.objects.all())

    class Meta:
        model = Table
        fields = ["id", "night", "number", "name"]
        # A taken name or number is the service's 409 in words (races too), never a 400 here.
        validators: list[object] = []


class MatchSerializer(serializers.ModelSerializer):
    rules = ResolvedHouseRulesField(read_only=True)
    seats = serializers.DictField(
        child=serializers.IntegerField(), read_only=True, help_text="Seat: player id."
    )
    state = MatchStateField(read_only=True)
    result = OutcomeField(read_only=True, allow_null=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "night",
            "table",
            "game",
            "rules",
            "players",
            "seats",
            "first_dealer",
            "stake_amount",
            "stake_currency",
            "stake_unit",
            "status",
            "stopped",
            "state",
            "result",
            "version",
            "created_at",
        ]
        read_only_fields = [
            "players",
            "stake_unit",
            "status",
            "stopped",
            "state",
            "result",
            "version",
        ]


class MatchCreateSerializer(serializers.Serializer):
    night = OwnClubsField(queryset=Night.objects.all())
    table = OwnClubsField(queryset=Table.objects.all(), required=False, allow_null=True)
    game = serializers.CharField(max_length=40)
    rules = HouseRulesField(
        required=False, help_text="The house rules: a profile and switch values (optional)."
    )
    seats = serializers.DictField(child=serializers.IntegerField())
    first_dealer = serializers.CharField(required=False, allow_null=True, max_length=4)
    stake_amount = serializers.DecimalField(
        max_digits=10, decimal_places=2, required=False, min_value=0
    )
    stake_currency = serializers.CharField(required=False, allow_blank=True, max_length=3)


class ConfirmationSerializer(serializers.ModelSerializer):
    """One seat's confirmation and how it was given: ``method`` is ``own_phone``, ``pin``,
    ``table_phone`` (a tap on the phone ``device_user`` was signed in on; ``user`` is empty,
    guests confirm too) or ``override`` (a director, with a reason; ``override`` says so).
    The confirm operations answer with this shape too."""

    override = serializers.BooleanField(read_only=True)

    class Meta:
        model = Confirmation
        fields = [
            "id",
            "deal",
            "user",
            "seat",
            "player",
            "method",
            "device_user",
            "override",
            "reason",
            "at",
        ]
        # Read only (the confirm operations write): no uniqueness check of its own.
        validators: list[object] = []


_datetime = serializers.DateTimeField()


class DealSerializer(serializers.ModelSerializer):
    # Null once the account that entered the deal is deleted (the foreign key sets null).
    entered_by = serializers.CharField(
        source="entered_by.username", default=None, allow_null=True, read_only=True
    )
    result = DealResultField(read_only=True)
    entered_side = serializers.CharField(
        read_only=True,
        help_text="Who entered this version at the table: their side (A, B...), or their "
        "seat where the game's sides are not fixed; empty when nobody said. The table "
        "phone's tap is for the other side only.",
    )
    confirmations = ConfirmationSerializer(many=True, read_only=True)
    input = serializers.JSONField(
        read_only=True,
        help_text="The deal as entered: its game's <Game>Deal<Level> (see DealInput).",
    )

    class Meta:
        model = Deal
        fields = [
            "id",
            "match",
            "number",
            "version",
            "is_current",
            "supersedes",
            "input",
            "level",
            "result",
            "entered_by",
            "entered_side",
            "entered_at",
            "client",
            "client_id",
            "reason",
            "confirmations",
        ]
        read_only_fields = fields

    def to_representation(self, deal: Deal) -> dict:
        """The declared fields, written out: deal entry answers with this on every POST,
        and building ModelSerializer fields per call cost more than the rest of the
        response. A test checks it gives exactly what the generic path gives. The caller
        may pass the deal's ``confirmations`` in the context (a deal just stored has none)."""
        confirmations = self.context.get("confirmations")
        if confirmations is None:
            confirmations = deal.confirmations.all()
        return {
            "id": deal.pk,
            "match": deal.match_id,
            "number": deal.number,
            "version": deal.version,
            "is_current": deal.is_current,
            "supersedes": deal.supersedes_id,
            "input": deal.input,
            "level": deal.level,
            "result": deal.result,
            "entered_by": deal.entered_by.username if deal.entered_by is not None else None,
            "entered_side": deal.entered_side,
            "entered_at": _datetime.to_representation(deal.entered_at),
            "client": deal.client,
            "client_id": str(deal.client_id) if deal.client_id is not None else None,
            "reason": deal.reason,
            "confirmations": [
                {
                    "id": c.pk,
                    "deal": c.deal_id,
                    "user": c.user_id,
                    "seat": c.seat,
                    "player": c.player_id,
                    "method": c.method,
                    "device_user": c.device_user_id,
                    "override": c.override,
                    "reason": c.reason,
                    "at": _datetime.to_representation(c.at),
                }
                for c in confirmations
            ],
        }


class FinalScoreSerializer(serializers.Serializer):
    """A match without deals closed by its final score (a director's act): the totals per
    scorer, and who won where the totals cannot tell under the match's house rules."""

    totals = serializers.DictField(
        child=serializers.JSONField(),
        help_text="The final total of each scorer (A and B for the games in pairs, P1 ... "
        'Pn for the others), e.g. {"A": 21, "B": 13}; the rules engine checks them.',
    )
    winner = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=8,
        help_text="The scorer who won, where the totals cannot tell under the house rules "
        "(both sides past the target when the first to reach it wins; the match is refused "
        "with final.winner_needed without it); elsewhere checked against them.",
    )


class DealWriteSerializer(serializers.Serializer):
    deal = DealField(help_text="The deal, in the engine's deal format.")
    number = serializers.IntegerField(
        required=False, min_value=1, help_text="The number this deal expects to be."
    )
    client_id = serializers.UUIDField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    entered_side = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=16,
        help_text="Who is entering the deal at the table when the caller does not sit at the "
        "match: a side of the match (A, B), or a seat where the game's sides are not fixed. "
        "The other side then confirms it with a tap on this phone (table_phone); a caller "
        "seated at the match enters for their own side.",
    )


class ConfirmSerializer(serializers.Serializer):
    """How to confirm: from the caller's own seat (nothing, or ``method: own_phone``), for
    a ``seat`` by a tap on the caller's phone (``method: table_phone``, the default when a
    seat is named), or a director's ``override`` with ``override_reason``."""

    method = serializers.ChoiceField(
        choices=["own_phone", "table_phone", "override"],
        required=False,
        help_text="own_phone (default), table_phone (needs seat), override (a director).",
    )
    seat = serializers.CharField(
        required=False,
        max_length=4,
        help_text="The seat confirming on the table phone, e.g. E (table_phone).",
    )
    override_reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    def validate(self, data: dict) -> dict:
        method = data.get("method") or (
            "override"
            if data.get("override_reason")
            else "table_phone"
            if data.get("seat")
            else "own_phone"
        )
        if method == "table_phone" and not data.get("seat"):
            raise serializers.ValidationError({"seat": _("Name the seat that confirms.")})
        if method == "override" and not data.get("override_reason", "").strip():
            raise serializers.ValidationError({"override_reason": _("Say why you override.")})
        return {**data, "method": method}


class ConfirmRemainingSerializer(serializers.Serializer):
    seat = serializers.CharField(
        max_length=4, help_text="The seat whose remaining deals are confirmed, e.g. W."
    )
