"""Terziglio / Calabresella, the Italian three-hander (reference 2.7, switches 3.4).

Every deal is a contract: an auction (chiamo < solo < solissimo < solissimo aggravato
dividete < scegliete), the soloist against the other two, 6 of the 11 points to win. The
bid sets the amount; cappotto doubles it, stramazzo triples it. Clubs either race to a
target or pay chips every deal. With four players the dealer sits the deal out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..cards import DEAL_POINTS, DECK40, DECK40_SET, Card, parse_card
from ..errors import Localized, Problems, messages
from ..game import Deal, Game, Start, chips_after_deals
from ..houserules import Rules, Switch, choice
from ..parse import boolean, card_name, cards, integer, join, known_fields, listing, obj
from ..play import (
    REVOKE_SWITCHES,
    Dealt,
    Replay,
    ReplayOptions,
    codes,
    play_out_hands,
    read_deal,
    side_captures,
)
from ..result import DealResult, Line, MatchState, Outcome
from ..table import Part, TableShape
from ..tricks import (
    CORE_SWITCHES,
    Capture,
    capture_entry,
    check_captures,
    check_last_trick,
    rank_order,
    read_captures,
    score_thirds,
    uncounted_tricks,
)

BIDS = ("chiamo", "solo", "solissimo", "solissimo_dividete", "solissimo_scegliete")
RANK = {bid: i for i, bid in enumerate(BIDS)}
AMOUNTS = {
    "1/2/4/8/16": dict(zip(BIDS, (1, 2, 4, 8, 16), strict=True)),
    "1/2/3/6/12": dict(zip(BIDS, (1, 2, 3, 6, 12), strict=True)),
    # PE's old Calabresella: 1, doubled when the monte goes to the opponents.
    "PE": dict(zip(BIDS, (1, 1, 1, 2, 2), strict=True)),
}
SIDES = ("soloist", "coalition")
OTHER = {"soloist": "coalition", "coalition": "soloist"}
TRICKS = 12
BID_IT = {
    "pass": "passo",
    "chiamo": "chiamo",
    "solo": "solo",
    "solissimo": "solissimo",
    "solissimo_dividete": "solissimo aggravato, dividete",
    "solissimo_scegliete": "solissimo aggravato, scegliete",
}

SWITCHES: tuple[Switch, ...] = (
    *CORE_SWITCHES,
    choice("terz.amounts", "1/2/4/8/16", "1/2/3/6/12", "PE", tables=AMOUNTS),
    choice("terz.cappotto", "both_directions", "soloist_only"),
    choice("terz.cappotto_def", "all_tricks", "all_points"),
    choice("terz.stramazzo", "both_directions", "soloist_only", "off"),
    choice(
        "terz.stramazzo_def",
        "losers_lt_one_point_ignoring_last_trick",
        "winner_takes_all_11",
        "zero_counters",
    ),
    choice("terz.lead", "eldest_except_solissimo_soloist", "eldest_always", "soloist_always"),
    choice("terz.pass_out", "next_dealer", "redeal_same_dealer_min_solo"),
    choice(
        "terz.auction",
        "until_all_others_pass",
        "one_round",
        help="2.7.2: PEN's auction goes round until all but one have passed; PAG-C gives "
        "each player one turn (not in section 3: PEN, as before, by default).",
    ),
    choice("terz.monte_shown_in_solo", True, False, help="Recorded; it changes no score."),
    choice("terz.solissimo_monte_peek", False, True, help="Recorded; it changes no score."),
    choice("terz.called_card", "any_card_lacking", "normally_a_3"),
    choice("terz.settlement", "race_points", "chips_zero_sum"),
    Switch("terz.target", 21, between=(1, 1000), help="Race: points to win (21, 31, 51)."),
    choice("terz.tie", "higher_total_wins", "all_reaching_win"),
    Switch("terz.deals", 0, between=(0, 1000), help="Chips: deals in the match (0: open)."),
    choice("terz.four_players_dealer", "sits_out_no_share", "sits_out_shares_with_coalition"),
    *REVOKE_SWITCHES,
)
RECORD_FIELDS = (
    "dealer",
    "level",
    "hands",
    "monte",
    "bids",
    "called",
    "given",
    "discards",
    "monte_taken",
    "tricks",
)

FIELDS = (
    "dealer",
    "level",
    "all_tricks",
    "bids",
    "called",
    "called_from",
    "monte",
    "discards",
    "monte_shares",
    "sides",
    "last_trick",
    "card_not_given_back",
)

messages(
    {
        "terz.bids_missing": (
            "Enter the auction: 'bids', a list of player and bid from the eldest.",
            "Inserisci l'asta: 'bids', una lista di giocatore e dichiarazione dal primo di mano.",
        ),
        "terz.bid_turn": (
            "It was {expected}'s turn to speak, not {player}'s.",
            "Toccava parlare a {expected}, non a {player}.",
        ),
        "terz.bid_unknown": (
            "{value!r} is not a bid; bids: pass, chiamo, solo, solissimo, "
            "solissimo_dividete, solissimo_scegliete.",
            "{value!r} non è una dichiarazione; dichiarazioni: pass, chiamo, solo, "
            "solissimo, solissimo_dividete, solissimo_scegliete.",
        ),
        "terz.bid_not_higher": (
            "{player} bid {bid} after {previous}: every bid must be higher.",
            "{player} ha dichiarato {bid} dopo {previous}: ogni dichiarazione deve essere "
            "più alta.",
        ),
        "terz.bid_min_solo": (
            "After a pass-out the cards are redealt and the lowest bid is solo: {player} "
            "cannot call chiamo.",
            "Dopo un giro di passo si ridà e la dichiarazione minima è solo: {player} non "
            "può chiamare.",
        ),
        "terz.auction_over": (
            "The auction was already over; nothing can be said after it.",
            "L'asta era già finita; dopo non si può dichiarare nulla.",
        ),
        "terz.auction_open": (
            "The auction is not finished: {player} still has to speak.",
            "L'asta non è finita: deve ancora parlare {player}.",
        ),
        "terz.pass_out_with_play": (
            "Everybody passed, so the deal was not played: remove '{field}'.",
            "Tutti hanno passato, quindi la smazzata non si è giocata: togli '{field}'.",
        ),
        "terz.called_missing": (
            "With chiamo, say which card was called ('called') and where it was "
            "('called_from': a player, monte or own_hand).",
            "Con chiamo, indica la carta chiamata ('called') e dove era ('called_from': "
            "un giocatore, monte o own_hand).",
        ),
        "terz.called_without_chiamo": (
            "Only chiamo calls a card; {bid} does not.",
            "Solo con chiamo si chiama una carta; con {bid} no.",
        ),
        "terz.called_from": (
            "The called card comes from an opponent ({allowed}), the monte or the soloist's "
            "own hand, not {value!r}.",
            "La carta chiamata viene da un avversario ({allowed}), dal monte o dalla mano "
            "del giocatore, non {value!r}.",
        ),
        "terz.called_not_a_three": (
            "The house rule says the called card is normally a 3; the {card} was called.",
            "La regola della casa dice che si chiama di norma un tre; è stato chiamato il {card}.",
        ),
        "terz.shares": (
            "With scegliete the opponents share the 4 monte cards: give how many each took "
            '(\'monte_shares\', e.g. {{"P1": 3, "P3": 1}}).',
            "Con scegliete gli avversari si dividono le 4 carte del monte: indica quante ne "
            'ha prese ciascuno (\'monte_shares\', es. {{"P1": 3, "P3": 1}}).',
        ),
        "terz.shares_sum": (
            "The opponents took {total} monte cards; the monte has 4.",
            "Gli avversari hanno preso {total} carte del monte; il monte ne ha 4.",
        ),
        "terz.shares_dividete": (
            "With dividete each opponent takes exactly 2 monte cards; {player} took {count}.",
            "Con dividete ogni avversario prende esattamente 2 carte del monte; {player} ne "
            "ha prese {count}.",
        ),
        "terz.shares_not_aggravato": (
            "Only a solissimo aggravato shares the monte among the opponents.",
            "Solo nel solissimo aggravato il monte va agli avversari.",
        ),
        "terz.shares_player": (
            "{value!r} is not an opponent of the soloist; opponents: {allowed}.",
            "{value!r} non è un avversario del giocatore; avversari: {allowed}.",
        ),
        "terz.monte_size": (
            "The monte has 4 cards, not {count}.",
            "Il monte ha 4 carte, non {count}.",
        ),
        "terz.discards_size": (
            "After taking the monte the soloist discards exactly 4 cards, not {count}.",
            "Dopo aver preso il monte il giocatore scarta esattamente 4 carte, non {count}.",
        ),
        "terz.discards_not_taken": (
            "With {bid} the soloist does not take the monte, so there are no discards.",
            "Con {bid} il giocatore non prende il monte, quindi non scarta.",
        ),
        "terz.given": (
            "With chiamo the soloist gives the holder of the called card one card back "
            "('given'); there is none when the called card was in the monte or his own hand.",
            "Con chiamo il giocatore restituisce una carta a chi aveva la carta chiamata "
            "('given'); non si restituisce nulla se era nel monte o nella sua mano.",
        ),
        "terz.given_not_held": (
            "The soloist cannot give back the {card}: it is neither in his hand nor in the "
            "monte he took.",
            "Il giocatore non può restituire il {card}: non è né nella sua mano né nel monte "
            "che ha preso.",
        ),
        "terz.discard_not_held": (
            "{player} cannot discard the {card}: it is not in his hand after the exchanges.",
            "{player} non può scartare il {card}: non è nella sua mano dopo gli scambi.",
        ),
        "terz.discards_shape": (
            "With {bid} 'discards' lists {what}.",
            "Con {bid} 'discards' elenca {what_it}.",
        ),
        "terz.monte_taken": (
            "With a solissimo aggravato give the monte cards each opponent took "
            "('monte_taken': {{player: [cards]}}), {rule}.",
            "Con il solissimo aggravato indica le carte del monte prese da ciascun avversario "
            "('monte_taken': {{giocatore: [carte]}}), {rule_it}.",
        ),
        "terz.nothing_to_give_back": (
            "Only a chiamo whose called card came from an opponent has a card to give back "
            "('card_not_given_back').",
            "Solo con chiamo e la carta chiamata presa a un avversario c'è una carta da "
            "restituire ('card_not_given_back').",
        ),
        "terz.monte_not_with_last_trick": (
            "The monte goes with the last trick, but the {card} is not in the {side}'s pile.",
            "Il monte va a chi fa l'ultima presa, ma il {card} non è tra le prese del {side_it}.",
        ),
    }
)


class Terziglio(Game):
    record_fields: ClassVar[tuple[str, ...]] = RECORD_FIELDS
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    key: ClassVar[str] = "terziglio"
    name_en: ClassVar[str] = "Terziglio / Calabresella"
    name_it: ClassVar[str] = "Terziglio / Calabresella"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4)
    settlement: ClassVar[str] = "deal"
    switches: ClassVar[tuple[Switch, ...]] = SWITCHES
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "race_21": {"terz.settlement": "race_points", "terz.target": 21},
        "chips_1_2_4_8_16": {"terz.settlement": "chips_zero_sum", "terz.amounts": "1/2/4/8/16"},
        "dma_1_2_3_6_12": {"terz.amounts": "1/2/3/6/12"},
        "pen_redeal": {
            "terz.pass_out": "redeal_same_dealer_min_solo",
            "terz.lead": "eldest_always",
            "terz.cappotto": "soloist_only",
            "terz.stramazzo": "soloist_only",
            "terz.stramazzo_def": "winner_takes_all_11",
        },
    }

    deal_contest: ClassVar[str] = "bid"

    def counts_in_chips(self, rules: Mapping[str, Any]) -> bool:
        return rules.get("terz.settlement") == "chips_zero_sum"

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """The auction (its winner and contract; chiamo names a card and who held it,
        scegliete how many monte cards each opponent chose), then the soloist's and the
        coalition's piles of twelve tricks; at the card level the monte and the discards.
        Played by four, the dealer sits the deal out."""
        auction = Part(
            "auction",
            {
                "contracts": ("pass", *BIDS),
                "called": tuple(c.code for c in DECK40),
                "called_from": ("monte", "own_hand"),
                # a card called says the contract: only chiamo calls one (Z3)
                "call_contract": "chiamo",
                # the aggravated solissimo (dividete, scegliete): a few hands a season
                "rare_contracts": ("solissimo_dividete", "solissimo_scegliete"),
                "monte_shares": True,
                "card_not_given_back": True,
            },
        )
        return replace(
            super().table_shape(rules, seats),
            scored_by="sides",
            scorers=SIDES,
            dealer_sits_out=len(seats) == 4,
            tricks=TRICKS,
            trick_counts="all_or_none",
            sweep=True,
            parts=(auction, Part("piles"), Part("monte_discards", levels=("cards",))),
        )

    def settles_per_deal(self, rules: Rules) -> bool:
        """Race play settles on the match result; chips change hands every deal."""
        return bool(rules["terz.settlement"] == "chips_zero_sum")

    # -- one deal -----------------------------------------------------------------------

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        players = self.dealt_in(state)
        auction = self._auction(deal, rules, players, state, problems)
        problems.raise_if_any()
        assert auction is not None
        soloist, bid = auction
        if soloist is None:
            return self._pass_out(deal, rules, state, problems)
        assert bid is not None
        opponents = tuple(p for p in players if p != soloist)
        warnings = self._exchanges(deal, rules, bid, soloist, opponents, problems)
        forgot = boolean(deal, "card_not_given_back", "", problems)
        if forgot and (bid != "chiamo" or deal.get("called_from") not in opponents):
            problems.add("terz.nothing_to_give_back", "card_not_given_back")
        deal, counted = uncounted_tricks(deal, SIDES, TRICKS, True, problems)
        captures = read_captures(deal, "sides", SIDES, "", problems)
        if not counted:  # the rules saw some tricks each; the facts say none were counted
            captures = {s: replace(c, tricks_counted=False) for s, c in captures.items()}
        if len(captures) == 2:
            check_captures(
                captures,
                problems,
                tricks_in_deal=TRICKS,
                cards_per_trick=3,
                extra_cards={s: 4 for s in SIDES if deal.get("last_trick") == s},
                extra_thirds={s: 12 for s in SIDES if deal.get("last_trick") == s},
                counting_cards=DECK40,
            )
        last = check_last_trick(
            deal.get("last_trick"), captures, SIDES, TRICKS, "last_trick", problems
        )
        if last is not None and len(captures) == 2:
            self._monte_with_last_trick(deal, bid, captures[last], problems)
        problems.raise_if_any()
        return self._score(rules, state, bid, soloist, opponents, captures, last, warnings, forgot)

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): hands and monte as dealt, the auction, the exchanges, the tricks."""
        players = self.dealt_in(state)
        hands, monte = read_deal(deal, players, 12, DECK40, problems, pile=("monte", 4))
        auction = self._auction(deal, rules, players, state, problems)
        if auction is None or problems:
            return None
        soloist, bid = auction
        entry: dict[str, Any] = {"bids": deal["bids"]}
        if soloist is None or bid is None:
            for field in ("called", "given", "discards", "monte_taken", "tricks"):
                if deal.get(field) not in (None, []):
                    problems.add("terz.pass_out_with_play", field, field=field)
            return None if problems else self.score_entry(entry, rules, state)
        opponents = tuple(p for p in players if p != soloist)
        held = {p: list(h) for p, h in hands.items()}
        final = self._record_exchanges(deal, bid, soloist, opponents, held, monte, entry, problems)
        if problems:
            return None
        leader = _first_leader(rules, bid, soloist, players)
        options = ReplayOptions(rank_order(rules), DECK40_SET, TRICKS, piles={"monte": final})
        entry["monte"] = codes(monte)
        return Dealt(
            held,
            players,
            leader,
            options,
            facts={"first_leader": leader, "final_monte": codes(final)},
            context={"entry": entry, "soloist": soloist, "final": final},
        )

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        soloist = dealt.context["soloist"]
        last = found.last_winner or dealt.leader
        side = {p: "soloist" if p == soloist else "coalition" for p in dealt.order}
        entry = dict(dealt.context["entry"])
        entry["sides"] = side_captures(found, side, SIDES, {side[last]: dealt.context["final"]})
        entry["last_trick"] = side[last]
        return entry

    def _record_exchanges(
        self,
        deal: Mapping[str, Any],
        bid: str,
        soloist: str,
        opponents: Sequence[str],
        held: dict[str, list[Card]],
        monte: list[Card],
        entry: dict[str, Any],
        problems: Problems,
    ) -> list[Card]:
        """Z3 card by card: the call and the card given back, the monte taken and the
        discards, the aggravato shares. Updates ``held``; returns the final monte.

        The card given back may come from the monte: the soloist takes the monte (16 or
        17 cards) before he gives it (2.7.2, PAG-C; PEN does not say when)."""
        monte = list(monte)
        if bid == "chiamo":
            called = parse_card(deal.get("called"))
            if called is None:
                problems.add("terz.called_missing", "called")
                return []
            holder = next((p for p in opponents if called in held[p]), None)
            source = holder or ("own_hand" if called in held[soloist] else "monte")
            entry["called"], entry["called_from"] = called.code, source
            given = deal.get("given")
            if holder is None:
                if given is not None:
                    problems.add("terz.given", "given")
            else:
                back = parse_card(given)
                held[holder].remove(called)
                held[soloist].append(called)
                if back is None:
                    problems.add("terz.given", "given")
                elif back == called or (back not in held[soloist] and back not in monte):
                    problems.add("terz.given_not_held", "given", card=card_name(back))
                else:
                    (held[soloist] if back in held[soloist] else monte).remove(back)
                    held[holder].append(back)
        elif deal.get("called") is not None or deal.get("given") is not None:
            problems.add("terz.called_without_chiamo", "called", bid=_bid(bid))
        raw = deal.get("discards")
        if bid in ("chiamo", "solo"):
            pool = held[soloist] + monte
            discards = (
                cards(deal, "discards", "", problems, required=True)
                if isinstance(raw, list) or raw is None
                else None
            )
            if discards is None:
                if raw is not None:
                    problems.add(
                        "terz.discards_shape",
                        "discards",
                        bid=_bid(bid),
                        what="the 4 cards the soloist laid away",
                        what_it="le 4 carte scartate dal giocatore",
                    )
                return []
            if len(discards) != 4 or len(set(discards)) != 4:
                problems.add("terz.discards_size", "discards", count=len(discards))
                return []
            for card in discards:
                if card not in pool:
                    problems.add(
                        "terz.discard_not_held", "discards", player=soloist, card=card_name(card)
                    )
                    return []
            held[soloist] = [c for c in pool if c not in discards]
            entry["discards"] = codes(discards)
            return discards
        if bid == "solissimo":
            if raw is not None or deal.get("monte_taken") is not None:
                problems.add("terz.discards_not_taken", "discards", bid=_bid(bid))
            return list(monte)
        # solissimo aggravato: the opponents take the monte and discard as many
        dividete = bid == "solissimo_dividete"
        rule = Localized("2 each", "2 a testa") if dividete else Localized("4 in all", "4 in tutto")
        taken_raw = deal.get("monte_taken")
        if not isinstance(taken_raw, Mapping) or not isinstance(raw, Mapping):
            problems.add("terz.monte_taken", "monte_taken", rule=rule, rule_it=rule)
            return []
        taken: dict[str, list[Card]] = {}
        for p in opponents:
            got = cards(taken_raw, p, "monte_taken", problems) or []
            taken[p] = got
        flat = [c for p in opponents for c in taken[p]]
        if (
            sorted(flat, key=DECK40.index) != sorted(monte, key=DECK40.index)
            or (dividete and any(len(taken[p]) != 2 for p in opponents))
            or set(taken_raw) - set(opponents)
        ):
            problems.add("terz.monte_taken", "monte_taken", rule=rule, rule_it=rule)
            return []
        final: list[Card] = []
        for p in opponents:
            thrown = cards(raw, p, "discards", problems) or []
            pool = held[p] + taken[p]
            if len(thrown) != len(taken[p]) or len(set(thrown)) != len(thrown):
                problems.add(
                    "terz.discards_shape",
                    f"discards.{p}",
                    bid=_bid(bid),
                    what="as many cards as each opponent took",
                    what_it="tante carte quante ne ha prese ciascun avversario",
                )
                return []
            for card in thrown:
                if card not in pool:
                    problems.add(
                        "terz.discard_not_held", f"discards.{p}", player=p, card=card_name(card)
                    )
                    return []
            held[p] = [c for c in pool if c not in thrown]
            final.extend(thrown)
        entry["monte_shares"] = {p: len(taken[p]) for p in opponents}
        return final

    def _auction(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        players: Sequence[str],
        state: MatchState,
        problems: Problems,
    ) -> tuple[str | None, str | None] | None:
        """Z2: turn order from eldest, strictly rising bids, no coming back after a pass.

        ``terz.auction``: PEN's auction goes round until all but the highest bidder have
        passed; PAG-C's gives each player one turn, and the highest bid then stands."""
        raw = listing(deal, "bids", "", problems)
        if raw is None:
            problems.add("terz.bids_missing", "bids")
            return None
        passed: set[str] = set()
        high: str | None = None
        holder: str | None = None
        turn = 0
        min_solo = state.extra.get("min_bid") == "solo"
        one_round = rules["terz.auction"] == "one_round"
        ok = True

        def over(spoken: int) -> bool:
            if one_round:
                return spoken == len(players)
            return (high is None and len(passed) == len(players)) or (
                high is not None and len(passed) == len(players) - 1
            )

        def next_speaker(after: int) -> int:
            if one_round:
                return (after + 1) % len(players)
            for step in range(1, len(players) + 1):
                i = (after + step) % len(players)
                if players[i] not in passed:
                    return i
            return after

        for n, item in enumerate(raw):
            where = f"bids[{n}]"
            entry = obj(item, where, problems, what="A bid")
            if type(item) is not dict and not isinstance(item, Mapping):
                ok = False
                break
            known_fields(entry, ("player", "bid"), where, problems)
            if over(n):
                problems.add("terz.auction_over", where)
                ok = False
                break
            expected = players[turn]
            player, said = entry.get("player"), entry.get("bid")
            if player != expected:
                problems.add(
                    "terz.bid_turn", join(where, "player"), expected=expected, player=player
                )
                ok = False
                break
            if said != "pass" and not (isinstance(said, str) and said in RANK):
                problems.add("terz.bid_unknown", join(where, "bid"), value=said)
                ok = False
                break
            if said == "pass":
                passed.add(str(player))
            else:
                if high is not None and RANK[said] <= RANK[high]:
                    problems.add(
                        "terz.bid_not_higher",
                        join(where, "bid"),
                        player=player,
                        bid=_bid(said),
                        previous=_bid(high),
                    )
                    ok = False
                    break
                if min_solo and said == "chiamo":
                    problems.add("terz.bid_min_solo", join(where, "bid"), player=player)
                    ok = False
                    break
                high, holder = str(said), str(player)
            turn = next_speaker(turn)
        if not ok:
            return None
        if not over(len(raw)):
            problems.add("terz.auction_open", "bids", player=players[turn])
            return None
        return holder, high

    def _pass_out(
        self, deal: Mapping[str, Any], rules: Rules, state: MatchState, problems: Problems
    ) -> DealResult:
        for field in ("sides", "last_trick", "called", "called_from", "discards", "monte_shares"):
            if deal.get(field) is not None:
                problems.add("terz.pass_out_with_play", field, field=field)
        problems.raise_if_any()
        redeal = rules["terz.pass_out"] == "redeal_same_dealer_min_solo"
        zero = dict.fromkeys(state.seats, 0)
        return DealResult(
            game=self.key,
            level="totals",
            points=zero,
            breakdown=dict.fromkeys(state.seats, ()),
            same_dealer=redeal,
            units=zero if rules["terz.settlement"] == "chips_zero_sum" else {},
            facts={"pass_out": True, "redeal_min_solo": redeal},
        )

    def _exchanges(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        bid: str,
        soloist: str,
        opponents: Sequence[str],
        problems: Problems,
    ) -> tuple[Any, ...]:
        """Z3: the call, the monte taken and the discards, the aggravato shares."""
        warnings: list[Any] = []
        called_raw, source = deal.get("called"), deal.get("called_from")
        if bid == "chiamo":
            called = parse_card(called_raw)
            if called is None or source is None:
                problems.add("terz.called_missing", "called")
            else:
                if source not in (*opponents, "monte", "own_hand"):
                    problems.add(
                        "terz.called_from",
                        "called_from",
                        allowed=", ".join(opponents),
                        value=source,
                    )
                if rules["terz.called_card"] == "normally_a_3" and called.rank != "3":
                    from ..errors import problem

                    warnings.append(
                        problem("terz.called_not_a_three", "called", card=card_name(called))
                    )
        elif called_raw is not None or source is not None:
            problems.add("terz.called_without_chiamo", "called", bid=_bid(bid))
        takes_monte = bid in ("chiamo", "solo")
        monte = cards(deal, "monte", "", problems)
        if monte is not None and len(monte) != 4:
            problems.add("terz.monte_size", "monte", count=len(monte))
        discards = cards(deal, "discards", "", problems)
        if discards is not None:
            if not takes_monte:
                problems.add("terz.discards_not_taken", "discards", bid=_bid(bid))
            elif len(discards) != 4:
                problems.add("terz.discards_size", "discards", count=len(discards))
        shares = deal.get("monte_shares")
        if bid in ("solissimo_dividete", "solissimo_scegliete"):
            if shares is None and bid == "solissimo_scegliete":
                problems.add("terz.shares", "monte_shares")
            elif shares is not None:
                self._shares(shares, bid, opponents, problems)
        elif shares is not None:
            problems.add("terz.shares_not_aggravato", "monte_shares")
        return tuple(warnings)

    def _shares(self, shares: Any, bid: str, opponents: Sequence[str], problems: Problems) -> None:
        entry = obj(shares, "monte_shares", problems, what="monte_shares")
        counts: dict[str, int] = {}
        for player in entry:
            if player not in opponents:
                problems.add(
                    "terz.shares_player",
                    f"monte_shares.{player}",
                    value=player,
                    allowed=", ".join(opponents),
                )
            else:
                n = integer(entry, player, "monte_shares", problems, low=0, high=4)
                if n is not None:
                    counts[player] = n
        if bid == "solissimo_dividete":
            for player in opponents:
                if counts.get(player, 0) != 2:
                    problems.add(
                        "terz.shares_dividete",
                        f"monte_shares.{player}",
                        player=player,
                        count=counts.get(player, 0),
                    )
        elif sum(counts.values()) != 4:
            problems.add("terz.shares_sum", "monte_shares", total=sum(counts.values()))

    def _monte_with_last_trick(
        self, deal: Mapping[str, Any], bid: str, taker: Capture, problems: Problems
    ) -> None:
        """Z6: the final monte (the discards, or the untouched monte) is in LT's pile."""
        if taker.cards is None:
            return
        final = None
        if bid in ("chiamo", "solo"):
            final = cards(deal, "discards", "", Problems())
        elif bid == "solissimo":
            final = cards(deal, "monte", "", Problems())
        for card in final or ():
            if card not in taker.cards:
                problems.add(
                    "terz.monte_not_with_last_trick",
                    join(taker.path, "cards"),
                    card=card_name(card),
                    side=taker.scorer,
                    side_it="giocatore" if taker.scorer == "soloist" else "la coalizione",
                )

    def _score(
        self,
        rules: Rules,
        state: MatchState,
        bid: str,
        soloist: str,
        opponents: Sequence[str],
        captures: Mapping[str, Capture],
        last: str | None,
        warnings: tuple[Any, ...],
        forgot: bool = False,
    ) -> DealResult:
        """``forgot``: the soloist did not hand a card back for the called one, which
        costs the stake as if the hand were lost (2.7.5, PE): a win becomes a plain loss,
        a loss stands as played."""
        thirds = {s: captures[s].thirds for s in SIDES}
        tricks = {s: captures[s].tricks if captures[s].tricks_counted else None for s in SIDES}
        lines = score_thirds(thirds, last, "floor_per_scorer")
        side_points = {s: sum(line.points for line in lines[s]) for s in SIDES}
        won = side_points["soloist"] >= 6
        winner = "soloist" if won else "coalition"
        event = self._event(rules, captures, side_points, last, winner)
        if forgot and won:
            won, event = False, None
        multiplier = {"cappotto": 2, "stramazzo": 3}.get(event or "", 1)
        amount = AMOUNTS[rules["terz.amounts"]][bid]
        value = amount * multiplier
        sharing = (
            len(state.seats) == 4
            and rules["terz.four_players_dealer"] == "sits_out_shares_with_coalition"
        )
        payers = [*opponents, state.dealer] if sharing else list(opponents)
        chips = rules["terz.settlement"] == "chips_zero_sum"
        units: dict[str, int] = {}
        points = dict.fromkeys(state.seats, 0)
        breakdown: dict[str, tuple[Line, ...]] = dict.fromkeys(state.seats, ())
        detail = {"bid": bid, "amount": amount, "multiplier": multiplier, "event": event}
        if chips:
            sign = 1 if won else -1
            units = dict.fromkeys(state.seats, 0)
            units[soloist] = sign * value * len(payers)
            for p in payers:
                units[p] = -sign * value
            points = dict(units)
            breakdown = {
                p: (Line("chips", units[p], detail),) if units[p] else () for p in state.seats
            }
        elif won:
            points[soloist] = value
            breakdown[soloist] = (Line("bid", value, detail),)
        else:
            for p in payers:
                points[p] = value
                breakdown[p] = (Line("bid", value, detail),)
        return DealResult(
            game=self.key,
            level="cards" if all(c.cards is not None for c in captures.values()) else "totals",
            points=points,
            breakdown=breakdown,
            event=event,
            multiplier=multiplier,
            units=units,
            facts={
                "bid": bid,
                "soloist": soloist,
                "opponents": list(opponents),
                "sitting_out": state.dealer if len(state.seats) == 4 else None,
                "thirds": thirds,
                "tricks": tricks,
                "last_trick": last,
                "side_points": side_points,
                "soloist_won": won,
                "card_not_given_back": forgot,
                "amount": amount,
                "value": value,
            },
            warnings=warnings,
        )

    def _event(
        self,
        rules: Rules,
        captures: Mapping[str, Capture],
        side_points: Mapping[str, int],
        last: str | None,
        winner: str,
    ) -> str | None:
        """Cappotto x2 or stramazzo x3, never both (Z5), in the directions the switches allow."""
        loser = OTHER[winner]
        cap_ok = winner == "soloist" or rules["terz.cappotto"] == "both_directions"
        if cap_ok:
            if rules["terz.cappotto_def"] == "all_tricks":
                if captures[winner].tricks == TRICKS:
                    return "cappotto"
            elif side_points[winner] == DEAL_POINTS:
                return "cappotto"
        mode = rules["terz.stramazzo"]
        if mode == "off" or (mode == "soloist_only" and winner != "soloist"):
            return None
        if captures[loser].tricks == 0:
            return None
        definition = rules["terz.stramazzo_def"]
        if definition == "losers_lt_one_point_ignoring_last_trick":
            hit = captures[loser].thirds <= 2
        elif definition == "winner_takes_all_11":
            hit = side_points[winner] == DEAL_POINTS and last == winner
        else:
            hit = captures[loser].thirds == 0
        return "stramazzo" if hit else None

    # -- the match ----------------------------------------------------------------------

    def setup(self, state: MatchState, rules: Rules) -> None:
        # Passed-out deals do not count towards ``terz.deals``.
        state.extra["passed_out"] = 0

    def advance(self, state: MatchState, result: DealResult, rules: Rules) -> None:
        if result.facts.get("pass_out"):
            state.extra["passed_out"] += 1
        super().advance(state, result, rules)
        if result.facts.get("redeal_min_solo"):
            state.extra["min_bid"] = "solo"
        else:
            state.extra.pop("min_bid", None)

    def open_ended(self, rules: Rules) -> bool:
        """A chips session of no set number of deals: the club ends it."""
        return bool(rules["terz.settlement"] == "chips_zero_sum" and not rules["terz.deals"])

    def stopped(self, state: MatchState, rules: Rules) -> Outcome:
        return chips_after_deals(state)

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        if rules["terz.settlement"] == "chips_zero_sum":
            limit = rules["terz.deals"]
            played = state.deals_played - state.extra["passed_out"]
            return chips_after_deals(state) if limit and played >= limit else None
        target = rules["terz.target"]
        reached = [p for p in state.seats if state.totals[p] >= target]
        if not reached:
            return None
        if rules["terz.tie"] == "all_reaching_win":
            winners = tuple(reached)
        else:
            best = max(state.totals[p] for p in reached)
            winners = tuple(p for p in reached if state.totals[p] == best)
            if len(winners) > 1:
                return None  # an exact tie at the top: play another deal
        losers = tuple(p for p in state.seats if p not in winners)
        units = dict.fromkeys(state.seats, 0)
        for loser in losers:
            for winner in winners:
                units[loser] -= 1
                units[winner] += 1
        return Outcome("target", winners, losers, 1, units, {"totals": dict(state.totals)})

    # -- random legal deals -------------------------------------------------------------

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        players = self.dealt_in(state)
        deck = list(DECK40)
        rng.shuffle(deck)
        hands = {p: deck[i * 12 : (i + 1) * 12] for i, p in enumerate(players)}
        monte = deck[36:]
        bids, soloist, bid = _random_auction(
            rng,
            players,
            state.extra.get("min_bid") == "solo",
            rules["terz.auction"] == "one_round",
        )
        deal: dict[str, Any] = {"dealer": state.dealer, "bids": bids}
        if level == "play":
            deal["level"] = "play"  # a pass-out record has no tricks to say so
            deal["hands"] = {p: codes(h) for p, h in hands.items()}
            deal["monte"] = codes(monte)
        if soloist is None or bid is None:
            return deal
        opponents = [p for p in players if p != soloist]
        final_monte = list(monte)
        if bid == "chiamo":
            lacking = [c for c in DECK40 if c not in hands[soloist]]
            called = rng.choice(lacking)
            holder = next((p for p in opponents if called in hands[p]), "monte")
            deal["called"] = called.code
            if level != "play":
                deal["called_from"] = holder
            if holder != "monte":
                hands[holder].remove(called)
                hands[soloist].append(called)
                back = rng.choice(hands[soloist][:-1])
                hands[soloist].remove(back)
                hands[holder].append(back)
                if level == "play":
                    deal["given"] = back.code
        if bid in ("chiamo", "solo"):
            hands[soloist].extend(monte)
            rng.shuffle(hands[soloist])
            final_monte = hands[soloist][:4]
            hands[soloist] = hands[soloist][4:]
            if level in ("cards", "play"):
                deal["monte"] = [c.code for c in monte]
                deal["discards"] = [c.code for c in final_monte]
        elif bid != "solissimo":
            split = 2 if bid == "solissimo_dividete" else rng.randint(0, 4)
            shares = {opponents[0]: split, opponents[1]: 4 - split}
            rest = list(monte)
            final_monte = []
            took: dict[str, list[str]] = {}
            threw: dict[str, list[str]] = {}
            for p in opponents:
                took[p] = codes(rest[: shares[p]])
                hands[p].extend(rest[: shares[p]])
                rest = rest[shares[p] :]
                rng.shuffle(hands[p])
                threw[p] = codes(hands[p][: shares[p]])
                final_monte.extend(hands[p][: shares[p]])
                hands[p] = hands[p][shares[p] :]
            if level == "play":
                deal["monte_taken"], deal["discards"] = took, threw
            else:
                deal["monte_shares"] = shares
        first = _first_leader(rules, bid, soloist, players)
        order = [players[(players.index(first) + k) % 3] for k in range(3)]
        played: list[list[Card]] = []
        taken, tricks, last = play_out_hands(rng, hands, order, rank_order(rules), played)
        if level == "play":
            deal["tricks"] = [codes(t) for t in played]
            return deal
        taken[last].extend(final_monte)
        side = {p: ("soloist" if p == soloist else "coalition") for p in players}
        deal["sides"] = {
            s: capture_entry(
                [c for p in players if side[p] == s for c in taken[p]],
                sum(tricks[p] for p in players if side[p] == s),
                level,
            )
            for s in SIDES
        }
        deal["last_trick"] = side[last]
        return deal


def _first_leader(rules: Rules, bid: str, soloist: str, players: Sequence[str]) -> str:
    """Who leads the first trick, by the house rule ``terz.lead``."""
    lead = rules["terz.lead"]
    if lead == "soloist_always":
        return soloist
    if lead == "eldest_except_solissimo_soloist" and bid.startswith("solissimo"):
        return soloist
    return players[0]


def _random_auction(
    rng: random.Random, players: Sequence[str], min_solo: bool, one_round: bool = False
) -> tuple[list[dict[str, str]], str | None, str | None]:
    bids: list[dict[str, str]] = []
    passed: set[str] = set()
    high: str | None = None
    holder: str | None = None
    turn = 0
    while True:
        if one_round and len(bids) == len(players):
            return bids, holder, high
        if high is None and len(passed) == len(players):
            return bids, None, None
        if high is not None and len(passed) == len(players) - 1:
            return bids, holder, high
        player = players[turn]
        floor = RANK[high] + 1 if high is not None else (1 if min_solo else 0)
        options = BIDS[floor:]
        if options and rng.random() < (0.6 if high is None else 0.25):
            said = rng.choice(options[:2])
            high, holder = said, player
        else:
            said = "pass"
            passed.add(player)
        bids.append({"player": player, "bid": said})
        if one_round:
            turn += 1
            continue
        for step in range(1, len(players) + 1):
            i = (turn + step) % len(players)
            if players[i] not in passed:
                turn = i
                break


def _bid(bid: str) -> Localized:
    return Localized(bid, BID_IT.get(bid, bid))


GAMES = (Terziglio(),)
