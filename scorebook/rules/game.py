"""The contract every game implements, and the fold of a deal log into a match.

A game module subclasses :class:`Game`, lists its switches and profiles, and implements
:meth:`Game.score_entry` (levels a and b) and, for play records (level c), the hooks of the
one template :meth:`Game.score_play`: :meth:`Game.read_play` and :meth:`Game.play_entry`
(Spinado, whose record is runs of cards rather than tricks, overrides ``score_play``).
The default :meth:`Game.advance` is a race to a target; games with other endings override
:meth:`Game.finish` (or ``advance``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from .cards import CARD_THIRDS_IN_DECK, DECK40, THIRDS
from .errors import Localized, Problems, Rejection, messages
from .houserules import Rules, Switch, choice, resolve
from .irregularities import (
    Table,
    apply_penalties,
    bare_result,
    check_not_in_record,
    read_penalties,
)
from .parse import known_fields
from .play import Dealt, Replay, judge_revokes, mark_contested, replay, with_play
from .result import DealResult, MatchState, Outcome
from .table import ITALIAN, Pack, Part, TableShape

messages(
    {
        "match.finished": (
            "The match is already over ({reason}); no further deal can be entered.",
            "La partita è già finita ({reason}); non si possono inserire altre smazzate.",
        ),
        "deal.wrong_dealer": (
            "{dealer} cannot deal now: it is {expected}'s deal.",
            "{dealer} non può dare le carte ora: tocca a {expected}.",
        ),
        "match.bad_players": (
            "{game} is played by {allowed} players, not {value!r}.",
            "{game} si gioca in {allowed} giocatori, non {value!r}.",
        ),
        "match.unknown_seat": (
            "{value!r} is not a seat at this table; seats: {allowed}.",
            "{value!r} non è un posto a questo tavolo; posti: {allowed}.",
        ),
        "final.per_deal": (
            "In {game} the stakes change hands every deal: a match is recorded deal by "
            "deal, not by its final score.",
            "A {game} le poste si pagano a ogni smazzata: la partita si registra smazzata "
            "per smazzata, non con il punteggio finale.",
        ),
        "final.per_deal_contest": (
            "In {game} every deal is a contest of its own (the call, the bid): a match is "
            "recorded deal by deal, not by its final score.",
            "A {game} ogni smazzata è una sfida a sé (la chiamata, la dichiarazione): la "
            "partita si registra smazzata per smazzata, non con il punteggio finale.",
        ),
        "final.scorers": (
            "The final score names {given}; this match is scored by {scorers}.",
            "Il punteggio finale nomina {given}; questa partita si segna per {scorers}.",
        ),
        "final.bad_total": (
            "{value!r} is not a final total for {scorer}: write a whole number.",
            "{value!r} non è un totale finale per {scorer}: scrivi un numero intero.",
        ),
        "final.not_over": (
            "These totals ({totals}) do not end a match of {game} under these house rules "
            "(still below the target, or level where a tie plays another deal): record its "
            "deals instead.",
            "Questi totali ({totals}) non chiudono una partita di {game} con queste regole "
            "della casa (ancora sotto il traguardo, o in parità dove la parità fa giocare "
            "un'altra smazzata): registrane le smazzate.",
        ),
        "final.has_deals": (
            "The match has {count} deals: its final score comes from them.",
            "La partita ha {count} smazzate: il punteggio finale viene da quelle.",
        ),
        "final.bad_winner": (
            "{value!r} is not a scorer of this match: the winner is one of {scorers}.",
            "{value!r} non ha un punteggio in questa partita: il vincitore è uno tra {scorers}.",
        ),
        "final.winner_needed": (
            "These totals ({totals}) end the match, but {why}: the totals alone cannot tell "
            "who won. Say who won ({scorers}).",
            "Questi totali ({totals}) chiudono la partita, ma {why}: i totali da soli non "
            "dicono chi ha vinto. Indica chi ha vinto ({scorers}).",
        ),
        "final.winner_contradicts": (
            "These totals ({totals}) say that {expected} won under these house rules, not "
            "{value}. A match won otherwise (a claim, a special event) is recorded deal by "
            "deal.",
            "Questi totali ({totals}) dicono che con queste regole della casa ha vinto "
            "{expected}, non {value}. Una partita vinta in altro modo (una chiamata, un "
            "evento speciale) si registra smazzata per smazzata.",
        ),
        "match.has_end": (
            "This match of {game} ends by itself (a target or a set number of deals): it "
            "cannot be ended with its scores as they stand.",
            "Questa partita di {game} finisce da sé (un traguardo o un numero fisso di "
            "smazzate): non si può chiudere con il punteggio che ha ora.",
        ),
    }
)


#: The cards of the Italian pack that score (an empty pile gets those nobody else took).
COUNTING_CARDS = tuple(c.code for c in DECK40 if c.rank in THIRDS)

#: A deal as entered: the JSON object of one deal.
Deal = Mapping[str, Any]
#: What :meth:`Game.read_play` gives: the deal up to its first trick, or the result of a deal
#: settled before play (annulled, passed out), or None when the problems say why neither.
Start = Dealt | DealResult | None


class Game:
    """A game of the family. Subclasses set the class attributes and ``score_deal``."""

    key: ClassVar[str]
    name_en: ClassVar[str]
    name_it: ClassVar[str]
    switches: ClassVar[tuple[Switch, ...]] = ()
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: "match": stakes follow the match result; "deal": every deal pays (chips, points).
    settlement: ClassVar[str] = "match"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    levels: ClassVar[tuple[str, ...]] = ("totals", "cards", "play")
    #: The field that makes a deal a play record (the tricks; Spinado's runs of cards).
    record_key: ClassVar[str] = "tricks"
    #: The fields a play record may have.
    record_fields: ClassVar[tuple[str, ...]] = ("dealer", "level", "hands", "tricks")
    #: The fields a deal entered as totals or cards may have (see :meth:`deal_fields`).
    entry_fields: ClassVar[tuple[str, ...]] = ()
    #: Whether a deal may carry ``penalties`` (the games that race to a target; they list
    #: ``irregularities.PENALTY_SWITCHES``).
    takes_penalties: ClassVar[bool] = False
    #: What the opponents score when a deal is forfeited for conduct (the whole deal "per
    #: cappotto"); None where a deal cannot be forfeited.
    forfeit_points: ClassVar[int | None] = None
    #: What each deal is for the ratings and the bids' counts, beside the match itself:
    #: "" (nothing: the match is the contest), "bid" (the bidder against the others, with
    #: the contract), "sides" (the sides formed for the deal, such as Chiamata's call).
    deal_contest: ClassVar[str] = ""
    #: Whether a deal's event, when the engine names no side, was made by the taker of the
    #: last trick (Rovescino's "all the points") rather than by the best score of the deal.
    event_by_last_trick: ClassVar[bool] = False
    #: Whether players are ranked by the chips they end the match with (the state's units)
    #: rather than by what the match's result settles.
    ranked_by_chips: ClassVar[bool] = False
    #: Whether a match of this game may play for a night's pot at its table (the piatto).
    pot_game: ClassVar[bool] = False
    #: The packs this game's tables name (``TableShape.pack``), by name.
    packs: ClassVar[Mapping[str, Pack]] = {"italian": ITALIAN}

    # -- set-up -------------------------------------------------------------------------

    def settles_per_deal(self, rules: Rules) -> bool:
        """Whether stakes change hands every deal (``DealResult.units``) or once, at the
        end of the match (``Outcome.units``): the ledger books one or the other, never both."""
        return self.settlement == "deal"

    def rules(self, spec: Any, path: str = "rules", problems: Problems | None = None) -> Rules:
        return resolve(self.key, self.switches, self.profiles, spec, path, problems)

    def seats(self, rules: Rules, players: int) -> tuple[str, ...]:
        """Seat names in playing order (the player after the dealer is eldest)."""
        return tuple(f"P{i}" for i in range(1, players + 1))

    def scorers(self, rules: Rules, seats: tuple[str, ...]) -> tuple[str, ...]:
        """Who keeps a running total: the players, unless the game has fixed sides."""
        return seats

    def plays_for_pot(self, rules: Mapping[str, Any]) -> bool:
        """Whether a match under these house rules (the values) feeds the table's pot."""
        return False

    def counts_in_chips(self, rules: Mapping[str, Any]) -> bool:
        """Whether a deal's numbers are chips that change hands (else points of a race)."""
        return False

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """The table as its score keeper sees it, under these house rules (the values):
        who scores, the pack, the unit, the parts of the entry form (``table``).
        By default every seat scores its own pile of the Italian pack, in thirds."""
        return TableShape(
            self.key,
            seats,
            "seats",
            seats,
            counting=COUNTING_CARDS,
            unit="thirds",
            whole=CARD_THIRDS_IN_DECK,
            parts=(Part("piles"),),
        )

    def default_players(self, rules: Rules) -> int:
        return self.player_counts[0]

    def new_match(
        self,
        rules: Rules,
        players: int | None = None,
        first_dealer: str | None = None,
        path: str = "",
    ) -> MatchState:
        problems = Problems()
        count = self.default_players(rules) if players is None else players
        if type(count) is not int or count not in self.player_counts:
            problems.add(
                "match.bad_players",
                f"{path}players" if path else "players",
                game=self.name_en,
                allowed=" or ".join(str(n) for n in self.player_counts),
                value=players,
            )
            problems.raise_if_any()
        seats = self.seats(rules, count)
        if first_dealer is not None and first_dealer not in seats:
            problems.add(
                "match.unknown_seat",
                f"{path}first_dealer" if path else "first_dealer",
                value=first_dealer,
                allowed=", ".join(seats),
            )
            problems.raise_if_any()
        self.check_setup(rules, count, problems)
        problems.raise_if_any()
        scorers = self.scorers(rules, seats)
        state = MatchState(
            game=self.key,
            seats=seats,
            scorers=scorers,
            dealer=first_dealer or seats[0],
            totals=dict.fromkeys(scorers, 0),
            units=dict.fromkeys(seats, 0),
        )
        self.setup(state, rules)
        return state

    def check_setup(self, rules: Rules, players: int, problems: Problems) -> None:
        """Hook: refuse house rules that cannot work with this many players."""

    def setup(self, state: MatchState, rules: Rules) -> None:
        """Hook for games that carry facts between deals (pots, the minimum bid...)."""

    # -- one deal -----------------------------------------------------------------------

    def score_deal(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """Validate ``deal`` in the context of ``state`` and score it, or raise Rejection.

        A play record (level ``play``) is replayed card by card into the captures it
        implies, then scored like an entry; totals and cards go straight to the scorer.
        Penalties, annulments and forfeits are read first, the same way in every game.
        """
        if "penalties" in deal or "annulled_for" in deal or "forfeit" in deal:
            return self.score_irregular(deal, rules, state)
        if deal.get("level") == "play" or self.record_key in deal:
            return self.score_play(deal, rules, state)
        return self.score_entry(deal, rules, state)

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """Score a deal entered as totals or captured cards (levels a and b)."""
        raise NotImplementedError

    def deal_fields(self, rules: Rules) -> tuple[str, ...]:
        """The fields a deal entered as totals or cards may have under these house rules:
        what :meth:`score_entry` reads, and what the deal's JSON Schema lists."""
        return self.entry_fields

    def seat_scorer(self, seat: str) -> str:
        """Who keeps the score of ``seat``: the player himself, unless sides are fixed."""
        return seat

    def score_irregular(
        self, deal: Mapping[str, Any], rules: Rules, state: MatchState
    ) -> DealResult:
        """A deal with the tournament code's record fields (``irregularities``): annulled
        or forfeited, or scored as usual; then its penalties."""
        problems = Problems()
        table = Table(state.seats, state.scorers, self.seat_scorer)
        raw = deal.get("penalties")
        entered = []
        if raw is not None and not self.takes_penalties:
            problems.add(
                "penalty.not_taken", "penalties", game=Localized(self.name_en, self.name_it)
            )
        elif raw is not None:
            entered = read_penalties(raw, table, rules, problems)
        result: DealResult | None = None
        if "annulled_for" in deal or "forfeit" in deal:
            result = bare_result(self.key, deal, table, problems, self.forfeit_points)
        else:
            try:
                result = self.score_deal(
                    {k: v for k, v in deal.items() if k != "penalties"}, rules, state
                )
            except Rejection as rejection:
                problems.extend(rejection)
        if result is not None:
            check_not_in_record(entered, result, problems)
        problems.raise_if_any()
        assert result is not None
        return apply_penalties(
            result, entered, rules, state, charge_offender=self.revoke_charges_offender
        )

    # -- the play record: one template, hooks per game -------------------------------------

    #: Where points are penalties (Rovescino), a revoke's penalty goes to the offender's
    #: scorer; elsewhere to every other scorer.
    revoke_charges_offender: ClassVar[bool] = False

    def score_play(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        """Replay a play record (level c) and score what it derives.

        The same steps for every trick game: read the deal up to the first trick
        (:meth:`read_play`), replay the tricks card by card, judge what the replay shows
        (:meth:`judge_play`: revokes), turn it into the entry levels (a) and (b) would give
        (:meth:`play_entry`), score that (:meth:`score_played`) and attach the play.
        """
        problems = Problems()
        contested = deal.get("contested")
        if contested is not None:
            deal = {k: v for k, v in deal.items() if k != "contested"}
        known_fields(deal, self.play_fields(rules), "", problems)
        dealt = self.read_play(deal, rules, state, problems)
        problems.raise_if_any()
        if isinstance(dealt, DealResult):  # settled before any trick: annulled, passed out
            return with_play(dealt, Replay(), rules, str)
        assert dealt is not None
        options = dealt.options
        if rules.values.get("core.out_of_turn", "reject") != "reject":
            options = replace(options, out_of_turn=True)
        found = replay(
            deal.get(self.record_key),
            dealt.hands,
            dealt.order,
            dealt.leader,
            options,
            problems,
        )
        mark_contested(contested, found, problems)
        self.judge_play(rules, dealt, found, problems)
        problems.raise_if_any()
        result = self.score_played(self.play_entry(deal, rules, dealt, found), rules, state, dealt)
        return with_play(
            result,
            found,
            rules,
            dealt.scorer_of,
            charge_offender=self.revoke_charges_offender,
            facts=dealt.facts,
            state=state,
        )

    def play_fields(self, rules: Rules) -> tuple[str, ...]:
        """The fields a play record may have (some games' depend on the house rules)."""
        return self.record_fields

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Hook: the deal up to the first trick (hands, stock, bids, exchanges), or the
        result of a deal that ends before play; None when ``problems`` say why not."""
        raise NotImplementedError

    def judge_play(self, rules: Rules, dealt: Dealt, found: Replay, problems: Problems) -> None:
        """Hook: refuse what the replay shows (by default revokes, unless the house rule
        lets them stand with a penalty)."""
        judge_revokes(found, rules, problems)

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        """Hook: the replayed deal as the entry the scorer reads (captures, last trick)."""
        raise NotImplementedError

    def score_played(
        self, entry: Deal, rules: Rules, state: MatchState, dealt: Dealt
    ) -> DealResult:
        """Hook: score the entry a play record gave."""
        return self.score_entry(entry, rules, state)

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        """A legal entry, at ``level``, of a random deal of the real deck (tests, bench).

        It must fit ``state`` (dealer, the minimum bid...) so that a match can be built by
        calling it again after each deal.
        """
        raise NotImplementedError

    # -- the fold -----------------------------------------------------------------------

    def add_deal(self, state: MatchState, deal: Any, rules: Rules, path: str = "") -> DealResult:
        """Check the deal fits the match (not over, right dealer), score it and advance."""
        problems = Problems()
        if state.finished:
            reason = state.outcome.reason if state.outcome else "finished"
            problems.add("match.finished", path or "deal", reason=reason)
            problems.raise_if_any()
        if isinstance(deal, Mapping) and deal.get("dealer") is not None:
            if deal["dealer"] != state.dealer:
                problems.add(
                    "deal.wrong_dealer",
                    f"{path}.dealer" if path else "dealer",
                    dealer=deal["dealer"],
                    expected=state.dealer,
                )
        try:
            result = self.score_deal(
                deal if isinstance(deal, Mapping) else _not_an_object(deal, path), rules, state
            )
        except Rejection as rejection:
            problems.extend(_prefixed(rejection, path))
            problems.raise_if_any()
            raise  # pragma: no cover - problems always set here
        problems.raise_if_any()
        self.advance(state, result, rules)
        return result

    def advance(self, state: MatchState, result: DealResult, rules: Rules) -> None:
        state.deals_played += 1
        if result.annulled:
            state.deals_annulled += 1
            if not any(result.points.values()):  # an annulment's penalties still count
                return
        for scorer, points in result.points.items():
            state.totals[scorer] = state.totals.get(scorer, 0) + points
        for player, units in result.units.items():
            state.units[player] = state.units.get(player, 0) + units
        outcome = self.finish(state, result, rules)
        if outcome is not None:
            state.finished = True
            state.outcome = outcome
        if not result.same_dealer:
            state.dealer = self.next_dealer(state, rules)

    def record_final(
        self,
        state: MatchState,
        totals: Any,
        rules: Rules,
        path: str = "final_score",
        winner: Any = None,
        winner_path: str = "winner",
    ) -> Outcome:
        """End a match that has no deals with its final totals per scorer (a paper score
        sheet that kept only the final score): the result is what this game's end says of
        those totals, as after a last deal with nothing special in it (no claim, no
        cappotto); in a match of a set number of deals, after its last deal. Refused
        where the deals themselves settle or rate the match (stakes per deal, a contest
        per deal), and where the totals do not end a match (below the target, level where
        a tie plays on).

        Where the totals end a match but cannot tell its winner under the house rules
        (:meth:`final_undecided`: both sides past the target when the first to reach it
        wins, ...), ``winner`` (a scorer) says who won, and without it the final is
        refused in words that ask for it; where they tell, a ``winner`` that is not the
        one they name is refused. Sets ``state`` finished; a refusal leaves it as it was."""
        problems = Problems()
        name = Localized(self.name_en, self.name_it)
        if state.finished:
            reason = state.outcome.reason if state.outcome else "finished"
            problems.add("match.finished", path, reason=reason)
        elif state.deals_played:
            problems.add("final.has_deals", path, count=state.deals_played)
            problems.raise_if_any()
        if self.settles_per_deal(rules):
            problems.add("final.per_deal", path, game=name)
        elif self.deal_contest:
            problems.add("final.per_deal_contest", path, game=name)
        problems.raise_if_any()
        scorers = ", ".join(state.scorers)
        if not isinstance(totals, Mapping) or set(totals) != set(state.scorers):
            given = ", ".join(sorted(map(str, totals))) if isinstance(totals, Mapping) else "—"
            problems.add("final.scorers", path, given=given, scorers=scorers)
            problems.raise_if_any()
        for scorer in state.scorers:
            value = totals[scorer]
            if type(value) is not int or not -100_000 <= value <= 100_000:
                problems.add("final.bad_total", f"{path}.{scorer}", value=value, scorer=scorer)
        if winner is not None and (type(winner) is not str or winner not in state.scorers):
            problems.add("final.bad_winner", winner_path, value=winner, scorers=scorers)
        problems.raise_if_any()
        before_totals, before_extra = state.totals, state.extra
        state.totals = {scorer: totals[scorer] for scorer in state.scorers}
        state.extra = dict(state.extra)
        try:
            outcome = self._final_outcome(state, rules, path, winner, winner_path)
        except Rejection:
            state.totals, state.extra = before_totals, before_extra
            raise
        detail = {**outcome.detail, "final_score": True}
        if winner is not None:
            detail["final_winner"] = winner
        outcome = replace(outcome, detail=detail)
        state.finished = True
        state.outcome = outcome
        return outcome

    def _final_outcome(
        self, state: MatchState, rules: Rules, path: str, winner: str | None, winner_path: str
    ) -> Outcome:
        """The result the final totals (already in ``state``) give, with the named winner."""
        problems = Problems()
        written = ", ".join(f"{s} {state.totals[s]}" for s in state.scorers)
        why = self.final_undecided(state, rules)
        if why is not None:
            if winner is None:
                problems.add(
                    "final.winner_needed",
                    winner_path,
                    totals=written,
                    why=why,
                    scorers=", ".join(state.scorers),
                )
                problems.raise_if_any()
            assert winner is not None
            return self.final_won_by(state, rules, winner, winner_path)
        nothing = DealResult(
            self.key, "totals", dict.fromkeys(state.scorers, 0), {}, facts={"final_score": True}
        )
        outcome = self.finish(state, nothing, rules)
        if outcome is None and state.extra.get("overtime"):
            # both reached the target and the house rules play one more deal: the final
            # totals are after it
            outcome = self.finish(state, nothing, rules)
        if outcome is None:
            name = Localized(self.name_en, self.name_it)
            problems.add("final.not_over", path, totals=written, game=name)
            problems.raise_if_any()
        assert outcome is not None
        won = sorted({self.seat_scorer(seat) for seat in outcome.winners})
        if winner is not None and winner not in won:
            problems.add(
                "final.winner_contradicts",
                winner_path,
                totals=written,
                expected=Localized(" and ".join(won), " e ".join(won)),
                value=winner,
            )
            problems.raise_if_any()
        return outcome

    def final_undecided(self, state: MatchState, rules: Rules) -> Localized | None:
        """Hook: why the final totals in ``state`` end a match without telling who won
        under these house rules (words that finish "..., but {why}"), or None when they
        tell (or end no match). A game that may answer must implement
        :meth:`final_won_by`."""
        return None

    def final_won_by(
        self, state: MatchState, rules: Rules, winner: str, winner_path: str
    ) -> Outcome:
        """Hook: the result of final totals that :meth:`final_undecided` could not read,
        won by the scorer ``winner``; refuses a winner the totals rule out."""
        raise NotImplementedError

    def open_ended(self, rules: Rules) -> bool:
        """Whether a match under these house rules has no end of its own: no target and no
        set number of deals (a chips session, "0: open, the club closes it"). Such a match
        is ended by the club with :meth:`stop`, at the night's close. Default: no."""
        return False

    def stop(self, state: MatchState, rules: Rules, path: str = "match") -> Outcome:
        """End an open-ended match now, with its scores as they stand: the result a set
        number of deals ending after the deals played would give (:meth:`stopped`), marked
        ``stopped`` in its detail. Refused where the match has an end of its own (a target,
        a set number of deals) or is over. Sets ``state`` finished."""
        problems = Problems()
        if state.finished:
            reason = state.outcome.reason if state.outcome else "finished"
            problems.add("match.finished", path, reason=reason)
        elif not self.open_ended(rules):
            problems.add("match.has_end", path, game=Localized(self.name_en, self.name_it))
        problems.raise_if_any()
        outcome = self.stopped(state, rules)
        outcome = replace(outcome, detail={**outcome.detail, "stopped": True})
        state.finished = True
        state.outcome = outcome
        return outcome

    def stopped(self, state: MatchState, rules: Rules) -> Outcome:
        """The result of an open-ended match ended after the deals played (the games whose
        :meth:`open_ended` can say yes give it)."""
        raise NotImplementedError(f"{self.key} has no open-ended matches")

    def next_dealer(self, state: MatchState, rules: Rules) -> str:
        """The deal passes in the direction of play (to the dealer's eldest)."""
        out = set(state.extra.get("out", ()))
        seats = state.seats
        i = seats.index(state.dealer)
        for step in range(1, len(seats) + 1):
            candidate = seats[(i + step) % len(seats)]
            if candidate not in out:
                return candidate
        return state.dealer  # pragma: no cover - at least one seat is always in

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        """Has the match ended after this deal? Default: never (fixed by the caller)."""
        return None

    def dealt_in(self, state: MatchState) -> tuple[str, ...]:
        """Who plays this deal, eldest first; in a three-hander played by four (Terziglio,
        Calabrasella) the dealer sits the deal out."""
        seats = state.seats
        start = seats.index(state.dealer)
        order = [seats[(start + k) % len(seats)] for k in range(1, len(seats) + 1)]
        if len(seats) == 4:
            order.remove(state.dealer)
        return tuple(order)

    def eldest(self, state: MatchState) -> str:
        seats = state.seats
        return seats[(seats.index(state.dealer) + 1) % len(seats)]

    # -- catalogue ----------------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": {"en": self.name_en, "it": self.name_it},
            "players": list(self.player_counts),
            "settlement": self.settlement,
            "levels": list(self.levels),
            "switches": [s.describe() for s in self.switches],
            "profiles": {name: dict(values) for name, values in self.profiles.items()},
        }


def _not_an_object(deal: Any, path: str) -> Mapping[str, Any]:
    problems = Problems()
    problems.add("input.not_object", path or "deal", what="The deal")
    raise Rejection(problems.items)


def _prefixed(rejection: Rejection, path: str) -> Rejection:
    if not path:
        return rejection
    from dataclasses import replace

    return Rejection(
        [
            replace(p, path=f"{path}.{p.path}" if p.path and p.path != "deal" else path)
            for p in rejection.problems
        ]
    )


def split_evenly(payers: Sequence[str], payees: Sequence[str], amount: int) -> dict[str, int]:
    """Each payer pays ``amount`` to each payee: the zero-sum units of a settlement."""
    units = dict.fromkeys((*payers, *payees), 0)
    for payer in payers:
        for payee in payees:
            units[payer] -= amount
            units[payee] += amount
    return units


# -- a race to a target: the first to reach it wins, one stake from each other player ----


def target_switch(prefix: str) -> Switch:
    return Switch(
        f"{prefix}.target", 21, between=(1, 1000), help="Points to win the match (21, 31...)."
    )


def tie_switch(prefix: str) -> Switch:
    return choice(
        f"{prefix}.both_reach_target",
        "higher_total_wins",
        "play_another_deal",
        help="Several players reach the target in the same deal (no source: house rule). "
        "An exact tie on the top total always plays another deal.",
    )


def decide(
    totals: Mapping[str, int], target: int, rule: str, overtime: bool
) -> tuple[str | None, bool]:
    """Who has won once ``totals`` are reached, and whether an extra deal is due.

    Nobody at the target: play on. Several at the target: ``higher_total_wins`` gives the
    match to the highest total; ``play_another_deal`` plays one more deal first (then the
    highest total wins). An exact tie on the top total always plays another deal.
    """
    reached = [s for s, t in totals.items() if t >= target]
    if not reached:
        return None, overtime
    if len(reached) > 1 and rule == "play_another_deal" and not overtime:
        return None, True
    best = max(totals[s] for s in reached)
    leaders = [s for s in reached if totals[s] == best]
    if len(leaders) > 1:
        return None, True
    return leaders[0], overtime


def would_end(state: MatchState, points: Mapping[str, int], target: int, rule: str) -> bool:
    """Does this deal end the match (a stand-alone deal with ``before`` totals, too)?"""
    if max(state.totals.values()) + max(points.values()) < target:
        return False
    totals = {s: state.totals.get(s, 0) + points.get(s, 0) for s in state.scorers}
    winner, _ = decide(totals, target, rule, bool(state.extra.get("overtime")))
    return winner is not None


def chips_after_deals(state: MatchState) -> Outcome:
    """The result of a zero-sum chips match played for a set number of deals: those up
    have won, those down have lost (the chips already settled each deal)."""
    ranked = sorted(state.seats, key=lambda p: -state.totals[p])
    return Outcome(
        "deals",
        tuple(p for p in ranked if state.totals[p] > 0),
        tuple(p for p in ranked if state.totals[p] < 0),
        1,
        {},
        {"chips": dict(state.totals)},
    )


def first_to_target(state: MatchState, target: int, rule: str) -> Outcome | None:
    """The match result once a player has won: he receives one stake from every other."""
    winner, overtime = decide(state.totals, target, rule, bool(state.extra.get("overtime")))
    if overtime:
        state.extra["overtime"] = True
    if winner is None:
        return None
    losers = tuple(s for s in state.seats if s != winner)
    units = dict.fromkeys(losers, -1)
    units[winner] = len(losers)
    return Outcome("target", (winner,), losers, 1, units, {"totals": dict(state.totals)})
