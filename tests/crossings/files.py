"""What the club of the stateful test makes up: names nobody else has, house rules drawn
from the engine's own description of each game's switches, legal deals from the engine's
own generator, and a history file in the import's template (docs/import.md).

Game keys and switch values come from the engine's registry (``scorebook.rules.games``),
never written here.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Sequence
from datetime import date
from itertools import count
from typing import Any

from hypothesis import strategies as st

from scorebook.core.refusals import Refusal
from scorebook.matches.selectors import fold
from scorebook.rules import Rejection, games, get_game
from scorebook.rules.engine import resume_match
from scorebook.tournaments.services.guards import pair_seats

FIRST = ("Nino", "Ettore", "Salvo", "Walter", "Rosa", "Lia", "Gino", "Maria", "Zebulon")
_codes = count(26**4)  # five letters each, so that no name's letters hold another's


def unique_name() -> str:
    """A first name and a five-letter surname no other name in the test run holds."""
    n = next(_codes)
    letters = ""
    for _ in range(5):
        n, k = divmod(n, 26)
        letters = chr(ord("a") + k) + letters
    return f"{FIRST[n % len(FIRST)]} {letters.capitalize()}"


GAMES = sorted(games())


def pairs_games() -> list[str]:
    """The games the engine seats in two fixed pairs (a league's or a tournament's)."""
    found = []
    for key in GAMES:
        try:
            pair_seats(key, None)
        except Refusal:  # not a pairs game
            continue
        found.append(key)
    return found


def house_rules(game: str) -> st.SearchStrategy[dict[str, Any]]:
    """Switch values for ``game``: each switch left to its default or set to one of the
    values the engine describes (integers anywhere in their range)."""
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for switch in get_game(game).switches:
        if switch.between is not None:
            low, high = switch.between
            value: st.SearchStrategy[Any] = st.integers(low, min(high, low + 60)) | st.just(high)
        else:
            value = st.sampled_from(switch.choices)
        parts[switch.key] = value
    keys = sorted(parts)
    return st.fixed_dictionaries({}, optional={k: parts[k] for k in keys})


def next_deal(match: Any, seed: int, level: str | None = None) -> dict[str, Any] | None:
    """A legal deal for ``match`` as it stands, from the engine's generator; None where the
    generator refuses (the engine's own limit, counted by the test)."""
    engine, rules, state = resume_match(match.game, match.rules["values"], match.state)
    return _drawn(engine, rules, state, seed, level)


def deal_in_place(match: Any, inputs: Sequence[Any], seed: int) -> dict[str, Any] | None:
    """A legal deal to replace the one after ``inputs`` (a correction)."""
    state = fold(match, list(inputs)).state
    engine = get_game(match.game)
    return _drawn(engine, engine.rules(match.rules["values"]), state, seed, None)


def _drawn(engine: Any, rules: Any, state: Any, seed: int, level: str | None) -> Any:
    rng = random.Random(seed)
    try:
        return engine.random_deal(rng, rules, state, level or rng.choice(engine.levels))
    except Rejection:
        return None


# -- a history file ---------------------------------------------------------------------------

COLUMNS = ("date", "table", "match", "game", "rules", "seats", "first_dealer", "stake",
           "currency", "deal", "abandoned")  # fmt: skip


def history_file(
    day: date, matches: Sequence[tuple[str, dict[str, Any], list[str], int, str]], seed: int
) -> bytes:
    """A CSV of one night on ``day``: per match (game, switch values, the names in its
    seats, how many deals, the reason it was abandoned or ""), its deals drawn from the
    engine deal after deal (fewer where the match ends first)."""
    rng = random.Random(seed)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for table, (game, values, names, deals, abandoned) in enumerate(matches, start=1):
        engine = get_game(game)
        try:
            rules = engine.rules(values)
            seats = engine.seats(rules, len(names))
            state = engine.new_match(rules, len(names))
        except Rejection:  # house rules the engine refuses: the file leaves the match out
            continue
        first = [
            json.dumps(values),
            "; ".join(f"{s}={n}" for s, n in zip(seats, names, strict=True)),
            seats[0],
            "0.50",
            rng.choice(("EUR", "")),
        ]
        played = []
        for _ in range(deals):
            if state.finished:
                break
            try:
                deal = engine.random_deal(rng, rules, state, engine.levels[0])
                engine.add_deal(state, deal, rules)
            except Rejection:
                break
            played.append(deal)
        ended = "" if state.finished else abandoned  # a match its deals ended is not abandoned
        for i, deal in enumerate(played):
            head = [day.isoformat(), table, 1, game]
            rest = first if i == 0 else [""] * len(first)
            writer.writerow([*head, *rest, json.dumps(deal), ended if i == 0 else ""])
    return out.getvalue().encode()
