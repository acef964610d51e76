"""The invariants the stateful test (tests/crossings/test_club_over_weeks.py) checks after
every step, each a function of the club that raises AssertionError with what broke:

- ``ledger_balances``: each night's ledger sums to zero in each unit and currency; each
  match's live entries pay each player what the engine's units for the match's current
  deals say, times its stake; a closed night's current settlement settles what is left;
- ``nights_closed_whole``: a closed night holds no open match (a correction there that
  would leave one open is refused, docs/night-close.md);
- ``standings_equal_a_rebuild``: the tables the incremental refreshes left equal a full
  rebuild from the deal log (nothing is left stale);
- ``nothing_lost``: every deal a service acknowledged is still stored, and still counts or
  was superseded by a later version (an import's deals go only with its undo, which is
  acknowledged in turn);
- ``names_gone``: an erased person's every name is in no output of the crawl
  (tests/archive/crawl.py) and no output answers 5xx; the costly one, run at the end of
  an example.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from scorebook.ledger.models import Account, Entry
from scorebook.ledger.selectors import balances, current_settlement, remaining
from scorebook.ledger.services import has_piatto, unit_of
from scorebook.matches.models import Deal, Match, Night
from scorebook.matches.selectors import current_deals, fold
from scorebook.rules import get_game
from scorebook.standings import refresh
from scorebook.standings.models import (
    LeaderboardRow,
    MatchStanding,
    Rating,
    RatingChange,
    StaleMark,
)
from tests.archive import crawl

CENT = Decimal("0.01")


def ledger_balances(club_id: int) -> None:
    for night in Night.objects.filter(club_id=club_id):
        entries = Entry.objects.filter(night=night)
        for key, group in balances(entries).items():
            total = sum(group.values(), Decimal(0))
            assert total == 0, f"night {night.pk} ({night.date}) {key} sums to {total}"
        if night.status == Night.Status.CLOSED and entries.exists():
            settled = current_settlement(night)
            assert settled is not None, f"closed night {night.pk} was never settled"
            left = remaining(night)  # the balances after the transfers marked paid
            for t in settled.transfers.filter(paid_at__isnull=True):
                group = left.setdefault((t.unit, t.currency), {})
                group[t.payer_id] = group.get(t.payer_id, Decimal(0)) + t.amount
                group[t.payee_id] = group.get(t.payee_id, Decimal(0)) - t.amount
            unsettled = {k: {a: v for a, v in g.items() if v} for k, g in left.items()}
            unsettled = {k: g for k, g in unsettled.items() if g}
            assert not unsettled, f"night {night.pk}: its settlement leaves {unsettled}"
    for match in Match.objects.filter(night__club_id=club_id):
        _match_pays_what_the_engine_says(match)


def _match_pays_what_the_engine_says(match: Match) -> None:
    """The net of the match's entries per player = its engine units x the stake's value
    (a match feeding a pot is checked by the night's sum only)."""
    if has_piatto(match):
        return
    engine = get_game(match.game)
    folded = fold(match, [d.input for d in current_deals(match)])
    units: dict[str, int] = defaultdict(int)
    if engine.settles_per_deal(engine.rules(match.rules["values"])):
        for result in folded.results:
            if result.pots:
                return
            for seat, n in result.units.items():
                units[seat] += n
    elif folded.state.outcome is not None and match.status != Match.Status.ABANDONED:
        # an abandoned match's result books nothing, whatever a correction makes of its
        # deals (it counts for nothing)
        for seat, n in folded.state.outcome.units.items():
            units[seat] += n
    _, _, value = unit_of(match)
    want = {match.seats[s]: (value * n).quantize(CENT) for s, n in units.items()}
    want = {player: amount for player, amount in want.items() if amount}
    net: dict[Any, Decimal] = defaultdict(Decimal)
    accounts = {a.pk: a for a in Account.objects.filter(club_id=match.night.club_id)}
    for entry in Entry.objects.filter(match=match):
        net[entry.payee_id] += entry.amount
        net[entry.payer_id] -= entry.amount
    have: dict[Any, Decimal] = {}
    for pk, amount in net.items():
        if amount:
            owner = accounts[pk].player_id
            if owner is None:
                return  # a pot's account: the night's sum covers it
            have[owner] = amount
    assert have == want, (
        f"match {match.pk} ({match.game}, {match.status}, stake {value}) books {have}, "
        f"the engine's units say {want}"
    )


def nights_closed_whole(club_id: int) -> None:
    """A closed night holds no open match (the close ends them, the import too)."""
    still = list(
        Match.objects.filter(
            night__club_id=club_id, night__status="closed", status="open"
        ).values_list("pk", "game")
    )
    assert not still, f"open matches on closed nights: {still}"


# -- the standings -------------------------------------------------------------------------


def tables(club_id: int) -> tuple[list[Any], ...]:
    board = sorted(
        LeaderboardRow.objects.filter(club_id=club_id).values_list(
            "season_id", "game", "player_id", "matches", "won", "lost", "win_rate",
            "points_for", "points_against", "deals", "units", "money", "events", "bids",
        )
    )  # fmt: skip
    ratings = sorted(
        Rating.objects.filter(club_id=club_id).values_list(
            "game", "player_id", "mu", "sigma", "display", "matches"
        )
    )
    history = sorted(
        RatingChange.objects.filter(club_id=club_id).values_list(
            "game", "player_id", "match_id", "seq", "mu_before", "mu_after", "sigma_after"
        )
    )
    standings = sorted(
        MatchStanding.objects.filter(club_id=club_id).values_list(
            "match_id", "game", "day", "players"
        )
    )
    return board, ratings, history, standings


def standings_equal_a_rebuild(club_id: int) -> None:
    stale = list(StaleMark.objects.filter(club_id=club_id).values_list("pk", flat=True))
    assert not stale, f"{len(stale)} stale marks left after the step's refresh"
    incremental = tables(club_id)
    refresh.rebuild(club_id=club_id)
    rebuilt = tables(club_id)
    for name, mine, theirs in zip(("board", "ratings", "history", "standings"),
                                  incremental, rebuilt, strict=True):  # fmt: skip
        assert mine == theirs, f"the {name} differs from a rebuild:\n{mine}\n!=\n{theirs}"


# -- nothing acknowledged is lost ------------------------------------------------------------


def nothing_lost(acknowledged: Iterable[int]) -> None:
    wanted = set(acknowledged)
    stored = {
        pk: (match, current)
        for pk, match, current in Deal.objects.filter(pk__in=wanted).values_list(
            "pk", "match_id", "is_current"
        )
    }
    lost = sorted(wanted - set(stored))
    assert not lost, f"acknowledged deals gone: {lost}"
    superseded = set(
        Deal.objects.filter(
            supersedes_id__in=[pk for pk, (_, c) in stored.items() if not c]
        ).values_list("supersedes_id", flat=True)
    )
    dropped = sorted(
        pk for pk, (_, current) in stored.items() if not current and pk not in superseded
    )
    assert not dropped, f"acknowledged deals no longer current and superseded by nothing: {dropped}"


# -- an erased person's names --------------------------------------------------------------


def names_gone(club: Any, names: Iterable[str]) -> tuple[int, int]:
    """Crawl every output of the club: no 5xx, none holds an erased name. Returns (outputs
    read, outputs holding a name: 0)."""
    read = crawl.outputs(club)
    assert not read.errors(), f"outputs answering 5xx: {read.errors()}"
    held = crawl.holding(read, names)
    assert not held, f"erased names {sorted(names)} still in {held}"
    return len(read.texts), len(held)
