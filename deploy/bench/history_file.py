"""A club's history in the import template (docs/import.md), made up: ``nights`` club
nights a week apart, each with Tressette in pairs at two tables and Tressette for two at
a third, every deal a random legal one from the engine (``Game.random_deal``, totals
level), every match played to its end. The same seed gives the same file. Used by
``make bench-import`` and by the import's "many nights" test."""

from __future__ import annotations

import csv
import io
import json
import random
from datetime import date, timedelta

PAIRS = ("N", "W", "S", "E")
NAMES = [f"Giocatore {i:02d}" for i in range(1, 25)]
#: (table, game, house rules, seats) of each night's matches; three matches at each table.
TABLES = ((1, "tressette4", "classic_21", PAIRS), (2, "tressette4", "accuso_41", PAIRS),
          (3, "tressette2", "", ("P1", "P2")))  # fmt: skip


def club_history(nights: int, *, seed: int = 28, start: date = date(2015, 1, 8)) -> tuple[str, int]:
    """The CSV text and how many deals it holds."""
    from scorebook.rules import get_game

    rng = random.Random(seed)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["date", "table", "match", "game", "rules", "seats", "first_dealer",
                     "stake", "currency", "deal"])  # fmt: skip
    deals = 0
    for night in range(nights):
        day = (start + timedelta(days=7 * night)).isoformat()
        for table, key, profile, seats in TABLES:
            game = get_game(key)
            rules = game.rules({"profile": profile} if profile else {})
            for number in (1, 2, 3):
                names = rng.sample(NAMES, len(seats))
                seated = "; ".join(f"{s}={n}" for s, n in zip(seats, names, strict=True))
                state = game.new_match(rules, len(seats))
                first = True
                while not state.finished:
                    deal = game.random_deal(rng, rules, state, "totals")
                    game.add_deal(state, deal, rules)
                    writer.writerow([
                        day, table, number, key,
                        profile if first else "",
                        seated if first else "",
                        "", "0.50" if first and key == "tressette4" else "",
                        "EUR" if first and key == "tressette4" else "",
                        json.dumps(deal, separators=(",", ":")),
                    ])  # fmt: skip
                    first = False
                    deals += 1
    return out.getvalue(), deals
