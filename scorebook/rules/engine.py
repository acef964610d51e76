"""The engine's front door: score one deal, or fold a whole match, from plain JSON data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Problems, Rejection, messages
from .game import Game
from .games import REGISTRY
from .houserules import Rules
from .parse import join, known_fields
from .result import DealResult, MatchState
from .table import Pack

messages(
    {
        "game.unknown": (
            "There is no game {value!r}; games: {allowed}.",
            "Non esiste il gioco {value!r}; giochi: {allowed}.",
        ),
        "match.no_deals": (
            "'deals' must be a list of deals.",
            "'deals' deve essere una lista di smazzate.",
        ),
        "deal.before_unknown_scorer": (
            "{value!r} does not keep a score in this game; scorers: {allowed}.",
            "{value!r} non ha un punteggio in questo gioco; punteggi di: {allowed}.",
        ),
    }
)

MATCH_FIELDS = ("game", "rules", "players", "first_dealer", "deals")


def games() -> dict[str, Game]:
    return dict(REGISTRY)


def packs() -> dict[str, Pack]:
    """Every pack a table may name (``TableShape.pack``), from the games that use them."""
    found: dict[str, Pack] = {}
    for game in REGISTRY.values():
        for name, pack in game.packs.items():
            if found.setdefault(name, pack) != pack:
                raise ValueError(f"pack {name!r} described twice, differently")
    return found


def get_game(key: Any, path: str = "game") -> Game:
    game = REGISTRY.get(key) if isinstance(key, str) else None
    if game is None:
        problems = Problems()
        problems.add("game.unknown", path, value=key, allowed=", ".join(sorted(REGISTRY)))
        problems.raise_if_any()
    assert game is not None
    return game


@dataclass(frozen=True)
class MatchReport:
    rules: Rules
    state: MatchState
    results: tuple[DealResult, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": True,
            "rules": self.rules.as_dict(),
            "match": self.state.as_dict(),
            "deals": [r.as_dict() for r in self.results],
        }


def start_match(
    game_key: Any,
    rules_spec: Any = None,
    players: int | None = None,
    first_dealer: str | None = None,
) -> tuple[Game, Rules, MatchState]:
    game = get_game(game_key)
    rules = game.rules(rules_spec)
    return game, rules, game.new_match(rules, players, first_dealer)


def resume_match(
    game_key: Any, rules_spec: Any, state: Mapping[str, Any]
) -> tuple[Game, Rules, MatchState]:
    """Continue a match from its stored state (``MatchState.as_dict``): the next
    ``game.add_deal(state, deal, rules)`` scores as if all earlier deals had been folded
    again, without them. ``rules_spec`` is the match's house rules, as at the start.

    The state is the engine's own output: one of another game, or an older layout, raises
    ``ValueError`` (re-derive it by folding the deals instead).
    """
    game = get_game(game_key)
    rules = game.rules(rules_spec)
    resumed = MatchState.from_dict(state)
    if resumed.game != game.key:
        raise ValueError(f"a state of {resumed.game!r}, not of {game.key!r}")
    return game, rules, resumed


def play_match(match: Any) -> MatchReport:
    """Fold ``{"game", "rules", "players", "first_dealer", "deals": [...]}`` into a match."""
    problems = Problems()
    if not isinstance(match, Mapping):
        problems.add("input.not_object", "", what="The match")
        problems.raise_if_any()
    known_fields(match, MATCH_FIELDS, "", problems)
    problems.raise_if_any()
    game, rules, state = start_match(
        match.get("game"), match.get("rules"), match.get("players"), match.get("first_dealer")
    )
    deals = match.get("deals")
    if not isinstance(deals, list):
        problems.add("match.no_deals", "deals")
        problems.raise_if_any()
    assert isinstance(deals, list)
    results = [game.add_deal(state, d, rules, join("deals", i)) for i, d in enumerate(deals)]
    return MatchReport(rules=rules, state=state, results=tuple(results))


def score_deal(deal: Any, game_key: Any = None, rules_spec: Any = None) -> DealResult:
    """Score one deal on its own (no match around it).

    The deal may name its ``game`` and ``rules``; ``players``, ``dealer`` and ``before``
    (running totals before the deal, for a claim) give it the context a match would.
    """
    problems = Problems()
    if not isinstance(deal, Mapping):
        problems.add("input.not_object", "", what="The deal")
        problems.raise_if_any()
    game = get_game(game_key if game_key is not None else deal.get("game"))
    rules = game.rules(rules_spec if rules_spec is not None else deal.get("rules"))
    state = game.new_match(rules, deal.get("players"), deal.get("dealer"))
    before = deal.get("before")
    if before is not None:
        if not isinstance(before, Mapping):
            problems.add("input.not_object", "before", what="before")
        else:
            for scorer, total in before.items():
                if scorer not in state.totals:
                    problems.add(
                        "deal.before_unknown_scorer",
                        f"before.{scorer}",
                        value=scorer,
                        allowed=", ".join(state.scorers),
                    )
                elif type(total) is not int or not 0 <= total <= 10_000:
                    problems.add(
                        "input.out_of_range",
                        f"before.{scorer}",
                        field=str(scorer),
                        low=0,
                        high=10_000,
                        value=total,
                    )
                else:
                    state.totals[scorer] = total
        problems.raise_if_any()
    body = {k: v for k, v in deal.items() if k not in DEAL_CONTEXT_FIELDS}
    return game.score_deal(body, rules, state)


#: Fields a stand-alone deal may carry besides the game's own.
DEAL_CONTEXT_FIELDS = ("game", "rules", "players", "before")


def describe_games() -> dict[str, Any]:
    return {"games": [REGISTRY[k].describe() for k in sorted(REGISTRY)]}


__all__ = [
    "MatchReport",
    "Rejection",
    "describe_games",
    "games",
    "get_game",
    "play_match",
    "resume_match",
    "score_deal",
    "start_match",
]
