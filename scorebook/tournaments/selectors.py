"""Reads of a tournament (selectors: they never write): each pairing's score from its
matches, the standings after each round with the tie-break chain, the groups and the
knockout bracket, a round's state, the money. All worked out on read from the stored
facts, so a corrected deal shows at once."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext

from scorebook.ledger.models import Account
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.ledger.selectors import balances
from scorebook.matches.models import Match
from scorebook.rules import get_game
from scorebook.standings.leagues import knockout, roundrobin
from scorebook.standings.leagues.selectors import match_score

from . import pairing as pure
from . import ranking
from .models import Entry, Pairing, Round, Tournament

#: The name of a tournament's pot account on its night, and of the club's share.
CLUB_POT = "club"


def pot_name(tournament: Tournament) -> str:
    return f"tournament:{tournament.pk}"


def series_of(tournament: Tournament, stage: str) -> knockout.Series:
    """How a pairing is played: one match (the default), a best of N or N games, as the
    leagues' series; a knockout pairing left level needs la bella."""
    bella = stage == Round.Stage.KNOCKOUT
    if tournament.series == knockout.MATCHES:  # one match: exactly one game
        return knockout.Series(knockout.GAMES, 1, bella=bella)
    return knockout.Series(tournament.series, tournament.series_games, bella=bella)


def forfeit_points(tournament: Tournament) -> int:
    """Game points per game the winner of a forfeit scores: the target of the game under
    the tournament's house rules (the code's most favourable score for the innocent
    side), else none (a game settled per deal has no target)."""
    values = get_game(tournament.game).rules(tournament.rules).values
    targets = [v for k, v in values.items() if k.endswith(".target") and isinstance(v, int)]
    return targets[0] if targets else 0


@dataclass
class PairingScore:
    """A pairing as its matches (or its forfeit) stand. ``status``: bye, waiting (not
    started), playing, bella (level: one more match needed), played, forfeit."""

    pairing: Pairing
    home_wins: int = 0
    away_wins: int = 0
    home_points: int = 0
    away_points: int = 0
    finished: int = 0
    open_matches: list[Match] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    status: str = "waiting"
    decided: bool = False
    winner: int | None = None  # entry id; None with decided: drawn
    needs_match: bool = False

    def result(self) -> ranking.Result[int] | None:
        p = self.pairing
        if p.away_id is None:
            return ranking.Result(p.home_id, None, p.home_id)
        if not self.decided:
            return None
        return ranking.Result(p.home_id, p.away_id, self.winner, self.home_points, self.away_points)


def _entry_of(tournament: Tournament) -> dict[int, int]:
    rows = Entry.objects.filter(tournament=tournament).values_list("pk", "first_id", "second_id")
    return {player: pk for pk, *players in rows for player in players}


def pairing_scores(
    tournament: Tournament, rounds: list[Round] | None = None
) -> dict[int, PairingScore]:
    """Pairing id -> its score, for every pairing of ``rounds`` (default: all)."""
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related("round", "table")
    if rounds is not None:
        pairings = pairings.filter(round__in=rounds)
    scores = {p.pk: PairingScore(p) for p in pairings.order_by("round__number", "board")}
    games: dict[int, list[Match]] = defaultdict(list)
    played = Match.objects.filter(tournament_game__pairing_id__in=scores)
    for match in played.select_related("tournament_game", "table").order_by("tournament_game__id"):
        games[match.tournament_game.pairing_id].append(match)
    entry_of = _entry_of(tournament)
    points = forfeit_points(tournament) if scores else 0
    for score in scores.values():
        _tally(tournament, score, games.get(score.pairing.pk, []), entry_of, points)
    return scores


def _tally(
    tournament: Tournament,
    score: PairingScore,
    played: list[Match],
    entry_of: dict[int, int],
    points_per_game: int,
) -> None:
    p = score.pairing
    score.matches = played
    if p.away_id is None:
        score.status, score.decided, score.winner = "bye", True, p.home_id
        return
    series = series_of(tournament, p.round.stage)
    outcome = series.outcome(0, 0, 0)
    for match in played:
        if outcome.complete or match.status == Match.Status.ABANDONED:
            continue
        if match.status != Match.Status.FINISHED:
            score.open_matches.append(match)
            continue
        result = match_score(match, entry_of)
        home_won, home_points = result.get(p.home_id, (False, 0))
        away_won, away_points = result.get(p.away_id, (False, 0))
        score.home_wins += home_won and not away_won
        score.away_wins += away_won and not home_won
        score.home_points += home_points
        score.away_points += away_points
        score.finished += 1
        outcome = series.outcome(score.home_wins, score.away_wins, score.finished)
    outcome = series.outcome(
        score.home_wins, score.away_wins, score.finished, len(score.open_matches)
    )
    if p.forfeited_by_id is not None:
        home_lost = p.forfeited_by_id == p.home_id
        wins, gained = series.to_win, series.to_win * points_per_game
        score.home_wins, score.away_wins = (0, wins) if home_lost else (wins, 0)
        score.home_points, score.away_points = (0, gained) if home_lost else (gained, 0)
        score.status, score.decided = "forfeit", True
        score.winner = p.away_id if home_lost else p.home_id
        return
    if outcome.complete:
        score.decided = True
        score.status = "played"
        score.winner = {"home": p.home_id, "away": p.away_id}.get(outcome.winner or "")
        return
    if outcome.bella:
        score.status = "bella"
    elif score.finished or score.open_matches:
        score.status = "playing"
    score.needs_match = p.round.started and outcome.accepts and not score.open_matches


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("first", "second").order_by("seed"))


def rounds_of(tournament: Tournament) -> list[Round]:
    return list(tournament.round_set.order_by("number"))


def results_up_to(
    tournament: Tournament, last_round: int | None = None, stage: str | None = None
) -> tuple[list[ranking.Result[int]], dict[int, PairingScore]]:
    scores = pairing_scores(tournament)
    results = []
    for score in scores.values():
        r = score.pairing.round
        if last_round is not None and r.number > last_round:
            continue
        if stage is not None and r.stage != stage:
            continue
        found = score.result()
        if found is not None:
            results.append(found)
    return results, scores


def scoring_of(tournament: Tournament) -> ranking.Scoring:
    return ranking.Scoring(tournament.points_win, tournament.points_draw, tournament.points_loss)


@dataclass
class StandingRow:
    row: ranking.Row[int]
    entry: Entry


def standings(
    tournament: Tournament,
    *,
    last_round: int | None = None,
    entries: list[Entry] | None = None,
    stage: str | None = None,
    results: list[ranking.Result[int]] | None = None,
) -> list[StandingRow]:
    """The standings after ``last_round`` (default: everything decided so far), ranked
    by the tournament's tie-break chain; each row names the criterion that placed it."""
    entries = entries if entries is not None else entries_of(tournament)
    if results is None:
        results, _ = results_up_to(tournament, last_round, stage)
    by_id = {e.pk: e for e in entries}
    rows = ranking.rank(
        by_id,
        [r for r in results if r.home in by_id and (r.away is None or r.away in by_id)],
        chain=tournament.tiebreaks,
        lots={e.pk: e.lot for e in entries if e.lot is not None},
        scoring=scoring_of(tournament),
    )
    if not any(row.played or row.byes for row in rows):
        for row in rows:
            row.decided_by = None
    return [StandingRow(row, by_id[row.entry]) for row in rows]


def groups_of(tournament: Tournament) -> dict[int, list[Entry]]:
    """Group number -> its entries in seeding order (set when the tournament started)."""
    found: dict[int, list[Entry]] = defaultdict(list)
    for entry in entries_of(tournament):
        if entry.group is not None:
            found[entry.group].append(entry)
    return dict(sorted(found.items()))


def group_standings(tournament: Tournament) -> dict[int, list[StandingRow]]:
    results, _ = results_up_to(tournament, stage=Round.Stage.GROUP)
    return {
        number: standings(tournament, entries=members, results=results)
        for number, members in groups_of(tournament).items()
    }


@dataclass
class RoundState:
    """A round as it stands: paired (not started), playing, or closed (every pairing
    decided); the open matches and the pairings still level."""

    round: Round
    scores: list[PairingScore]
    status: str
    open_matches: list[tuple[PairingScore, Match]]
    undecided: list[PairingScore]


def round_state(tournament: Tournament, round_: Round) -> RoundState:
    scores = list(pairing_scores(tournament, [round_]).values())
    open_matches = [(s, m) for s in scores for m in s.open_matches if not s.decided]
    undecided = [s for s in scores if not s.decided]
    if not round_.started:
        status = "paired"
    elif undecided:
        status = "playing"
    else:
        status = "closed"
    return RoundState(round_, scores, status, open_matches, undecided)


def history(
    tournament: Tournament, before: int | None = None
) -> tuple[set[frozenset[int]], set[int]]:
    """The pairs of entries that have met and the entries that have had a bye (in the
    rounds before round ``before``, if given)."""
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    pairings = Pairing.objects.filter(round__tournament=tournament)
    if before is not None:
        pairings = pairings.filter(round__number__lt=before)
    for home, away in pairings.values_list("home_id", "away_id"):
        if away is None:
            byes.add(home)
        else:
            met.add(frozenset((home, away)))
    return met, byes


# -- rounds in all, the bracket, the places ------------------------------------------------


def active_entries(tournament: Tournament, number: int) -> list[Entry]:
    """The entries that play round ``number``: arrived by then, not withdrawn before."""
    return [
        e
        for e in entries_of(tournament)
        if e.first_round <= number and (e.withdrawn_after is None or e.withdrawn_after >= number)
    ]


def seeded(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    if tournament.seeding == Tournament.Seeding.LOTS:
        return sorted(entries, key=lambda e: (e.lot or 0, e.seed))
    return sorted(entries, key=lambda e: e.seed)


def group_rounds(tournament: Tournament) -> dict[int, list[roundrobin.Round[int]]]:
    return {
        number: roundrobin.circle_rounds([e.pk for e in members])
        for number, members in groups_of(tournament).items()
    }


def group_stage_rounds(tournament: Tournament) -> int:
    return max((len(r) for r in group_rounds(tournament).values()), default=0)


def knockout_entries(tournament: Tournament) -> list[int]:
    """The knockout's entries in seeding order: every entry (straight knockout), or the
    top of each group once the groups are played."""
    if tournament.format == Tournament.Format.KNOCKOUT:
        return [e.pk for e in seeded(tournament, active_entries(tournament, 1))]
    ranked = [[row.entry.pk for row in rows] for rows in group_standings(tournament).values()]
    return pure.knockout_seeds(ranked, tournament.qualifiers)


def bracket(tournament: Tournament) -> list[list[knockout.Slot[int]]]:
    """The knockout bracket as far as it has been played (the leagues' bracket code):
    a slot's winner is its stored pairing's."""
    seeds = knockout_entries(tournament)
    rounds = list(tournament.round_set.filter(stage=Round.Stage.KNOCKOUT).order_by("number"))
    scores = pairing_scores(tournament, rounds)
    by_slot = {
        (s.pairing.round.number, s.pairing.slot): s
        for s in scores.values()
        if s.pairing.slot is not None
    }
    offset = rounds[0].number - 1 if rounds else 0

    def decide(number: int, slot: int, home: int, away: int) -> Any:
        score = by_slot.get((number + offset, slot))
        if score is None or not score.decided or score.winner is None:
            return knockout.UNDECIDED
        return score.winner

    return knockout.bracket(seeds, decide)


def total_rounds(tournament: Tournament) -> int:
    """How many rounds the tournament plays in all."""
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds
    if tournament.format == Tournament.Format.KNOCKOUT:
        return knockout.round_count(len(active_entries(tournament, 1)))
    groups = group_stage_rounds(tournament)
    qualified = len(groups_of(tournament)) * tournament.qualifiers
    return groups + knockout.round_count(qualified)


def earlier_byes(round_: Round) -> dict[int, int]:
    """Entry -> the round of its bye, for the byes before ``round_``."""
    rows = Pairing.objects.filter(
        round__tournament_id=round_.tournament_id, round__number__lt=round_.number, away=None
    ).values_list("home_id", "round__number")
    return dict(rows)


def has_played(entry: Entry) -> bool:
    """Has ``entry`` been in a round that started (played, rested or forfeited there)?
    Until then a withdrawal gives its fees back."""
    return (
        Pairing.objects.filter(round__tournament_id=entry.tournament_id)
        .exclude(round__started_at=None)
        .filter(Q(home=entry) | Q(away=entry))
        .exists()
    )


def final_places(tournament: Tournament) -> list[tuple[int, list[int]]]:
    """(place, entries sharing it) from the first: the standings of a Swiss tournament,
    the knockout's placings otherwise (the losers of each round share a place)."""
    if tournament.format == Tournament.Format.SWISS:
        rows = standings(tournament)
        found: dict[int, list[int]] = {}
        for r in rows:
            found.setdefault(r.row.position or 0, []).append(r.entry.pk)
        return sorted(found.items())
    placed = knockout.placings(bracket(tournament))
    by_place: dict[int, list[int]] = {}
    for entry, (place, _shared) in placed.items():
        by_place.setdefault(place, []).append(entry)
    return sorted(by_place.items())


def prizes_paid(tournament: Tournament) -> tuple[list[tuple[int, Entry, Decimal]], Decimal]:
    """([(place, pair, what its two players were paid)], the club's share), from the first
    place, read from the ledger's prize entries (``paid_out``); nothing before
    the payout or in a tournament without money. Reads only (beside ``final_places``)."""
    players, club = paid_out(tournament)
    if not players and not club:
        return [], Decimal("0.00")
    entries = {e.pk: e for e in entries_of(tournament)}
    lines = []
    for place, ids in final_places(tournament):
        for pk in ids:
            entry = entries[pk]
            won = players.get(entry.first_id, Decimal(0)) + players.get(entry.second_id, Decimal(0))
            if won:
                lines.append((place, entry, won))
    return lines, club


# -- money ------------------------------------------------------------------------------------


def pot_account(tournament: Tournament) -> Account | None:
    return Account.objects.filter(
        night_id=tournament.night_id, match__isnull=True, pot=pot_name(tournament)
    ).first()


def ledger_entries(tournament: Tournament):
    """The ledger entries of the tournament: every one into or out of its pot."""
    account = pot_account(tournament)
    if account is None:
        return LedgerEntry.objects.none()
    return LedgerEntry.objects.filter(Q(payer=account) | Q(payee=account))


def pot_balance(tournament: Tournament) -> Decimal:
    """What the pot holds now (fees in, refunds and prizes out)."""
    account = pot_account(tournament)
    if account is None:
        return Decimal("0.00")
    held = balances(ledger_entries(tournament))
    return sum((group.get(account.pk, Decimal(0)) for group in held.values()), Decimal("0.00"))


def paid_out(tournament: Tournament) -> tuple[dict[int, Decimal], Decimal]:
    """(player id -> prize received, the club's share received) out of the pot, as the
    ledger booked them (prize entries, not reversed): what was paid, not a recount."""
    account = pot_account(tournament)
    if account is None:
        return {}, Decimal("0.00")
    rows = LedgerEntry.objects.filter(
        payer=account,
        kind=LedgerEntry.Kind.PRIZE,
        reverses__isnull=True,
        reversed_by__isnull=True,
    ).select_related("payee")
    players: dict[int, Decimal] = {}
    club = Decimal("0.00")
    for row in rows:
        if row.payee.player_id is not None:
            players[row.payee.player_id] = players.get(row.payee.player_id, Decimal(0)) + row.amount
        else:
            club += row.amount
    return players, club


def money(tournament: Tournament) -> dict[str, Any]:
    """The money in words for the pages and the API: no money, or the fee, the pot and
    the prize split."""
    if not tournament.plays_for_money:
        return {"plays_for_money": False}
    return {
        "plays_for_money": True,
        "entry_fee": str(tournament.entry_fee),
        "currency": tournament.currency,
        "pot": str(pot_balance(tournament)),
        "prize_kind": tournament.prize_kind,
        "prizes": list(tournament.prizes),
        "club_share": str(tournament.club_share),
    }


@dataclass
class SheetLine:
    """One line of a round's sheet ("table 3: Nino & Salvo vs Lia & Tano"): the
    pairing, its table number (None: a bye, or forfeited before it sat down), the two
    entries, the matches (the first is the one a table card's QR code opens) and the
    score as it stands."""

    pairing: Pairing
    table: int | None
    home: Entry
    away: Entry | None
    score: PairingScore
    matches: list[Match]


def round_sheet(tournament: Tournament, round_: Round) -> list[SheetLine]:
    """A round's pairings by table (the TV's and the printed round sheet's), then the
    byes; every pairing's score as it stands."""
    entries = {e.pk: e for e in entries_of(tournament)}
    scores = pairing_scores(tournament, [round_])
    lines = [
        SheetLine(
            s.pairing,
            s.pairing.table.number if s.pairing.table_id and s.pairing.table else None,
            entries[s.pairing.home_id],
            entries.get(s.pairing.away_id) if s.pairing.away_id else None,
            s,
            s.matches,
        )
        for s in scores.values()
    ]
    return sorted(lines, key=lambda line: (line.table is None, line.table or 0, line.pairing.board))


def current_round(tournament: Tournament) -> Round | None:
    """The last round paired (the one being played or the last played, the one on the
    TV), or None before round 1."""
    return tournament.round_set.order_by("-number").first()


def tournaments_of_club(club_id: int):
    """A club's tournaments, newest first."""
    return Tournament.objects.filter(club_id=club_id).select_related("night")


def tournaments_of_night(night_id: int):
    """The tournaments of one night (the night page and the TV list them)."""
    return Tournament.objects.filter(night_id=night_id).order_by("created_at", "id")


def tournaments_not_over(night_id: int):
    """The night's tournaments neither finished nor cancelled: they keep it open (the
    close page names them; ``night_close_waits_for`` says so in words)."""
    return (
        Tournament.objects.filter(night_id=night_id)
        .exclude(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
        .order_by("created_at", "id")
    )


def night_close_waits_for(night: Any) -> list[str]:
    """What of the night's tournaments keeps it open, in words: every tournament neither
    finished nor cancelled (its fees would stay in the pot and its matches unplayed).
    ``matches.services.night_close`` asks (a member of ``matches.closing.CHECKS``)."""
    return [
        gettext(
            "the tournament '%(name)s' is not over: finish it (the prizes are paid) or "
            "cancel it (the fees are given back), then close the night."
        )
        % {"name": t.name}
        for t in tournaments_not_over(night.pk)
    ]
