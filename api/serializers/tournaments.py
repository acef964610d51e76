"""Tonight's tournament: its settings, its entries, its rounds by table, its standings and
its money (the answers are built from ``scorebook.tournaments.boards`` and ``selectors``).
Ids of entries and pairings are checked against the tournament in the views: another
tournament's (or club's) is a 404, as a missing one."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.scoping import OwnClubsField
from scorebook.core.numbers import MAX_ID
from scorebook.matches.models import Night
from scorebook.standings.models import League
from scorebook.tournaments.boards import NextStep, RoundBoard, TableLine
from scorebook.tournaments.models import Entry, Single, Tournament
from scorebook.tournaments.ranking import CRITERIA
from scorebook.tournaments.selectors import StandingRow

#: The longest guest name taken in one step (the player's column).
NAME_MAX = 80

SERIES = League.SeriesKind.choices  # the leagues' series, the same enum


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament as created (directors) and read (members)."""

    night = OwnClubsField(queryset=Night.objects.all())
    rules = serializers.JSONField(
        required=False,
        help_text='The house rules each match is created with, e.g. {"profile": "classic_21"}.',
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=CRITERIA),
        required=False,
        help_text="The tie-break chain, in order; `lot` last.",
    )
    series = serializers.ChoiceField(choices=SERIES, required=False)
    prizes = serializers.ListField(
        child=serializers.DecimalField(max_digits=8, decimal_places=2, min_value=0),
        required=False,
        max_length=64,
        help_text="Per place from the first: a percentage of the pot or a fixed amount.",
    )
    rounds = serializers.IntegerField(min_value=1, max_value=30, required=False)
    group_size = serializers.IntegerField(min_value=3, max_value=5, required=False)
    qualifiers = serializers.IntegerField(min_value=1, max_value=4, required=False)
    series_games = serializers.IntegerField(min_value=1, max_value=9, required=False)
    points_win = serializers.IntegerField(min_value=0, max_value=100, required=False)
    points_draw = serializers.IntegerField(min_value=0, max_value=100, required=False)
    points_loss = serializers.IntegerField(min_value=0, max_value=100, required=False)
    entry_fee = serializers.DecimalField(
        max_digits=8, decimal_places=2, min_value=0, required=False
    )
    club_share = serializers.DecimalField(
        max_digits=8, decimal_places=2, min_value=0, required=False
    )
    # Blank (no money) is allow_blank's, not the pattern's: the schema says oneOf the two,
    # and a pattern that matched "" too made a blank currency fit both, so neither.
    currency = serializers.RegexField(r"^[A-Z]{3}$", required=False, allow_blank=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "night",
            "name",
            "game",
            "rules",
            "format",
            "rounds",
            "group_size",
            "qualifiers",
            "seeding",
            "series",
            "series_games",
            "tiebreaks",
            "points_win",
            "points_draw",
            "points_loss",
            "entry_fee",
            "currency",
            "prize_kind",
            "prizes",
            "club_share",
            "status",
            "started_at",
            "finished_at",
            "created_at",
        ]
        read_only_fields = ["club", "status", "started_at", "finished_at", "created_at"]
        validators: list[Any] = []  # a name taken tonight: the service's 409, in words


class TournamentUpdateSerializer(TournamentSerializer):
    """The settings a director changes (PATCH): before round 1 any of them (not the fee
    once one is paid); afterwards the name, the tie-breaks, the points and the prizes.
    The night, the game and the house rules stay as created."""

    night = OwnClubsField(read_only=True)
    rules = serializers.JSONField(read_only=True)

    class Meta(TournamentSerializer.Meta):
        read_only_fields = [*TournamentSerializer.Meta.read_only_fields, "game"]


class TournamentSingleWithdrawSerializer(serializers.Serializer):
    single = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    reason = serializers.CharField(max_length=200, allow_blank=True, help_text="In words.")


@extend_schema_field(
    {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "maxLength": NAME_MAX}]}
)
class PlayerOrNameField(serializers.Field):
    """An existing player's id, or a new guest's name (made in the same step)."""

    default_error_messages = {
        "invalid": _("A player's id or a new guest's name."),
        "too_long": _("A name of at most 80 characters."),
    }

    def to_internal_value(self, data: Any) -> int | str:
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, int):
            if not 1 <= data <= MAX_ID:
                self.fail("invalid")
            return data
        if isinstance(data, str) and data.strip():
            if len(data) > NAME_MAX:
                self.fail("too_long")
            return data
        self.fail("invalid")
        raise AssertionError  # fail raises

    def to_representation(self, value: Any) -> Any:
        return value


class TournamentEntryAddSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=PlayerOrNameField(),
        min_length=2,
        max_length=2,
        help_text="The pair: each a player's id or a new guest's name.",
    )
    name = serializers.CharField(max_length=170, required=False, allow_blank=True, default="")


class TournamentSingleAddSerializer(serializers.Serializer):
    player = PlayerOrNameField(help_text="A player's id or a new guest's name.")


class TournamentEntrySerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    player_names = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "name",
            "players",
            "player_names",
            "seed",
            "lot",
            "drawn",
            "first_round",
            "group",
            "withdrawn_at",
            "withdrawn_after",
            "withdrawal_reason",
        ]

    def get_players(self, entry: Entry) -> list[int]:
        return [entry.first_id, entry.second_id]

    def get_player_names(self, entry: Entry) -> list[str]:
        return [entry.first.name, entry.second.name]


class TournamentSingleSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Single
        fields = ["id", "player", "player_name", "entry"]


class TournamentRegistrationSerializer(serializers.Serializer):
    entries = TournamentEntrySerializer(many=True)
    singles = TournamentSingleSerializer(many=True, help_text="Players waiting for the draw.")


class TournamentDrawSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seed = serializers.IntegerField(help_text="The stored seed: the draw can be checked.")
    pairs = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    entries = TournamentEntrySerializer(many=True)


class TournamentEntryRefSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class TournamentSwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    second = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class TournamentWithdrawSerializer(TournamentEntryRefSerializer):
    reason = serializers.CharField(max_length=200, allow_blank=True, help_text="In words.")


class TournamentCancelSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, allow_blank=True, help_text="In words.")


class TournamentForfeitSerializer(TournamentWithdrawSerializer):
    pairing = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class TournamentPairingRefSerializer(serializers.Serializer):
    pairing = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class TournamentMatchLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()


class TournamentTableLineSerializer(serializers.Serializer):
    pairing = serializers.IntegerField(source="pairing_id")
    board = serializers.IntegerField()
    table = serializers.IntegerField(source="table_number", allow_null=True)
    home = serializers.IntegerField(source="home.pk")
    home_name = serializers.CharField(source="home.name")
    away = serializers.IntegerField(source="away.pk", allow_null=True, help_text="Null: a bye.")
    away_name = serializers.CharField(source="away.name", allow_null=True)
    status = serializers.ChoiceField(
        choices=["bye", "waiting", "playing", "bella", "played", "forfeit"]
    )
    home_wins = serializers.IntegerField()
    away_wins = serializers.IntegerField()
    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True)
    decided = serializers.BooleanField()
    needs_match = serializers.BooleanField(help_text="La bella or the series' next match.")
    forfeited_by = serializers.IntegerField(allow_null=True)
    forfeit_reason = serializers.CharField()
    matches = TournamentMatchLinkSerializer(many=True)


def line_data(line: TableLine) -> dict[str, Any]:
    return {
        "pairing": line.pairing_id,
        "board": line.board,
        "table": line.table_number,
        "home": line.home.pk,
        "home_name": line.home.name,
        "away": line.away.pk if line.away else None,
        "away_name": line.away.name if line.away else None,
        "status": line.status,
        "home_wins": line.home_wins,
        "away_wins": line.away_wins,
        "home_points": line.home_points,
        "away_points": line.away_points,
        "winner": line.winner,
        "decided": line.decided,
        "needs_match": line.needs_match,
        "forfeited_by": line.forfeited_by,
        "forfeit_reason": line.forfeit_reason,
        "matches": [{"id": m.pk, "status": m.status} for m in line.matches],
    }


class TournamentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    stage = serializers.CharField()
    status = serializers.ChoiceField(choices=["paired", "playing", "closed"])
    started_at = serializers.DateTimeField(allow_null=True)
    lines = TournamentTableLineSerializer(many=True, help_text="By table, top first; byes last.")


def _when(value: Any) -> str | None:
    return None if value is None else serializers.DateTimeField().to_representation(value)


def round_data(board: RoundBoard) -> dict[str, Any]:
    return {
        "number": board.round.number,
        "stage": board.round.stage,
        "status": board.status,
        "started_at": _when(board.round.started_at),
        "lines": [line_data(line) for line in board.lines],
    }


class TournamentStandingSerializer(serializers.Serializer):
    position = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField()
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    byes = serializers.IntegerField()
    match_points = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    scored = serializers.IntegerField()
    conceded = serializers.IntegerField()
    difference = serializers.IntegerField()
    decided_by = serializers.ChoiceField(
        choices=list(CRITERIA),
        allow_null=True,
        help_text="The criterion that placed this entry (null: shared, or nothing split it).",
    )
    shared = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


def standing_data(row: StandingRow) -> dict[str, Any]:
    r = row.row
    return {
        "position": r.position,
        "entry": row.entry.pk,
        "name": row.entry.name,
        "played": r.played,
        "won": r.won,
        "drawn": r.drawn,
        "lost": r.lost,
        "byes": r.byes,
        "match_points": r.match_points,
        "buchholz": r.buchholz,
        "scored": r.scored,
        "conceded": r.conceded,
        "difference": r.difference,
        "decided_by": r.decided_by,
        "shared": r.shared,
        "withdrawn": row.entry.withdrawn,
    }


class TournamentPrizeSerializer(serializers.Serializer):
    plays_for_money = serializers.BooleanField()
    entry_fee = serializers.DecimalField(max_digits=8, decimal_places=2, required=False)
    currency = serializers.CharField(required=False)
    pot = serializers.DecimalField(
        max_digits=12, decimal_places=2, required=False, help_text="What the pot holds now."
    )
    prize_kind = serializers.CharField(required=False)
    prizes = serializers.ListField(child=serializers.CharField(), required=False)
    club_share = serializers.DecimalField(max_digits=8, decimal_places=2, required=False)


class TournamentNextStepSerializer(serializers.Serializer):
    can_register = serializers.BooleanField()
    can_draw = serializers.BooleanField()
    can_pair = serializers.BooleanField()
    can_start = serializers.BooleanField()
    can_finish = serializers.BooleanField()
    can_withdraw = serializers.BooleanField()
    rounds_total = serializers.IntegerField()
    round_status = serializers.CharField(allow_null=True)


def next_data(step: NextStep) -> dict[str, Any]:
    return {
        "can_register": step.can_register,
        "can_draw": step.can_draw,
        "can_pair": step.can_pair,
        "can_start": step.can_start,
        "can_finish": step.can_finish,
        "can_withdraw": step.can_withdraw,
        "rounds_total": step.rounds_total,
        "round_status": step.round_status,
    }
