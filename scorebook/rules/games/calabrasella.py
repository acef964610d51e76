"""Calabrasella, the Cavendish / American version (reference 2.8, switches 3.5).

Thirds are whole points here: 35 in a deal (32 in the cards, 3 for the last trick). The
single player ("bidder") wins or loses the difference between the two sides, 2b - 35, from
each opponent; all 35 points doubles it to 70. A revoke moves 9 points; exposing the stock
too early costs 35 to each adversary. The score sheet keeps only the bidder's signed result
and is balanced at the end as in Skat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..cards import (
    CARD_THIRDS_IN_DECK,
    DECK40,
    DECK40_SET,
    LAST_TRICK_THIRDS,
    Card,
    parse_card,
    thirds_of,
)
from ..errors import Localized, Problems, messages
from ..game import Deal, Game, Start
from ..houserules import Rules, Switch, choice
from ..parse import (
    boolean,
    card_name,
    cards,
    integer,
    join,
    known_fields,
    listing,
    no_duplicates,
    obj,
)
from ..play import (
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
    least_thirds,
    most_thirds,
    rank_order,
    tricks_said,
    uncounted_tricks,
)

TOTAL = CARD_THIRDS_IN_DECK + LAST_TRICK_THIRDS  # 35: thirds are this game's points
TRICKS = 12
#: The most the stock won with the last trick can hold: four aces.
STOCK_CARDS = 4
STOCK_THIRDS = STOCK_CARDS * 3
REVOKE = 9
SIDES = ("bidder", "opponents")
OTHER = {"bidder": "opponents", "opponents": "bidder"}

SWITCHES: tuple[Switch, ...] = (
    *CORE_SWITCHES,
    choice("cav.double_70_condition", "all_35_points", "all_tricks"),
    choice("cav.lead", "eldest", "bidder_LHO", "bidder_RHO", help="Recorded; no score."),
    choice("cav.deal_packets", 4, 2, help="Recorded; no score."),
    choice("cav.min_discard", 1, 0),
    choice("cav.callable", "three_or_two_if_all_threes", "any_card"),
    choice("cav.revoke_floor", "allow_negative", "floor_at_zero"),
    choice("cav.revoke_both", "cancel_out", help="Both sides revoke: the 9s cancel (house)."),
    Switch("cav.deals", 0, between=(0, 1000), help="Deals in the session (0: open)."),
)
FIELDS = (
    "dealer",
    "level",
    "bids",
    "called",
    "called_from",
    "holds_all_threes",
    "discards",
    "sides",
    "all_tricks",
    "last_trick",
    "revoke",
    "stock_exposed",
    "out_of_turn",
)

RECORD_FIELDS = (
    "dealer",
    "level",
    "hands",
    "stock",
    "bids",
    "called",
    "given",
    "discards",
    "picks",
    "tricks",
)

messages(
    {
        "cav.record_called_held": (
            "The bidder asks for a card he lacks; he holds the {card}.",
            "Il giocatore chiede una carta che non ha; il {card} ce l'ha.",
        ),
        "cav.record_given": (
            "The bidder gives the holder of the called card one card of his hand in "
            "exchange ('given'); none when the card was in the stock.",
            "Il giocatore dà in cambio a chi aveva la carta chiamata una carta della sua mano "
            "('given'); nessuna se la carta era nel tallone.",
        ),
        "cav.record_not_held": (
            "The bidder cannot {what} the {card}: it is not {where}.",
            "Il giocatore non può {what_it} il {card}: non è {where_it}.",
        ),
        "cav.record_picks": (
            "The bidder takes from the stock as many cards as he discarded ({count}), not {value}.",
            "Il giocatore prende dal tallone tante carte quante ne ha scartate ({count}), non "
            "{value}.",
        ),
        "cav.bids": (
            "Enter the bidding: 'bids', each player from the eldest saying pass or stand, "
            "until one stands.",
            "Inserisci la dichiarazione: 'bids', ogni giocatore dal primo di mano dice "
            "passo o sto, finché uno sta.",
        ),
        "cav.bid_turn": (
            "It was {expected}'s turn to speak, not {player}'s.",
            "Toccava parlare a {expected}, non a {player}.",
        ),
        "cav.bid_word": (
            "{value!r} is not a bid here: say pass or stand.",
            "{value!r} non è una dichiarazione: si dice pass o stand.",
        ),
        "cav.bid_after_stand": (
            "Nothing is said after a player stands.",
            "Dopo che un giocatore sta, non si dice altro.",
        ),
        "cav.bids_open": (
            "The bidding is not finished: {player} still has to speak.",
            "La dichiarazione non è finita: deve ancora parlare {player}.",
        ),
        "cav.void_with_play": (
            "Everybody passed (or the deal was void), so nothing was played: remove '{field}'.",
            "Tutti hanno passato (o la smazzata è nulla), quindi non si è giocato: togli "
            "'{field}'.",
        ),
        "cav.called": (
            "The bidder asks for a 3 ('called', e.g. \"3s\"), not {value!r}.",
            "Il giocatore chiede un tre ('called', es. \"3s\"), non {value!r}.",
        ),
        "cav.called_two": (
            "The bidder may ask for a 2 only when he holds all four 3s ('holds_all_threes': true).",
            "Il giocatore può chiedere un due solo se ha tutti e quattro i tre "
            "('holds_all_threes': true).",
        ),
        "cav.called_own_three": (
            "The bidder holds all four 3s ('holds_all_threes'), the {card} too, so he asks "
            "for a 2.",
            "Il giocatore ha tutti e quattro i tre ('holds_all_threes'), anche il {card}, "
            "quindi chiede un due.",
        ),
        "cav.called_from": (
            "The called card comes from an opponent ({allowed}) or the stock, not {value!r}.",
            "La carta chiesta viene da un avversario ({allowed}) o dal monte, non {value!r}.",
        ),
        "cav.discards": (
            "The bidder discards between {low} and 4 cards, not {value!r}.",
            "Il giocatore scarta da {low} a 4 carte, non {value!r}.",
        ),
        "cav.side_entry": (
            "Give the {side}' points (35 in the deal, last trick 3) or cards, and tricks.",
            "Indica i punti (35 nella smazzata, ultima presa 3) o le carte, e le prese, di "
            "{side_it}.",
        ),
        "cav.points_total": (
            "The two sides' points add up to {total}; a deal holds 35.",
            "I punti dei due lati sommano {total}; una smazzata ne vale 35.",
        ),
        "cav.tricks_total": (
            "The tricks add up to {total}; a deal has 12.",
            "Le prese sommano {total}; una smazzata ne ha 12.",
        ),
        "cav.last_trick": (
            "The last trick is won by 'bidder' or 'opponents', not {value!r}.",
            "L'ultima presa è di 'bidder' o 'opponents', non {value!r}.",
        ),
        "cav.last_trick_without_tricks": (
            "The {side} won no trick, so cannot have won the last one.",
            "{side_it}: nessuna presa, quindi nemmeno l'ultima.",
        ),
        "cav.last_trick_points": (
            "The last trick alone is worth 3 points and the {side} won it: {points} points "
            "in all is too few.",
            "{side_it}: l'ultima presa da sola vale 3 punti, quindi {points} punti in tutto "
            "sono troppo pochi.",
        ),
        "cav.points_under_cards": (
            "The {side} won {won}{stock}, that is {cards} cards, and only 16 cards of the "
            "pack are worth nothing: at least {limit} points, not {points}.",
            "{side_it}: in {won}{stock} ci sono {cards} carte, e nel mazzo solo 16 carte "
            "valgono zero: almeno {limit} punti, non {points}.",
        ),
        "cav.points_over_tricks": (
            "The {side} won {won}, which can hold at most {limit} points, not {points}.",
            "{side_it}: in {won} ci stanno al massimo {limit} punti, non {points}.",
        ),
        "cav.revoke": (
            "A revoke is by 'bidder', 'opponents' or 'both', not {value!r}.",
            "Una renuncia è di 'bidder', 'opponents' o 'both', non {value!r}.",
        ),
        "cav.exposed_by": (
            "{value!r} is not a player of this deal; players: {allowed}.",
            "{value!r} non è un giocatore di questa smazzata; giocatori: {allowed}.",
        ),
        "cav.exposed_when": (
            "Say when the stock was turned: before_stand_and_discard or "
            "adversary_before_bidder_discard, not {value!r}.",
            "Indica quando è stato girato il monte: before_stand_and_discard o "
            "adversary_before_bidder_discard, non {value!r}.",
        ),
        "cav.out_of_turn_by": (
            "Only an adversary of the bidder ({allowed}) can play out of turn here, not {value!r}.",
            "Qui può giocare fuori turno solo un avversario ({allowed}), non {value!r}.",
        ),
        "cav.out_of_turn_points": (
            "When the bidder stops the hand, give the points the opponents had won before "
            "the error ('sides.opponents.points').",
            "Quando il giocatore ferma la mano, indica i punti che gli avversari avevano "
            "prima dell'errore ('sides.opponents.points').",
        ),
    }
)

WITH_STOCK = Localized(" and the stock", " e il tallone")
SIDE_IT = {"bidder": "il giocatore", "opponents": "gli avversari"}


def _bound_points(
    problems: Problems, side: str, points: int, tricks: int, last: bool, counted: bool
) -> None:
    """A side's points fit its tricks (and the stock and 3 for the last trick, if it won
    it): 3 a card, and, when the table counted the tricks, what the pack's cards allow
    (4 aces of 3, 20 cards of 1, 16 blanks: reference 1.3)."""
    held = 3 * tricks + (STOCK_CARDS if last else 0)
    bonus = LAST_TRICK_THIRDS if last else 0
    limit = 9 * tricks + (STOCK_THIRDS if last else 0)
    if counted:
        limit = min(limit, most_thirds(held))
    if points > limit + bonus:
        problems.add(
            "cav.points_over_tricks",
            f"sides.{side}",
            side=side,
            side_it=SIDE_IT[side].capitalize(),
            tricks=tricks,
            won=tricks_said(tricks),
            limit=limit + bonus,
            points=points,
        )
    elif counted and bonus <= points < least_thirds(held) + bonus:  # under 3: said apart
        problems.add(
            "cav.points_under_cards",
            f"sides.{side}",
            side=side,
            side_it=SIDE_IT[side].capitalize(),
            won=tricks_said(tricks),
            stock=WITH_STOCK if last else Localized("", ""),
            cards=held,
            limit=least_thirds(held) + bonus,
            points=points,
        )


def session_balance(columns: Mapping[str, int], players_in_settlement: int) -> dict[str, int]:
    """K6, the Skat method: net_i = n * s_i - sum(s) (s_i: player i's column total)."""
    total = sum(columns.values())
    return {p: players_in_settlement * s - total for p, s in columns.items()}


def first_leader(rules: Rules, bidder: str, players: Sequence[str]) -> str:
    """Who leads the first trick, by the house rule ``cav.lead`` (eldest, or a neighbour
    of the bidder)."""
    i = players.index(bidder)
    return {
        "eldest": players[0],
        "bidder_LHO": players[(i + 1) % 3],
        "bidder_RHO": players[(i + 2) % 3],
    }[rules["cav.lead"]]


class Calabrasella(Game):
    record_fields: ClassVar[tuple[str, ...]] = RECORD_FIELDS
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    key: ClassVar[str] = "calabrasella"
    name_en: ClassVar[str] = "Calabrasella (Cavendish / American)"
    name_it: ClassVar[str] = "Calabrasella (Cavendish, americana)"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4)
    settlement: ClassVar[str] = "deal"
    switches: ClassVar[tuple[Switch, ...]] = SWITCHES
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "cavendish": {},
        "pagat_summary": {
            "cav.double_70_condition": "all_tricks",
            "cav.min_discard": 0,
            "cav.lead": "bidder_LHO",
        },
    }
    deal_contest: ClassVar[str] = "bid"

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """The auction (who stood, the card asked for and where it was, the discards), then
        the bidder's and the opponents' piles in points (thirds are this game's points,
        35 with the last trick). Played by four, the dealer sits the deal out."""
        auction = Part(
            "auction",
            {
                "contracts": (),
                "called": tuple(c.code for c in DECK40 if c.rank in "32"),
                "called_from": ("stock",),
                "holds_all_threes": True,
                # how many cards the bidder discards: one of these (K3); it changes no
                # score, so an entry may leave it out
                "discards": tuple(range(int(rules.get("cav.min_discard", 1)), 5)),
                "discards_score": False,
                "revoke": ("bidder", "opponents", "both"),
            },
        )
        return replace(
            super().table_shape(rules, seats),
            scored_by="sides",
            scorers=SIDES,
            dealer_sits_out=len(seats) == 4,
            unit="points",
            whole=TOTAL,
            tricks=TRICKS,
            trick_counts="all_or_none",
            sweep=True,
            parts=(auction, Part("piles")),
        )

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        players = self.dealt_in(state)
        exposed = self._exposure(deal, players, problems)
        if exposed is not None and exposed[1] == "before_stand_and_discard":
            return self._void_by_exposure(deal, state, players, exposed[0], problems)
        bidder = self._bidding(deal, players, problems)
        problems.raise_if_any()
        if bidder is None:
            return self._void(deal, state, problems, {"pass_out": True})
        opponents = tuple(p for p in players if p != bidder)
        self._exchange(deal, rules, opponents, problems)
        stop = self._out_of_turn(deal, opponents, problems)
        points, tricks, last, piles = self._sides(deal, problems, stop)
        revoke = deal.get("revoke")
        if revoke is not None and revoke not in (*SIDES, "both"):
            problems.add("cav.revoke", "revoke", value=revoke)
        if len(piles) == 2:
            no_duplicates({f"sides.{s}.cards": piles[s] for s in SIDES}, problems)
        problems.raise_if_any()
        result = self._score(rules, state, bidder, opponents, points, tricks, last, revoke, stop)
        return replace(result, level="cards") if len(piles) == 2 else result

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): hands and stock, the call and exchange, discards and picks, tricks."""
        players = self.dealt_in(state)
        hands, stock = read_deal(deal, players, 12, DECK40, problems, pile=("stock", 4))
        bidder = self._bidding(deal, players, problems)
        if problems:
            return None
        entry: dict[str, Any] = {"bids": deal["bids"]}
        if bidder is None:
            for field in ("called", "given", "discards", "picks", "tricks"):
                if deal.get(field) not in (None, []):
                    problems.add("cav.void_with_play", field, field=field)
            return None if problems else self.score_entry(entry, rules, state)
        opponents = tuple(p for p in players if p != bidder)
        held = {p: list(h) for p, h in hands.items()}
        final = self._record_exchange(deal, bidder, opponents, held, stock, entry, problems)
        if problems:
            return None
        leader = first_leader(rules, bidder, players)
        options = ReplayOptions(rank_order(rules), DECK40_SET, TRICKS, piles={"stock": final})
        side = {p: "bidder" if p == bidder else "opponents" for p in players}
        return Dealt(
            held,
            players,
            leader,
            options,
            side.__getitem__,
            facts={"first_leader": leader, "final_stock": codes(final)},
            context={"entry": entry, "side": side, "final": final},
        )

    def judge_play(self, rules: Rules, dealt: Dealt, found: Replay, problems: Problems) -> None:
        """A revoke is not refused: the record names it and FOS's 9 points move (2.8)."""

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        side = dealt.context["side"]
        last = found.last_winner or dealt.leader
        entry = dict(dealt.context["entry"])
        entry["sides"] = side_captures(found, side, SIDES, {side[last]: dealt.context["final"]})
        entry["last_trick"] = side[last]
        offenders = {side[r.player] for r in found.revokes}
        if offenders:
            entry["revoke"] = "both" if len(offenders) == 2 else offenders.pop()
        return entry

    def _record_exchange(
        self,
        deal: Mapping[str, Any],
        bidder: str,
        opponents: Sequence[str],
        held: dict[str, list[Card]],
        stock: list[Card],
        entry: dict[str, Any],
        problems: Problems,
    ) -> list[Card]:
        """K3 card by card; updates ``held`` and returns the final stock."""
        called = parse_card(deal.get("called"))
        if called is None:
            problems.add("cav.called", "called", value=deal.get("called"))
            return []
        if called in held[bidder]:
            problems.add("cav.record_called_held", "called", card=card_name(called))
            return []
        entry["called"] = called.code
        if called.rank == "2" and all(Card("3", s) in held[bidder] for s in "dcsb"):
            entry["holds_all_threes"] = True
        holder = next((p for p in opponents if called in held[p]), None)
        entry["called_from"] = holder or "stock"
        given = parse_card(deal.get("given"))
        if holder is None:
            if deal.get("given") is not None:
                problems.add("cav.record_given", "given")
        elif given is None:
            problems.add("cav.record_given", "given")
            return []
        elif given not in held[bidder]:
            problems.add(
                "cav.record_not_held",
                "given",
                card=card_name(given),
                what="give",
                what_it="dare",
                where="in his hand",
                where_it="nella sua mano",
            )
            return []
        else:
            held[holder].remove(called)
            held[holder].append(given)
            held[bidder].remove(given)
            held[bidder].append(called)
        discards = cards(deal, "discards", "", problems, required=True)
        picks = cards(deal, "picks", "", problems, required=True)
        if discards is None or picks is None:
            return []
        entry["discards"] = len(discards)
        for card in discards:
            if card not in held[bidder]:
                problems.add(
                    "cav.record_not_held",
                    "discards",
                    card=card_name(card),
                    what="discard",
                    what_it="scartare",
                    where="in his hand",
                    where_it="nella sua mano",
                )
                return []
        for card in picks:
            if card not in stock:
                problems.add(
                    "cav.record_not_held",
                    "picks",
                    card=card_name(card),
                    what="take",
                    what_it="prendere",
                    where="in the stock",
                    where_it="nel tallone",
                )
                return []
        if len(picks) != len(discards) or len(set(picks)) != len(picks):
            problems.add("cav.record_picks", "picks", count=len(discards), value=len(picks))
            return []
        held[bidder] = [c for c in held[bidder] if c not in discards] + picks
        return [c for c in stock if c not in picks] + discards

    def _exposure(
        self, deal: Mapping[str, Any], players: Sequence[str], problems: Problems
    ) -> tuple[str, str] | None:
        raw = deal.get("stock_exposed")
        if raw is None:
            return None
        entry = obj(raw, "stock_exposed", problems, what="stock_exposed")
        known_fields(entry, ("by", "when"), "stock_exposed", problems)
        by, when = entry.get("by"), entry.get("when")
        ok = True
        if by not in players:
            problems.add("cav.exposed_by", "stock_exposed.by", value=by, allowed=", ".join(players))
            ok = False
        if when not in ("before_stand_and_discard", "adversary_before_bidder_discard"):
            problems.add("cav.exposed_when", "stock_exposed.when", value=when)
            ok = False
        return (str(by), str(when)) if ok else None

    def _bidding(
        self, deal: Mapping[str, Any], players: Sequence[str], problems: Problems
    ) -> str | None:
        raw = listing(deal, "bids", "", problems)
        if raw is None:
            problems.add("cav.bids", "bids")
            return None
        bidder = None
        for i, item in enumerate(raw):
            where = join("bids", i)
            entry = obj(item, where, problems, what="A bid")
            known_fields(entry, ("player", "bid"), where, problems)
            if bidder is not None or i >= len(players):
                problems.add("cav.bid_after_stand", where)
                return None
            if entry.get("player") != players[i]:
                problems.add(
                    "cav.bid_turn",
                    join(where, "player"),
                    expected=players[i],
                    player=entry.get("player"),
                )
                return None
            said = entry.get("bid")
            if said not in ("pass", "stand"):
                problems.add("cav.bid_word", join(where, "bid"), value=said)
                return None
            if said == "stand":
                bidder = players[i]
        if bidder is None and len(raw) < len(players):
            problems.add("cav.bids_open", "bids", player=players[len(raw)])
        return bidder

    def _void(
        self,
        deal: Mapping[str, Any],
        state: MatchState,
        problems: Problems,
        facts: dict[str, Any],
        units: dict[str, int] | None = None,
    ) -> DealResult:
        for field in ("sides", "last_trick", "called", "called_from", "discards", "revoke"):
            if deal.get(field) is not None:
                problems.add("cav.void_with_play", field, field=field)
        problems.raise_if_any()
        units = units or dict.fromkeys(state.seats, 0)
        return DealResult(
            game=self.key,
            level="totals",
            points=dict.fromkeys(state.seats, 0),
            breakdown={
                p: (Line("penalty", units[p], facts),) if units[p] else () for p in state.seats
            },
            units=units,
            facts=facts,
        )

    def _void_by_exposure(
        self,
        deal: Mapping[str, Any],
        state: MatchState,
        players: Sequence[str],
        offender: str,
        problems: Problems,
    ) -> DealResult:
        """K5: turning the stock too early: deal void, 35 to each adversary."""
        units = dict.fromkeys(state.seats, 0)
        for p in players:
            if p != offender:
                units[p] += TOTAL
                units[offender] -= TOTAL
        return self._void(deal, state, problems, {"void": "stock_exposed", "by": offender}, units)

    def _exchange(
        self, deal: Mapping[str, Any], rules: Rules, opponents: Sequence[str], problems: Problems
    ) -> None:
        """K3: the call of a 3 (a 2 only with all four 3s), where it was, the discards."""
        called = parse_card(deal.get("called"))
        if called is None:
            problems.add("cav.called", "called", value=deal.get("called"))
        elif rules["cav.callable"] == "three_or_two_if_all_threes":
            all_threes = boolean(deal, "holds_all_threes", "", problems)
            if called.rank == "2" and not all_threes:
                problems.add("cav.called_two", "called")
            elif called.rank == "3" and all_threes:
                problems.add("cav.called_own_three", "called", card=card_name(called))
            elif called.rank not in ("3", "2"):
                problems.add("cav.called", "called", value=deal.get("called"))
        source = deal.get("called_from")
        if source not in (*opponents, "stock"):
            problems.add(
                "cav.called_from", "called_from", allowed=", ".join(opponents), value=source
            )
        low = rules["cav.min_discard"]
        value = deal.get("discards")  # how many changes no score: checked where said
        if value is not None and (type(value) is not int or not low <= value <= 4):
            problems.add("cav.discards", "discards", low=low, value=value)

    def _out_of_turn(
        self, deal: Mapping[str, Any], opponents: Sequence[str], problems: Problems
    ) -> bool:
        raw = deal.get("out_of_turn")
        if raw is None:
            return False
        entry = obj(raw, "out_of_turn", problems, what="out_of_turn")
        known_fields(entry, ("by", "after_trick", "bidder_stops"), "out_of_turn", problems)
        if entry.get("by") not in opponents:
            problems.add(
                "cav.out_of_turn_by",
                "out_of_turn.by",
                allowed=", ".join(opponents),
                value=entry.get("by"),
            )
        integer(entry, "after_trick", "out_of_turn", problems, low=0, high=TRICKS, required=False)
        return boolean(entry, "bidder_stops", "out_of_turn", problems)

    def _sides(
        self, deal: Mapping[str, Any], problems: Problems, stopped: bool
    ) -> tuple[dict[str, int], dict[str, int], str | None, dict[str, list[Card]]]:
        raw = obj(deal.get("sides"), "sides", problems, what="sides")
        if stopped:
            entry = raw.get("opponents") if isinstance(raw, Mapping) else None
            opp = (
                integer(entry, "points", "sides.opponents", problems, low=0, high=TOTAL)
                if (isinstance(entry, Mapping))
                else None
            )
            if opp is None:
                problems.add("cav.out_of_turn_points", "sides.opponents.points")
                return {}, {}, None, {}
            return {"bidder": TOTAL - opp, "opponents": opp}, {}, "bidder", {}
        # Tricks not counted: each side took some, unless ``all_tricks`` names one.
        deal, counted = uncounted_tricks(deal, SIDES, TRICKS, True, problems)
        raw = deal["sides"] if isinstance(deal.get("sides"), Mapping) else raw
        last = deal.get("last_trick")
        if last not in SIDES:
            problems.add("cav.last_trick", "last_trick", value=last)
            last = None
        points: dict[str, int] = {}
        tricks: dict[str, int] = {}
        piles: dict[str, list[Card]] = {}
        for side in SIDES:
            where = f"sides.{side}"
            entry = raw.get(side) if isinstance(raw, Mapping) else None
            if not isinstance(entry, Mapping):
                problems.add("cav.side_entry", where, side=side, side_it=SIDE_IT[side])
                continue
            known_fields(entry, ("points", "cards", "tricks"), where, problems)
            t = integer(entry, "tricks", where, problems, low=0, high=TRICKS)
            if entry.get("cards") is not None:
                taken = cards(entry, "cards", where, problems)
                if taken is not None:
                    piles[side] = taken
                    points[side] = thirds_of(taken) + (LAST_TRICK_THIRDS if side == last else 0)
            else:
                p = integer(entry, "points", where, problems, low=0, high=TOTAL)
                if p is not None:
                    points[side] = p
            if t is not None:
                tricks[side] = t
        if len(points) == 2 and sum(points.values()) != TOTAL:
            problems.add("cav.points_total", "sides", total=sum(points.values()))
        if last is not None and points.get(last, LAST_TRICK_THIRDS) < LAST_TRICK_THIRDS:
            # FOS: "last trick = 3": the side that won it has those 3 points at least.
            problems.add(
                "cav.last_trick_points",
                f"sides.{last}.points",
                side=last,
                side_it=SIDE_IT[last].capitalize(),
                points=points[last],
            )
        if len(tricks) == 2:
            if sum(tricks.values()) != TRICKS:
                problems.add("cav.tricks_total", "sides", total=sum(tricks.values()))
            if last is not None and tricks[last] == 0:
                problems.add(
                    "cav.last_trick_without_tricks",
                    "last_trick",
                    side=last,
                    side_it=SIDE_IT[last].capitalize(),
                )
            for side in SIDES:
                room = 3 * tricks[side] + (4 if side == last else 0)  # D8: the stock to LT
                if side in piles and len(piles[side]) > room:
                    problems.add(
                        "capture.too_many_cards",
                        f"sides.{side}.cards",
                        scorer=side,
                        tricks=tricks[side],
                        won=tricks_said(tricks[side]),
                        limit=room,
                        count=len(piles[side]),
                    )
                if side in points:
                    _bound_points(problems, side, points[side], tricks[side], side == last, counted)
        if not counted:  # the checks saw some tricks each; the facts say none were counted
            tricks = {}
        return points, tricks, last, piles

    def _score(
        self,
        rules: Rules,
        state: MatchState,
        bidder: str,
        opponents: Sequence[str],
        points: dict[str, int],
        tricks: dict[str, int],
        last: str | None,
        revoke: Any,
        stopped: bool,
    ) -> DealResult:
        lines: dict[str, list[Line]] = {s: [Line("cards", points[s])] for s in SIDES}
        after = dict(points)
        if revoke in SIDES:
            offender = str(revoke)
            moved = REVOKE
            if rules["cav.revoke_floor"] == "floor_at_zero":
                moved = min(REVOKE, after[offender])
            after[offender] -= moved
            after[OTHER[offender]] += moved
            lines[offender].append(Line("penalty", -moved, {"revoke": True}))
            lines[OTHER[offender]].append(Line("penalty", moved, {"revoke_by": offender}))
        b = after["bidder"]
        result = b - after["opponents"]
        condition = rules["cav.double_70_condition"]
        if condition == "all_35_points":
            doubled = points["bidder"] in (0, TOTAL) and revoke is None
        else:
            doubled = not stopped and tricks.get("bidder") in (0, TRICKS)
        if doubled:
            result = 2 * TOTAL if result > 0 else -2 * TOTAL
        payers = list(opponents) + ([state.dealer] if len(state.seats) == 4 else [])
        units = dict.fromkeys(state.seats, 0)
        units[bidder] = result * len(payers)
        for p in payers:
            units[p] = -result
        column = dict.fromkeys(state.seats, 0)
        column[bidder] = result
        return DealResult(
            game=self.key,
            level="totals",
            points=column,
            breakdown={
                p: (Line("bid", result, {"side_points": after, "doubled": doubled}),)
                if p == bidder
                else ()
                for p in state.seats
            },
            multiplier=2 if doubled else 1,
            units=units,
            facts={
                "bidder": bidder,
                "opponents": list(opponents),
                "points_before_penalties": points,
                "points": after,
                "tricks": tricks,
                "last_trick": last,
                "result": result,
                "won": result > 0,
                "revoke": revoke,
                "stopped_by_bidder": stopped,
                "lines": {s: [ln.as_dict() for ln in lines[s]] for s in SIDES},
            },
        )

    def open_ended(self, rules: Rules) -> bool:
        """A session of no set number of deals: the club ends it."""
        return not rules["cav.deals"]

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        limit = rules["cav.deals"]
        if not limit or state.deals_played < limit:
            return None
        return self.stopped(state, rules)

    def stopped(self, state: MatchState, rules: Rules) -> Outcome:
        """The session's balance: each player's columns against the others'."""
        n = len(state.seats)
        nets = session_balance(state.totals, n)
        ranked = sorted(state.seats, key=lambda p: -nets[p])
        return Outcome(
            "deals",
            tuple(p for p in ranked if nets[p] > 0),
            tuple(p for p in ranked if nets[p] < 0),
            1,
            nets,
            {"columns": dict(state.totals)},
        )

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        players = self.dealt_in(state)
        deck = list(DECK40)
        rng.shuffle(deck)
        hands = {p: deck[i * 12 : (i + 1) * 12] for i, p in enumerate(players)}
        stock = deck[36:]
        dealt = {p: codes(h) for p, h in hands.items()}
        # A hand of all four 3s and all four 2s may ask for nothing (K3): it passes.
        stander = next((p for p in players if rng.random() < 0.7 and _can_call(hands[p])), None)
        bids = []
        for p in players:
            bids.append({"player": p, "bid": "stand" if p == stander else "pass"})
            if p == stander:
                break
        deal: dict[str, Any] = {"dealer": state.dealer, "bids": bids}
        if level == "play":
            deal.update(level="play", hands=dealt, stock=codes(stock))
        if stander is None:
            return deal
        opponents = [p for p in players if p != stander]
        threes = [Card("3", s) for s in "dcsb"]
        lacking = [c for c in threes if c not in hands[stander]]
        if lacking:
            called = rng.choice(lacking)
        else:
            called = rng.choice(
                [Card("2", s) for s in "dcsb" if Card("2", s) not in hands[stander]]
            )
            deal["holds_all_threes"] = True
        holder = next((p for p in opponents if called in hands[p]), "stock")
        deal["called"] = called.code
        if level != "play":
            deal["called_from"] = holder
        elif "holds_all_threes" in deal:
            del deal["holds_all_threes"]
        if holder != "stock":
            hands[holder].remove(called)
            give = rng.choice(hands[stander])
            if level == "play":
                deal["given"] = give.code
            hands[stander].remove(give)
            hands[holder].append(give)
            hands[stander].append(called)
        n = rng.randint(max(1, rules["cav.min_discard"]), 4)
        rng.shuffle(hands[stander])
        discarded, hands[stander] = hands[stander][:n], hands[stander][n:]
        hands[stander].extend(stock[:n])
        final_stock = stock[n:] + discarded
        deal["discards"] = n
        first = first_leader(rules, stander, players)
        order = [players[(players.index(first) + k) % 3] for k in range(3)]
        played: list[list[Card]] = []
        taken, tricks, last = play_out_hands(rng, hands, order, rank_order(rules), played)
        if level == "play":
            deal["discards"] = codes(discarded)
            deal["picks"] = codes(stock[:n])
            deal["tricks"] = [codes(t) for t in played]
            return deal
        taken[last].extend(final_stock)
        side = {p: ("bidder" if p == stander else "opponents") for p in players}
        deal["sides"] = {}
        for s in SIDES:
            pile = [c for p in players if side[p] == s for c in taken[p]]
            won = sum(tricks[p] for p in players if side[p] == s)
            if level == "cards":
                deal["sides"][s] = {"cards": [c.code for c in pile], "tricks": won}
            else:
                deal["sides"][s] = {
                    "points": thirds_of(pile) + (LAST_TRICK_THIRDS if side[last] == s else 0),
                    "tricks": won,
                }
        deal["last_trick"] = side[last]
        if level == "totals" and rng.random() < 0.1:
            deal["revoke"] = rng.choice(SIDES)
        return deal


GAMES = (Calabrasella(),)


def _can_call(hand: Sequence[Card]) -> bool:
    """Whether a bidder holding ``hand`` has a card to ask for: a 3, or a 2 with all 3s."""
    return any(Card(rank, suit) not in hand for rank in "32" for suit in "dcsb")
