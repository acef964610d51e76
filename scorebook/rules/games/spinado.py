"""Spinado, a stops game played for chips and pots (reference 2.9, switches 3.7).

A deal is entered as what happened (who made Matrimony and Intrigue, who went out first,
who was caught holding the Spinado, which kings were played), not trick by trick. Chips
move between the players and three pots; unwon pots carry over. The sources disagree on
every number, so each club picks a whole profile: DNX (default), PKW, CAS or PCG.

Cards use the engine's suit letters with the French mapping d = diamonds, c = hearts,
s = spades, b = clubs, and ranks A 2-10 J Q K (``Ad`` is the Spinado, the ace of diamonds).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..cards import Card, make_deck, parse_card
from ..errors import Localized, Problems, messages
from ..game import Game
from ..houserules import Rules, Switch, choice
from ..parse import cards, integer, known_fields, listing, no_duplicates, obj
from ..play import read_deal
from ..result import DealResult, Line, MatchState, Outcome
from ..table import Pack, Part, TableShape

FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FULL = make_deck(FRENCH_RANKS)
DECKS = {
    47: frozenset(c for c in FULL if c.rank != "2" and c != Card("8", "d")),
    50: frozenset(c for c in FULL if c not in (Card("2", "c"), Card("8", "d"))),
}
POTS = ("matrimony", "intrigue", "game")
KINGS = ("Kd", "Kc", "Ks", "Kb")
#: Where the Spinado ended: one of these is so in a deal (played, caught, dead hand).
SPINADO_ENDS = ("spinado_played_by", "spinado_held_by", "spinado_in_dead_hand")
SUIT_EN = {"d": "diamonds", "c": "hearts", "s": "spades", "b": "clubs"}
SUIT_IT = {"d": "quadri", "c": "cuori", "s": "picche", "b": "fiori"}
RANK_EN = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
RANK_IT = {"A": "asso", "J": "fante", "Q": "donna", "K": "re"}


def _french(deck: frozenset[Card]) -> Pack:
    """The French pack as a card grid shows it: diamonds, hearts, spades, clubs, A to K."""
    order = sorted(deck, key=lambda c: ("dcsb".index(c.suit), FRENCH_RANKS.index(c.rank)))
    return Pack(tuple(order), ("d", "c", "s", "b"), RANK_EN, RANK_IT, SUIT_EN, SUIT_IT, True)


#: The packs a table names: ``french47`` and ``french50`` (``spin.deck``).
PACKS = {f"french{size}": _french(deck) for size, deck in DECKS.items()}

#: What each player puts into which pot each deal, by rule book: the dealer, the others.
ANTES: dict[str, dict[str, dict[str, int]]] = {
    "DNX": {"dealer": dict.fromkeys(POTS, 1), "others": dict.fromkeys(POTS, 1)},
    "PKW": {"dealer": {"matrimony": 12, "intrigue": 6, "game": 6}, "others": {"game": 3}},
    "CAS": {
        "dealer": {"matrimony": 12, "intrigue": 6, "game": 6},
        "others": dict.fromkeys(POTS, 3),
    },
    "PCG": {"dealer": {"matrimony": 2, "intrigue": 1}, "others": {"game": 1}},
}
#: What a king played pays its player from each other player, by rule book ("none": 0).
KING_PAYMENTS: dict[str, dict[str, int]] = {
    "PKW": {"Kd": 2, "Kc": 1, "Ks": 1, "Kb": 1},
    "CAS": {"Kd": 2, "Kc": 0, "Ks": 0, "Kb": 0},
    "PCG": dict.fromkeys(KINGS, 1),
}

SWITCHES: tuple[Switch, ...] = (
    choice("spin.deck", 47, 50),
    choice("spin.antes", "DNX", "PKW", "CAS", "PCG", tables=ANTES),
    choice("spin.intrigue", "QJ_diamonds", "KJ_diamonds"),
    choice("spin.spin_payment", 0, 3),
    choice("spin.king_payments", "none", "PKW", "CAS", "PCG", tables=KING_PAYMENTS),
    choice("spin.first_out_extra", "none", "one_per_card_left"),
    choice("spin.unplayed_spin_penalty", "two_per_card_to_winner", "none"),
    choice("spin.winner_skips_next_ante", True, False),
    Switch("spin.deals", 0, between=(0, 1000), help="Deals in the match (0: open)."),
)
PROFILES: dict[str, dict[str, Any]] = {
    "DNX": {},
    "PKW": {
        "spin.antes": "PKW",
        "spin.spin_payment": 3,
        "spin.king_payments": "PKW",
        # PKW's rule for an unplayed Spinado is cut off in the source [gap]: DNX's applies.
    },
    "CAS": {
        "spin.antes": "CAS",
        "spin.intrigue": "KJ_diamonds",
        "spin.spin_payment": 3,
        "spin.king_payments": "CAS",
        "spin.first_out_extra": "one_per_card_left",
        "spin.winner_skips_next_ante": False,
    },
    "PCG": {
        "spin.deck": 50,
        "spin.antes": "PCG",
        "spin.spin_payment": 3,
        "spin.king_payments": "PCG",
        "spin.winner_skips_next_ante": False,
    },
}
FIELDS = (
    "dealer",
    "level",
    "antes",
    "out_first",
    "cards_left",
    "matrimony_by",
    "intrigue_by",
    "spinado_played_by",
    "spinado_held_by",
    "spinado_in_dead_hand",
    "kings_played",
    "hands",
    "dead_hand",
)

RECORD_FIELDS = ("dealer", "level", "antes", "hands", "dead_hand", "plays")
SPIN = Card("A", "d")

messages(
    {
        "spin.play_entry": (
            "Play {number} must be a card, or the Spinado with the card played beside it "
            '(["Ad", "5c"]).',
            "La giocata {number} deve essere una carta, o lo Spinado con la carta giocata "
            'insieme (["Ad", "5c"]).',
        ),
        "spin.play_not_next": (
            "Play {number}: the run needs the {needed} next, not the {card}.",
            "Giocata {number}: la sequenza richiede ora il {needed}, non il {card}.",
        ),
        "spin.play_not_held": (
            "Play {number}: {player} starts this run and does not hold the {card}.",
            "Giocata {number}: apre la sequenza {player}, che non ha il {card}.",
        ),
        "spin.play_spin_partner": (
            "Play {number}: the Spinado goes down with a card of the same player "
            "({player}), not the {card}.",
            "Giocata {number}: lo Spinado si gioca con una carta dello stesso giocatore "
            "({player}), non con il {card}.",
        ),
        "spin.play_after_out": (
            "{player} went out at play {number}: the deal ends there; remove the rest.",
            "{player} è uscito alla giocata {number}: la smazzata finisce lì; togli il resto.",
        ),
        "spin.play_unfinished": (
            "The plays stop before anyone has gone out: continue until a player has no cards left.",
            "Le giocate si fermano prima che qualcuno sia uscito: continua finché un "
            "giocatore resta senza carte.",
        ),
        "spin.player": (
            "'{field}' names a player of this table ({allowed}), not {value!r}.",
            "'{field}' indica un giocatore di questo tavolo ({allowed}), non {value!r}.",
        ),
        "spin.out_first_missing": (
            "Say who went out first ('out_first'): the Game pot is always won.",
            "Indica chi è uscito per primo ('out_first'): il piatto del Gioco si vince sempre.",
        ),
        "spin.out_first_cards": (
            "{player} went out first, so has no cards left, not {count}.",
            "{player} è uscito per primo, quindi non ha più carte, non {count}.",
        ),
        "spin.cards_left": (
            "{player} cannot have {count} cards left: a hand has {size}.",
            "{player} non può avere {count} carte in mano: una mano ne ha {size}.",
        ),
        "spin.held_and_played": (
            "{player} cannot both play the Spinado and be left holding it.",
            "{player} non può sia giocare lo Spinado sia restare con lo Spinado in mano.",
        ),
        "spin.one_spinado": (
            "There is one Spinado: {played} played it, so {held} cannot be left holding it.",
            "Lo Spinado è uno solo: l'ha giocato {played}, quindi {held} non può esserne "
            "rimasto in possesso.",
        ),
        "spin.two_out": (
            "{player} cannot have 0 cards left: the deal ended when {winner} went out.",
            "{player} non può avere 0 carte: la smazzata è finita quando è uscito {winner}.",
        ),
        "spin.held_cards_left": (
            "{player} was left holding the Spinado and pays 2 for each card in his hand: "
            "say how many he had left ('cards_left').",
            "{player} è rimasto con lo Spinado e paga 2 per ogni carta in mano: indica "
            "quante gliene restavano ('cards_left').",
        ),
        "spin.cards_left_needed": (
            "Under this house rule everybody pays the first out 1 for each card still in his "
            "hand: give the cards left of {players}.",
            "Con questa regola ognuno paga a chi è uscito per primo 1 per ogni carta che ha "
            "ancora in mano: indica le carte rimaste di {players}.",
        ),
        "spin.intrigue_king": (
            "{player} made Intrigue (king and jack of diamonds), so played the king of "
            "diamonds himself, not {other}.",
            "{player} ha fatto l'Intrigo (re e fante di quadri), quindi ha giocato lui il re "
            "di quadri, non {other}.",
        ),
        "spin.pots_split": (
            "Matrimony and Intrigue both need the {card}: {first} made Matrimony, so "
            "{second} cannot have made Intrigue.",
            "Matrimonio e Intrigo richiedono entrambi il {card}: {first} ha fatto il "
            "Matrimonio, quindi {second} non può aver fatto l'Intrigo.",
        ),
        "spin.held_dead_hand": (
            "The Spinado is in the dead hand, so nobody played it or held it.",
            "Lo Spinado è nel morto, quindi nessuno l'ha giocato né l'ha tenuto.",
        ),
        "spin.held_no_cards": (
            "{player} held the Spinado at the end, so had at least one card left.",
            "{player} aveva lo Spinado alla fine, quindi gli restava almeno una carta.",
        ),
        "spin.held_by_winner": (
            "{player} went out first, so cannot be left holding the Spinado.",
            "{player} è uscito per primo, quindi non può restare con lo Spinado.",
        ),
        "spin.antes": (
            "The antes of this deal are {expected} under these house rules, not {value}.",
            "Le poste di questa smazzata sono {expected} con queste regole, non {value}.",
        ),
        "spin.king": (
            "'kings_played' maps a king (Kd, Kc, Ks, Kb) to who played it, not {value!r}.",
            "'kings_played' associa un re (Kd, Kc, Ks, Kb) a chi l'ha giocato, non {value!r}.",
        ),
        "spin.matrimony_king": (
            "{player} made Matrimony, so played the king of diamonds himself, not {other}.",
            "{player} ha fatto il Matrimonio, quindi ha giocato lui il re di quadri, non {other}.",
        ),
        "spin.hands_size": (
            "{player}'s hand has {count} cards; with {players} players each holds {size}.",
            "La mano di {player} ha {count} carte; in {players} giocatori ciascuno ne ha {size}.",
        ),
        "spin.hands_deck": (
            "The hands and the dead hand hold {count} cards; the deck has {size}.",
            "Le mani e il morto contengono {count} carte; il mazzo ne ha {size}.",
        ),
        "spin.card": (
            "{value!r} is not a card of this Spinado deck.",
            "{value!r} non è una carta di questo mazzo di Spinado.",
        ),
        "spin.not_held": (
            "{player} did not hold the {card}, so cannot have {what}.",
            "{player} non aveva il {card}, quindi non può avere {what_it}.",
        ),
    }
)


def _card_name(card: Card) -> Localized:
    en = f"{RANK_EN.get(card.rank, card.rank)} of {SUIT_EN[card.suit]}"
    it = f"{RANK_IT.get(card.rank, card.rank)} di {SUIT_IT[card.suit]}"
    return Localized(en, it)


class Spinado(Game):
    key: ClassVar[str] = "spinado"
    name_en: ClassVar[str] = "Spinado"
    name_it: ClassVar[str] = "Spinado"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6, 7)
    settlement: ClassVar[str] = "deal"
    record_key: ClassVar[str] = "plays"
    record_fields: ClassVar[tuple[str, ...]] = RECORD_FIELDS
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    switches: ClassVar[tuple[Switch, ...]] = SWITCHES
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = PROFILES
    ranked_by_chips: ClassVar[bool] = True
    packs: ClassVar[Mapping[str, Pack]] = PACKS

    def default_players(self, rules: Rules) -> int:
        return 4

    def counts_in_chips(self, rules: Mapping[str, Any]) -> bool:
        return True

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """A deal is runs of cards, not tricks: who went out first and made what, the
        kings played, the cards left; at the card level, the cards each was dealt (the
        dead hand is the rest) of the French pack of 47 or 50. Which of the kings and the
        counts of cards left a payment reads under these house rules is said, so a form
        need not ask the rest."""
        kings_pay = rules.get("spin.king_payments", "none") != "none"
        if rules.get("spin.first_out_extra") == "one_per_card_left":
            needed = "all"
        elif rules.get("spin.unplayed_spin_penalty", "two_per_card_to_winner") != "none":
            needed = "held"
        else:
            needed = "none"
        return replace(
            super().table_shape(rules, seats),
            pack=f"french{rules.get('spin.deck', 47)}",
            counting=(),
            unit="chips",
            whole=None,
            parts=(
                Part("runs", {"required": ("out_first",), "one_of": SPINADO_ENDS}),
                Part("kings_played", {"kings": KINGS, "scores": kings_pay}),
                Part("cards_left", {"zero": "out_first", "needed": needed}),
                Part("hands_dealt", levels=("cards",)),
            ),
        )

    def setup(self, state: MatchState, rules: Rules) -> None:
        state.extra["pots"] = dict.fromkeys(POTS, 0)
        state.extra["last_winner"] = None

    def hand_size(self, rules: Rules, players: int) -> int:
        deck: int = rules["spin.deck"]
        return deck // (players + 1) if deck == 47 else deck // players

    def antes(self, rules: Rules, state: MatchState) -> dict[str, dict[str, int]]:
        """Who puts what into which pot this deal (a player skipped after winning)."""
        style = rules["spin.antes"]
        skip = state.extra.get("last_winner") if rules["spin.winner_skips_next_ante"] else None
        out: dict[str, dict[str, int]] = {}
        for p in state.seats:
            dealer = p == state.dealer
            each = dict(ANTES[style]["dealer" if dealer else "others"])
            if p == skip and not (style == "PKW" and dealer):
                continue
            out[p] = each
        return out

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        seats = state.seats
        size = self.hand_size(rules, len(seats))

        def seat(field: str, required: bool = False) -> str | None:
            value = deal.get(field)
            if value is None:
                if required:
                    problems.add("spin.out_first_missing", field)
                return None
            if value not in seats:
                problems.add(
                    "spin.player", field, field=field, value=value, allowed=", ".join(seats)
                )
                return None
            return str(value)

        winner = seat("out_first", required=True)
        matrimony = seat("matrimony_by")
        intrigue = seat("intrigue_by")
        played = seat("spinado_played_by")
        held = seat("spinado_held_by")
        dead = deal.get("spinado_in_dead_hand") is True
        left = self._cards_left(deal, seats, size, problems)
        if winner is not None and left.get(winner, 0) != 0:
            problems.add("spin.out_first_cards", "cards_left", player=winner, count=left[winner])
        if held is not None:
            if held == played:
                problems.add("spin.held_and_played", "spinado_held_by", player=held)
            elif played is not None:  # W4: one Spinado, one player it concerns
                problems.add("spin.one_spinado", "spinado_held_by", played=played, held=held)
            if held == winner:
                problems.add("spin.held_by_winner", "spinado_held_by", player=held)
            elif left and left.get(held, 0) == 0:
                problems.add("spin.held_no_cards", "spinado_held_by", player=held)
        if dead and (held or played):
            problems.add("spin.held_dead_hand", "spinado_in_dead_hand")
        if winner is not None:
            for p, n in left.items():
                if n == 0 and p != winner:
                    problems.add("spin.two_out", f"cards_left.{p}", player=p, winner=winner)
        self._counts_needed(rules, winner, held, left, seats, problems)
        kings = self._kings(deal, seats, problems)
        if matrimony is not None and kings.get("Kd", matrimony) != matrimony:
            problems.add(
                "spin.matrimony_king", "kings_played.Kd", player=matrimony, other=kings["Kd"]
            )
        king_jack = rules["spin.intrigue"] == "KJ_diamonds"
        if king_jack and intrigue is not None and kings.get("Kd", intrigue) != intrigue:
            problems.add(
                "spin.intrigue_king", "kings_played.Kd", player=intrigue, other=kings["Kd"]
            )
        if matrimony is not None and intrigue is not None and matrimony != intrigue:
            # W2: the two pairs share a card (Q of diamonds; K of diamonds for CAS), and
            # only the player who played it can make either.
            problems.add(
                "spin.pots_split",
                "intrigue_by",
                first=matrimony,
                second=intrigue,
                card=_card_name(Card("K" if king_jack else "Q", "d")),
            )
        antes = self.antes(rules, state)
        if deal.get("antes") is not None and deal.get("antes") != antes:
            problems.add("spin.antes", "antes", expected=antes, value=deal.get("antes"))
        level = "totals"
        if deal.get("hands") is not None:
            level = "cards"
            self._hands(deal, rules, seats, size, matrimony, intrigue, played, held, problems)
        problems.raise_if_any()
        assert winner is not None
        return self._settle(
            rules, state, antes, winner, matrimony, intrigue, played, held, kings, left, level
        )

    def _counts_needed(
        self,
        rules: Rules,
        winner: str | None,
        held: str | None,
        left: Mapping[str, int],
        seats: Sequence[str],
        problems: Problems,
    ) -> None:
        """The payments counted per card left need the counts: never guess them."""
        if winner is None:
            return
        penalty = rules["spin.unplayed_spin_penalty"] == "two_per_card_to_winner"
        if held is not None and held != winner and penalty and held not in left:
            problems.add("spin.held_cards_left", f"cards_left.{held}", player=held)
        if rules["spin.first_out_extra"] == "one_per_card_left":
            missing = [p for p in seats if p != winner and p not in left]
            if missing:
                problems.add("spin.cards_left_needed", "cards_left", players=", ".join(missing))

    def _cards_left(
        self, deal: Mapping[str, Any], seats: Sequence[str], size: int, problems: Problems
    ) -> dict[str, int]:
        raw = deal.get("cards_left")
        if raw is None:
            return {}
        entry = obj(raw, "cards_left", problems, what="cards_left")
        out: dict[str, int] = {}
        for p in entry:
            if p not in seats:
                problems.add(
                    "spin.player",
                    f"cards_left.{p}",
                    field="cards_left",
                    value=p,
                    allowed=", ".join(seats),
                )
                continue
            n = integer(entry, p, "cards_left", problems, low=0, high=60)
            if n is not None and n > size:
                problems.add("spin.cards_left", f"cards_left.{p}", player=p, count=n, size=size)
            elif n is not None:
                out[p] = n
        return out

    def score_play(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """Level (c): the hands, the dead hand and every card played, run by run (2.9).

        A run continues with the next higher card of its suit from whoever holds it and
        stops when that card is in the dead hand or out of the pack, or after a King; the
        player of the stop starts the next run. The Spinado goes down beside a playable
        card of its holder and stops the run. The deal ends when a player is out.
        """
        problems = Problems()
        known_fields(deal, self.record_fields, "", problems)
        seats = state.seats
        size = self.hand_size(rules, len(seats))
        deck = DECKS[rules["spin.deck"]]
        order = sorted(deck, key=lambda c: (c.suit, FRENCH_RANKS.index(c.rank)))
        pile = ("dead_hand", len(deck) - size * len(seats))
        hands, _ = read_deal(deal, seats, size, order, problems, pile=pile)
        problems.raise_if_any()
        runs = self._replay_runs(deal.get("plays"), hands, deck, self.eldest(state), problems)
        problems.raise_if_any()
        assert runs is not None
        played_by, remaining, out = runs
        entry: dict[str, Any] = {
            "out_first": out,
            "cards_left": {p: len(remaining[p]) for p in seats},
        }
        kd, qd, jd = Card("K", "d"), Card("Q", "d"), Card("J", "d")
        if played_by.get(kd) is not None and played_by.get(kd) == played_by.get(qd):
            entry["matrimony_by"] = played_by[kd]
        pair = kd if rules["spin.intrigue"] == "KJ_diamonds" else qd
        if played_by.get(jd) is not None and played_by.get(jd) == played_by.get(pair):
            entry["intrigue_by"] = played_by[jd]
        if SPIN in played_by:
            entry["spinado_played_by"] = played_by[SPIN]
        elif any(SPIN in remaining[p] for p in seats):
            entry["spinado_held_by"] = next(p for p in seats if SPIN in remaining[p])
        else:
            entry["spinado_in_dead_hand"] = True
        kings = {k: played_by[c] for k in KINGS if (c := Card("K", k[1])) in played_by}
        if kings:
            entry["kings_played"] = kings
        if "antes" in deal:
            entry["antes"] = deal["antes"]
        result = self.score_entry(entry, rules, state)
        plays = [{"card": c.code, "player": p} for c, p in played_by.items()]
        return replace(
            result,
            level="play",
            facts={**result.facts, "play": {"plays": plays, "cards_left": entry["cards_left"]}},
        )

    def _replay_runs(
        self,
        raw: Any,
        hands: Mapping[str, Sequence[Card]],
        deck: frozenset[Card],
        eldest: str,
        problems: Problems,
    ) -> tuple[dict[Card, str], dict[str, list[Card]], str] | None:
        entries = listing({"plays": raw}, "plays", "", problems, required=True)
        if entries is None:
            return None
        remaining = {p: list(h) for p, h in hands.items()}
        owner = {c: p for p, h in hands.items() for c in h}
        played_by: dict[Card, str] = {}
        needed: Card | None = None  # None: a new run
        leader = eldest
        for number, item in enumerate(entries, start=1):
            where = f"plays[{number - 1}]"
            out = next((p for p in remaining if not remaining[p]), None)
            if out is not None:
                problems.add("spin.play_after_out", where, player=out, number=number - 1)
                return None
            group = [item] if isinstance(item, str) else item if isinstance(item, list) else []
            found = [parse_card(code, deck) for code in group]
            if not 1 <= len(found) <= 2 or None in found or (len(found) == 2 and SPIN not in found):
                problems.add("spin.play_entry", where, number=number)
                return None
            cards_ = [c for c in found if c is not None]
            card = next((c for c in cards_ if c != SPIN), SPIN)
            player = owner.get(card)
            if needed is not None and card != needed:
                problems.add(
                    "spin.play_not_next",
                    where,
                    number=number,
                    needed=_name(needed),
                    card=_name(card),
                )
                return None
            if needed is None and (player != leader or card not in remaining[leader]):
                problems.add(
                    "spin.play_not_held", where, number=number, player=leader, card=_name(card)
                )
                return None
            if len(cards_) == 2 and owner.get(SPIN) != player:
                problems.add(
                    "spin.play_spin_partner",
                    where,
                    number=number,
                    player=owner.get(SPIN),
                    card=_name(card),
                )
                return None
            assert player is not None
            for c in cards_:
                remaining[player].remove(c)
                played_by[c] = player
            nxt = _successor(card)
            stop = (
                len(cards_) == 2
                or card == SPIN
                or nxt is None
                or nxt not in owner
                or nxt in played_by
            )
            needed = None if stop else nxt
            leader = player if stop else leader
            if stop and SPIN in cards_:
                leader = player
        out = next((p for p in remaining if not remaining[p]), None)
        if out is None:
            problems.add("spin.play_unfinished", "plays")
            return None
        return played_by, remaining, out

    def _kings(
        self, deal: Mapping[str, Any], seats: Sequence[str], problems: Problems
    ) -> dict[str, str]:
        raw = deal.get("kings_played")
        if raw is None:
            return {}
        entry = obj(raw, "kings_played", problems, what="kings_played")
        out: dict[str, str] = {}
        for king, who in entry.items():
            if king not in KINGS:
                problems.add("spin.king", f"kings_played.{king}", value=king)
            elif who not in seats:
                problems.add(
                    "spin.player",
                    f"kings_played.{king}",
                    field="kings_played",
                    value=who,
                    allowed=", ".join(seats),
                )
            else:
                out[king] = str(who)
        return out

    def _hands(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        seats: Sequence[str],
        size: int,
        matrimony: str | None,
        intrigue: str | None,
        played: str | None,
        held: str | None,
        problems: Problems,
    ) -> None:
        """With the dealt hands: D1, D2, hand sizes, and who could hold the key cards."""
        deck = DECKS[rules["spin.deck"]]
        raw = obj(deal.get("hands"), "hands", problems, what="hands")
        piles: dict[str, list[Card]] = {}
        owner: dict[Card, str] = {}
        for p in seats:
            hand = cards(raw, p, "hands", problems, deck=deck, required=True)
            if hand is None:
                continue
            if len(hand) != size:
                problems.add(
                    "spin.hands_size",
                    f"hands.{p}",
                    player=p,
                    count=len(hand),
                    players=len(seats),
                    size=size,
                )
            piles[f"hands.{p}"] = hand
            owner.update((c, p) for c in hand)
        dead = cards(deal, "dead_hand", "", problems, deck=deck) or []
        piles["dead_hand"] = dead
        no_duplicates(piles, problems)
        count = sum(len(v) for v in piles.values())
        if count != len(deck):
            problems.add("spin.hands_deck", "hands", count=count, size=len(deck))
        needs = [
            (
                played,
                Card("A", "d"),
                "spinado_played_by",
                "played the Spinado",
                "giocato lo Spinado",
            ),
            (held, Card("A", "d"), "spinado_held_by", "held the Spinado", "tenuto lo Spinado"),
            (matrimony, Card("K", "d"), "matrimony_by", "made Matrimony", "fatto il Matrimonio"),
            (matrimony, Card("Q", "d"), "matrimony_by", "made Matrimony", "fatto il Matrimonio"),
            (intrigue, Card("J", "d"), "intrigue_by", "made Intrigue", "fatto l'Intrigo"),
        ]
        for who, card, field, what, what_it in needs:
            if who is not None and owner.get(card) != who:
                problems.add(
                    "spin.not_held",
                    field,
                    player=who,
                    card=_card_name(card),
                    what=what,
                    what_it=what_it,
                )

    def _settle(
        self,
        rules: Rules,
        state: MatchState,
        antes: Mapping[str, Mapping[str, int]],
        winner: str,
        matrimony: str | None,
        intrigue: str | None,
        played: str | None,
        held: str | None,
        kings: Mapping[str, str],
        left: Mapping[str, int],
        level: str,
    ) -> DealResult:
        seats = state.seats
        units = dict.fromkeys(seats, 0)
        pots_change = dict.fromkeys(POTS, 0)
        lines: dict[str, list[Line]] = {p: [] for p in seats}
        for p, each in antes.items():
            for pot, n in each.items():
                units[p] -= n
                pots_change[pot] += n
            lines[p].append(Line("ante", -sum(each.values()), dict(each)))
        pots = {k: state.extra["pots"][k] + pots_change[k] for k in POTS}

        def take(pot: str, who: str) -> None:
            amount = pots[pot]
            units[who] += amount
            pots_change[pot] -= amount
            pots[pot] = 0
            lines[who].append(Line("pot", amount, {"pot": pot}))

        def pay(frm: str, to: str, amount: int, why: str) -> None:
            if amount and frm != to:
                units[frm] -= amount
                units[to] += amount
                lines[frm].append(Line("payment", -amount, {"to": to, "for": why}))
                lines[to].append(Line("payment", amount, {"from": frm, "for": why}))

        if matrimony is not None:
            take("matrimony", matrimony)
        if intrigue is not None:
            take("intrigue", intrigue)
        take("game", winner)
        if played is not None and rules["spin.spin_payment"]:
            for p in seats:
                pay(p, played, rules["spin.spin_payment"], "spinado")
        style = rules["spin.king_payments"]
        for king, who in kings.items():
            amount = KING_PAYMENTS.get(style, {}).get(king, 0)
            for p in seats:
                pay(p, who, amount, king)
        if rules["spin.first_out_extra"] == "one_per_card_left":
            for p, n in left.items():
                pay(p, winner, n, "cards_left")
        if held is not None and rules["spin.unplayed_spin_penalty"] == "two_per_card_to_winner":
            pay(held, winner, 2 * left[held], "spinado_held")
        return DealResult(
            game=self.key,
            level=level,
            points=dict(units),
            breakdown={p: tuple(lines[p]) for p in seats},
            units=units,
            pots=pots_change,
            facts={
                "pots": pots,
                "antes": {p: dict(v) for p, v in antes.items()},
                "out_first": winner,
                "matrimony_by": matrimony,
                "intrigue_by": intrigue,
                "spinado_held_by": held,
            },
        )

    def advance(self, state: MatchState, result: DealResult, rules: Rules) -> None:
        super().advance(state, result, rules)
        if result.annulled:  # a misdeal: dealt again, the pots and the last winner as they were
            return
        state.extra["pots"] = dict(result.facts["pots"])
        state.extra["last_winner"] = result.facts["out_first"]

    def open_ended(self, rules: Rules) -> bool:
        """A match of no set number of deals: the club ends it."""
        return not rules["spin.deals"]

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        limit = rules["spin.deals"]
        if not limit or state.deals_played < limit:
            return None
        return self.stopped(state, rules)

    def stopped(self, state: MatchState, rules: Rules) -> Outcome:
        """The chips each player holds: the most wins (the pots left stay the table's)."""
        best = max(state.totals.values())
        winners = tuple(p for p in state.seats if state.totals[p] == best)
        return Outcome(
            "deals",
            winners,
            tuple(p for p in state.seats if p not in winners),
            1,
            {},
            # Pots left on the table stay as the table's carried pots (chips conserved).
            {"chips": dict(state.totals), "pots_left": dict(state.extra["pots"])},
        )

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        if level == "play":
            return self.random_record(rng, rules, state)
        seats = state.seats
        size = self.hand_size(rules, len(seats))
        deck = sorted(DECKS[rules["spin.deck"]], key=lambda c: (c.suit, FRENCH_RANKS.index(c.rank)))
        rng.shuffle(deck)
        hands = {p: deck[i * size : (i + 1) * size] for i, p in enumerate(seats)}
        dead = deck[len(seats) * size :]
        owner = {c: p for p, h in hands.items() for c in h}
        winner = rng.choice(seats)
        left = {p: (0 if p == winner else rng.randint(1, size)) for p in seats}
        deal: dict[str, Any] = {"dealer": state.dealer, "out_first": winner, "cards_left": left}
        kd, qd, jd = Card("K", "d"), Card("Q", "d"), Card("J", "d")
        if owner.get(kd) and owner.get(kd) == owner.get(qd) and rng.random() < 0.7:
            deal["matrimony_by"] = owner[kd]
        pair = kd if rules["spin.intrigue"] == "KJ_diamonds" else qd
        if owner.get(jd) and owner.get(jd) == owner.get(pair) and rng.random() < 0.7:
            deal["intrigue_by"] = owner[jd]
        spin = owner.get(Card("A", "d"))
        if spin is None:
            deal["spinado_in_dead_hand"] = True
        elif spin != winner and rng.random() < 0.4:
            deal["spinado_held_by"] = spin
        else:
            deal["spinado_played_by"] = spin
        kings = {
            k: owner[c] for k in KINGS if (c := Card("K", k[1])) in owner and rng.random() < 0.5
        }
        if "matrimony_by" in deal:
            kings["Kd"] = deal["matrimony_by"]
        if kings:
            deal["kings_played"] = kings
        if level == "cards":
            deal["hands"] = {p: [c.code for c in h] for p, h in hands.items()}
            deal["dead_hand"] = [c.code for c in dead]
        return deal

    def random_record(self, rng: random.Random, rules: Rules, state: MatchState) -> dict[str, Any]:
        """A whole deal played card by card, as a play record."""
        seats = state.seats
        size = self.hand_size(rules, len(seats))
        deck = sorted(DECKS[rules["spin.deck"]], key=lambda c: (c.suit, FRENCH_RANKS.index(c.rank)))
        rng.shuffle(deck)
        hands = {p: deck[i * size : (i + 1) * size] for i, p in enumerate(seats)}
        plays, _, _ = random_plays(rng, hands, self.eldest(state))
        return {
            "dealer": state.dealer,
            "hands": {p: [c.code for c in h] for p, h in hands.items()},
            "dead_hand": [c.code for c in deck[len(seats) * size :]],
            "plays": plays,
        }


def _successor(card: Card) -> Card | None:
    """The next higher card of the suit (ace low, King high)."""
    i = FRENCH_RANKS.index(card.rank)
    return Card(FRENCH_RANKS[i + 1], card.suit) if i + 1 < len(FRENCH_RANKS) else None


def _name(card: Card) -> Localized:
    en = f"{RANK_EN.get(card.rank, card.rank)} of {SUIT_EN[card.suit]}"
    it = f"{RANK_IT.get(card.rank, card.rank)} di {SUIT_IT[card.suit]}"
    return Localized(en, it)


def random_plays(
    rng: random.Random, hands: Mapping[str, Sequence[Card]], eldest: str
) -> tuple[list[Any], dict[Card, str], dict[str, list[Card]]]:
    """Play a deal of Spinado legally at random until a player is out."""
    remaining = {p: list(h) for p, h in hands.items()}
    owner = {c: p for p, h in hands.items() for c in h}
    played_by: dict[Card, str] = {}
    plays: list[Any] = []
    needed: Card | None = None
    leader = eldest
    while all(remaining.values()):
        if needed is None:
            card = rng.choice(remaining[leader])
        else:
            card = needed
        player = owner[card]
        group = [card]
        if card != SPIN and SPIN in remaining[player] and rng.random() < 0.3:
            group.append(SPIN)
        for c in group:
            remaining[player].remove(c)
            played_by[c] = player
        plays.append(card.code if len(group) == 1 else [SPIN.code, card.code])
        nxt = _successor(card)
        stop = (
            len(group) == 2 or card == SPIN or nxt is None or nxt not in owner or nxt in played_by
        )
        needed = None if stop else nxt
        if stop:
            leader = player
    return plays, played_by, remaining


GAMES = (Spinado(),)
