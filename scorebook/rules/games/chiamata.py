"""Chiamata del Tre / Chiamatre / Tressette a chiamare (reference 2.5).

Four players P1..P4 in playing order, each keeping his own running total. Every deal the
caller (the eldest, who leads) calls a card; its holder is his partner for that deal and
the two play a two-sided Tressette deal (11 points) against the other two. Both members
of a side add the side's points to their own totals (house rule: the sources give no
scoring, see ``cdt.scoring``). If the caller holds the called card he plays alone against
three (``cdt.caller_holds_called``). The first player to reach the target wins and is
paid one stake by each of the other three.

Decisions where the reference is silent are documented in ``docs/games/chiamata.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..cards import DECK40, DECK40_SET, FOUR_OF_COINS, SUITS, Card, parse_card, thirds_of
from ..errors import Localized, Problems, messages
from ..game import (
    Deal,
    Game,
    Start,
    chips_after_deals,
    first_to_target,
    target_switch,
    tie_switch,
    would_end,
)
from ..houserules import Rules, Switch, choice
from ..parse import card_name, cards, join, known_fields, no_duplicates, obj
from ..play import (
    REVOKE_SWITCHES,
    Dealt,
    Replay,
    ReplayOptions,
    codes,
    first_leader,
    leads_by_4d,
    play_out_hands,
)
from ..result import DealResult, Line, MatchState, Outcome
from ..table import Part, TableShape
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
    may_annul,
    merge_captures,
    over_eleven,
    rank_order,
    read_captures,
    read_level,
    score_thirds,
    uncounted_tricks,
)

messages(
    {
        "cdt.caller.unknown": (
            "{value!r} is not a seat; the caller is one of {allowed}.",
            "{value!r} non è un posto; chi chiama è uno tra {allowed}.",
        ),
        "cdt.caller.not_eldest": (
            "The call belongs to the eldest hand, {expected} (the player after the dealer "
            "{dealer}), not {value}.",
            "Chiama il primo di mano, {expected} (il giocatore dopo il mazziere {dealer}), "
            "non {value}.",
        ),
        "cdt.caller.not_holder_4d": (
            "Under these house rules the holder of the 4 of coins, {expected}, leads and "
            "calls, not {value}.",
            "Con queste regole della casa attacca e chiama chi ha il quattro di denari, "
            "{expected}, non {value}.",
        ),
        "cdt.call.bad_suit": (
            "The call names the suit of a 3 the caller lacks (d, c, s or b){two}, not {value!r}.",
            "Si chiama il seme di un tre che manca a chi chiama (d, c, s o b){two}, non {value!r}.",
        ),
        "cdt.call.bad_card": (
            "The call names a card other than an ace, written like 3d, 2c or Rs, not {value!r}.",
            "Si chiama una carta che non sia un asso, scritta come 3d, 2c o Rs, non {value!r}.",
        ),
        "cdt.call.ace": (
            "An ace cannot be called, so not the {card}: call a 3, a 2 or another card.",
            "Non si può chiamare un asso, quindi non l'{card}: chiama un tre, un due o "
            "un'altra carta.",
        ),
        "cdt.call.caller_holds": (
            "{caller} holds the {card} himself, so cannot call it: the call names a card he lacks.",
            "{caller} ha lui stesso il {card}, quindi non può chiamarlo: si chiama una carta "
            "che manca.",
        ),
        "cdt.call.two_without_all_threes": (
            "{caller} may call a 2 only when holding all four 3s, but he lacks the {card}.",
            "{caller} può chiamare un due solo se ha tutti e quattro i tre, ma gli manca il "
            "{card}.",
        ),
        "cdt.call.must_call": (
            "{caller} lacks the {card}, so he must call a card; he cannot play alone "
            "('called': \"none\").",
            "A {caller} manca il {card}, quindi deve chiamare una carta; non può giocare da "
            "solo ('called': \"none\").",
        ),
        "cdt.partner.unknown": (
            "{value!r} is not a seat; the partner (who holds the {card}) is one of {allowed}.",
            "{value!r} non è un posto; il compagno (chi ha in mano: {card}) è uno tra {allowed}.",
        ),
        "cdt.partner.not_holder": (
            "{value} is entered as the partner, but the {card} is in {holder}'s hand.",
            "{value} risulta il compagno, ma il {card} è nella mano di {holder}.",
        ),
        "cdt.partner.is_caller": (
            "{caller} called the {card}, a card he lacks, so he cannot be his own partner.",
            "{caller} ha chiamato il {card}, che non ha, quindi non può essere compagno di "
            "se stesso.",
        ),
        "cdt.partner.caller_holds_called": (
            "{caller} holds the called {card} himself; these house rules do not allow it "
            "(he would play alone against three).",
            "{caller} ha lui stesso il {card} chiamato; queste regole della casa non lo "
            "permettono (giocherebbe da solo contro tre).",
        ),
        "cdt.partner.no_call": (
            "With no card called {caller} plays alone, so the partner cannot be {value}.",
            "Senza chiamata {caller} gioca da solo, quindi il compagno non può essere {value}.",
        ),
        "cdt.hands.size": (
            "{player}'s hand must have 10 cards, not {count}.",
            "La mano di {player} deve avere 10 carte, non {count}.",
        ),
        "cdt.sides_or_seats": (
            "Enter the captures per side ('sides') or per player ('seats'), not both.",
            "Inserisci le prese per lato ('sides') o per giocatore ('seats'), non entrambi.",
        ),
        "cdt.hand_without_annul": (
            "'hand' is the hand of the player who annuls the deal; the whole deal's hands go "
            "in 'hands'.",
            "'hand' è la mano di chi manda a monte; le mani di tutta la smazzata vanno in 'hands'.",
        ),
        "cdt.annul.off": (
            "These house rules do not allow a deal to be annulled.",
            "Queste regole della casa non permettono di mandare a monte.",
        ),
        "cdt.annul.not_allowed": (
            "{player}'s hand ({thirds} thirds{carichi}) may not be annulled under the rule "
            "'{rule}'.",
            "La mano di {player} ({thirds} terzi{carichi}) non si può mandare a monte con "
            "la regola '{rule}'.",
        ),
        "cdt.annul.with_play": (
            "An annulled deal is not played: remove '{field}' (a deal can be annulled only "
            "before the call and the opening lead).",
            "Una smazzata mandata a monte non si gioca: togli '{field}' (si manda a monte "
            "solo prima della chiamata e dell'attacco).",
        ),
        "cdt.annul.hand_twice": (
            "Enter {player}'s hand once: in 'hand' or in 'hands', not both.",
            "Inserisci la mano di {player} una volta sola: in 'hand' o in 'hands', non in "
            "entrambi.",
        ),
    }
)

SIDES = ("callers", "others")
FIELDS = (
    "dealer",
    "level",
    "caller",
    "called",
    "partner",
    "hands",
    "sides",
    "seats",
    "all_tricks",
    "last_trick",
    "annulled_by",
    "hand",
    "declarations",
)
PLAY_FIELDS = ("caller", "called", "partner", "sides", "seats", "last_trick")
RECORD_FIELDS = ("dealer", "level", "hands", "tricks", "caller", "called", "partner", "annulled_by")
THREES = tuple(Card("3", s) for s in SUITS)
TWOS = tuple(Card("2", s) for s in SUITS)
CALLABLE = tuple(c for c in DECK40 if c.rank != "A")
NO_CALL = "none"
OR_A_TWO = Localized(
    ", or a 2 when he holds all four 3s", ", oppure un due se ha tutti e quattro i tre"
)
NOTHING = Localized("", "")

SWITCHES: tuple[Switch, ...] = (
    *CORE_SWITCHES,
    choice(
        "cdt.call",
        "suit_whose_3_caller_lacks",
        "any_3_or_2_or_non_ace",
        help="What is called: the suit of a 3 the caller lacks (PEN), or a 3, a 2 or any "
        "card but an ace (GG).",
    ),
    choice(
        "cdt.caller_holds_called",
        "alone_against_three",
        "rejected",
        help="GG call: the caller may call a card he holds and play alone against three, "
        "or such a call is refused (no source: house rule).",
    ),
    choice(
        "cdt.all_threes_held",
        "call_a_two",
        "alone_against_three",
        help="PEN call when the caller holds all four 3s: he calls a 2 he lacks (as in "
        "Terziglio/Calabrasella), or calls nothing and plays alone (no source).",
    ),
    choice(
        "cdt.scoring",
        "side_points_to_each_member",
        "wb_plus_minus",
        help="Each player keeps his own total and adds his side's points (house rule, the "
        "reference's inferred model), or WB's algebraic scoring: the side with 6 or more "
        "wins, each winner scores 1 from each opponent and each loser pays 1 to each winner, "
        "doubled for a cappotto or a caller alone (sola), quadrupled for both; zero-sum, "
        "settled every deal.",
    ),
    Switch(
        "cdt.deals",
        0,
        between=(0, 1000),
        help="WB scoring: deals in the match (0: open, the club closes it).",
    ),
    choice(
        "cdt.annul_rule",
        "no_carico_and_lt3_figures",
        "less_than_one_point",
        "off",
        help="When a poor hand may annul the deal: GG's tournament rule (default for the "
        "Chiamatre), PEN's less than one point, or never.",
    ),
    target_switch("cdt"),
    tie_switch("cdt"),
    *REVOKE_SWITCHES,
)


class ChiamataDelTre(Game):
    """The caller's partner is the holder of the called card; totals are individual."""

    record_fields: ClassVar[tuple[str, ...]] = RECORD_FIELDS
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    key: ClassVar[str] = "chiamata"
    name_en: ClassVar[str] = "Chiamata del Tre (Chiamatre)"
    name_it: ClassVar[str] = "Chiamata del tre (Chiamatre)"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    switches: ClassVar[tuple[Switch, ...]] = SWITCHES
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "pen": {
            "cdt.call": "suit_whose_3_caller_lacks",
            "cdt.annul_rule": "less_than_one_point",
            "cdt.target": 21,
        },
        "gg_torneo": {
            "cdt.call": "any_3_or_2_or_non_ace",
            "cdt.caller_holds_called": "alone_against_three",
            "cdt.annul_rule": "no_carico_and_lt3_figures",
        },
    }
    deal_contest: ClassVar[str] = "sides"  # the caller and partner against the other two

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """The call (a suit's 3, or a card), then the two sides' piles of ten tricks."""
        # the first hand calls, unless the holder of the 4 of coins leads (core.first_lead)
        caller = "eldest" if rules.get("core.first_lead", "eldest") == "eldest" else "asked"
        if str(rules.get("cdt.call", "")).startswith("suit"):
            call = Part("call", {"by": "suit", "caller": caller})
        else:
            cards = tuple(c.code for c in DECK40 if c.rank != "A")
            call = Part("call", {"by": "card", "cards": cards, "caller": caller})
        return replace(
            super().table_shape(rules, seats),
            scored_by="sides",
            scorers=SIDES,
            tricks=10,
            trick_counts="all_or_none",
            sweep=True,
            parts=(call, Part("piles")),
        )

    # -- one deal -----------------------------------------------------------------------

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        if deal.get("declarations") not in (None, []):
            problems.add(
                "ind.no_declarations",
                "declarations",
                game=Localized(self.name_en, self.name_it),
            )
        if deal.get("annulled_by") is not None:
            return self._annulled(deal, rules, state, problems)
        if deal.get("hand") is not None:
            problems.add("cdt.hand_without_annul", "hand")
        level = read_level(deal, problems)
        seats = state.seats
        hands = read_hands(deal, seats, problems)
        caller = self._caller(deal, rules, state, hands, problems)
        called, call_ok = self._called(deal, rules, problems)
        partner = self._partner(deal, rules, state, caller, called, call_ok, hands, problems)
        team: tuple[str, ...] | None = None
        if caller is not None and partner is not None:
            team = (caller,) if partner == caller else (caller, partner)
        sides, players, result_level = self._captures(deal, seats, team, level, problems)
        last_raw = deal.get("last_trick")
        last_side: str | None = None
        last_player: str | None = None
        if players:
            last_player = check_last_trick(last_raw, players, seats, 10, "last_trick", problems)
            if last_player is not None and team is not None:
                last_side = "callers" if last_player in team else "others"
        elif deal.get("seats") is None:
            last_side = check_last_trick(last_raw, sides, SIDES, 10, "last_trick", problems)
        entered = entered_points(deal, "sides", SIDES, problems)
        problems.raise_if_any()
        assert caller is not None and partner is not None and team is not None
        values = rules.values
        rounding = values["core.rounding"]
        ours, theirs = sides["callers"], sides["others"]
        thirds = {"callers": ours.thirds, "others": theirs.thirds}
        lines = score_thirds(thirds, last_side, rounding)
        ours_lines, theirs_lines = tuple(lines["callers"]), tuple(lines["others"])
        won = lost = 0
        for line in ours_lines:
            won += line.points
        for line in theirs_lines:
            lost += line.points
        side_points = {"callers": won, "others": lost}
        if entered:
            check_points(entered, side_points, thirds, last_side, rounding, "sides", problems)
            problems.raise_if_any()
        points = {}
        breakdown = {}
        callers = []
        others = []
        for p in seats:
            if p in team:
                points[p] = won
                breakdown[p] = ours_lines
                callers.append(p)
            else:
                points[p] = lost
                breakdown[p] = theirs_lines
                others.append(p)
        wb: dict[str, Any] | None = None
        units: dict[str, int] = {}
        if values["cdt.scoring"] == "wb_plus_minus":
            wb = wb_units(callers, others, won, (ours.tricks, theirs.tricks))
            units = wb.pop("units")
            points = dict(units)
            breakdown = {p: (Line("bid", units[p], wb),) for p in seats}
        facts: dict[str, Any] = {
            "caller": caller,
            "called": called.code if called is not None else None,
            "partner": partner,
            "alone": partner == caller,
            "members": {"callers": callers, "others": others},
            "side_points": side_points,
            "thirds": thirds,
            "tricks": {
                s: c.tricks if c.tricks_counted else None
                for s, c in (("callers", ours), ("others", theirs))
            },
            "last_trick": last_side,
        }
        if players:
            facts["last_trick_player"] = last_player
            facts["players"] = {
                p: {"thirds": c.thirds, "tricks": c.tricks} for p, c in players.items()
            }
        if wb is not None:
            limit = values["cdt.deals"]
            facts["wb"] = wb
            return DealResult(
                game=self.key,
                level=result_level,
                points=points,
                breakdown=breakdown,
                event="cappotto" if wb["cappotto"] else None,
                multiplier=wb["multiplier"],
                ends_match=bool(limit) and state.deals_counted + 1 >= limit,
                units=units,
                facts=facts,
                warnings=over_eleven(won + lost),
            )
        return DealResult(
            game=self.key,
            level=result_level,
            points=points,
            breakdown=breakdown,
            ends_match=would_end(
                state, points, values["cdt.target"], values["cdt.both_reach_target"]
            ),
            facts=facts,
            warnings=over_eleven(won + lost),
        )

    def _caller(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        state: MatchState,
        hands: Mapping[str, Sequence[Card]] | None,
        problems: Problems,
    ) -> str | None:
        raw = deal.get("caller")
        seats = state.seats
        if raw is not None and (not isinstance(raw, str) or raw not in seats):
            problems.add("cdt.caller.unknown", "caller", value=raw, allowed=", ".join(seats))
            return None
        if rules.values["core.first_lead"] != "eldest" and leads_by_4d(rules, state):
            if hands is None:
                if raw is None and deal.get("hands") is None:
                    problems.add("input.missing", "caller", field="caller")
                return raw
            expected = next(p for p in seats if FOUR_OF_COINS in hands[p])
            if raw is not None and raw != expected:
                problems.add("cdt.caller.not_holder_4d", "caller", expected=expected, value=raw)
            return expected
        eldest = self.eldest(state)
        if raw is not None and raw != eldest:
            problems.add(
                "cdt.caller.not_eldest", "caller", expected=eldest, dealer=state.dealer, value=raw
            )
        return eldest

    def _called(
        self, deal: Mapping[str, Any], rules: Rules, problems: Problems
    ) -> tuple[Card | None, bool]:
        """The called card (None with the call "none") and whether the call is valid."""
        raw = deal.get("called")
        if raw is None:
            problems.add("input.missing", "called", field="called")
            return None, False
        if rules.values["cdt.call"] == "suit_whose_3_caller_lacks":
            two_allowed = rules.values["cdt.all_threes_held"] == "call_a_two"
            if isinstance(raw, str) and raw in SUITS:
                return Card("3", raw), True
            if raw == NO_CALL:
                return None, True
            card = parse_card(raw)
            if card is not None and (card.rank == "3" or (card.rank == "2" and two_allowed)):
                return card, True
            problems.add(
                "cdt.call.bad_suit", "called", value=raw, two=OR_A_TWO if two_allowed else NOTHING
            )
            return None, False
        card = parse_card(raw)
        if card is None:
            problems.add("cdt.call.bad_card", "called", value=raw)
            return None, False
        if card.rank == "A":
            problems.add("cdt.call.ace", "called", card=card_name(card))
            return None, False
        return card, True

    def _partner(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        state: MatchState,
        caller: str | None,
        called: Card | None,
        call_ok: bool,
        hands: Mapping[str, Sequence[Card]] | None,
        problems: Problems,
    ) -> str | None:
        raw = deal.get("partner")
        seats = state.seats
        if raw is not None and (not isinstance(raw, str) or raw not in seats):
            what = (
                card_name(called)
                if called is not None
                else Localized("called card", "carta chiamata")
            )
            problems.add(
                "cdt.partner.unknown", "partner", value=raw, card=what, allowed=", ".join(seats)
            )
            return None
        if not call_ok or caller is None:
            return raw
        held = set(hands[caller]) if hands is not None else None
        if called is None:  # the call "none": the caller plays alone
            if raw is not None and raw != caller:
                problems.add("cdt.partner.no_call", "partner", caller=caller, value=raw)
            if held is not None:
                needed = THREES
                if rules.values["cdt.all_threes_held"] == "call_a_two":
                    needed = THREES + TWOS
                lacking = next((c for c in needed if c not in held), None)
                if lacking is not None:
                    problems.add(
                        "cdt.call.must_call", "called", caller=caller, card=card_name(lacking)
                    )
            return caller
        holder = None
        if hands is not None:
            holder = next(p for p in seats if called in hands[p])
        partner = raw if raw is not None else holder
        if partner is None:
            if deal.get("hands") is None:
                problems.add("input.missing", "partner", field="partner")
            return None
        if holder is not None and partner != holder:
            problems.add(
                "cdt.partner.not_holder",
                "partner",
                value=partner,
                card=card_name(called),
                holder=holder,
            )
        if rules.values["cdt.call"] == "suit_whose_3_caller_lacks":
            if held is not None:
                if called in held:
                    problems.add(
                        "cdt.call.caller_holds", "called", caller=caller, card=card_name(called)
                    )
                elif called.rank == "2":
                    lacking = next((c for c in THREES if c not in held), None)
                    if lacking is not None:
                        problems.add(
                            "cdt.call.two_without_all_threes",
                            "called",
                            caller=caller,
                            card=card_name(lacking),
                        )
            elif partner == caller:
                problems.add(
                    "cdt.partner.is_caller", "partner", caller=caller, card=card_name(called)
                )
        elif partner == caller and rules.values["cdt.caller_holds_called"] == "rejected":
            problems.add(
                "cdt.partner.caller_holds_called",
                "partner",
                caller=caller,
                card=card_name(called),
            )
        return partner

    def _captures(
        self,
        deal: Mapping[str, Any],
        seats: Sequence[str],
        team: tuple[str, ...] | None,
        level: str | None,
        problems: Problems,
    ) -> tuple[dict[str, Capture], dict[str, Capture], str]:
        has_sides = deal.get("sides") is not None
        has_seats = deal.get("seats") is not None
        if has_sides and has_seats:
            problems.add("cdt.sides_or_seats", "seats")
            return {}, {}, "totals"
        if has_seats:
            players = read_captures(
                deal, "seats", seats, "", problems, what=("player", "giocatore")
            )
            result_level = check_level(level, players, problems)
            if len(players) == 4:
                check_captures(
                    players,
                    problems,
                    tricks_in_deal=10,
                    cards_per_trick=4,
                    counting_cards=DECK40 if result_level == "cards" else (),
                )
            sides: dict[str, Capture] = {}
            if len(players) == 4 and team is not None:
                sides = {
                    "callers": merge("callers", [players[p] for p in seats if p in team]),
                    "others": merge("others", [players[p] for p in seats if p not in team]),
                }
            return sides, players, result_level
        deal, counted = uncounted_tricks(deal, SIDES, 10, True, problems)
        sides = read_captures(deal, "sides", SIDES, "", problems, extra_fields=POINTS)
        if not counted:  # the rules saw some tricks each; the facts say none were counted
            sides = {s: replace(c, tricks_counted=False) for s, c in sides.items()}
        result_level = check_level(level, sides, problems)
        if len(sides) == 2:
            check_captures(
                sides,
                problems,
                tricks_in_deal=10,
                cards_per_trick=4,
                counting_cards=DECK40 if result_level == "cards" else (),
            )
        return sides, {}, result_level

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): the hands, the call and the tricks; the caller leads the first trick,
        and the partner is whoever was dealt the called card."""
        hands = read_hands(deal, state.seats, problems)
        if hands is None and deal.get("hands") is None:
            problems.add("input.missing", "hands", field="hands")
        if deal.get("annulled_by") is not None:
            if deal.get("tricks") not in (None, []):
                problems.add("cdt.annul.with_play", "tricks", field="tricks")
            if problems:
                return None
            return self.score_entry(
                {"annulled_by": deal["annulled_by"], "hands": deal["hands"]}, rules, state
            )
        if hands is None or problems:
            return None
        leader = first_leader(rules, state, hands, self.eldest(state))
        options = ReplayOptions(rank_order(rules), DECK40_SET, 10)
        return Dealt(hands, state.seats, leader, options)

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        entry = {k: v for k, v in deal.items() if k in ("caller", "called", "partner")}
        entry["hands"] = deal.get("hands")
        entry["seats"] = {
            p: {"cards": codes(found.taken[p]), "tricks": found.won[p]} for p in dealt.order
        }
        entry["last_trick"] = found.last_winner
        return entry

    def _annulled(
        self, deal: Mapping[str, Any], rules: Rules, state: MatchState, problems: Problems
    ) -> DealResult:
        """2.1.2 / N1-N3: a poor hand cancels the deal before the call; same dealer."""
        player = deal["annulled_by"]
        seats = state.seats
        rule = rules["cdt.annul_rule"]
        if rule == "off":
            problems.add("cdt.annul.off", "annulled_by")
        known_seat = isinstance(player, str) and player in seats
        if not known_seat:
            problems.add(
                "match.unknown_seat", "annulled_by", value=player, allowed=", ".join(seats)
            )
        for field in PLAY_FIELDS:
            if deal.get(field) is not None:
                problems.add("cdt.annul.with_play", field, field=field)
        read_level(deal, problems)
        hands = read_hands(deal, seats, problems)
        hand: list[Card] | None = None
        if deal.get("hand") is not None:
            if hands is not None and known_seat:
                problems.add("cdt.annul.hand_twice", "hand", player=player)
            hand = cards(deal, "hand", "", problems)
            if hand is not None:
                if len(hand) != 10:
                    problems.add("cdt.hands.size", "hand", player=str(player), count=len(hand))
                    hand = None
                elif not no_duplicates({"hand": hand}, problems):
                    hand = None
        elif hands is not None and known_seat:
            hand = list(hands[player])
        if hand is not None and known_seat and rule != "off" and not may_annul(hand, rule):
            carichi = sum(1 for c in hand if c.rank in ("3", "2", "A"))
            problems.add(
                "cdt.annul.not_allowed",
                "hand" if deal.get("hand") is not None else f"hands.{player}",
                player=player,
                thirds=thirds_of(hand),
                carichi=Localized(
                    f", {carichi} of them 3s, 2s or aces", f", di cui {carichi} tra tre, due e assi"
                )
                if carichi
                else NOTHING,
                rule=rule,
            )
        problems.raise_if_any()
        return DealResult(
            game=self.key,
            level="totals" if hand is None else "cards",
            points=dict.fromkeys(seats, 0),
            breakdown=dict.fromkeys(seats, ()),
            annulled=True,
            same_dealer=True,
            facts={"annulled_by": player, "rule": rule},
        )

    # -- the match ----------------------------------------------------------------------

    def settles_per_deal(self, rules: Rules) -> bool:
        """WB's algebraic scoring pays every deal; the race to the target pays at the end."""
        return bool(rules["cdt.scoring"] == "wb_plus_minus")

    def open_ended(self, rules: Rules) -> bool:
        """WB's algebraic scoring with no set number of deals: the club ends it."""
        return bool(rules["cdt.scoring"] == "wb_plus_minus" and not rules["cdt.deals"])

    def stopped(self, state: MatchState, rules: Rules) -> Outcome:
        return chips_after_deals(state)

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        if rules["cdt.scoring"] == "wb_plus_minus":
            limit = rules["cdt.deals"]
            if not limit or state.deals_counted < limit:
                return None
            return chips_after_deals(state)
        return first_to_target(state, rules["cdt.target"], rules["cdt.both_reach_target"])

    # -- random legal deals -------------------------------------------------------------

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        seats = state.seats
        deck = list(DECK40)
        rng.shuffle(deck)
        hands = {p: deck[i * 10 : (i + 1) * 10] for i, p in enumerate(seats)}
        caller = first_leader(rules, state, hands, self.eldest(state))
        held = set(hands[caller])
        called: Card | None
        if rules["cdt.call"] == "suit_whose_3_caller_lacks":
            options = [c for c in THREES if c not in held]
            if not options and rules["cdt.all_threes_held"] == "call_a_two":
                options = [c for c in TWOS if c not in held]
            called = rng.choice(options) if options else None
            call = NO_CALL if called is None else called.suit if called.rank == "3" else called.code
        else:
            options = [
                c
                for c in CALLABLE
                if rules["cdt.caller_holds_called"] != "rejected" or c not in held
            ]
            called = rng.choice(options)
            call = called.code
        partner = caller if called is None else next(p for p in seats if called in hands[p])
        team = {caller, partner}
        start = seats.index(caller)
        order = [seats[(start + k) % 4] for k in range(4)]
        played: list[list[Card]] = []
        taken, tricks, last = play_out_hands(rng, hands, order, rank_order(rules), played)
        per_player = rng.random() < 0.3
        with_hands = rng.random() < 0.5
        deal: dict[str, Any] = {"dealer": state.dealer, "caller": caller, "called": call}
        if level == "play":
            deal["hands"] = {p: codes(hands[p]) for p in seats}
            deal["tricks"] = [codes(t) for t in played]
            return deal
        if level == "cards" and with_hands:
            deal["hands"] = {p: [c.code for c in hands[p]] for p in seats}
        else:
            deal["partner"] = partner
        if per_player:
            deal["seats"] = {p: capture_entry(taken[p], tricks[p], level) for p in seats}
            deal["last_trick"] = last
        else:
            side = {p: "callers" if p in team else "others" for p in seats}
            deal["sides"] = {
                s: capture_entry(
                    [c for p in seats if side[p] == s for c in taken[p]],
                    sum(tricks[p] for p in seats if side[p] == s),
                    level,
                )
                for s in SIDES
            }
            deal["last_trick"] = side[last]
        return deal


def read_hands(
    deal: Mapping[str, Any], seats: Sequence[str], problems: Problems
) -> dict[str, list[Card]] | None:
    """The four dealt hands, ten distinct cards each (D1, D2, D3), or None."""
    raw = deal.get("hands")
    if raw is None:
        return None
    before = len(problems.items)
    entries = obj(raw, "hands", problems, what="hands")
    for key in entries:
        if key not in seats:
            problems.add(
                "match.unknown_seat", join("hands", str(key)), value=key, allowed=", ".join(seats)
            )
    out: dict[str, list[Card]] = {}
    for seat in seats:
        if seat not in entries:
            if isinstance(raw, Mapping):
                problems.add("input.missing", f"hands.{seat}", field=seat)
            continue
        hand = cards(entries, seat, "hands", problems, required=True)
        if hand is None:
            continue
        if len(hand) != 10:
            problems.add("cdt.hands.size", f"hands.{seat}", player=seat, count=len(hand))
        out[seat] = hand
    no_duplicates({f"hands.{s}": h for s, h in out.items()}, problems)
    if len(problems.items) != before:
        return None
    return out


def wb_units(
    callers: Sequence[str], others: Sequence[str], callers_points: int, tricks: tuple[int, int]
) -> dict[str, Any]:
    """WB (2.5, "Tressette a chiamare o Calabresa"): the callers need 6 or more; each
    winner scores as many points as there are opponents and each loser the negative, i.e.
    one unit from each opponent (zero-sum, G1). A cappotto (the winners took every trick)
    or a caller alone (a *sola*) doubles; a cappotto di sola quadruples."""
    callers_win = callers_points >= 6
    winners, losers = (callers, others) if callers_win else (others, callers)
    cappotto = (tricks[0] if callers_win else tricks[1]) == 10
    alone = len(callers) == 1
    multiplier = (2 if cappotto else 1) * (2 if alone else 1)
    units = {p: multiplier * len(losers) for p in winners}
    units.update({p: -multiplier * len(winners) for p in losers})
    return {
        "units": units,
        "callers_win": callers_win,
        "cappotto": cappotto,
        "alone": alone,
        "multiplier": multiplier,
    }


def merge(side: str, caps: Sequence[Capture]) -> Capture:
    return merge_captures(side, f"sides.{side}", caps)


GAMES = (ChiamataDelTre(),)
