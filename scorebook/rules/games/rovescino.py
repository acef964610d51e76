"""Rovescino / Traversone / Ciapanò: Tressette where card points are penalties (2.6).

Each player's captured thirds become penalty points, plus the last trick; the lowest
total is best. The deal table (cards each, monte, cards taken out) depends on the number
of players and the source the club follows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..cards import DEAL_POINTS, DECK40, DECK40_SET, Card, parse_card
from ..errors import Localized, Problems, messages
from ..game import Deal, Game, Start
from ..houserules import Rules, Switch, choice
from ..irregularities import PENALTY_SWITCHES
from ..parse import card_name, known_fields, listing
from ..play import (
    REVOKE_SWITCHES,
    Dealt,
    Replay,
    ReplayOptions,
    codes,
    first_leader,
    play_out_hands,
    read_deal,
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
    check_points,
    entered_points,
    over_eleven,
    rank_order,
    read_captures,
    score_thirds,
    total,
    uncounted_seat_tricks,
    uncounted_tricks,
)

messages(
    {
        "rov.table_players": (
            "The {table} deal table covers {allowed} players, not {count}.",
            "La tabella di distribuzione {table} vale per {allowed} giocatori, non {count}.",
        ),
        "rov.removed": (
            "With {count} players the {table} table takes out {what}; 'removed' must list "
            "them (got {value!r}).",
            "In {count} giocatori la tabella {table} toglie {what_it}; 'removed' deve "
            "elencarle (ricevuto {value!r}).",
        ),
        "rov.removed_captured": (
            "The {card} was taken out of the deck, so nobody can have captured it.",
            "Il {card} è stato tolto dal mazzo, quindi nessuno può averlo preso.",
        ),
        "rov.out_player": (
            "{player} is out of the game and cannot play this deal.",
            "{player} è eliminato e non può giocare questa smazzata.",
        ),
        "rov.final_winner": (
            "{winner} cannot have won with {total}: the last deal was played by three "
            "players or more and the lowest of them won, so the winner ends with at least "
            "two players above him; {winner} has {above}.",
            "{winner} non può aver vinto con {total}: l'ultima smazzata l'hanno giocata "
            "almeno tre giocatori e ha vinto il più basso, quindi il vincitore finisce con "
            "almeno due giocatori sopra di sé; {winner} ne ha {above}.",
        ),
    }
)


@dataclass(frozen=True)
class Layout:
    """How a deal is dealt: cards each, the monte to the last trick, cards taken out."""

    each: int
    monte: int = 0
    fixed_out: tuple[str, ...] = ()  # always taken out
    announced_fours: int = 0  # this many 4s taken out, named by the deal
    announced_fives: int = 0


ALL_FOURS = ("4d", "4c", "4s", "4b")
TABLES: dict[str, dict[int, Layout]] = {
    # Dossena: 3p discard a 4 (announced); 6p and 7p a monte to the last trick.
    "DOS": {
        3: Layout(13, announced_fours=1),
        4: Layout(10),
        5: Layout(8),
        6: Layout(6, monte=4),
        7: Layout(5, monte=5),
        8: Layout(5),
    },
    # pagat's Ciapanò: 3p the dealer's discard goes to the last trick (a monte of one).
    "PAG-CIA": {3: Layout(13, monte=1), 4: Layout(10), 5: Layout(8)},
    # Oasis Traversone: cards taken out and announced, no monte.
    "OAS": {
        3: Layout(13, announced_fours=1),
        4: Layout(10),
        5: Layout(8),
        6: Layout(6, fixed_out=ALL_FOURS),
        7: Layout(5, fixed_out=ALL_FOURS, announced_fives=1),
        8: Layout(5),
    },
    "37NO": {3: Layout(13, fixed_out=("4s",))},
}


def _layouts(table: Mapping[int, Layout]) -> dict[str, dict[str, Any]]:
    """A deal table as the catalogue shows it: by number of players, the cards each, the
    monte, the cards always taken out and how many 4s and 5s the deal names."""
    return {
        str(n): {
            "each": layout.each,
            "monte": layout.monte,
            "out": list(layout.fixed_out),
            "fours_out": layout.announced_fours,
            "fives_out": layout.announced_fives,
        }
        for n, layout in table.items()
    }


SWITCHES: tuple[Switch, ...] = (
    *CORE_SWITCHES,
    choice(
        "rov.last_trick",
        "plus_one_floor_rest",
        "plus_one_and_all_leftovers",
        help="The last trick costs 1 and every remainder is dropped (PEN, DOS), or it costs "
        "1 plus every leftover third so the deal totals 11 (OAS, LOL, 37NO; the same as "
        "core.rounding = remainder_to_last_trick).",
    ),
    # BIS's team_zero_other_team_plus_11 belongs to the partnership game traversone_pairs.
    choice(
        "rov.cappotto",
        "off",
        "taker_zero_others_plus_11",
        help="A last-trick taker with all 11 points scores 0 and every other player 11 (OAS).",
    ),
    choice(
        "rov.end",
        "first_to_target_loses",
        "lowest_when_target_reached_wins",
        "elimination_until_three_remain",
        "fixed_number_of_deals",
        help="How the game ends (PEN, 37NO, OAS): the first to the target loses; the lowest "
        "total wins once someone reaches the target; by elimination, whoever reaches the "
        "target drops out while three or more stay in, and once three are left (or a deal "
        "would leave fewer: nobody drops out then) the lowest of those who played on wins; "
        "the lowest wins after rov.deals deals. Level on the lowest: one more deal.",
    ),
    Switch("rov.target", 21, between=(1, 1000), help="Penalty points that end the game."),
    Switch("rov.deals", 10, between=(1, 1000), help="Deals, with fixed_number_of_deals."),
    choice(
        "rov.deal_table",
        "DOS",
        "PAG-CIA",
        "OAS",
        "37NO",
        tables={code: _layouts(table) for code, table in TABLES.items()},
    ),
    *REVOKE_SWITCHES,
    *PENALTY_SWITCHES,
)


class Rovescino(Game):
    key: ClassVar[str] = "rovescino"
    name_en: ClassVar[str] = "Rovescino / Traversone (negative Tressette)"
    name_it: ClassVar[str] = "Rovescino / Traversone (tressette a perdere)"
    revoke_charges_offender: ClassVar[bool] = True  # points are penalties
    takes_penalties: ClassVar[bool] = True
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5, 6, 7, 8)
    switches: ClassVar[tuple[Switch, ...]] = SWITCHES
    event_by_last_trick: ClassVar[bool] = True  # "all the points" goes with the last trick

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """Each seat's pile (as many tricks as cards each is dealt); played by three, the
        deal names the 4 taken out."""
        shape = super().table_shape(rules, seats)
        layout = TABLES.get(str(rules.get("rov.deal_table", "")), {}).get(len(seats))
        if layout is not None and rules.get("rov.end") != "elimination_until_three_remain":
            shape = replace(shape, tricks=layout.each)
        shape = replace(shape, trick_counts="optional")  # an entry in thirds may leave them out
        # all the points taken by one: a cappotto the engine scores
        counted = tally(
            "remainder_to_last_trick"
            if rules.get("rov.last_trick") == "plus_one_and_all_leftovers"
            else rules.get("core.rounding"),
            ("seats", "last_trick", "removed"),
            sweep_event=rules.get("rov.cappotto") == "taker_zero_others_plus_11",
        )
        shape = replace(shape, tally=counted)
        piles: dict[str, Any] = {"removed_four": "many"} if len(seats) == 3 else {}
        leftovers = rules.get("rov.last_trick") == "plus_one_and_all_leftovers"
        if leftovers or rules.get("core.rounding") != "round_two_thirds_up":
            # floored, or the leftovers to the last trick: the figures left over change no
            # penalty but through the rest's whole points
            piles["whole_points"] = lost_points(len(shape.scorers), shape.whole or 32)
        return replace(shape, parts=(Part("piles", piles),))

    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "pen_21": {"rov.target": 21, "rov.last_trick": "plus_one_floor_rest"},
        "traversone_31": {"rov.target": 31, "rov.last_trick": "plus_one_and_all_leftovers"},
        "oas_41": {
            "rov.target": 41,
            "rov.last_trick": "plus_one_and_all_leftovers",
            "rov.cappotto": "taker_zero_others_plus_11",
            "rov.deal_table": "OAS",
        },
        "37no": {
            "rov.deal_table": "37NO",
            "rov.last_trick": "plus_one_and_all_leftovers",
            "rov.end": "lowest_when_target_reached_wins",
        },
    }
    FIELDS = ("dealer", "level", "seats", "last_trick", "removed")
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    record_fields: ClassVar[tuple[str, ...]] = (
        "dealer",
        "level",
        "hands",
        "monte",
        "tricks",
        "removed",
    )

    def playing(self, state: MatchState) -> tuple[str, ...]:
        out = set(state.extra.get("out", ()))
        return tuple(s for s in state.seats if s not in out)

    def check_setup(self, rules: Rules, players: int, problems: Problems) -> None:
        self.layout(rules, players, problems)

    def layout(self, rules: Rules, count: int, problems: Problems) -> Layout | None:
        table = rules["rov.deal_table"]
        layout = TABLES[table].get(count)
        if layout is None:
            problems.add(
                "rov.table_players",
                "rules.rov.deal_table",
                table=table,
                allowed=", ".join(str(n) for n in TABLES[table]),
                count=count,
            )
        return layout

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        seats = self.playing(state)
        layout = self.layout(rules, len(seats), problems)
        problems.raise_if_any()
        assert layout is not None
        removed = self._removed(deal, rules, layout, len(seats), problems)
        raw = deal.get("seats")
        if isinstance(raw, Mapping):
            for seat in raw:
                if seat in state.extra.get("out", ()):
                    problems.add("rov.out_player", f"seats.{seat}", player=seat)
        # nobody counts tricks at the table (the cappotto is the points'): they may be left out
        deal, counted = uncounted_seat_tricks(
            deal, seats, layout.each, len(seats), (deal.get("last_trick"),)
        )
        captures = read_captures(
            deal, "seats", seats, "", problems, what=("player", "giocatore"), extra_fields=POINTS
        )
        if not counted:  # the rules saw placeholder counts; they bound nothing
            captures = {s: replace(c, tricks_counted=False) for s, c in captures.items()}
        last = check_last_trick(
            deal.get("last_trick"), captures, seats, layout.each, "last_trick", problems
        )
        entered = entered_points(deal, "seats", seats, problems)
        if len(captures) == len(seats):
            cards_level = all(c.cards is not None for c in captures.values())
            deck = [c for c in DECK40 if c not in removed] if cards_level else ()
            check_captures(
                captures,
                problems,
                tricks_in_deal=layout.each,
                cards_per_trick=len(seats),
                extra_cards={last: layout.monte} if last else None,
                extra_thirds={last: 3 * layout.monte} if last else None,
                counting_cards=deck,
            )
            for cap in captures.values():
                for card in cap.cards or ():
                    if card in removed:
                        problems.add("rov.removed_captured", cap.path, card=card_name(card))
        problems.raise_if_any()
        thirds = {s: captures[s].thirds for s in seats}
        rounding = penalty_rounding(rules)
        lines = score_thirds(thirds, last, rounding)
        points = card_points = {s: total(lines[s]) for s in seats}
        deal_total = sum(points.values())
        event = None
        if rules["rov.cappotto"] == "taker_zero_others_plus_11" and has_all_points(points, last):
            # OAS (2.6): the last-trick taker with all 11 points, not only all 32 thirds:
            # under the leftover rule the others' odd thirds are his too.
            event = "cappotto"
            lines = {s: [Line("event", 0 if s == last else 11, {"cappotto": last})] for s in seats}
            points = {s: total(lines[s]) for s in seats}
        check_entered(entered, points, card_points, thirds, last, rounding, "seats", problems)
        return DealResult(
            game=self.key,
            level="cards" if all(c.cards is not None for c in captures.values()) else "totals",
            points=points,
            breakdown={s: tuple(lines[s]) for s in seats},
            event=event,
            facts={
                "thirds": thirds,
                "tricks": {s: captures[s].tricks if counted else None for s in seats},
                "last_trick": last,
                "removed": sorted(c.code for c in removed),
                "monte": layout.monte,
                "penalties": True,
            },
            warnings=over_eleven(deal_total),
        )

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): the hands, the monte (it goes to the last trick) and the tricks."""
        seats = self.playing(state)
        layout = self.layout(rules, len(seats), problems)
        if layout is None or problems:
            return None
        removed = self._removed(deal, rules, layout, len(seats), problems)
        deck = [c for c in DECK40 if c not in removed]
        hands, monte = read_deal(
            deal, seats, layout.each, deck, problems, pile=("monte", layout.monte)
        )
        options = ReplayOptions(
            rank_order(rules), frozenset(deck), layout.each, piles={"monte": monte}
        )
        leader = first_leader(rules, state, hands, self.eldest_of(state, seats))
        return Dealt(hands, seats, leader, options, context={"monte": monte})

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        last = found.last_winner or dealt.leader
        monte = dealt.context["monte"]
        entry: dict[str, Any] = {
            "seats": {
                p: {
                    "cards": codes(found.taken[p] + (monte if p == last else [])),
                    "tricks": found.won[p],
                }
                for p in dealt.order
            },
            "last_trick": last,
        }
        if "removed" in deal:
            entry["removed"] = deal["removed"]
        return entry

    def eldest_of(self, state: MatchState, seats: Sequence[str]) -> str:
        """The first player after the dealer still in the game."""
        order = state.seats
        i = order.index(state.dealer)
        return next(
            order[(i + k) % len(order)]
            for k in range(1, len(order) + 1)
            if order[(i + k) % len(order)] in seats
        )

    def _removed(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        layout: Layout,
        count: int,
        problems: Problems,
    ) -> frozenset[Card]:
        want = layout.announced_fours + layout.announced_fives
        raw = listing(deal, "removed", "", problems)
        if not want and not raw and not layout.fixed_out:
            return frozenset()
        fixed = {parse_card(c) for c in layout.fixed_out}
        named = [parse_card(c) for c in raw or ()]
        announced = [c for c in named if c is not None and c not in fixed]
        fours = [c for c in announced if c.rank == "4"]
        fives = [c for c in announced if c.rank == "5"]
        ok = (
            None not in named
            and len(announced) == want
            and len(fours) == layout.announced_fours
            and len(fives) == layout.announced_fives
            and len(set(announced)) == len(announced)
        )
        if not ok and (want or raw):
            what = (
                " and ".join(
                    x
                    for x in (
                        f"{layout.announced_fours} four(s)" if layout.announced_fours else "",
                        f"{layout.announced_fives} five(s)" if layout.announced_fives else "",
                    )
                    if x
                )
                or "no announced card"
            )
            what_it = (
                " e ".join(
                    x
                    for x in (
                        f"{layout.announced_fours} quattro" if layout.announced_fours else "",
                        f"{layout.announced_fives} cinque" if layout.announced_fives else "",
                    )
                    if x
                )
                or "nessuna carta dichiarata"
            )
            problems.add(
                "rov.removed",
                "removed",
                count=count,
                table=rules["rov.deal_table"],
                what=what,
                what_it=what_it,
                value=raw,
            )
        out = {c for c in fixed if c is not None}
        out.update(announced)
        return frozenset(out)

    # -- the match ----------------------------------------------------------------------

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        end = rules["rov.end"]
        target = rules["rov.target"]
        seats = self.playing(state)
        totals = state.totals
        if end == "fixed_number_of_deals":
            # A final score (``Game.record_final``) is the totals after the last deal.
            if state.deals_counted < rules["rov.deals"] and "final_score" not in result.facts:
                return None
            return _lowest_wins(seats, state, "deals")
        if end == "elimination_until_three_remain" and state.extra.get("out") and len(seats) == 3:
            # The three left after the elimination were level on the lowest: each further
            # deal is decided by the lowest total, as a tie at the target plays one more.
            return _lowest_wins(seats, state, "elimination")
        reached = [s for s in seats if totals[s] >= target]
        if not reached:
            return None
        if end == "first_to_target_loses":
            worst = max(totals[s] for s in reached)
            losers = tuple(s for s in reached if totals[s] == worst)
            winners = tuple(s for s in state.seats if s not in losers)
            units = dict.fromkeys(state.seats, 0)
            for loser in losers:
                for winner in winners:
                    units[loser] -= 1
                    units[winner] += 1
            return Outcome("target", winners, losers, 1, units, {"totals": dict(totals)})
        if end == "lowest_when_target_reached_wins":
            return _lowest_wins(seats, state, "target")
        # PEN: "each loser dropping out until three remain". Those at the target drop out
        # while at least three stay in; once three are left, or when the deal would leave
        # fewer (nobody drops out then: no deal table plays with two), the elimination
        # ends: the lowest of those who played the deal wins (always one below the target,
        # but for a deal that took everyone there). Level on the lowest, they play another
        # deal, three or more of them: the match always either ends or takes a deal.
        staying = tuple(s for s in seats if s not in reached)
        if len(staying) >= 3:
            state.extra["out"] = [*state.extra.get("out", ()), *reached]
            if len(staying) > 3:
                return None
            seats = staying
        return _lowest_wins(seats, state, "elimination")

    def final_undecided(self, state: MatchState, rules: Rules) -> Localized | None:
        """Under elimination, final totals all at or past the target (four players or
        more) do not say who played the last deal, whose lowest total won."""
        if rules["rov.end"] != "elimination_until_three_remain" or len(state.seats) <= 3:
            return None
        if min(state.totals.values()) < rules["rov.target"]:
            return None
        return Localized(
            "everyone is at or past the target, and the lowest of those still playing at "
            "the last deal won (those who had dropped out before may be lower)",
            "tutti sono alla meta o oltre, e ha vinto il più basso tra chi era ancora in "
            "gioco all'ultima smazzata (chi era già eliminato può avere meno)",
        )

    def final_won_by(
        self, state: MatchState, rules: Rules, winner: str, winner_path: str
    ) -> Outcome:
        """The last deal was played by three or more, and its lowest total won: at least
        two others end above the winner."""
        above = [s for s in state.seats if state.totals[s] > state.totals[winner]]
        if len(above) < 2:
            problems = Problems()
            problems.add(
                "rov.final_winner",
                winner_path,
                winner=winner,
                total=state.totals[winner],
                above=len(above),
            )
            problems.raise_if_any()
        outcome = _lowest_wins((winner, *above), state, "elimination")
        assert outcome is not None
        return outcome

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        seats = self.playing(state)
        problems = Problems()
        layout = self.layout(rules, len(seats), problems)
        assert layout is not None
        out = [parse_card(c) for c in layout.fixed_out]
        announced: list[Card] = []
        fours = [parse_card(c) for c in ALL_FOURS if c not in layout.fixed_out]
        announced += rng.sample([c for c in fours if c], layout.announced_fours)
        fives = [Card("5", s) for s in "dcsb"]
        announced += rng.sample(fives, layout.announced_fives)
        deck = [c for c in DECK40 if c not in out and c not in announced]
        rng.shuffle(deck)
        n = len(seats)
        hands = {p: deck[i * layout.each : (i + 1) * layout.each] for i, p in enumerate(seats)}
        monte = deck[n * layout.each :]
        leader = first_leader(rules, state, hands, self.eldest_of(state, seats))
        order = [seats[(seats.index(leader) + k) % n] for k in range(n)]
        played: list[list[Card]] = []
        taken, tricks, last = play_out_hands(rng, hands, order, rank_order(rules), played)
        taken[last].extend(monte)
        deal: dict[str, Any] = {"dealer": state.dealer}
        if level == "play":
            deal["hands"] = {p: codes(hands[p]) for p in seats}
            if monte:
                deal["monte"] = codes(monte)
            deal["tricks"] = [codes(t) for t in played]
        else:
            deal["seats"] = {p: capture_entry(taken[p], tricks[p], level) for p in seats}
            deal["last_trick"] = last
        if announced:
            deal["removed"] = [c.code for c in announced]
        return deal


def penalty_rounding(rules: Rules) -> str:
    """``rov.last_trick`` (3.6) and ``core.rounding`` (3.1, which names OAS, LOL and 37NO
    for Traversone too) are the same choice: the leftovers go to the last trick if either
    asks for it; otherwise ``core.rounding`` decides (floor, or two thirds rounded up)."""
    if rules["rov.last_trick"] == "plus_one_and_all_leftovers":
        return "remainder_to_last_trick"
    return str(rules["core.rounding"])


def check_entered(
    entered: Mapping[str, int],
    points: Mapping[str, int],
    card_points: Mapping[str, int],
    thirds: Mapping[str, int],
    last: str | None,
    rounding: str,
    key: str,
    problems: Problems,
) -> None:
    """S3: entered penalty points must be what the thirds make (the points of the cards,
    or after a cappotto reversal the reversed ones: a sheet may carry either)."""
    if entered and any(entered[s] != points[s] for s in entered):
        check_points(entered, card_points, thirds, last, rounding, key, problems)
        problems.raise_if_any()


def has_all_points(points: Mapping[str, int], last: str | None) -> bool:
    """Cappotto (OAS, BIS): the last-trick taker holds all 11 points, the others none."""
    return (
        last is not None
        and points[last] >= DEAL_POINTS
        and not any(p for s, p in points.items() if s != last)
    )


def _lowest_wins(seats: Sequence[str], state: MatchState, reason: str) -> Outcome | None:
    best = min(state.totals[s] for s in seats)
    winners = tuple(s for s in seats if state.totals[s] == best)
    if len(winners) > 1:
        return None  # an exact tie for the lowest: play on
    winner = winners[0]
    losers = tuple(s for s in state.seats if s != winner)
    units = dict.fromkeys(losers, -1)
    units[winner] = len(losers)
    return Outcome(reason, (winner,), losers, 1, units, {"totals": dict(state.totals)})


TEAMS = {"A": ("P1", "P3"), "B": ("P2", "P4")}
TEAM = {p: s for s, members in TEAMS.items() for p in members}


class TraversonePairs(Game):
    """Partnership Traversone (BIS): two teams, penalties per team, first to the target
    loses; a team that takes all 11 points scores 0 and the other team 11."""

    key: ClassVar[str] = "traversone_pairs"
    name_en: ClassVar[str] = "Traversone in pairs"
    name_it: ClassVar[str] = "Traversone a coppie"
    revoke_charges_offender: ClassVar[bool] = True  # points are penalties
    takes_penalties: ClassVar[bool] = True
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    switches: ClassVar[tuple[Switch, ...]] = (
        *CORE_SWITCHES,
        choice("rov.cappotto", "team_zero_other_team_plus_11", "off"),
        Switch("rov.target", 21, between=(1, 1000), help="11, 21 or 31 (BIS)."),
        *REVOKE_SWITCHES,
        *PENALTY_SWITCHES,
    )
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "bis_11": {"rov.target": 11},
        "bis_21": {"rov.target": 21},
        "bis_31": {"rov.target": 31},
    }
    FIELDS = ("dealer", "level", "sides", "all_tricks", "last_trick")
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    record_fields: ClassVar[tuple[str, ...]] = ("dealer", "level", "hands", "tricks")

    def scorers(self, rules: Rules, seats: tuple[str, ...]) -> tuple[str, ...]:
        return ("A", "B")

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """Two fixed teams (P1 and P3 against P2 and P4), ten tricks."""
        return replace(
            super().table_shape(rules, seats),
            scored_by="sides",
            scorers=tuple(TEAMS),
            members=dict(TEAMS),
            tricks=10,
            trick_counts="all_or_none",
            sweep=True,
            parts=(Part("piles"),),
            tally=tally(
                rules.get("core.rounding"),
                ("sides", "last_trick"),
                sweep_event=rules.get("rov.cappotto") == "team_zero_other_team_plus_11",
            ),
        )

    def seat_scorer(self, seat: str) -> str:
        return TEAM[seat]

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        deal, counted = uncounted_tricks(deal, ("A", "B"), 10, True, problems)
        captures: dict[str, Capture] = read_captures(
            deal, "sides", ("A", "B"), "", problems, extra_fields=POINTS
        )
        if not counted:  # the rules saw some tricks each; the facts say none were counted
            captures = {s: replace(c, tricks_counted=False) for s, c in captures.items()}
        entered = entered_points(deal, "sides", ("A", "B"), problems)
        if len(captures) == 2:
            check_captures(
                captures, problems, tricks_in_deal=10, cards_per_trick=4, counting_cards=DECK40
            )
        last = check_last_trick(
            deal.get("last_trick"), captures, ("A", "B"), 10, "last_trick", problems
        )
        problems.raise_if_any()
        thirds = {s: captures[s].thirds for s in ("A", "B")}
        lines = score_thirds(thirds, last, rules["core.rounding"])
        event = None
        points = card_points = {s: total(lines[s]) for s in ("A", "B")}
        deal_total = sum(points.values())
        if rules["rov.cappotto"] == "team_zero_other_team_plus_11" and has_all_points(points, last):
            assert last is not None
            event = "cappotto"
            other = "B" if last == "A" else "A"
            lines = {last: [Line("event", 0, {"cappotto": last})], other: [Line("event", 11)]}
            points = {last: 0, other: DEAL_POINTS}
        check_entered(
            entered, points, card_points, thirds, last, rules["core.rounding"], "sides", problems
        )
        return DealResult(
            game=self.key,
            level="cards" if all(c.cards is not None for c in captures.values()) else "totals",
            points=points,
            breakdown={s: tuple(lines[s]) for s in ("A", "B")},
            event=event,
            facts={
                "thirds": thirds,
                "tricks": {
                    s: captures[s].tricks if captures[s].tricks_counted else None
                    for s in ("A", "B")
                },
                "last_trick": last,
                "penalties": True,
            },
            warnings=over_eleven(deal_total),
        )

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): the four hands and the tricks."""
        hands, _ = read_deal(deal, state.seats, 10, DECK40, problems)
        options = ReplayOptions(rank_order(rules), DECK40_SET, 10)
        leader = first_leader(rules, state, hands, self.eldest(state))
        return Dealt(hands, state.seats, leader, options, TEAM.__getitem__)

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        return {
            "sides": side_captures(found, TEAM, ("A", "B")),
            "last_trick": TEAM[found.last_winner or dealt.leader],
        }

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        a, b = state.totals["A"], state.totals["B"]
        target = rules["rov.target"]
        if max(a, b) < target or a == b:
            return None
        loser = "A" if a > b else "B"
        winner = "B" if loser == "A" else "A"
        units = dict.fromkeys(TEAMS[winner], 1)
        units.update(dict.fromkeys(TEAMS[loser], -1))
        return Outcome(
            "target", TEAMS[winner], TEAMS[loser], 1, units, {"totals": {"A": a, "B": b}}
        )

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        deck = list(DECK40)
        rng.shuffle(deck)
        seats = state.seats
        hands = {p: deck[i * 10 : (i + 1) * 10] for i, p in enumerate(seats)}
        first = first_leader(rules, state, hands, self.eldest(state))
        order = [seats[(seats.index(first) + k) % 4] for k in range(4)]
        played: list[list[Card]] = []
        taken, tricks, last = play_out_hands(rng, hands, order, rank_order(rules), played)
        if level == "play":
            return {
                "dealer": state.dealer,
                "hands": {p: codes(hands[p]) for p in seats},
                "tricks": [codes(t) for t in played],
            }
        return {
            "dealer": state.dealer,
            "sides": {
                s: capture_entry(
                    [c for p in TEAMS[s] for c in taken[p]], sum(tricks[p] for p in TEAMS[s]), level
                )
                for s in ("A", "B")
            },
            "last_trick": TEAM[last],
        }


GAMES = (Rovescino(), TraversonePairs())
