"""The engine's shortcuts on the hot path (issue 25 step 7) give what the straightforward
code gives: each is checked against a plain reference over generated inputs."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.rules import games
from scorebook.rules.declarations import (
    CODA_ORDER,
    GROUP_RANKS,
    MAX_PLAYER,
    MAX_SIDE,
    Declaration,
    _rank,
    _suit,
    check_declarations,
)
from scorebook.rules.errors import Problem, Problems, Rejection
from scorebook.rules.games.tressette4 import MEMBERS, SEATS, UNORDINARY
from scorebook.rules.parse import card_name
from scorebook.rules.result import MatchState
from scorebook.rules.tricks import _mapping
from tests.rules.switch_forms import combined_spec

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
SUITS = ("d", "c", "s", "b")
WHEN = (None, None, "early", "late")
FORM = (None, None, "incomplete", "wrong")
FIXED = (
    "during_first_trick",
    "asked_by_opponent",
    "asked_by_partner",
    "found_in_play",
    "after_first_trick",
    "never",
    "by_declarer",
)


@st.composite
def declarations(draw: st.DrawFn, anomalies: bool = True) -> Declaration:
    kind = draw(st.sampled_from(("napoletana", "three", "four", "decima")))
    suit = draw(st.sampled_from(SUITS)) if kind in ("napoletana", "decima") else None
    rank = None if suit else draw(st.sampled_from(GROUP_RANKS))
    missing = draw(st.sampled_from(SUITS)) if kind == "three" else None
    coda = draw(st.integers(0, len(CODA_ORDER))) if kind == "napoletana" else 0
    when = draw(st.sampled_from(WHEN)) if anomalies else None
    form = draw(st.sampled_from(FORM)) if anomalies else None
    return Declaration(
        player=draw(st.sampled_from(SEATS)),
        kind=kind,
        suit=suit,
        rank=rank,
        missing=missing,
        coda=coda,
        trick=draw(st.none() | st.integers(0, 3)),
        path=f"declarations[{draw(st.integers(0, 9))}]",
        when=when,
        form=form,
        fixed=draw(st.sampled_from(FIXED)) if form else None,
        contested=draw(st.booleans()) if anomalies else False,
    )


@given(declarations())
@SETTINGS
def test_cards_in_order_are_the_cards_sorted(decl: Declaration) -> None:
    assert decl.cards_in_order() == tuple(sorted(decl.cards(), key=str))


def _reference_check(
    found: list[Declaration],
    sides: Mapping[str, tuple[str, ...]] | None,
    coda_from_partner: bool,
    hand_size: int = 10,
) -> list[Problem]:
    """A2-A6 as check_declarations wrote them before the shortcuts (issue 25): every check
    on every player's declarations, every declaration's cards sorted, each side's total
    summed over all declarations."""
    problems = Problems()
    by_player: dict[str, list[Declaration]] = {}
    for decl in found:
        by_player.setdefault(decl.player, []).append(decl)
    for player, own in by_player.items():
        ranks: dict[str, Declaration] = {}
        for decl in own:
            if decl.rank is None:
                continue
            if decl.rank in ranks:  # A4
                problems.add(
                    "decl.same_rank_twice", decl.path, player=player, rank=_rank(decl.rank)
                )
            ranks[decl.rank] = decl
        for decl in own:  # A3
            if decl.kind != "three" or decl.missing is None:
                continue
            for other in own:
                if other.kind == "napoletana" and other.suit == decl.missing:
                    assert decl.rank and decl.missing
                    problems.add(
                        "decl.same_player_conflict",
                        decl.path,
                        player=player,
                        rank=_rank(decl.rank),
                        suit=_suit(decl.missing),
                    )
        needed = frozenset().union(*(d.own_cards(coda_from_partner) for d in own))
        if len(needed) > hand_size:  # A2
            problems.add(
                "decl.too_many_cards",
                own[-1].path,
                player=player,
                count=len(needed),
                size=hand_size,
            )
        plain = sum(d.base_points for d in own if d.kind != "decima")
        if plain > MAX_PLAYER:  # A6
            problems.add(
                "decl.player_total", own[-1].path, player=player, points=plain, limit=MAX_PLAYER
            )
    holders: dict[Any, Declaration] = {}
    reported: set[tuple[str, str]] = set()
    for decl in found:  # A5
        for card in sorted(decl.cards(), key=str):
            first = holders.setdefault(card, decl)
            if first.player == decl.player or (first.path, decl.path) in reported:
                continue
            reported.add((first.path, decl.path))
            shared = min(first.cards() & decl.cards(), key=str)
            problems.add(
                "decl.cross_player_conflict",
                decl.path,
                first=first.player,
                first_decl=first.label(),
                second=decl.player,
                second_decl=decl.label(),
                card=card_name(shared),
            )
    for side, members in (sides or {}).items():
        points = sum(d.base_points for d in found if d.player in members and d.kind != "decima")
        if points > MAX_SIDE:
            problems.add(
                "decl.side_total", "declarations", side=side, points=points, limit=MAX_SIDE
            )
    return problems.items


@given(st.lists(declarations(), max_size=12), st.booleans(), st.booleans())
@SETTINGS
def test_check_declarations_agrees_with_the_reference(
    found: list[Declaration], with_sides: bool, coda_from_partner: bool
) -> None:
    """A player's declarations compared with each other only when he made two, with
    another player's only when two players declared, side totals from the players'
    totals: the same problems, in the same order."""
    sides = MEMBERS if with_sides else None
    problems = Problems()
    check_declarations(found, problems, sides=sides, coda_from_partner=coda_from_partner)
    assert problems.items == _reference_check(found, sides, coda_from_partner)


@given(
    st.lists(declarations(), max_size=6),
    st.integers(0, 40),
    st.integers(0, 40),
    st.sampled_from((21, 31, 41)),
)
@SETTINGS
def test_scored_declarations_shortcut_agrees_with_the_general_path(
    found: list[Declaration], total_a: int, total_b: int, target: int
) -> None:
    """When no declaration has an anomaly each keeps its points; the general path (the
    anomalies, the bar after a contested early one, the opponents' win) says the same."""
    game: Any = games()["tressette4"]
    rules = game.rules({"t4.target": target, "t4.declarations": True})
    state = MatchState(
        game="tressette4",
        seats=SEATS,
        scorers=("A", "B"),
        dealer="N",
        totals={"A": total_a, "B": total_b},
        units=dict.fromkeys(SEATS, 0),
    )
    plain = [d for d in found if d.kind != "decima"]
    verdicts = [d.anomaly() for d in plain]
    general = game._scored_anomalies(plain, verdicts, rules, state)
    assert game._scored_declarations(found, rules, state) == general


@given(st.lists(declarations(anomalies=False), max_size=6))
@SETTINGS
def test_scored_declarations_without_anomalies_keep_their_points(
    found: list[Declaration],
) -> None:
    game: Any = games()["tressette4"]
    rules = game.rules({"t4.declarations": True})
    state = game.new_match(rules)
    plain = [d for d in found if d.kind != "decima"]
    general = game._scored_anomalies(plain, [None] * len(plain), rules, state)
    assert game._scored_declarations(found, rules, state) == general
    assert [points for _, points, _ in general] == [d.points for d in plain]


def _answer(game: Any, deal: Mapping[str, Any], rules: Any, state: MatchState) -> Any:
    try:
        return game.score_entry(deal, rules, state).as_dict()
    except Rejection as refused:
        return [(p.code, p.path, p.en, p.it, p.params) for p in refused.problems]


#: Changes an entered deal may meet: points entered per side (S3), a number moved, a
#: field gone, a decima shown, declarations as the tournament code writes them.
_CHANGES: tuple[tuple[str, Any], ...] = (
    ("points", None),
    ("tricks", None),
    ("drop", "last_trick"),
    ("drop", "sides"),
    ("set", ("last_trick", "B")),
    ("set", ("all_tricks", "A")),
    ("set", ("declarations", [{"player": "W", "type": "decima", "suit": "b"}])),
    ("set", ("declarations", [{"player": "N", "type": "three", "rank": "A", "missing": "d"}])),
    ("set", ("declarations", [{"player": "E", "type": "napoletana", "suit": "s", "coda": 2}])),
    ("set", ("declarations", [{"player": "S", "type": "four", "rank": "3", "when": "early"}])),
)


@given(st.data(), st.integers(0, 2**32 - 1), st.sampled_from(("totals", "cards")))
@SETTINGS
def test_the_ordinary_path_gives_what_the_general_path_gives(
    data: st.DataObject, seed: int, level: str
) -> None:
    """An ordinary tressette4 deal (none of ``UNORDINARY``'s fields) skips the steps that
    find nothing to do on it; the same deal with ``"claim": None`` (no claim either) goes
    the general way: the same result or the same refusal, under any house rules."""
    import random

    game: Any = games()["tressette4"]
    spec = data.draw(combined_spec("tressette4"), label="rules")
    # the one rule under which the ordinary path still looks who reached the target first
    spec["t4.reaching_target"] = data.draw(
        st.sampled_from(("compare_totals", "first_in_trick_order")), label="reaching"
    )
    try:
        rules = game.rules(spec)
    except Rejection:
        return
    state = game.new_match(rules)
    state.totals = {"A": data.draw(st.integers(0, 45)), "B": data.draw(st.integers(0, 45))}
    deal = game.random_deal(random.Random(seed), rules, state, level)
    deal = {k: v for k, v in deal.items() if k not in UNORDINARY}
    for kind, value in data.draw(st.lists(st.sampled_from(_CHANGES), max_size=2)):
        piles = deal.get("sides") or deal.get("seats") or {}
        if kind == "points" and "sides" in deal:
            for side, pile in piles.items():
                pile["points"] = data.draw(st.integers(0, 12), label=f"points {side}")
        elif kind == "tricks" and piles:
            pile = piles[data.draw(st.sampled_from(sorted(piles)))]
            pile["tricks"] = pile.get("tricks", 0) + data.draw(st.sampled_from((-1, 1)))
        elif kind == "drop":
            deal.pop(value, None)
        elif kind == "set":
            deal[value[0]] = value[1]
    assert UNORDINARY.isdisjoint(deal)
    general = _answer(game, {**deal, "claim": None}, rules, state)
    assert _answer(game, deal, rules, state) == general


class _Pile(Mapping[str, Any]):
    """A Mapping that is not a dict."""

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def test_mapping_is_isinstance_mapping() -> None:
    values: list[Any] = [None, {}, {"a": 1}, OrderedDict(), MappingProxyType({}), _Pile()]
    values += [[], (), "ab", 3, 0, False, set(), [("a", 1)]]
    for value in values:
        assert _mapping(value) is isinstance(value, Mapping), value
