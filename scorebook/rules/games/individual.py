"""Tressette where each player keeps his own score: for two (reference 2.2), for three
(2.3) and for four all against all (2.4).

Every player scores his own captured thirds (section 1.4, ``core.rounding``) plus the
last trick; the first player to reach the target wins the match and is paid one stake by
each other player. Three-handed *col morto* (one player partners an exposed dummy) is
scored as a two-sided deal whose points each member adds to his own total.

Decisions where the reference is silent (see ``docs/games/individual.md``):

* Declarations: per player in the four-hander (2.4, ``t4i.declarations``, on); Tressette
  for two may count them from the ten cards first dealt (``t2.declarations``, off: PEN
  gives none for two players); none for three (the reference gives none).
* Several players reaching the target in one deal: ``<prefix>.both_reach_target``.
* Mediatore and Quadriglio are not supported: the Mediatore bid ladder and payments are a
  [gap] in every source, and Quadriglio is a bidding game outside this family's scoring.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..cards import (
    CARD_THIRDS_IN_DECK,
    DEAL_POINTS,
    DECK40,
    DECK40_SET,
    Card,
    parse_card,
    trick_winner,
)
from ..declarations import Declaration, check_declarations, read_declarations
from ..errors import Localized, Problems, messages
from ..game import Deal, Game, Start, first_to_target, target_switch, tie_switch, would_end
from ..houserules import Rules, Switch, choice
from ..irregularities import PENALTY_SWITCHES
from ..parse import card_name, known_fields
from ..play import (
    REVOKE_SWITCHES,
    AfterTrick,
    Dealt,
    Replay,
    ReplayOptions,
    check_deal,
    codes,
    first_leader,
    play_round,
    read_deal,
    read_hands,
    read_pile,
    side_captures,
)
from ..result import DealResult, Line, MatchState, Outcome
from ..table import Part, TableShape, lost_points, tally
from ..tricks import (
    CORE_SWITCHES,
    POINTS,
    Capture,
    capture_entry,
    check_captures,
    check_last_trick,
    check_level,
    check_points,
    entered_points,
    over_eleven,
    rank_order,
    read_captures,
    read_level,
    score_thirds,
    uncounted_seat_tricks,
)

messages(
    {
        "ind.hands_rounds": (
            "This game deals in {rounds} rounds: 'hands' is a list of {rounds} objects, the "
            "hands of each round.",
            "Questo gioco si dà in {rounds} giri: 'hands' è una lista di {rounds} oggetti, le "
            "mani di ogni giro.",
        ),
        "t2.round1.missing": (
            "With a last-trick point in each round, say who won the last trick of the first "
            "round ('last_trick_round1').",
            "Con un punto di ultima in ogni giro, indica chi ha fatto l'ultima presa del "
            "primo giro ('last_trick_round1').",
        ),
        "t2.round1.not_played": (
            "'last_trick_round1' belongs to the two-round form with a last-trick point in "
            "each round; under these house rules only the last trick of the deal scores.",
            "'last_trick_round1' vale solo per la forma a due giri con un punto di ultima "
            "per giro; con queste regole della casa conta solo l'ultima presa della smazzata.",
        ),
        "t3.removed.missing": (
            "Name the 4 taken out of the deck ('removed', e.g. \"4c\"): under these house "
            "rules the dealer chooses and announces it.",
            "Indica il quattro tolto dal mazzo ('removed', es. \"4c\"): con queste regole "
            "della casa lo sceglie e lo dichiara il mazziere.",
        ),
        "t3.removed.not_a_four": (
            "{value!r} is not one of the 4s (4d, 4c, 4s, 4b); only a 4 is taken out of the deck.",
            "{value!r} non è uno dei quattro (4d, 4c, 4s, 4b); dal mazzo si toglie solo un "
            "quattro.",
        ),
        "t3.removed.fixed": (
            "These house rules always take out the {card}, not {value!r}.",
            "Queste regole della casa tolgono sempre il {card}, non {value!r}.",
        ),
        "t3.removed.captured": (
            "The {card} was taken out of the deck, so {scorer} cannot have captured it.",
            "Il {card} è stato tolto dal mazzo, quindi non può essere nelle prese di {scorer}.",
        ),
        "t3.morto.partner_unknown": (
            "{value!r} is not a seat; the dummy's partner is one of {allowed}.",
            "{value!r} non è un posto; il compagno del morto è uno tra {allowed}.",
        ),
        "t3.morto.partner_not_dealer": (
            "Under these house rules the dealer, {dealer}, plays with the dummy, not {value}.",
            "Con queste regole della casa gioca col morto il mazziere, {dealer}, non {value}.",
        ),
    }
)

FOURS = frozenset(Card("4", s) for s in ("d", "c", "s", "b"))


# -- the games --------------------------------------------------------------------------


class IndividualGame(Game):
    """Each player scores his own captured thirds; the first to the target wins."""

    prefix: ClassVar[str]
    entry_fields: ClassVar[tuple[str, ...]] = (
        "dealer",
        "level",
        "seats",
        "last_trick",
        "declarations",
    )
    takes_penalties: ClassVar[bool] = True
    forfeit_points: ClassVar[int | None] = 11  # the whole deal; only two players can forfeit
    #: The switch that turns declarations on (None: never declared in this game).
    declarations_switch: ClassVar[str | None] = None

    def tricks_in_deal(self, rules: Rules, players: int) -> int:
        return 40 // players

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """Each seat's pile; each player's own declarations (napoletana, three or four of
        a kind, no decima) where the switch plays them."""
        # nobody counts tricks at the table: an entry in thirds may leave them all out
        shape = replace(
            super().table_shape(rules, seats),
            tricks=40 // len(seats),
            trick_counts="optional",
            tally=tally(rules.get("core.rounding"), ("seats", "last_trick", "removed")),
        )
        if rules.get("core.rounding") != "round_two_thirds_up":
            # floored, or the remainder to the last trick: the figures left over change no
            # score but through the rest's whole points
            lost = lost_points(len(shape.scorers), shape.whole or CARD_THIRDS_IN_DECK)
            shape = replace(shape, parts=(Part("piles", {"whole_points": lost}),))
        if self.declarations_switch and rules.get(self.declarations_switch):
            kinds = {"kinds": ("napoletana", "three", "four"), "anomalies": False}
            shape = replace(shape, parts=(*shape.parts, Part("declarations", kinds)))
        return shape

    def removed_cards(
        self, deal: Mapping[str, Any], rules: Rules, problems: Problems
    ) -> tuple[Card, ...]:
        return ()

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        declarations = self.read_declared(deal, rules, state.seats, problems)
        level = read_level(deal, problems)
        removed = self.removed_cards(deal, rules, problems)
        seats = state.seats
        tricks = self.tricks_in_deal(rules, len(seats))
        takers = (deal.get("last_trick"), deal.get("last_trick_round1"))
        deal, counted = uncounted_seat_tricks(deal, seats, tricks, len(seats), takers)
        captures = read_captures(
            deal, "seats", seats, "", problems, what=("player", "giocatore"), extra_fields=POINTS
        )
        if not counted:  # the rules saw placeholder counts; they bound nothing
            captures = {s: replace(c, tricks_counted=False) for s, c in captures.items()}
        result_level = check_level(level, captures, problems)
        if len(captures) == len(seats):
            deck: Sequence[Card] = ()
            if result_level == "cards":
                deck = [c for c in DECK40 if c not in removed] if removed else DECK40
            check_captures(
                captures,
                problems,
                tricks_in_deal=tricks,
                cards_per_trick=len(seats),
                counting_cards=deck,
            )
        if removed:
            for cap in captures.values():
                for card in cap.cards or ():
                    if card in removed:
                        problems.add(
                            "t3.removed.captured",
                            cap.path,
                            card=card_name(card),
                            scorer=cap.scorer,
                        )
        last = check_last_trick(
            deal.get("last_trick"), captures, seats, tricks, "last_trick", problems
        )
        round1 = self.round1_last_trick(deal, rules, seats, captures, tricks, problems)
        entered = entered_points(deal, "seats", seats, problems)
        problems.raise_if_any()
        values = rules.values
        rounding = values["core.rounding"]
        thirds: dict[str, int] = {}
        tricks_won: dict[str, int] = {}
        for seat in seats:
            cap = captures[seat]
            thirds[seat] = cap.thirds
            tricks_won[seat] = cap.tricks
        lines = score_thirds(thirds, last, rounding)
        if round1 is not None:
            lines[round1].append(Line("last_trick", 1, {"round": 1}))
        points: dict[str, int] = {}
        breakdown: dict[str, tuple[Line, ...]] = {}
        deal_total = dropped = 0
        for seat in seats:
            own = tuple(lines[seat])
            breakdown[seat] = own
            earned = 0
            for line in own:
                earned += line.points
            points[seat] = earned
            deal_total += earned
            rest = thirds[seat] % 3
            if rest != 2 or rounding != "round_two_thirds_up":
                dropped += rest
        if entered:
            check_points(entered, points, thirds, last, rounding, "seats", problems)
            problems.raise_if_any()
        for decl in declarations:
            breakdown[decl.player] = (
                *breakdown[decl.player],
                Line("declaration", decl.points, decl.as_dict()),
            )
            points[decl.player] += decl.points
        facts: dict[str, Any] = {
            "thirds": thirds,
            # uncounted at the table: the counts the rules saw say nothing
            "tricks": tricks_won if counted else dict.fromkeys(tricks_won),
            "last_trick": last,
            "dropped_thirds": dropped,
        }
        self.add_facts(facts, rules, removed, round1)
        return DealResult(
            game=self.key,
            level=result_level,
            points=points,
            breakdown=breakdown,
            ends_match=would_end(
                state,
                points,
                values[f"{self.prefix}.target"],
                values[f"{self.prefix}.both_reach_target"],
            ),
            facts=facts,
            warnings=over_eleven(deal_total, DEAL_POINTS + (round1 is not None)),
        )

    def add_facts(
        self, facts: dict[str, Any], rules: Rules, removed: tuple[Card, ...], round1: str | None
    ) -> None:
        """Game-specific facts (the removed 4, the first round's last trick...)."""

    def read_declared(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        seats: Sequence[str],
        problems: Problems,
        hands: Mapping[str, Sequence[Card]] | None = None,
    ) -> list[Declaration]:
        """Declarations only where the game's switch allows them, each scored for its own
        player: combinations held in the ten cards first dealt (checked against them when
        the hands are known)."""
        switch = self.declarations_switch
        if switch is None or not rules[switch]:
            if deal.get("declarations") not in (None, []):
                problems.add(
                    "ind.no_declarations",
                    "declarations",
                    game=Localized(self.name_en, self.name_it),
                )
            return []
        found = read_declarations(
            deal.get("declarations"), seats, "declarations", problems, decima=False
        )
        check_declarations(found, problems, hand_size=10, hands=hands)
        return found

    def round1_last_trick(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        seats: Sequence[str],
        captures: Mapping[str, Capture],
        tricks: int,
        problems: Problems,
    ) -> str | None:
        return None

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        return first_to_target(
            state, rules[f"{self.prefix}.target"], rules[f"{self.prefix}.both_reach_target"]
        )

    # -- random legal deals -------------------------------------------------------------

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        removed = self.random_removed(rng, rules)
        deck = [c for c in DECK40 if c not in removed]
        rng.shuffle(deck)
        taken, tricks, lasts, record = self.play(rng, deck, rules, state)
        deal: dict[str, Any] = {"dealer": state.dealer}
        if level == "play":
            deal.update(record)
        else:
            deal["seats"] = {p: capture_entry(taken[p], tricks[p], level) for p in state.seats}
            deal["last_trick"] = lasts[-1]
            if self.key == "tressette2" and each_round(rules):
                deal["last_trick_round1"] = lasts[0]
        if removed and rules.values.get("t3.removed_four") == "any_announced":
            deal["removed"] = removed[0].code
        return deal

    def random_removed(self, rng: random.Random, rules: Rules) -> list[Card]:
        return []

    def rounds(self, rules: Rules, players: int) -> tuple[int, ...]:
        """Cards dealt to each player per round (one round unless a two-round form)."""
        return (40 // players,)

    def play(
        self, rng: random.Random, deck: list[Card], rules: Rules, state: MatchState
    ) -> tuple[dict[str, list[Card]], dict[str, int], list[str], dict[str, Any]]:
        """Deal round by round and play each out: piles, tricks, each round's last winner
        and the play record."""
        seats = state.seats
        n = len(seats)
        eldest = self.eldest(state)
        ranks = rank_order(rules)
        taken: dict[str, list[Card]] = {p: [] for p in seats}
        tricks = dict.fromkeys(seats, 0)
        lasts: list[str] = []
        dealt: list[dict[str, list[str]]] = []
        played: list[list[Card]] = []
        pos = 0
        for number, size in enumerate(self.rounds(rules, n)):
            hands = {p: deck[pos + i * size : pos + (i + 1) * size] for i, p in enumerate(seats)}
            dealt.append({p: codes(h) for p, h in hands.items()})
            pos += size * n
            leader = first_leader(rules, state, hands, eldest) if number == 0 else eldest
            remaining = {p: list(h) for p, h in hands.items()}
            lasts.append(play_round(rng, remaining, seats, leader, taken, tricks, ranks, played))
        record = {
            "hands": dealt[0] if len(dealt) == 1 else dealt,
            "tricks": [codes(t) for t in played],
        }
        return taken, tricks, lasts, record

    # -- the play record ----------------------------------------------------------------

    def play_fields(self, rules: Rules) -> tuple[str, ...]:
        return ("dealer", "level", "hands", "tricks", "declarations")

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): the dealt hands (per round in the two-round forms), the stock of the
        two-player game in the order it is drawn, and every trick."""
        removed = self.removed_cards(deal, rules, problems)
        deck = [c for c in DECK40 if c not in removed]
        deck_set = frozenset(deck)
        seats = state.seats
        sizes = self.rounds(rules, len(seats))
        rounds = read_rounds(deal, seats, sizes, deck_set, problems)
        stock_size = len(deck) - sum(sizes) * len(seats)
        stock = read_pile(deal, "stock", stock_size, deck_set, problems) if stock_size else []
        if len(rounds) == len(sizes) and stock is not None:
            piles = {
                (f"hands[{i}].{p}" if len(rounds) > 1 else f"hands.{p}"): h
                for i, hands in enumerate(rounds)
                for p, h in hands.items()
            }
            piles["stock"] = stock
            check_deal(piles, deck, problems)
        self.read_declared(deal, rules, seats, problems, rounds[0] if rounds else None)
        if problems or stock is None:
            return None
        eldest = self.eldest(state)
        leader = first_leader(rules, state, rounds[0], eldest)
        options = ReplayOptions(
            rank_order(rules),
            deck_set,
            self.tricks_in_deal(rules, len(seats)),
            after_trick=_after_trick(rounds, sizes, stock, seats, eldest),
            piles={"stock": stock},
        )
        return Dealt(
            rounds[0],
            seats,
            leader,
            options,
            facts={"first_leader": leader},
            context={"sizes": sizes},
        )

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "seats": {
                p: {"cards": codes(found.taken[p]), "tricks": found.won[p]} for p in dealt.order
            },
            "last_trick": found.last_winner,
        }
        if "removed" in deal:
            entry["removed"] = deal["removed"]
        if deal.get("declarations") not in (None, []):
            entry["declarations"] = deal["declarations"]
        if self.key == "tressette2" and each_round(rules):
            entry["last_trick_round1"] = found.tricks[dealt.context["sizes"][0] - 1].winner
        return entry


def read_rounds(
    deal: Mapping[str, Any],
    seats: Sequence[str],
    sizes: Sequence[int],
    deck: frozenset[Card],
    problems: Problems,
) -> list[dict[str, list[Card]]]:
    """``hands``: one object of hands, or a list of them when the game deals in rounds."""
    if len(sizes) == 1:
        hands = read_hands(deal, seats, sizes[0], deck, problems)
        return [hands] if len(hands) == len(seats) else []
    raw = deal.get("hands")
    if not isinstance(raw, list) or len(raw) != len(sizes):
        problems.add("ind.hands_rounds", "hands", rounds=len(sizes))
        return []
    out = []
    for i, size in enumerate(sizes):
        hands = read_hands({f"hands[{i}]": raw[i]}, seats, size, deck, problems, key=f"hands[{i}]")
        if len(hands) == len(seats):
            out.append(hands)
    return out


def _after_trick(
    rounds: Sequence[Mapping[str, Sequence[Card]]],
    sizes: Sequence[int],
    stock: Sequence[Card],
    seats: Sequence[str],
    eldest: str,
) -> AfterTrick:
    """P6 and the rounds: the winner draws from the stock first, then the loser; when a
    round is played out the next is dealt and the eldest leads it."""
    pile = list(stock)
    ends = [sum(sizes[: i + 1]) for i in range(len(sizes))]

    def after(number: int, winner: str, remaining: dict[str, set[Card]]) -> str | None:
        if pile:
            remaining[winner].add(pile.pop(0))
            for p in seats:
                if p != winner and pile:
                    remaining[p].add(pile.pop(0))
        if number in ends[:-1]:
            for p, hand in rounds[ends.index(number) + 1].items():
                remaining[p].update(hand)
            return eldest
        return None

    return after


class Tressette2(IndividualGame):
    key: ClassVar[str] = "tressette2"
    name_en: ClassVar[str] = "Tressette for two"
    name_it: ClassVar[str] = "Tressette in due"
    prefix: ClassVar[str] = "t2"
    declarations_switch: ClassVar[str | None] = "t2.declarations"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        *REVOKE_SWITCHES,
        *PENALTY_SWITCHES,
        choice(
            "t2.mode",
            "stock",
            "two_rounds_no_stock",
            help="10 cards each and a stock of 20 (PEN, CUP, SCR), or two rounds of 10 each "
            "without a stock (TI). 20 tricks of two cards either way.",
        ),
        choice(
            "t2.show_drawn_card",
            True,
            False,
            help="Both players show the card they draw (CUP, SCR). Recorded; no score "
            "depends on it.",
        ),
        choice(
            "t2.two_rounds_last_trick",
            "once_per_deal",
            "each_round",
            help="Two-round form: one last-trick point per deal (TI's 11 points) or one per "
            "round (house rule: the deal totals 12).",
        ),
        choice(
            "t2.declarations",
            False,
            True,
            help="Declarations from the ten cards first dealt: napoletana 3, three of a kind "
            "3, four of a kind 4 (other two-player scorers; the four-player rules the book "
            "points back to). Off by the book (PEN gives none for two players).",
        ),
        target_switch("t2"),
        tie_switch("t2"),
    )
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "classic_21": {"t2.mode": "stock", "t2.show_drawn_card": True, "t2.target": 21},
        "ti_two_rounds": {
            "t2.mode": "two_rounds_no_stock",
            "t2.two_rounds_last_trick": "once_per_deal",
            "core.rounding": "remainder_to_last_trick",
        },
        "two_rounds_point_each_round": {
            "t2.mode": "two_rounds_no_stock",
            "t2.two_rounds_last_trick": "each_round",
        },
    }

    def deal_fields(self, rules: Rules) -> tuple[str, ...]:
        return (*self.entry_fields, "last_trick_round1")

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """Two rounds with a last-trick point each: the first round's last trick too."""
        shape = super().table_shape(rules, seats)
        if rules.get("t2.mode") == "two_rounds_no_stock" and (
            rules.get("t2.two_rounds_last_trick") == "each_round"
        ):
            piles = Part("piles", {**_params(shape, "piles"), "round_one_last_trick": True})
            shape = replace(shape, parts=(piles, *shape.parts[1:]))
        return shape

    def round1_last_trick(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        seats: Sequence[str],
        captures: Mapping[str, Capture],
        tricks: int,
        problems: Problems,
    ) -> str | None:
        raw = deal.get("last_trick_round1")
        if not each_round(rules):
            if raw is not None:
                problems.add("t2.round1.not_played", "last_trick_round1")
            return None
        if raw is None:
            problems.add("t2.round1.missing", "last_trick_round1")
            return None
        return check_last_trick(raw, captures, seats, tricks, "last_trick_round1", problems)

    def add_facts(
        self, facts: dict[str, Any], rules: Rules, removed: tuple[Card, ...], round1: str | None
    ) -> None:
        facts["mode"] = rules["t2.mode"]
        if rules["t2.mode"] == "stock":
            facts["drawn_cards_shown"] = rules["t2.show_drawn_card"]
        if round1 is not None:
            facts["last_trick_round1"] = round1

    def rounds(self, rules: Rules, players: int) -> tuple[int, ...]:
        return (10, 10) if rules["t2.mode"] == "two_rounds_no_stock" else (10,)

    def play(
        self, rng: random.Random, deck: list[Card], rules: Rules, state: MatchState
    ) -> tuple[dict[str, list[Card]], dict[str, int], list[str], dict[str, Any]]:
        if rules["t2.mode"] == "two_rounds_no_stock":
            return super().play(rng, deck, rules, state)
        taken, tricks, last, record = play_with_stock(rng, deck, rules, state, self.eldest(state))
        return taken, tricks, [last], record

    def play_fields(self, rules: Rules) -> tuple[str, ...]:
        return (*super().play_fields(rules), "stock")


def each_round(rules: Rules) -> bool:
    return bool(
        rules["t2.mode"] == "two_rounds_no_stock"
        and rules["t2.two_rounds_last_trick"] == "each_round"
    )


def play_with_stock(
    rng: random.Random, deck: list[Card], rules: Rules, state: MatchState, eldest: str
) -> tuple[dict[str, list[Card]], dict[str, int], str, dict[str, Any]]:
    """2.2 with stock: 10 each, 20 in the stock; the winner draws first, then the loser."""
    seats = state.seats
    ranks = rank_order(rules)
    hands = {seats[0]: deck[0:10], seats[1]: deck[10:20]}
    remaining = {p: list(h) for p, h in hands.items()}
    stock = deck[20:]
    record: dict[str, Any] = {
        "hands": {p: codes(h) for p, h in hands.items()},
        "stock": codes(stock[::-1]),  # in the order it is drawn
        "tricks": [],
    }
    taken: dict[str, list[Card]] = {p: [] for p in seats}
    tricks = dict.fromkeys(seats, 0)
    leader = first_leader(rules, state, hands, eldest)
    for _ in range(20):
        other = seats[1] if leader == seats[0] else seats[0]
        lead = rng.choice(remaining[leader])
        follow = [c for c in remaining[other] if c.suit == lead.suit]
        reply = rng.choice(follow or remaining[other])
        remaining[leader].remove(lead)
        remaining[other].remove(reply)
        record["tricks"].append([lead.code, reply.code])
        winner = (leader, other)[trick_winner([lead, reply], ranks)]
        loser = other if winner == leader else leader
        taken[winner] += (lead, reply)
        tricks[winner] += 1
        if stock:
            remaining[winner].append(stock.pop())
            remaining[loser].append(stock.pop())
        leader = winner
    return taken, tricks, leader, record


class Tressette3(IndividualGame):
    key: ClassVar[str] = "tressette3"
    name_en: ClassVar[str] = "Tressette for three"
    name_it: ClassVar[str] = "Tressette in tre"
    prefix: ClassVar[str] = "t3"
    player_counts: ClassVar[tuple[int, ...]] = (3,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        *REVOKE_SWITCHES,
        *PENALTY_SWITCHES,
        choice(
            "t3.mode",
            "39_cards_13_each",
            "39_cards_rounds_7_then_6",
            "col_morto",
            help="39 cards dealt 13 each (VC), in two rounds of 7 then 6 (TI), or one player "
            "with an exposed dummy against the other two (TRC, TRA, CC).",
        ),
        choice(
            "t3.removed_four",
            "4b",
            "any_announced",
            "4s",
            help="The 4 taken out of the deck: batons (VC), any one named by the deal (TI, "
            "DOS, OAS), swords (37NO). The reference bolds no value: 4b chosen.",
        ),
        choice(
            "t3.morto_partner",
            "dealer",
            "announced",
            help="Col morto: the dealer partners the dummy (CC), or the deal names who does.",
        ),
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
        "col_morto": {"t3.mode": "col_morto", "t3.morto_partner": "dealer"},
    }

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """Col morto: two sides, the dummy's and the other (with the dummy's partner); the
        4 taken out is asked when the deal names it."""
        shape = super().table_shape(rules, seats)
        morto = rules.get("t3.mode") == "col_morto"
        piles = Part(
            "piles",
            {
                **_params(shape, "piles"),
                "removed_four": "one" if rules.get("t3.removed_four") == "any_announced" else "",
                "dummy_partner": morto,
            },
        )
        shape = replace(shape, parts=(piles, *shape.parts[1:]))
        if morto:  # two sides' piles: their tricks asked as before; no point is ever lost
            if "whole_points" in piles.params:
                lost = lost_points(2, shape.whole or CARD_THIRDS_IN_DECK)
                piles = Part("piles", {**piles.params, "whole_points": lost})
            shape = replace(
                shape,
                scored_by="sides",
                scorers=("A", "B"),
                trick_counts="asked",
                parts=(piles, *shape.parts[1:]),
                tally=None,
            )
        return shape

    MORTO_FIELDS: ClassVar[tuple[str, ...]] = (
        "dealer",
        "level",
        "sides",
        "last_trick",
        "dummy_partner",
        "declarations",
    )

    def deal_fields(self, rules: Rules) -> tuple[str, ...]:
        if rules["t3.mode"] == "col_morto":
            return self.MORTO_FIELDS
        return (*self.entry_fields, "removed")

    def tricks_in_deal(self, rules: Rules, players: int) -> int:
        return 13

    def rounds(self, rules: Rules, players: int) -> tuple[int, ...]:
        return (7, 6) if rules["t3.mode"] == "39_cards_rounds_7_then_6" else (13,)

    def removed_cards(
        self, deal: Mapping[str, Any], rules: Rules, problems: Problems
    ) -> tuple[Card, ...]:
        rule = rules["t3.removed_four"]
        raw = deal.get("removed")
        card = parse_card(raw) if raw is not None else None
        if raw is not None and card not in FOURS:
            problems.add("t3.removed.not_a_four", "removed", value=raw)
            card = None
        if rule == "any_announced":
            if raw is None:
                problems.add("t3.removed.missing", "removed")
            return (card,) if card is not None else ()
        fixed = Card("4", rule[1])
        if card is not None and card != fixed:
            problems.add("t3.removed.fixed", "removed", card=card_name(fixed), value=raw)
        return (fixed,)

    def add_facts(
        self, facts: dict[str, Any], rules: Rules, removed: tuple[Card, ...], round1: str | None
    ) -> None:
        facts["mode"] = rules["t3.mode"]
        facts["removed"] = [c.code for c in removed]

    def random_removed(self, rng: random.Random, rules: Rules) -> list[Card]:
        if rules["t3.mode"] == "col_morto":
            return []
        rule = rules["t3.removed_four"]
        suit = rng.choice("dcsb") if rule == "any_announced" else rule[1]
        return [Card("4", suit)]

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        if rules["t3.mode"] == "col_morto":
            return self._col_morto(deal, rules, state)
        return super().score_entry(deal, rules, state)

    def _col_morto(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """One player and the exposed dummy (side A) against the other two (side B)."""
        problems = Problems()
        known_fields(deal, self.MORTO_FIELDS, "", problems)
        if deal.get("declarations") not in (None, []):
            problems.add(
                "ind.no_declarations",
                "declarations",
                game=Localized(self.name_en, self.name_it),
            )
        level = read_level(deal, problems)
        partner = self._dummy_partner(deal, rules, state, problems)
        sides = ("A", "B")
        captures = read_captures(deal, "sides", sides, "", problems, extra_fields=POINTS)
        result_level = check_level(level, captures, problems)
        if len(captures) == 2:
            check_captures(
                captures,
                problems,
                tricks_in_deal=10,
                cards_per_trick=4,
                counting_cards=DECK40 if result_level == "cards" else (),
            )
        last = check_last_trick(deal.get("last_trick"), captures, sides, 10, "last_trick", problems)
        entered = entered_points(deal, "sides", sides, problems)
        problems.raise_if_any()
        assert partner is not None
        rounding = rules["core.rounding"]
        thirds = {s: captures[s].thirds for s in sides}
        side_lines = score_thirds(thirds, last, rounding)
        side_points = {s: sum(line.points for line in side_lines[s]) for s in sides}
        check_points(entered, side_points, thirds, last, rounding, "sides", problems)
        problems.raise_if_any()
        side_of = {p: "A" if p == partner else "B" for p in state.seats}
        points = {p: side_points[side_of[p]] for p in state.seats}
        return DealResult(
            game=self.key,
            level=result_level,
            points=points,
            breakdown={p: tuple(side_lines[side_of[p]]) for p in state.seats},
            ends_match=would_end(state, points, rules["t3.target"], rules["t3.both_reach_target"]),
            facts={
                "mode": "col_morto",
                "dummy_partner": partner,
                "sides": {s: [p for p in state.seats if side_of[p] == s] for s in sides},
                "side_points": side_points,
                "thirds": thirds,
                "tricks": {s: captures[s].tricks for s in sides},
                "last_trick": last,
            },
            warnings=over_eleven(sum(side_points.values())),
        )

    def _dummy_partner(
        self, deal: Mapping[str, Any], rules: Rules, state: MatchState, problems: Problems
    ) -> str | None:
        raw = deal.get("dummy_partner")
        if raw is None:
            if rules["t3.morto_partner"] == "dealer":
                return state.dealer
            problems.add("input.missing", "dummy_partner", field="dummy_partner")
            return None
        if not isinstance(raw, str) or raw not in state.seats:
            problems.add(
                "t3.morto.partner_unknown",
                "dummy_partner",
                value=raw,
                allowed=", ".join(state.seats),
            )
            return None
        if rules["t3.morto_partner"] == "dealer" and raw != state.dealer:
            problems.add(
                "t3.morto.partner_not_dealer", "dummy_partner", dealer=state.dealer, value=raw
            )
        return raw

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        if rules["t3.mode"] != "col_morto":
            return super().random_deal(rng, rules, state, level)
        partner = state.dealer
        if rules["t3.morto_partner"] == "announced":
            partner = rng.choice(state.seats)
        deck = list(DECK40)
        rng.shuffle(deck)
        order = morto_order(state.seats, partner)
        hands = {p: deck[i * 10 : (i + 1) * 10] for i, p in enumerate(order)}
        start = order.index(first_leader(rules, state, hands, self.eldest(state)))
        played: list[list[Card]] = []
        taken: dict[str, list[Card]] = {p: [] for p in order}
        tricks = dict.fromkeys(order, 0)
        remaining = {p: list(h) for p, h in hands.items()}
        last = play_round(
            rng, remaining, order, order[start], taken, tricks, rank_order(rules), played
        )
        members = {"A": (partner, DUMMY), "B": tuple(p for p in state.seats if p != partner)}
        deal: dict[str, Any] = {"dealer": state.dealer}
        if level == "play":
            deal["hands"] = {p: codes(h) for p, h in hands.items()}
            deal["tricks"] = [codes(t) for t in played]
        else:
            deal["sides"] = {
                s: capture_entry(taken[a] + taken[b], tricks[a] + tricks[b], level)
                for s, (a, b) in members.items()
            }
            deal["last_trick"] = "A" if last in members["A"] else "B"
        if rules["t3.morto_partner"] == "announced":
            deal["dummy_partner"] = partner
        return deal

    def play_fields(self, rules: Rules) -> tuple[str, ...]:
        if rules["t3.mode"] == "col_morto":
            return ("dealer", "level", "hands", "tricks", "dummy_partner", "declarations")
        return (*super().play_fields(rules), "removed")

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        if rules["t3.mode"] != "col_morto":
            return super().read_play(deal, rules, state, problems)
        partner = self._dummy_partner(deal, rules, state, problems)
        if partner is None or problems:
            return None
        order = morto_order(state.seats, partner)
        hands, _ = read_deal(deal, order, 10, DECK40, problems)
        scorer = {p: p for p in state.seats}
        scorer[DUMMY] = partner
        side = {p: "A" if p in (partner, DUMMY) else "B" for p in order}
        options = ReplayOptions(rank_order(rules), DECK40_SET, 10)
        leader = first_leader(rules, state, hands, self.eldest(state))
        return Dealt(hands, order, leader, options, scorer.__getitem__, context={"side": side})

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        if rules["t3.mode"] != "col_morto":
            return super().play_entry(deal, rules, dealt, found)
        side = dealt.context["side"]
        entry: dict[str, Any] = {
            "sides": side_captures(found, side, ("A", "B")),
            "last_trick": side[found.last_winner or dealt.leader],
        }
        for key in ("dummy_partner", "declarations"):
            if key in deal:
                entry[key] = deal[key]
        return entry


DUMMY = "dummy"


def morto_order(seats: Sequence[str], partner: str) -> tuple[str, ...]:
    """Col morto: the dummy sits opposite its partner, between the two opponents."""
    i = seats.index(partner)
    first, second = seats[(i + 1) % 3], seats[(i + 2) % 3]
    return (partner, first, DUMMY, second)


class Tressette4Individual(IndividualGame):
    key: ClassVar[str] = "tressette4i"
    name_en: ClassVar[str] = "Tressette, 4 players all against all"
    name_it: ClassVar[str] = "Tressette in quattro, tutti contro tutti"
    prefix: ClassVar[str] = "t4i"
    declarations_switch: ClassVar[str | None] = "t4i.declarations"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        *REVOKE_SWITCHES,
        *PENALTY_SWITCHES,
        choice(
            "t4i.declarations",
            True,
            False,
            help="Declarations per player (reference 2.4): napoletana 3, three of a kind 3, "
            "four of a kind 4, each scored by its own player on top of his card points; "
            "on, as t4.declarations in pairs.",
        ),
        target_switch("t4i"),
        tie_switch("t4i"),
    )
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "floor": {"core.rounding": "floor_per_scorer"},
        "ti_leftover": {"core.rounding": "remainder_to_last_trick"},
    }


GAMES = (Tressette2(), Tressette3(), Tressette4Individual())


def _params(shape: TableShape, kind: str) -> dict[str, Any]:
    """The params of ``shape``'s part ``kind`` (none where it has no such part)."""
    part = shape.part(kind)
    return dict(part.params) if part is not None else {}
