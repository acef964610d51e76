"""Playing leagues in tests: a pairs match North-South against East-West, on
tests/builders.py (one home for the deals, the night and the players)."""

from tests import builders as build
from tests.builders import A_WINS, B_WINS
from tests.builders import named as players  # noqa: F401  (the league tests' name for it)


def night(people, day=20):
    return build.night(people, day=day)


def pair_match(people, on, north_south, east_west, winner=None, seats_order="NESW"):
    """A Tressette match, North-South against East-West, played to the end when
    ``winner`` is "NS" or "EW"."""
    (n, s), (e, w) = north_south, east_west
    by_seat = {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk}
    match = build.match(people, on, seats={seat: by_seat[seat] for seat in seats_order})
    if winner:
        build.finish(people, match, A_WINS if winner == "NS" else B_WINS)
    match.refresh_from_db()
    return match
