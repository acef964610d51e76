"""Level (c), the play record: the dealt hands and every trick, replayed card by card.

The replay checks section 4.2 of the reference (P1-P6): one card per player per trick, in
turn from the right leader, each card held by the player who plays it (after the stock
draws or exchanges the game has), the winner of each trick leading the next, and follow
suit (a revoke names the trick, the player and the card). It derives what levels (a) and
(b) are entered by hand: each player's captured cards, tricks won and the last trick, which
the game then scores through its ordinary scorer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import FOUR_OF_COINS, TRESSETTE_RANKS, Card, parse_card, strength, trick_winner
from .errors import Localized, Problems, messages
from .houserules import Rules, Switch, choice
from .irregularities import Penalty, apply_penalties
from .parse import card_name, join, listing, no_duplicates, obj
from .result import DealResult, MatchState

messages(
    {
        "play.hand_missing": (
            "Enter the cards dealt to {player} ('{field}.{player}').",
            "Inserisci le carte date a {player} ('{field}.{player}').",
        ),
        "play.unknown_seat": (
            "{value!r} is not a player of this deal; players: {allowed}.",
            "{value!r} non gioca questa smazzata; giocatori: {allowed}.",
        ),
        "play.hand_size": (
            "{player} must be dealt {expected} cards, not {count}.",
            "A {player} vanno date {expected} carte, non {count}.",
        ),
        "play.pile_size": (
            "'{field}' must hold {expected} cards, not {count}.",
            "'{field}' deve contenere {expected} carte, non {count}.",
        ),
        "play.deck_incomplete": (
            "The dealt cards leave out {cards}: every card of the deck must be dealt.",
            "Le carte date lasciano fuori {cards}: vanno date tutte le carte del mazzo.",
        ),
        "play.not_a_trick": (
            "Trick {trick} must be a list of cards in the order they were played "
            '(or {{"leader": ..., "cards": [...]}}).',
            "La presa {trick} deve essere una lista di carte nell'ordine in cui sono state "
            'giocate (oppure {{"leader": ..., "cards": [...]}}).',
        ),
        "play.trick_size": (
            "Trick {trick} must have {expected} cards, one from each player; it has {count}.",
            "La presa {trick} deve avere {expected} carte, una per giocatore; ne ha {count}.",
        ),
        "play.wrong_leader": (
            "Trick {trick} was led by {value}, but {expected} had to lead it ({why}).",
            "La presa {trick} è stata aperta da {value}, ma doveva aprirla {expected} ({why}).",
        ),
        "play.not_held": (
            "Trick {trick}: it is {player}'s turn, and {player} does not hold the {card} "
            "({where}).",
            "Presa {trick}: tocca a {player}, che non ha il {card} ({where}).",
        ),
        "play.revoke": (
            "Trick {trick}: {player} played the {card} on a lead of {suit} while holding the "
            "{held}, a revoke (a player must follow suit when he can).",
            "Presa {trick}: {player} ha giocato il {card} su un attacco a {suit} pur avendo "
            "il {held}: è una rinuncia (chi può deve rispondere al seme).",
        ),
        "play.too_many_tricks": (
            "The record has {count} tricks; this deal has only {expected}.",
            "La registrazione ha {count} prese; questa smazzata ne ha solo {expected}.",
        ),
        "play.contested_shape": (
            'A contested anomaly is written {{"trick": n, "player": seat}}.',
            'Un\'anomalia contestata si scrive {{"trick": n, "player": posto}}.',
        ),
        "play.contested_nothing": (
            "Trick {trick}: {player} made no revoke and no lead out of turn, so there is "
            "nothing to contest.",
            "Presa {trick}: {player} non ha fatto né una rinuncia né un attacco fuori turno: "
            "non c'è nulla da contestare.",
        ),
        "play.incomplete": (
            "The record stops after trick {count} of {expected}; a deal may stop early only "
            "when a side claims to have won.",
            "La registrazione si ferma alla presa {count} di {expected}; una smazzata può "
            "fermarsi prima solo se un lato si chiama fuori.",
        ),
    }
)

REVOKE = choice(
    "core.revoke",
    "reject",
    "penalty",
    "stands_if_uncontested",
    help="A revoke shown by a play record (4.2 P4): refuse the deal; let it stand with a "
    "penalty of 'core.revoke_penalty' points (house rule); or let it stand unless an "
    "opponent contested it, a contested one being penalised (the tournament code's "
    "'sanatoria implicita').",
)
REVOKE_PENALTY = Switch(
    "core.revoke_penalty",
    3,
    between=(0, 100),
    help="Points of a revoke's penalty (core.revoke = penalty, or a contested revoke); "
    "core.penalty_to says whom it hits (by default each opponent of the offender scores them).",
)
REVOKE_SWITCHES = (REVOKE, REVOKE_PENALTY)

PILE_NAMES = {
    "stock": ("stock", "tallone"),
    "monte": ("monte", "monte"),
    "discards": ("discards", "scarto"),
    "dead_hand": ("dead hand", "morto"),
}
SUIT_EN = {"d": "coins", "c": "cups", "s": "swords", "b": "batons"}
SUIT_IT = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}


@dataclass(slots=True)
class Trick:
    leader: str
    players: tuple[str, ...]
    cards: tuple[Card, ...]
    winner: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "players": list(self.players),
            "cards": [c.code for c in self.cards],
            "winner": self.winner,
        }


@dataclass(slots=True)
class Revoke:
    trick: int  # 1-based
    player: str
    card: Card
    held: Card
    path: str
    contested: bool = False

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "trick": self.trick,
            "player": self.player,
            "card": self.card.code,
            "held": self.held.code,
        }
        if self.contested:
            out["contested"] = True
        return out


@dataclass(slots=True)
class OutOfTurn:
    """A trick led by ``player`` when ``expected`` had the lead (``core.out_of_turn``)."""

    trick: int  # 1-based
    player: str
    expected: str
    path: str
    contested: bool = False

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"trick": self.trick, "player": self.player}
        out["expected"] = self.expected
        if self.contested:
            out["contested"] = True
        return out


@dataclass(slots=True)
class Replay:
    """What the record shows: the tricks, each player's pile and what is left in hand."""

    tricks: list[Trick] = field(default_factory=list)
    taken: dict[str, list[Card]] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)
    remaining: dict[str, set[Card]] = field(default_factory=dict)
    revokes: list[Revoke] = field(default_factory=list)
    out_of_turn: list[OutOfTurn] = field(default_factory=list)
    complete: bool = False
    broken: bool = False  # a card not held, a wrong leader...: the rest was not replayed

    @property
    def last_winner(self) -> str | None:
        return self.tricks[-1].winner if self.tricks else None

    @property
    def next_leader(self) -> str | None:
        return self.last_winner

    def facts(self) -> dict[str, Any]:
        out = {
            "tricks": [t.as_dict() for t in self.tricks],
            "revokes": [r.as_dict() for r in self.revokes],
        }
        if self.out_of_turn:
            out["out_of_turn"] = [o.as_dict() for o in self.out_of_turn]
        return out


#: Called after each trick with (trick number, winner, remaining hands); returns the leader
#: of the next trick when the game changes it (a new round), else None.
AfterTrick = Callable[[int, str, dict[str, set[Card]]], str | None]


def leads_by_4d(rules: Rules, state: MatchState) -> bool:
    """Does the holder of the 4 of coins lead this deal (``core.first_lead``)?

    ``holder_of_4d_first_deal_only`` (SCR): only in the match's first played deal; an
    annulled deal does not count.
    """
    rule = rules.values.get("core.first_lead", "eldest")
    if rule == "holder_of_4d_first_deal_only":
        return state.deals_counted == 0
    return bool(rule == "holder_of_4d")


def first_leader(
    rules: Rules, state: MatchState, hands: Mapping[str, Sequence[Card]], eldest: str
) -> str:
    """``core.first_lead``: eldest, or the holder of the 4 of coins (when it was dealt)."""
    if leads_by_4d(rules, state):
        for seat, hand in hands.items():
            if FOUR_OF_COINS in hand:
                return seat
    return eldest


def is_play_record(deal: Mapping[str, Any], key: str = "tricks") -> bool:
    """A deal is a play record when it says so or carries the tricks themselves."""
    return deal.get("level") == "play" or key in deal


def read_hands(
    deal: Mapping[str, Any],
    seats: Sequence[str],
    size: int | Mapping[str, int],
    deck: Collection[Card],
    problems: Problems,
    *,
    key: str = "hands",
    path: str = "",
) -> dict[str, list[Card]]:
    """``deal[key]``: the cards dealt to each seat, each hand of the expected size."""
    where = join(path, key)
    raw = deal.get(key)
    if raw is None:
        problems.add("input.missing", where, field=key)
        return {}
    raw = obj(raw, where, problems, what=key)
    for name in raw:
        if name not in seats:
            problems.add(
                "play.unknown_seat", join(where, str(name)), value=name, allowed=", ".join(seats)
            )
    hands: dict[str, list[Card]] = {}
    for seat in seats:
        if seat not in raw:
            problems.add("play.hand_missing", join(where, seat), player=seat, field=where)
            continue
        hand = read_cards(raw, seat, where, deck, problems)
        if hand is None:
            continue
        expected = size if isinstance(size, int) else size[seat]
        if len(hand) != expected:
            problems.add(
                "play.hand_size", join(where, seat), player=seat, expected=expected, count=len(hand)
            )
        hands[seat] = hand
    return hands


def read_pile(
    deal: Mapping[str, Any],
    key: str,
    size: int | None,
    deck: Collection[Card],
    problems: Problems,
    *,
    path: str = "",
    required: bool = True,
) -> list[Card] | None:
    """A named pile of cards (monte, stock, discards), of ``size`` cards when given."""
    pile = read_cards(deal, key, path, deck, problems, required=required)
    if pile is not None and size is not None and len(pile) != size:
        problems.add(
            "play.pile_size", join(path, key), field=join(path, key), expected=size, count=len(pile)
        )
    return pile


def read_cards(
    data: Mapping[str, Any],
    key: str,
    path: str,
    deck: Collection[Card],
    problems: Problems,
    required: bool = True,
) -> list[Card] | None:
    raw = listing(data, key, path, problems, required=required)
    if raw is None:
        return None
    out: list[Card] = []
    ok = True
    for i, code in enumerate(raw):
        card = parse_card(code, deck)
        if card is None:
            problems.add("card.unknown", join(join(path, key), i), value=code)
            ok = False
        else:
            out.append(card)
    return out if ok else None


def check_deal(
    piles: Mapping[str, Sequence[Card]], deck: Sequence[Card], problems: Problems
) -> bool:
    """D2 and D3: no card twice, and together the piles are the whole deck."""
    if not no_duplicates(piles, problems):
        return False
    dealt = {c for pile in piles.values() for c in pile}
    missing = [c for c in deck if c not in dealt]
    if missing:
        problems.add(
            "play.deck_incomplete",
            "",
            cards=Localized(
                ", ".join(c.name("en") for c in missing), ", ".join(c.name("it") for c in missing)
            ),
        )
        return False
    return True


def read_deal(
    deal: Mapping[str, Any],
    seats: Sequence[str],
    size: int,
    deck: Sequence[Card],
    problems: Problems,
    *,
    pile: tuple[str, int] | None = None,
) -> tuple[dict[str, list[Card]], list[Card]]:
    """The dealt hands and the undealt pile (``(name, size)``: monte, stock, dead hand),
    checked to be the whole deck with no card twice (D1-D3)."""
    deck_set = frozenset(deck)
    hands = read_hands(deal, seats, size, deck_set, problems)
    rest: list[Card] | None = []
    if pile is not None and (pile[1] or deal.get(pile[0]) is not None):
        rest = read_pile(deal, pile[0], pile[1], deck_set, problems)
    if len(hands) == len(seats) and rest is not None:
        piles: dict[str, Sequence[Card]] = {f"hands.{p}": h for p, h in hands.items()}
        if pile is not None:
            piles[pile[0]] = rest
        check_deal(piles, deck, problems)
    return hands, rest or []


def side_captures(
    found: Replay,
    side_of: Mapping[str, str],
    sides: Sequence[str],
    bonus: Mapping[str, Sequence[Card]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Each side's pile and tricks as a cards-level entry (``bonus``: a monte or stock won
    with the last trick)."""
    out: dict[str, dict[str, Any]] = {}
    for side in sides:
        members = [p for p in found.taken if side_of[p] == side]
        pile = [c.code for p in members for c in found.taken[p]]
        pile += [c.code for c in (bonus or {}).get(side, ())]
        out[side] = {"cards": pile, "tricks": sum(found.won[p] for p in members)}
    return out


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    """How a game's tricks are replayed.

    ``ranks``: the trick-taking order, strongest first; ``deck``: the cards in play;
    ``tricks``: how many the deal has; with ``may_stop`` the record may end early (a claim).
    ``after_trick`` lets the game draw from a stock or deal a new round. ``piles`` name
    where undealt cards lie (the stock, the monte), for the messages. With
    ``out_of_turn`` a trick led by the wrong player is replayed from whoever led it and
    recorded (``core.out_of_turn``), instead of refused.
    """

    ranks: tuple[str, ...]
    deck: Collection[Card]
    tricks: int
    may_stop: bool = False
    after_trick: AfterTrick | None = None
    piles: Mapping[str, Sequence[Card]] | None = None
    out_of_turn: bool = False


@dataclass(frozen=True, slots=True)
class Dealt:
    """A play record read up to its first trick: who holds what when play starts, who
    leads, how to replay; then who scores for each player (a side, or the player) and the
    facts to attach. ``context`` carries what a game reads before the replay and needs
    after it (the soloist, the monte...)."""

    hands: Mapping[str, Sequence[Card]]
    order: Sequence[str]
    leader: str
    options: ReplayOptions
    scorer_of: Callable[[str], str] = str
    facts: dict[str, Any] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)


def replay(
    raw: Any,
    hands: Mapping[str, Sequence[Card]],
    order: Sequence[str],
    leader: str,
    options: ReplayOptions,
    problems: Problems,
    path: str = "tricks",
) -> Replay:
    """Replay ``raw`` (a list of tricks) from ``hands``; ``order`` is the turn order."""
    ranks, deck, tricks = options.ranks, options.deck, options.tricks
    after_trick, piles = options.after_trick, options.piles
    out = Replay(
        remaining={p: set(hands[p]) for p in order},
        taken={p: [] for p in order},
        won=dict.fromkeys(order, 0),
    )
    record = _record(raw, tricks, path, problems)
    if record is None:
        out.broken = True
        return out
    dealt_to: dict[Card, str] = {c: name for name, pile in (piles or {}).items() for c in pile}
    dealt_to.update({c: p for p, h in hands.items() for c in h})
    played_in: dict[Card, int] = {}
    n = len(order)
    why = Localized("the first lead", "il primo attacco")
    for number, entry in enumerate(record, start=1):
        where = join(path, number - 1)
        read = _trick_cards(entry, number, where, n, deck, problems)
        if read is None:
            out.broken = True
            return out
        named_leader, cards, cards_path = read
        actual = named_leader
        if actual is None and cards[0] not in out.remaining[leader]:
            actual = _consistent_leader(cards, order, out.remaining)
        if actual is not None and actual != leader:
            if not (options.out_of_turn and actual in order):
                _wrong_leader(problems, where, number, actual, leader, why)
                out.broken = True
                return out
            out.out_of_turn.append(OutOfTurn(number, actual, leader, where))
            leader = actual
        start = order.index(leader)
        turn = tuple(order[(start + k) % n] for k in range(n))
        for i, (player, card) in enumerate(zip(turn, cards, strict=True)):
            if card not in out.remaining[player]:
                found_at = _whereabouts(card, dealt_to, played_in, player, out.remaining)
                _not_held(problems, join(cards_path, i), number, player, card, found_at)
                out.broken = True
                return out
            led = cards[0].suit
            hand = out.remaining[player]
            hand.discard(card)
            if i and card.suit != led:
                # Name the strongest card of the suit led: a set's order changes from run to
                # run, and the same record must give the same answer byte for byte.
                followers = [c for c in hand if c.suit == led]
                if followers:
                    held = max(followers, key=lambda c: strength(c, ranks))
                    out.revokes.append(Revoke(number, player, card, held, join(cards_path, i)))
            played_in[card] = number
        winner = turn[trick_winner(cards, ranks)]
        out.tricks.append(Trick(leader, turn, tuple(cards), winner))
        out.taken[winner].extend(cards)
        out.won[winner] += 1
        leader = winner
        why = Localized(f"{winner} won trick {number}", f"{winner} ha vinto la presa {number}")
        if after_trick is not None:
            new_leader = after_trick(number, winner, out.remaining)
            if new_leader is not None and number < tricks:
                leader = new_leader
                why = Localized("a new round", "un nuovo giro")
    out.complete = len(record) == tricks
    if not out.complete and not options.may_stop:
        problems.add("play.incomplete", path, count=len(record), expected=tricks)
    return out


def _record(raw: Any, tricks: int, path: str, problems: Problems) -> list[Any] | None:
    """The record's list of tricks; None (the problem said) when it is not a list or has
    more tricks than the deal."""
    record = listing({"tricks": raw}, "tricks", "", problems, required=True)
    if record is not None and len(record) > tricks:
        problems.add("play.too_many_tricks", path, count=len(record), expected=tricks)
        return None
    return record


def _trick_cards(
    entry: Any, number: int, where: str, n: int, deck: Collection[Card], problems: Problems
) -> tuple[str | None, list[Card], str] | None:
    """Trick ``number`` as written: the leader it names (or None), its cards and the
    path of its cards; None (the problem said) when it is not a trick of ``n`` known
    cards."""
    named_leader, codes = _trick_entry(entry)
    if codes is None:
        problems.add("play.not_a_trick", where, trick=number)
        return None
    cards_path = join(where, "cards") if named_leader is not None else where
    if len(codes) != n:
        problems.add("play.trick_size", where, trick=number, expected=n, count=len(codes))
        return None
    cards: list[Card] = []
    for i, code in enumerate(codes):
        card = parse_card(code, deck)
        if card is None:
            problems.add("card.unknown", join(cards_path, i), value=code)
            return None
        cards.append(card)
    return named_leader, cards, cards_path


def _not_held(
    problems: Problems, path: str, number: int, player: str, card: Card, where: Localized
) -> None:
    """A card played in trick ``number`` that ``player`` does not hold, and where it is."""
    problems.add(
        "play.not_held", path, trick=number, player=player, card=card_name(card), where=where
    )


def revoke_problems(found: Replay, problems: Problems) -> None:
    """P4 when the house rule rejects a revoked deal: one problem per revoke."""
    for r in found.revokes:
        problems.add(
            "play.revoke",
            r.path,
            trick=r.trick,
            player=r.player,
            card=card_name(r.card),
            suit=Localized(SUIT_EN[r.held.suit], SUIT_IT[r.held.suit]),
            held=card_name(r.held),
        )


def _trick_entry(entry: Any) -> tuple[str | None, list[Any] | None]:
    if isinstance(entry, list):
        return None, entry
    if isinstance(entry, Mapping):
        cards = entry.get("cards")
        leader = entry.get("leader")
        if isinstance(cards, list) and set(entry) <= {"leader", "cards"}:
            return (str(leader) if leader is not None else None), cards
    return None, None


def _consistent_leader(
    cards: Sequence[Card], order: Sequence[str], remaining: Mapping[str, Collection[Card]]
) -> str | None:
    """The leader for whom every card of the trick is in the right hand, if any."""
    n = len(order)
    for start in range(n):
        if all(cards[k] in remaining[order[(start + k) % n]] for k in range(n)):
            return order[start]
    return None


def _wrong_leader(
    problems: Problems, where: str, number: int, value: str, expected: str, why: Localized
) -> None:
    problems.add("play.wrong_leader", where, trick=number, value=value, expected=expected, why=why)


def _whereabouts(
    card: Card,
    dealt_to: Mapping[Card, str],
    played_in: Mapping[Card, int],
    player: str,
    remaining: Mapping[str, Collection[Card]],
) -> Localized:
    if card in played_in:
        n = played_in[card]
        return Localized(f"it was played in trick {n}", f"è stato giocato nella presa {n}")
    owner = dealt_to.get(card)
    if owner == player:
        return Localized("not yet in hand", "non ancora in mano")
    if owner in PILE_NAMES:
        en, it = PILE_NAMES[owner]
        # Drawn by now (Tressette for two: the other player's draw after the last trick).
        holder = next((p for p, hand in remaining.items() if card in hand), None)
        if holder is not None:
            return Localized(
                f"it is in {holder}'s hand, drawn from the {en}",
                f"è in mano a {holder}, che l'ha pescato dal {it}",
            )
        return Localized(f"it is in the {en}", f"è nel {it}")
    if owner is not None:
        return Localized(f"it was dealt to {owner}", f"era stato dato a {owner}")
    return Localized("it was not dealt to anyone playing", "non è in mano a nessun giocatore")


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def judge_revokes(found: Replay, rules: Rules, problems: Problems) -> None:
    """Refuse the deal for its revokes unless the house rule lets them stand."""
    if rules.values.get("core.revoke", "reject") == "reject":
        revoke_problems(found, problems)


def mark_contested(raw: Any, found: Replay, problems: Problems, path: str = "contested") -> None:
    """``contested``: the revokes and leads out of turn an opponent objected to, each as
    ``{"trick": n, "player": seat}``; an anomaly nobody contested stands (``core.revoke`` or
    ``core.out_of_turn`` = ``stands_if_uncontested``)."""
    if raw is None:
        return
    if not isinstance(raw, list):
        problems.add("input.not_list", path, field=path)
        return
    anomalies: list[Revoke | OutOfTurn] = [*found.revokes, *found.out_of_turn]
    for i, item in enumerate(raw):
        where = join(path, i)
        entry = obj(item, where, problems, what="A contested anomaly")
        if not entry:
            continue
        trick, player = entry.get("trick"), entry.get("player")
        if set(entry) != {"trick", "player"}:
            problems.add("play.contested_shape", where)
            continue
        hits = [a for a in anomalies if a.trick == trick and a.player == player]
        if not hits:
            problems.add("play.contested_nothing", where, trick=trick, player=player)
        for anomaly in hits:
            anomaly.contested = True


def record_penalties(found: Replay, rules: Rules, scorer_of: Callable[[str], str]) -> list[Penalty]:
    """The penalties the record itself shows: revokes and leads out of turn that stand
    with a penalty, or were contested under ``stands_if_uncontested``."""
    out: list[Penalty] = []
    revoke = rules.values.get("core.revoke", "reject")
    amount = rules.values.get("core.revoke_penalty", 0)
    for r in found.revokes:
        if revoke == "penalty" or (revoke == "stands_if_uncontested" and r.contested):
            out.append(Penalty(scorer_of(r.player), amount, {"revoke": r.as_dict()}))
    lead = rules.values.get("core.out_of_turn", "reject")
    points = rules.values.get("core.penalty_points", 3)
    for o in found.out_of_turn:
        if lead == "penalty" or (lead == "stands_if_uncontested" and o.contested):
            out.append(Penalty(scorer_of(o.player), points, {"out_of_turn": o.as_dict()}))
    return out


def with_play(
    result: DealResult,
    found: Replay,
    rules: Rules,
    scorer_of: Callable[[str], str],
    *,
    charge_offender: bool = False,
    facts: Mapping[str, Any] | None = None,
    state: MatchState | None = None,
) -> DealResult:
    """The scored entry as a play-level result: the derived facts and the penalties of
    the revokes and leads out of turn that stand with one (see ``irregularities``)."""
    if not result.annulled and (found.revokes or found.out_of_turn):
        penalties = record_penalties(found, rules, scorer_of)
        result = apply_penalties(result, penalties, rules, state, charge_offender=charge_offender)
    play = {**found.facts(), **(facts or {})}
    return DealResult(
        game=result.game,
        level="play",
        points=result.points,
        breakdown=result.breakdown,
        event=result.event,
        multiplier=result.multiplier,
        ends_match=result.ends_match,
        claim=result.claim,
        annulled=result.annulled,
        same_dealer=result.same_dealer,
        units=result.units,
        pots=result.pots,
        facts={**result.facts, "play": play},
        warnings=result.warnings,
    )


# -- random legal play (tests and the bench: each game's random_deal) -------------------


def play_out_hands(
    rng: random.Random,
    hands: Mapping[str, Sequence[Card]],
    order: Sequence[str],
    ranks: tuple[str, ...] = TRESSETTE_RANKS,
    record: list[list[Card]] | None = None,
) -> tuple[dict[str, list[Card]], dict[str, int], str]:
    """Play given hands legally at random; ``order`` starts with the first leader."""
    remaining = {p: list(h) for p, h in hands.items()}
    taken: dict[str, list[Card]] = {p: [] for p in order}
    tricks = dict.fromkeys(order, 0)
    leader = play_round(rng, remaining, order, order[0], taken, tricks, ranks, record)
    return taken, tricks, leader


def play_round(
    rng: random.Random,
    remaining: dict[str, list[Card]],
    order: Sequence[str],
    leader: str,
    taken: dict[str, list[Card]],
    tricks: dict[str, int],
    ranks: tuple[str, ...] = TRESSETTE_RANKS,
    record: list[list[Card]] | None = None,
) -> str:
    """Play out the cards in hand, following suit when able; returns the last winner.

    ``record`` collects the tricks as played (the play record of level c)."""
    n = len(order)
    for _ in range(len(remaining[leader])):
        start = order.index(leader)
        turn = [order[(start + k) % n] for k in range(n)]
        played: list[Card] = []
        for p in turn:
            follow = [c for c in remaining[p] if played and c.suit == played[0].suit]
            card = rng.choice(follow or remaining[p])
            remaining[p].remove(card)
            played.append(card)
        if record is not None:
            record.append(played)
        leader = turn[trick_winner(played, ranks)]
        taken[leader].extend(played)
        tricks[leader] += 1
    return leader
