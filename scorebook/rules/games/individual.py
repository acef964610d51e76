"""Tressette where each player scores for himself: for two (2.2), three (2.3) and four
all-against-all (2.4), and Chiamata del Tre (2.5), where the caller's side changes every
deal but each player keeps his own running total.

Mediatore is not supported: its bid ladder and payment table are missing from every source
the reference draws on ([gap] in 2.4), so there is nothing sound to implement.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..cards import DECK40, TRESSETTE_RANKS, Card, parse_card, thirds_of, trick_winner
from ..errors import Problems, messages
from ..game import Game
from ..houserules import Rules, Switch, choice
from ..parse import card_name, known_fields
from ..result import DealResult, Line, MatchState, Outcome
from ..tricks import (
    CORE_SWITCHES,
    Capture,
    check_captures,
    check_last_trick,
    may_annul,
    read_captures,
    score_thirds,
    total,
)

messages(
    {
        "ind.removed_four": (
            "Name the 4 taken out of the deck ('removed', e.g. \"4b\"), not {value!r}.",
            "Indica il 4 tolto dal mazzo ('removed', es. \"4b\"), non {value!r}.",
        ),
        "ind.removed_fixed": (
            "These house rules take out the {card}; 'removed' cannot say otherwise.",
            "Queste regole della casa tolgono il {card}; 'removed' non può dire altro.",
        ),
        "ind.removed_captured": (
            "The {card} was taken out of the deck, so nobody can have captured it.",
            "Il {card} è stato tolto dal mazzo, quindi nessuno può averlo preso.",
        ),
        "ind.round1_last_trick": (
            "With a last-trick point in each round, say who won the last trick of round 1 "
            "('last_trick_round1').",
            "Con un punto di ultima in ogni giro, indica chi ha fatto l'ultima presa del primo "
            "giro ('last_trick_round1').",
        ),
        "ind.round1_not_played": (
            "'last_trick_round1' belongs to the two-rounds form with a point each round.",
            "'last_trick_round1' vale solo per la forma a due giri con un punto per giro.",
        ),
        "ind.dummy_partner": (
            "{value!r} is not a seat; the dummy's partner is one of {allowed}.",
            "{value!r} non è un posto; il compagno del morto è uno tra {allowed}.",
        ),
        "cdt.caller": (
            "The caller must be the eldest hand, {expected}, not {value!r}.",
            "Chiama il primo di mano, {expected}, non {value!r}.",
        ),
        "cdt.called_suit": (
            "The call names a suit (d, c, s or b) whose 3 the caller lacks, not {value!r}.",
            "Si chiama un seme (d, c, s o b) di cui chi chiama non ha il tre, non {value!r}.",
        ),
        "cdt.called_card": (
            "The call names a card other than an ace (e.g. 3d, 2c, Rs), not {value!r}.",
            "Si chiama una carta che non sia un asso (es. 3d, 2c, Rs), non {value!r}.",
        ),
        "cdt.partner": (
            "{value!r} is not a seat; the partner (holder of the {card}) is one of {allowed}.",
            "{value!r} non è un posto; il compagno (chi ha il {card}) è uno tra {allowed}.",
        ),
        "cdt.caller_holds_called": (
            "{caller} holds the called {card} himself; these house rules do not allow it.",
            "{caller} ha lui stesso il {card} chiamato; queste regole della casa non lo "
            "permettono.",
        ),
        "cdt.hand_size": (
            "The caller's hand must have 10 cards, not {count}.",
            "La mano di chi chiama deve avere 10 carte, non {count}.",
        ),
        "cdt.caller_has_called_three": (
            "{caller} holds the {card}, so cannot call its suit.",
            "{caller} ha il {card}, quindi non può chiamare quel seme.",
        ),
        "cdt.annul_off": (
            "These house rules do not allow a deal to be annulled.",
            "Queste regole della casa non permettono di mandare a monte.",
        ),
        "cdt.annul_not_allowed": (
            "{player}'s hand ({thirds} thirds) may not be annulled under the rule '{rule}'.",
            "La mano di {player} ({thirds} terzi) non si può mandare a monte con la regola "
            "'{rule}'.",
        ),
        "cdt.annul_with_play": (
            "An annulled deal is not played: remove '{field}'.",
            "Una smazzata mandata a monte non si gioca: togli '{field}'.",
        ),
        "cdt.annul_player": (
            "{value!r} is not a seat; seats: {allowed}.",
            "{value!r} non è un posto; posti: {allowed}.",
        ),
    }
)


def target_switch(prefix: str) -> Switch:
    return Switch(f"{prefix}.target", 21, between=(1, 1000), help="Points to win the game.")


def tie_switch(prefix: str) -> Switch:
    return choice(
        f"{prefix}.both_reach_target",
        "higher_total_wins",
        "play_another_deal",
        help="Several players reach the target in one deal (no source: house rule).",
    )


class IndividualGame(Game):
    """Each player scores his own captured thirds; first to the target wins."""

    prefix: ClassVar[str]
    cards_per_trick: ClassVar[int]
    base_fields: ClassVar[tuple[str, ...]] = ("dealer", "level", "seats", "last_trick")

    def tricks_in_deal(self, rules: Rules, state: MatchState) -> int:
        return len(DECK40) // len(state.seats)

    def fields(self, rules: Rules) -> tuple[str, ...]:
        return self.base_fields

    def removed_cards(
        self, deal: Mapping[str, Any], rules: Rules, problems: Problems
    ) -> tuple[Card, ...]:
        return ()

    def score_deal(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.fields(rules), "", problems)
        removed = self.removed_cards(deal, rules, problems)
        seats = state.seats
        captures = read_captures(deal, "seats", seats, "", problems, what=("player", "giocatore"))
        tricks = self.tricks_in_deal(rules, state)
        if len(captures) == len(seats):
            cards_level = all(c.cards is not None for c in captures.values())
            deck = [c for c in DECK40 if c not in removed] if cards_level else ()
            check_captures(
                captures,
                problems,
                tricks_in_deal=tricks,
                cards_per_trick=len(seats),
                counting_cards=deck,
            )
            for cap in captures.values():
                for card in cap.cards or ():
                    if card in removed:
                        problems.add("ind.removed_captured", cap.path, card=card_name(card))
        last = check_last_trick(
            deal.get("last_trick"), captures, seats, tricks, "last_trick", problems
        )
        extra = self.extra_last_trick(deal, rules, seats, captures, problems)
        problems.raise_if_any()
        thirds = {s: captures[s].thirds for s in seats}
        lines = score_thirds(thirds, last, rules["core.rounding"], deal_points=11 + len(extra))
        for seat in extra:
            lines[seat].append(Line("last_trick", 1, {"round": 1}))
        return DealResult(
            game=self.key,
            level=_level(captures),
            points={s: total(lines[s]) for s in seats},
            breakdown={s: tuple(lines[s]) for s in seats},
            facts={
                "thirds": thirds,
                "tricks": {s: captures[s].tricks for s in seats},
                "last_trick": last,
                "removed": [c.code for c in removed],
            },
        )

    def extra_last_trick(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        seats: Sequence[str],
        captures: Mapping[str, Capture],
        problems: Problems,
    ) -> list[str]:
        return []

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        return first_to_target(
            state, rules[f"{self.prefix}.target"], rules[f"{self.prefix}.both_reach_target"]
        )

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        removed = self.random_removed(rng, rules)
        deck = [c for c in DECK40 if c not in removed]
        taken, tricks, last = play_out(rng, deck, state.seats, state.dealer)
        deal: dict[str, Any] = {
            "dealer": state.dealer,
            "seats": {p: capture_entry(taken[p], tricks[p], level) for p in state.seats},
            "last_trick": last,
        }
        if removed and rules.values.get("t3.removed_four") == "any_announced":
            deal["removed"] = removed[0].code
        return deal

    def random_removed(self, rng: random.Random, rules: Rules) -> list[Card]:
        return []


def first_to_target(state: MatchState, target: int, tie_rule: str) -> Outcome | None:
    """The highest total at or over the target wins; an exact tie at the top plays on."""
    reached = [s for s in state.scorers if state.totals[s] >= target]
    if not reached:
        return None
    best = max(state.totals[s] for s in reached)
    leaders = [s for s in reached if state.totals[s] == best]
    if len(leaders) > 1:
        return None
    if len(reached) > 1 and tie_rule == "play_another_deal" and not state.extra.get("overtime"):
        state.extra["overtime"] = True
        return None
    winner = leaders[0]
    losers = tuple(s for s in state.seats if s != winner)
    units = dict.fromkeys(losers, -1)
    units[winner] = len(losers)
    return Outcome("target", (winner,), losers, 1, units, {"totals": dict(state.totals)})


def _level(captures: Mapping[str, Capture]) -> str:
    return "cards" if captures and all(c.cards is not None for c in captures.values()) else "totals"


def capture_entry(taken: Sequence[Card], tricks: int, level: str) -> dict[str, Any]:
    if level == "cards":
        return {"cards": [c.code for c in taken], "tricks": tricks}
    return {"thirds": thirds_of(taken), "tricks": tricks}


def play_out(
    rng: random.Random, deck: Sequence[Card], seats: Sequence[str], dealer: str
) -> tuple[dict[str, list[Card]], dict[str, int], str]:
    """Shuffle, deal everything evenly and play legal random tricks (follow suit if able)."""
    cards = list(deck)
    rng.shuffle(cards)
    n = len(seats)
    per = len(cards) // n
    hands = {p: cards[i * per : (i + 1) * per] for i, p in enumerate(seats)}
    taken: dict[str, list[Card]] = {p: [] for p in seats}
    tricks = dict.fromkeys(seats, 0)
    leader = seats[(seats.index(dealer) + 1) % n]
    for _ in range(per):
        start = seats.index(leader)
        turn = [seats[(start + k) % n] for k in range(n)]
        played: list[Card] = []
        for p in turn:
            follow = [c for c in hands[p] if played and c.suit == played[0].suit]
            card = rng.choice(follow or hands[p])
            hands[p].remove(card)
            played.append(card)
        leader = turn[trick_winner(played, TRESSETTE_RANKS)]
        taken[leader].extend(played)
        tricks[leader] += 1
    return taken, tricks, leader


class Tressette2(IndividualGame):
    key: ClassVar[str] = "tressette2"
    name_en: ClassVar[str] = "Tressette for two"
    name_it: ClassVar[str] = "Tressette in due"
    prefix: ClassVar[str] = "t2"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        choice("t2.mode", "stock", "two_rounds_no_stock"),
        choice("t2.show_drawn_card", True, False, help="Recorded; it changes no score."),
        choice("t2.two_rounds_last_trick", "once_per_deal", "each_round"),
        target_switch("t2"),
        tie_switch("t2"),
    )
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "classic_21": {"t2.target": 21},
        "ti_two_rounds": {"t2.mode": "two_rounds_no_stock"},
    }

    def fields(self, rules: Rules) -> tuple[str, ...]:
        return (*self.base_fields, "last_trick_round1")

    def extra_last_trick(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        seats: Sequence[str],
        captures: Mapping[str, Capture],
        problems: Problems,
    ) -> list[str]:
        each_round = (
            rules["t2.mode"] == "two_rounds_no_stock"
            and rules["t2.two_rounds_last_trick"] == "each_round"
        )
        raw = deal.get("last_trick_round1")
        if not each_round:
            if raw is not None:
                problems.add("ind.round1_not_played", "last_trick_round1")
            return []
        if raw is None:
            problems.add("ind.round1_last_trick", "last_trick_round1")
            return []
        seat = check_last_trick(raw, captures, seats, 20, "last_trick_round1", problems)
        return [seat] if seat else []

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        deal = super().random_deal(rng, rules, state, level)
        if (
            rules["t2.mode"] == "two_rounds_no_stock"
            and rules["t2.two_rounds_last_trick"] == "each_round"
        ):
            deal["last_trick_round1"] = deal["last_trick"]
        return deal


FOURS = ("4d", "4c", "4s", "4b")


class Tressette3(IndividualGame):
    key: ClassVar[str] = "tressette3"
    name_en: ClassVar[str] = "Tressette for three"
    name_it: ClassVar[str] = "Tressette in tre"
    prefix: ClassVar[str] = "t3"
    player_counts: ClassVar[tuple[int, ...]] = (3,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        choice("t3.mode", "39_cards_13_each", "39_cards_rounds_7_then_6", "col_morto"),
        choice("t3.removed_four", "4b", "any_announced", "4s"),
        target_switch("t3"),
        tie_switch("t3"),
    )
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "vc_13_each": {"t3.mode": "39_cards_13_each", "t3.removed_four": "4b"},
        "ti_two_rounds": {
            "t3.mode": "39_cards_rounds_7_then_6",
            "t3.removed_four": "any_announced",
            "core.rounding": "remainder_to_last_trick",
        },
        "col_morto": {"t3.mode": "col_morto"},
    }

    def fields(self, rules: Rules) -> tuple[str, ...]:
        if rules["t3.mode"] == "col_morto":
            return ("dealer", "level", "sides", "last_trick", "dummy_partner")
        return (*self.base_fields, "removed")

    def tricks_in_deal(self, rules: Rules, state: MatchState) -> int:
        return 13

    def removed_cards(
        self, deal: Mapping[str, Any], rules: Rules, problems: Problems
    ) -> tuple[Card, ...]:
        rule = rules["t3.removed_four"]
        raw = deal.get("removed")
        if rule == "any_announced":
            card = parse_card(raw) if raw in FOURS else None
            if card is None:
                problems.add("ind.removed_four", "removed", value=raw)
                return ()
            return (card,)
        fixed = parse_card(rule)
        assert fixed is not None
        if raw is not None and raw != rule:
            problems.add("ind.removed_fixed", "removed", card=card_name(fixed))
        return (fixed,)

    def random_removed(self, rng: random.Random, rules: Rules) -> list[Card]:
        rule = rules["t3.removed_four"]
        code = rng.choice(FOURS) if rule == "any_announced" else rule
        card = parse_card(code)
        assert card is not None
        return [card]

    def score_deal(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        if rules["t3.mode"] == "col_morto":
            return self._col_morto(deal, rules, state)
        return super().score_deal(deal, rules, state)

    def _col_morto(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """One player and the exposed dummy against the other two, scored as pairs."""
        problems = Problems()
        known_fields(deal, self.fields(rules), "", problems)
        partner = deal.get("dummy_partner", state.dealer)
        if partner not in state.seats:
            problems.add(
                "ind.dummy_partner", "dummy_partner", value=partner, allowed=", ".join(state.seats)
            )
            problems.raise_if_any()
        captures = read_captures(deal, "sides", ("A", "B"), "", problems)
        if len(captures) == 2:
            check_captures(
                captures, problems, tricks_in_deal=10, cards_per_trick=4, counting_cards=DECK40
            )
        last = check_last_trick(
            deal.get("last_trick"), captures, ("A", "B"), 10, "last_trick", problems
        )
        problems.raise_if_any()
        thirds = {s: captures[s].thirds for s in ("A", "B")}
        side_lines = score_thirds(thirds, last, rules["core.rounding"])
        side_points = {s: total(side_lines[s]) for s in ("A", "B")}
        points = {p: side_points["A" if p == partner else "B"] for p in state.seats}
        breakdown = {p: tuple(side_lines["A" if p == partner else "B"]) for p in state.seats}
        return DealResult(
            game=self.key,
            level=_level(captures),
            points=points,
            breakdown=breakdown,
            facts={
                "dummy_partner": partner,
                "side_points": side_points,
                "thirds": thirds,
                "tricks": {s: captures[s].tricks for s in ("A", "B")},
                "last_trick": last,
            },
        )

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        if rules["t3.mode"] != "col_morto":
            return super().random_deal(rng, rules, state, level)
        taken, tricks, last = play_out(rng, DECK40, ("X1", "Y1", "X2", "Y2"), "Y2")
        sides = {"A": ("X1", "X2"), "B": ("Y1", "Y2")}
        return {
            "dealer": state.dealer,
            "sides": {
                s: capture_entry(taken[a] + taken[b], tricks[a] + tricks[b], level)
                for s, (a, b) in sides.items()
            },
            "last_trick": "A" if last in sides["A"] else "B",
        }


class Tressette4Individual(IndividualGame):
    key: ClassVar[str] = "tressette4i"
    name_en: ClassVar[str] = "Tressette, 4 players all against all"
    name_it: ClassVar[str] = "Tressette in quattro, tutti contro tutti"
    prefix: ClassVar[str] = "t4i"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        target_switch("t4i"),
        tie_switch("t4i"),
    )
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "floor": {"core.rounding": "floor_per_scorer"},
        "ti_leftover": {"core.rounding": "remainder_to_last_trick"},
    }


CDT_SIDES = ("callers", "others")


class ChiamataDelTre(Game):
    """Eldest calls a card; its holder partners him for the deal (2.5)."""

    key: ClassVar[str] = "chiamata"
    name_en: ClassVar[str] = "Chiamata del Tre (Chiamatre)"
    name_it: ClassVar[str] = "Chiamata del tre (Chiamatre)"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        choice("cdt.call", "suit_whose_3_caller_lacks", "any_3_or_2_or_non_ace"),
        choice("cdt.caller_holds_called", "alone_against_three", "rejected"),
        choice("cdt.scoring", "side_points_to_each_member"),
        Switch(
            "cdt.annul_rule",
            "no_carico_and_lt3_figures",
            choices=("no_carico_and_lt3_figures", "less_than_one_point", "off"),
            help="GG's tournament form by default (the Chiamatre source).",
        ),
        target_switch("cdt"),
        tie_switch("cdt"),
    )
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "pen": {"cdt.call": "suit_whose_3_caller_lacks", "cdt.annul_rule": "less_than_one_point"},
        "gg_torneo": {
            "cdt.call": "any_3_or_2_or_non_ace",
            "cdt.annul_rule": "no_carico_and_lt3_figures",
        },
    }
    FIELDS = (
        "dealer",
        "level",
        "caller",
        "called",
        "partner",
        "hand",
        "sides",
        "last_trick",
        "annulled_by",
    )

    def score_deal(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.FIELDS, "", problems)
        seats = state.seats
        if deal.get("annulled_by") is not None:
            return self._annulled(deal, rules, state, problems)
        eldest = self.eldest(state)
        caller = deal.get("caller", eldest)
        if caller != eldest:
            problems.add("cdt.caller", "caller", expected=eldest, value=caller)
        called = self._called(deal.get("called"), rules, problems)
        partner = deal.get("partner")
        if partner not in seats:
            problems.add(
                "cdt.partner",
                "partner",
                value=partner,
                card=card_name(called) if called else "called card",
                allowed=", ".join(seats),
            )
        elif partner == caller and rules["cdt.caller_holds_called"] == "rejected" and called:
            problems.add(
                "cdt.caller_holds_called", "partner", caller=caller, card=card_name(called)
            )
        hand = None
        if deal.get("hand") is not None:
            from ..parse import cards as read_cards

            hand = read_cards(deal, "hand", "", problems)
            if hand is not None and len(hand) != 10:
                problems.add("cdt.hand_size", "hand", count=len(hand))
            elif hand is not None and called is not None:
                holds = called in hand
                if rules["cdt.call"] == "suit_whose_3_caller_lacks" and holds:
                    problems.add(
                        "cdt.caller_has_called_three",
                        "called",
                        caller=caller,
                        card=card_name(called),
                    )
                elif holds != (partner == caller):
                    problems.add(
                        "cdt.partner",
                        "partner",
                        value=partner,
                        card=card_name(called),
                        allowed=", ".join(seats),
                    )
        captures = read_captures(deal, "sides", CDT_SIDES, "", problems)
        if len(captures) == 2:
            check_captures(
                captures, problems, tricks_in_deal=10, cards_per_trick=4, counting_cards=DECK40
            )
        last = check_last_trick(
            deal.get("last_trick"), captures, CDT_SIDES, 10, "last_trick", problems
        )
        problems.raise_if_any()
        thirds = {s: captures[s].thirds for s in CDT_SIDES}
        lines = score_thirds(thirds, last, rules["core.rounding"])
        team = {caller} | {partner}
        points = {p: total(lines["callers" if p in team else "others"]) for p in seats}
        breakdown = {p: tuple(lines["callers" if p in team else "others"]) for p in seats}
        return DealResult(
            game=self.key,
            level=_level(captures),
            points=points,
            breakdown=breakdown,
            facts={
                "caller": caller,
                "called": called.code if called else None,
                "partner": partner,
                "alone": partner == caller,
                "thirds": thirds,
                "tricks": {s: captures[s].tricks for s in CDT_SIDES},
                "last_trick": last,
            },
        )

    def _called(self, raw: Any, rules: Rules, problems: Problems) -> Card | None:
        if rules["cdt.call"] == "suit_whose_3_caller_lacks":
            if raw not in ("d", "c", "s", "b"):
                problems.add("cdt.called_suit", "called", value=raw)
                return None
            return Card("3", str(raw))
        card = parse_card(raw)
        if card is None or card.rank == "A":
            problems.add("cdt.called_card", "called", value=raw)
            return None
        return card

    def _annulled(
        self, deal: Mapping[str, Any], rules: Rules, state: MatchState, problems: Problems
    ) -> DealResult:
        player = deal["annulled_by"]
        rule = rules["cdt.annul_rule"]
        if rule == "off":
            problems.add("cdt.annul_off", "annulled_by")
        if player not in state.seats:
            problems.add(
                "cdt.annul_player", "annulled_by", value=player, allowed=", ".join(state.seats)
            )
        for field in ("sides", "last_trick", "called", "partner"):
            if deal.get(field) is not None:
                problems.add("cdt.annul_with_play", field, field=field)
        if deal.get("hand") is not None and rule != "off":
            from ..parse import cards as read_cards

            hand = read_cards(deal, "hand", "", problems)
            if hand is not None and len(hand) == 10 and not may_annul(hand, rule):
                problems.add(
                    "cdt.annul_not_allowed",
                    "hand",
                    player=player,
                    thirds=thirds_of(hand),
                    rule=rule,
                )
            elif hand is not None and len(hand) != 10:
                problems.add("cdt.hand_size", "hand", count=len(hand))
        problems.raise_if_any()
        return DealResult(
            game=self.key,
            level="totals",
            points=dict.fromkeys(state.seats, 0),
            breakdown=dict.fromkeys(state.seats, ()),
            annulled=True,
            same_dealer=True,
            facts={"annulled_by": player},
        )

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        return first_to_target(state, rules["cdt.target"], rules["cdt.both_reach_target"])

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        seats = state.seats
        cards = list(DECK40)
        rng.shuffle(cards)
        hands = {p: cards[i * 10 : (i + 1) * 10] for i, p in enumerate(seats)}
        caller = self.eldest(state)
        if rules["cdt.call"] == "suit_whose_3_caller_lacks":
            lacking = [s for s in "dcsb" if Card("3", s) not in hands[caller]]
            suit = rng.choice(lacking) if lacking else None
            called = Card("3", suit) if suit else None
            call: Any = suit
        else:
            called = rng.choice([c for c in DECK40 if c.rank != "A"])
            call = called.code
            if rules["cdt.caller_holds_called"] == "rejected":
                while called in hands[caller]:
                    called = rng.choice([c for c in DECK40 if c.rank != "A"])
                call = called.code
        if called is None:  # the caller holds all four 3s and cannot call: deal again
            return self.random_deal(rng, rules, state, level)
        partner = next(p for p in seats if called in hands[p])
        team = {caller, partner}
        order = [seats[(seats.index(state.dealer) + 1 + k) % 4] for k in range(4)]
        taken, tricks, last = play_out_hands(rng, hands, order)
        side = {p: ("callers" if p in team else "others") for p in seats}
        deal: dict[str, Any] = {
            "dealer": state.dealer,
            "caller": caller,
            "called": call,
            "partner": partner,
            "sides": {
                s: capture_entry(
                    [c for p in seats if side[p] == s for c in taken[p]],
                    sum(tricks[p] for p in seats if side[p] == s),
                    level,
                )
                for s in CDT_SIDES
            },
            "last_trick": side[last],
        }
        if level == "cards":
            deal["hand"] = [c.code for c in hands[caller]]
        return deal


def play_out_hands(
    rng: random.Random, hands: Mapping[str, Sequence[Card]], order: Sequence[str]
) -> tuple[dict[str, list[Card]], dict[str, int], str]:
    """Play given hands legally at random; ``order`` starts with the first leader."""
    remaining = {p: list(h) for p, h in hands.items()}
    n = len(order)
    taken: dict[str, list[Card]] = {p: [] for p in order}
    tricks = dict.fromkeys(order, 0)
    leader = order[0]
    for _ in range(len(remaining[leader])):
        start = order.index(leader)
        turn = [order[(start + k) % n] for k in range(n)]
        played: list[Card] = []
        for p in turn:
            follow = [c for c in remaining[p] if played and c.suit == played[0].suit]
            card = rng.choice(follow or remaining[p])
            remaining[p].remove(card)
            played.append(card)
        leader = turn[trick_winner(played, TRESSETTE_RANKS)]
        taken[leader].extend(played)
        tricks[leader] += 1
    return taken, tricks, leader


GAMES = (Tressette2(), Tressette3(), Tressette4Individual(), ChiamataDelTre())
