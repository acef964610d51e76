"""What the rules engine answers, described for the schema: a deal's result, a match's
running state, the catalogue of games, a stateless score.

The answers are the engine's own ``as_dict()`` (``scorebook.rules.result``); these
serializers only describe them, the fields every game shares. What differs per game is
free-form and says so: ``facts``, ``extra``, a claim, the detail of a breakdown line or
an outcome (the deal's and the house rules' own shapes are the engine's JSON Schemas).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

#: The help text that marks a field free-form on purpose (tests/api/test_answer_types.py).
FREE_FORM = "Free-form (game-specific)"


def _per_scorer() -> serializers.DictField:
    return serializers.DictField(
        child=serializers.IntegerField(), help_text="Scorer (a side or a seat): n."
    )


def _free(what: str) -> serializers.DictField:
    return serializers.DictField(help_text=f"{FREE_FORM}: {what}.")


class WordsSerializer(serializers.Serializer):
    """A text in both languages."""

    en = serializers.CharField()
    it = serializers.CharField()


class ProblemSerializer(serializers.Serializer):
    """A problem the engine found, in both languages (a warning: the deal still counts)."""

    code = serializers.CharField()
    path = serializers.CharField(allow_blank=True)
    message = WordsSerializer()
    params = _free("the values the message names")


class LineSerializer(serializers.Serializer):
    """One line of a scorer's breakdown; its detail (``thirds``, ``suit``...) beside."""

    kind = serializers.CharField(help_text="cards, last_trick, declaration, event, penalty...")
    points = serializers.IntegerField()


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]})
class ScalarField(serializers.JSONField):
    """A house rule's value: a string, a number or a bool."""


class DealResultSerializer(serializers.Serializer):
    """A scored deal (``DealResult``): what each scorer adds, why, and what it ends."""

    game = serializers.CharField()
    level = serializers.CharField(help_text="totals, cards or play: how much was entered.")
    annulled = serializers.BooleanField()
    points = _per_scorer()
    breakdown = serializers.DictField(
        child=serializers.ListField(child=LineSerializer()),
        help_text="Scorer: the lines of its points.",
    )
    event = serializers.CharField(allow_null=True, help_text="cappotto, stramazzo...")
    multiplier = serializers.IntegerField()
    ends_match = serializers.BooleanField()
    claim = serializers.DictField(allow_null=True, help_text=f"{FREE_FORM}: the claim made.")
    same_dealer = serializers.BooleanField()
    units = serializers.DictField(
        child=serializers.IntegerField(), help_text="Player: stake units won (+) or paid (-)."
    )
    pots = serializers.DictField(child=serializers.IntegerField(), help_text="Pot: units.")
    facts = _free("the derived numbers: thirds, tricks, last trick")
    warnings = ProblemSerializer(many=True)


class OutcomeSerializer(serializers.Serializer):
    """How a finished match ended and what it pays; game-specific detail beside."""

    reason = serializers.CharField(help_text="target, claim, false_claim, event, deals...")
    winners = serializers.ListField(child=serializers.CharField())
    losers = serializers.ListField(child=serializers.CharField())
    multiplier = serializers.IntegerField()
    units = serializers.DictField(child=serializers.IntegerField())
    totals = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Race games: the totals."
    )
    winning_side = serializers.CharField(required=False, help_text="Race games: who won.")
    final_score = serializers.BooleanField(
        required=False, help_text="Recorded by its final score, without deals."
    )
    final_winner = serializers.CharField(
        required=False, help_text="The winner named with the final score (a scorer)."
    )


class MatchStateSerializer(serializers.Serializer):
    """A match's running state (``MatchState``): totals, the next dealer, the end."""

    format = serializers.IntegerField(help_text="The layout's version.")
    game = serializers.CharField()
    seats = serializers.ListField(child=serializers.CharField(), help_text="In playing order.")
    scorers = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField(help_text="Who deals the next deal.")
    totals = _per_scorer()
    units = serializers.DictField(child=serializers.IntegerField())
    deals_played = serializers.IntegerField()
    deals_annulled = serializers.IntegerField()
    finished = serializers.BooleanField()
    outcome = OutcomeSerializer(allow_null=True)
    extra = _free("what the next deal needs (pots, eliminated players)")


class StateDealSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    result = DealResultSerializer()


class MatchStateAnswerSerializer(serializers.Serializer):
    """A match's state re-derived from its current deals, and each deal's result."""

    match = MatchStateSerializer()
    deals = StateDealSerializer(many=True)


class RulesSerializer(serializers.Serializer):
    """House rules resolved: the profile named and every switch's value."""

    game = serializers.CharField()
    profile = serializers.CharField(allow_null=True)
    values = serializers.DictField(child=ScalarField(), help_text="Switch: its value.")


class ScoredMatchSerializer(serializers.Serializer):
    """A whole match scored without storing it."""

    ok = serializers.BooleanField()
    rules = RulesSerializer()
    match = MatchStateSerializer()
    deals = DealResultSerializer(many=True)


class ScoredDealSerializer(serializers.Serializer):
    """One deal scored without storing it."""

    ok = serializers.BooleanField()
    result = DealResultSerializer()


class SwitchSerializer(serializers.Serializer):
    """A house-rule switch: its values (or a range), its default, its help."""

    key = serializers.CharField()
    default = ScalarField()
    help = serializers.CharField(allow_blank=True)
    values = serializers.ListField(child=ScalarField(), required=False)
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)
    tables = serializers.DictField(
        child=serializers.DictField(),
        required=False,
        help_text=f"{FREE_FORM}: value: the table it selects.",
    )


class GameSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = WordsSerializer()
    players = serializers.ListField(child=serializers.IntegerField())
    settlement = serializers.CharField(help_text="deal or match: when a stake is paid.")
    levels = serializers.ListField(child=serializers.CharField())
    switches = SwitchSerializer(many=True)
    profiles = serializers.DictField(
        child=serializers.DictField(child=ScalarField()), help_text="Profile: switch: value."
    )


class GamesSerializer(serializers.Serializer):
    games = GameSerializer(many=True)
