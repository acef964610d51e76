"""Trappola, Cardano's two-player form (reference 2.10, switches 3.8).

A 36-card Italian pack (A R C F 10 9 8 7 2), aces high, no trumps. Card points A 6, R 5,
C 4, F 3; the last trick 6; a trick won with a 2 (led and not followed) 10; when the last
1-4 tricks are all won with 2s they score 26, 52, 78 or 104 instead. Declarations of three
or four aces, kings, knights, jacks or 2s. The four-player descendants (Stovkahra,
Hundertspiel) need a club's own sheet: the reference cannot specify them ([gap]).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from ..cards import Card, make_deck, trick_winner
from ..errors import Problems, messages
from ..game import Deal, Game, Start
from ..houserules import Rules, Switch, choice
from ..parse import cards, integer, join, known_fields, listing, no_duplicates, obj
from ..play import (
    REVOKE_SWITCHES,
    Dealt,
    Replay,
    ReplayOptions,
    codes,
    read_deal,
)
from ..result import DealResult, Line, MatchState, Outcome
from ..table import Pack, Part, TableShape
from ..tricks import tricks_said

RANKS = ("A", "R", "C", "F", "10", "9", "8", "7", "2")
DECK = frozenset(make_deck(RANKS))
VALUE = {"A": 6, "R": 5, "C": 4, "F": 3}
DECL_RANKS = ("A", "R", "C", "F", "2")
THREE_VALUE = {"A": 12, "R": 6, "C": 6, "F": 6, "2": 10}
TRICKS = 9
LAST_TRICK = 6
TWO_BONUS = 10
FINAL_RUN = 26
MAX_CARD_POINTS = 4 * (6 + 5 + 4 + 3)
#: The tens a pile's card points are entered by (one tap, then the unit typed): short of
#: every counting card (72, typed whole like the points below 10) a pile holds at most
#: 72 less the smallest, a jack's 3: 69.
TENS = tuple(range(10, MAX_CARD_POINTS - VALUE["F"] + 1, 10))
SEATS = ("P1", "P2")

SWITCHES: tuple[Switch, ...] = (
    choice("trap.form", "cardano_2p", help="Stovkahra and Hundertspiel: [gap], not offered."),
    choice("trap.final_twos", "26_52_78_104_replacing_bonuses"),
    Switch("trap.target", 0, between=(0, 10_000), help="0: each deal is a game."),
    *REVOKE_SWITCHES,
)
FIELDS = ("dealer", "level", "seats", "last_trick", "twos", "declarations", "redraws")
RECORD_FIELDS = ("dealer", "level", "hands", "stock", "redraws", "declarations", "tricks")
DECK_ORDER = sorted(DECK, key=lambda c: ("dcsb".index(c.suit), RANKS.index(c.rank)))

messages(
    {
        "trap.seat": (
            "Give points (or cards) and tricks for P1 and P2.",
            "Indica punti (o carte) e prese per P1 e P2.",
        ),
        "trap.tricks_total": (
            "The tricks add up to {total}; a deal has 9.",
            "Le prese sommano {total}; una smazzata ne ha 9.",
        ),
        "trap.points_total": (
            "The card points add up to {total}; the 18 cards in play hold at most 72.",
            "I punti delle carte sommano {total}; le 18 carte in gioco valgono al massimo 72.",
        ),
        "trap.points_over_tricks": (
            "{player} won {won}, which can hold at most {limit} card points, not {points}.",
            "{player}: in {won} ci stanno al massimo {limit} punti, non {points}.",
        ),
        "trap.last_trick": (
            "The last trick is won by P1 or P2 (who won a trick), not {value!r}.",
            "L'ultima presa è di P1 o P2 (che abbia fatto prese), non {value!r}.",
        ),
        "trap.two_trick": (
            "A trick won with a 2 names the player and the trick (1-9): {value!r}.",
            "Una presa vinta con un due indica giocatore e presa (1-9): {value!r}.",
        ),
        "trap.twos_count": (
            "Only four 2s exist, so at most four tricks are won with a 2, not {count}.",
            "Esistono solo quattro due, quindi al massimo quattro prese vinte con un due, "
            "non {count}.",
        ),
        "trap.twos_more_than_tricks": (
            "{player} won {count} tricks with a 2 but only {tricks} tricks.",
            "{player} ha vinto {count} prese con un due ma solo {tricks} prese in tutto.",
        ),
        "trap.last_trick_two": (
            "Trick 9 was won with a 2 by {player}, so {player} won the last trick.",
            "La nona presa è stata vinta con un due da {player}, quindi l'ultima è sua.",
        ),
        "trap.decl": (
            "A declaration is three or four of A, R, C, F or 2 by P1 or P2: {value!r}.",
            "Un accuso è di tre o quattro A, R, C, F o 2, di P1 o P2: {value!r}.",
        ),
        "trap.decl_conflict": (
            "{first} and {second} both declared {rank}s: there are only four.",
            "{first} e {second} hanno accusato entrambi dei {rank}: ce ne sono solo quattro.",
        ),
        "trap.decl_twice": (
            "{player} declared {rank}s twice: one declaration per rank (four replaces three).",
            "{player} ha accusato due volte i {rank}: un accuso per figura (quattro "
            "sostituisce tre).",
        ),
        "trap.two_first_trick": (
            "The non-dealer ({player}) leads the first trick, and a 2 wins only when led: "
            "only {player} can win trick 1 with a 2.",
            "Chi non dà ({player}) apre la prima presa, e un due vince solo se è di mano: "
            "solo {player} può vincere la prima presa con un due.",
        ),
        "trap.two_after_two": (
            "{first} won trick {trick} with a 2, so led trick {next}; a 2 wins only when "
            "led, so {second} cannot have won trick {next} with a 2.",
            "{first} ha vinto la presa {trick} con un due, quindi ha aperto la presa {next}; "
            "un due vince solo se è di mano, quindi {second} non può aver vinto la presa "
            "{next} con un due.",
        ),
        "trap.decl_not_held": (
            "{player} declared {count} {rank}s but holds {held} in the hand he played.",
            "{player} ha accusato {count} {rank} ma ne ha {held} nella mano giocata.",
        ),
        "trap.redraws": (
            "Redraws: the non-dealer at most twice, then the dealer with what is left: "
            "{value!r} takes more than the 18-card stock.",
            "Cambi: chi non dà al massimo due volte, poi il mazziere con ciò che resta: "
            "{value!r} supera le 18 carte del tallone.",
        ),
    }
)


class Trappola(Game):
    record_fields: ClassVar[tuple[str, ...]] = RECORD_FIELDS
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    key: ClassVar[str] = "trappola"
    name_en: ClassVar[str] = "Trappola (Cardano, 2 players)"
    name_it: ClassVar[str] = "Trappola (Cardano, 2 giocatori)"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    switches: ClassVar[tuple[Switch, ...]] = SWITCHES
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "cardano_single_deal": {"trap.target": 0},
        "cardano_to_101": {"trap.target": 101},
    }
    #: The 36-card Italian pack, its suits as the Italian 40's.
    packs: ClassVar[Mapping[str, Pack]] = {
        "italian36": Pack(tuple(DECK_ORDER), ("c", "d", "b", "s"))
    }

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """Each player's pile of the 36-card pack in points (ace 6, king 5, knight 4, jack
        3); the redraws, the tricks won with a 2 and the sets of three or four."""
        return replace(
            super().table_shape(rules, seats),
            pack="italian36",
            counting=tuple(c.code for c in DECK_ORDER if c.rank in ("A", "R", "C", "F")),
            unit="points",
            whole=None,
            tricks=TRICKS,
            trick_counts="optional",  # no score reads them: an entry may leave them out
            parts=(
                Part("piles", {"tens": TENS}),
                Part("redraws", {"scores": False}),  # checked where given, never scored
                Part("twos", {"rows": 3}),
                Part("sets", {"ranks": DECL_RANKS, "rows": 2}),
            ),
        )

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        points, tricks, level = self._captures(deal, problems)
        last = deal.get("last_trick")
        if last not in SEATS or (tricks and tricks.get(str(last), 0) == 0):
            problems.add("trap.last_trick", "last_trick", value=last)
        twos = self._twos(deal, tricks, state.dealer, problems)
        if twos.get(TRICKS) is not None and twos[TRICKS] != last:
            problems.add("trap.last_trick_two", "twos", player=twos[TRICKS])
        declared = self._declarations(deal, problems)
        self._redraws(deal, state, problems)
        problems.raise_if_any()
        lines: dict[str, list[Line]] = {p: [Line("cards", points[p])] for p in SEATS}
        run_owner = twos.get(TRICKS)
        run = 0
        while run_owner and twos.get(TRICKS - run) == run_owner and run < 4:
            run += 1
        for trick, who in sorted(twos.items()):
            if trick > TRICKS - run:
                continue
            lines[who].append(Line("two", TWO_BONUS, {"trick": trick}))
        if run:
            assert run_owner is not None
            lines[run_owner].append(Line("final_twos", FINAL_RUN * run, {"tricks": run}))
        else:
            lines[str(last)].append(Line("last_trick", LAST_TRICK))
        for player, rank, count in declared:
            value = THREE_VALUE[rank] * (2 if count == 4 else 1)
            lines[player].append(Line("declaration", value, {"rank": rank, "count": count}))
        totals = {p: sum(line.points for line in lines[p]) for p in SEATS}
        return DealResult(
            game=self.key,
            level=level,
            points=totals,
            breakdown={p: tuple(lines[p]) for p in SEATS},
            facts={"card_points": points, "tricks": tricks, "last_trick": last, "twos": twos},
        )

    def _captures(
        self, deal: Mapping[str, Any], problems: Problems
    ) -> tuple[dict[str, int], dict[str, int], str]:
        raw = obj(deal.get("seats"), "seats", problems, what="seats")
        points: dict[str, int] = {}
        tricks: dict[str, int] = {}
        piles: dict[str, list[Card]] = {}
        for p in SEATS:
            where = f"seats.{p}"
            entry = raw.get(p) if isinstance(raw, Mapping) else None
            if not isinstance(entry, Mapping):
                problems.add("trap.seat", where)
                continue
            known_fields(entry, ("points", "cards", "tricks"), where, problems)
            # the tricks are checked where counted, never scored: a sheet writes none
            t = integer(entry, "tricks", where, problems, low=0, high=TRICKS, required=False)
            if entry.get("cards") is not None:
                taken = cards(entry, "cards", where, problems, deck=DECK)
                if taken is not None:
                    piles[f"{where}.cards"] = taken
                    points[p] = sum(VALUE.get(c.rank, 0) for c in taken)
            else:
                n = integer(entry, "points", where, problems, low=0, high=MAX_CARD_POINTS)
                if n is not None:
                    points[p] = n
            if t is not None:
                tricks[p] = t
        if piles:
            no_duplicates(piles, problems)
        if len(tricks) == 2 and sum(tricks.values()) != TRICKS:
            problems.add("trap.tricks_total", "seats", total=sum(tricks.values()))
        if len(points) == 2 and sum(points.values()) > MAX_CARD_POINTS:
            problems.add("trap.points_total", "seats", total=sum(points.values()))
        for p in SEATS:
            taken = piles.get(f"seats.{p}.cards")
            if taken is not None and p in tricks and len(taken) > 2 * tricks[p]:
                problems.add(
                    "capture.too_many_cards",
                    f"seats.{p}.cards",
                    scorer=p,
                    tricks=tricks[p],
                    won=tricks_said(tricks[p]),
                    limit=2 * tricks[p],
                    count=len(taken),
                )
            if p in points and p in tricks and points[p] > 12 * tricks[p]:
                problems.add(
                    "trap.points_over_tricks",
                    f"seats.{p}",
                    player=p,
                    tricks=tricks[p],
                    won=tricks_said(tricks[p]),
                    limit=12 * tricks[p],
                    points=points[p],
                )
        level = "cards" if len(piles) == 2 else "totals"
        return points, tricks, level

    def _twos(
        self, deal: Mapping[str, Any], tricks: Mapping[str, int], dealer: str, problems: Problems
    ) -> dict[int, str]:
        raw = listing(deal, "twos", "", problems) or []
        out: dict[int, str] = {}
        for i, item in enumerate(raw):
            ok = (
                isinstance(item, Mapping)
                and item.get("player") in SEATS
                and type(item.get("trick")) is int
                and 1 <= item["trick"] <= TRICKS
                and item["trick"] not in out
            )
            if not ok:
                problems.add("trap.two_trick", join("twos", i), value=item)
                continue
            out[item["trick"]] = str(item["player"])
        if len(out) > 4:
            problems.add("trap.twos_count", "twos", count=len(out))
        # Q2: a 2 wins only when led, so only the trick's leader wins with it: the
        # non-dealer at trick 1, the winner of the trick before after that.
        leader = "P2" if dealer == "P1" else "P1"
        if out.get(1, leader) != leader:
            problems.add("trap.two_first_trick", "twos", player=leader)
        for trick, who in sorted(out.items()):
            before = out.get(trick - 1)
            if before is not None and before != who:
                problems.add(
                    "trap.two_after_two",
                    "twos",
                    first=before,
                    second=who,
                    trick=trick - 1,
                    next=trick,
                )
        for p in SEATS:
            count = sum(1 for who in out.values() if who == p)
            if p in tricks and count > tricks[p]:
                problems.add(
                    "trap.twos_more_than_tricks", "twos", player=p, count=count, tricks=tricks[p]
                )
        return out

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): hands and stock as dealt, the redraws, then the nine tricks."""
        hands, stock = read_deal(deal, SEATS, 9, DECK_ORDER, problems, pile=("stock", 18))
        self._redraws(deal, state, problems)
        if problems:
            return None
        dealer = state.dealer
        other = "P2" if dealer == "P1" else "P1"
        redraws = deal.get("redraws") or {}
        playing = {p: list(h) for p, h in hands.items()}
        rest = list(stock)
        for player in (other, dealer):
            for _ in range(redraws.get(player, 0)):
                playing[player], rest = rest[:9], rest[9:]
        declared = self._declarations(deal, problems)
        for i, (player, rank, count) in enumerate(declared):
            held = sum(1 for c in playing[player] if c.rank == rank)
            if held < count:
                problems.add(
                    "trap.decl_not_held",
                    join("declarations", i),
                    player=player,
                    count=count,
                    rank=rank,
                    held=held,
                )
        options = ReplayOptions(RANKS, DECK, TRICKS, piles={"stock": rest})
        hands_played = {p: codes(h) for p, h in playing.items()}
        return Dealt(playing, (other, dealer), other, options, facts={"hands_played": hands_played})

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        twos = [
            {"player": t.leader, "trick": n}
            for n, t in enumerate(found.tricks, start=1)
            if t.cards[0].rank == "2" and t.cards[1].suit != t.cards[0].suit
        ]
        entry: dict[str, Any] = {
            "seats": {p: {"cards": codes(found.taken[p]), "tricks": found.won[p]} for p in SEATS},
            "last_trick": found.last_winner,
        }
        for key in ("redraws", "declarations"):
            if key in deal:
                entry[key] = deal[key]
        if twos:
            entry["twos"] = twos
        return entry

    def _declarations(
        self, deal: Mapping[str, Any], problems: Problems
    ) -> list[tuple[str, str, int]]:
        raw = listing(deal, "declarations", "", problems) or []
        out: list[tuple[str, str, int]] = []
        seen: dict[str, str] = {}
        for i, item in enumerate(raw):
            ok = (
                isinstance(item, Mapping)
                and item.get("player") in SEATS
                and item.get("rank") in DECL_RANKS
                and item.get("count") in (3, 4)
                and type(item.get("count")) is int
            )
            if not ok:
                problems.add("trap.decl", join("declarations", i), value=item)
                continue
            player, rank = str(item["player"]), str(item["rank"])
            if (player, rank) in {(p, r) for p, r, _ in out}:
                problems.add("trap.decl_twice", join("declarations", i), player=player, rank=rank)
            elif rank in seen and seen[rank] != player:
                problems.add(
                    "trap.decl_conflict",
                    join("declarations", i),
                    first=seen[rank],
                    second=player,
                    rank=rank,
                )
            seen[rank] = player
            out.append((player, rank, int(item["count"])))
        return out

    def _redraws(self, deal: Mapping[str, Any], state: MatchState, problems: Problems) -> None:
        raw = deal.get("redraws")
        if raw is None:
            return
        dealer = state.dealer
        other = "P2" if dealer == "P1" else "P1"
        ok = (
            isinstance(raw, Mapping)
            and set(raw) <= set(SEATS)
            and all(type(v) is int and v >= 0 for v in raw.values())
        )
        if ok:
            first, second = raw.get(other, 0), raw.get(dealer, 0)
            ok = first <= 2 and first + second <= 2
        if not ok:
            problems.add("trap.redraws", "redraws", value=raw)

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        target = rules["trap.target"]
        a, b = state.totals["P1"], state.totals["P2"]
        if target and max(a, b) < target:
            return None
        if a == b:
            return None  # level: play another deal
        winner, loser = ("P1", "P2") if a > b else ("P2", "P1")
        return Outcome(
            "target" if target else "deal",
            (winner,),
            (loser,),
            1,
            {winner: 1, loser: -1},
            {"totals": {"P1": a, "P2": b}},
        )

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        deck = sorted(DECK, key=lambda c: (c.suit, RANKS.index(c.rank)))
        rng.shuffle(deck)
        dealer = state.dealer
        other = "P2" if dealer == "P1" else "P1"
        hands = {other: deck[:9], dealer: deck[9:18]}
        record: dict[str, Any] = {
            "hands": {p: codes(h) for p, h in hands.items()},
            "stock": codes(deck[18:]),
        }
        # Cardano's redraws: the non-dealer at most twice, then the dealer with the rest.
        rest = deck[18:]
        redraws = {other: rng.choice((0, 0, 0, 1, 2))}
        redraws[dealer] = rng.choice((0, 1)) if redraws[other] < 2 else 0
        for player in (other, dealer):
            for _ in range(redraws[player]):
                hands[player], rest = rest[:9], rest[9:]
        redraws = {p: n for p, n in redraws.items() if n}
        declarations = [
            {"player": p, "rank": rank, "count": n}
            for p in (other, dealer)
            for rank in DECL_RANKS
            if (n := sum(1 for c in hands[p] if c.rank == rank)) >= 3
        ]
        record["tricks"] = []
        taken: dict[str, list[Card]] = {"P1": [], "P2": []}
        tricks = {"P1": 0, "P2": 0}
        twos: list[dict[str, Any]] = []
        leader = other
        for n in range(1, TRICKS + 1):
            follower = dealer if leader == other else other
            lead = rng.choice(hands[leader])
            hands[leader].remove(lead)
            follow = [c for c in hands[follower] if c.suit == lead.suit]
            reply = rng.choice(follow or hands[follower])
            hands[follower].remove(reply)
            played = [lead, reply]
            record["tricks"].append(codes(played))
            win = (leader, follower)[trick_winner(played, RANKS)]
            if lead.rank == "2" and reply.suit != lead.suit:
                twos.append({"player": leader, "trick": n})
            taken[win].extend(played)
            tricks[win] += 1
            leader = win
        extra: dict[str, Any] = {}
        if redraws:
            extra["redraws"] = redraws
        if declarations:
            extra["declarations"] = declarations
        if level == "play":
            return {"dealer": dealer, **record, **extra}
        deal: dict[str, Any] = {
            "dealer": dealer,
            "seats": {
                p: (
                    {"cards": [c.code for c in taken[p]], "tricks": tricks[p]}
                    if level == "cards"
                    else {
                        "points": sum(VALUE.get(c.rank, 0) for c in taken[p]),
                        "tricks": tricks[p],
                    }
                )
                for p in ("P1", "P2")
            },
            "last_trick": leader,
        }
        if twos:
            deal["twos"] = twos
        deal.update(extra)
        return deal


GAMES = (Trappola(),)
