"""Rounds: pair the next one (Swiss: a maximum-weight matching; groups: the circle method;
knockout: the bracket; the drawing of lots and the groups made when round 1 is paired), the
director's corrections before it starts (swap two entries, a bye), and start it: each
pairing seated at a table of the night and its match created through the record's front
door (``matches.services.match_create``), so the table phones enter deals as on any night."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.matches import services as matches
from scorebook.matches.models import Match, Night, Table

from .. import pairing as pure
from .. import selectors
from ..models import Entry, Pairing, PairingMatch, Round, Tournament
from ..refusals import (
    ByeNotAllowed,
    EntryNotInRound,
    EntryWithdrawn,
    MatchStillOpen,
    NoRoundLeft,
    PairingUndecided,
    RoundInProgress,
    RoundNotPaired,
    RoundStarted,
    SecondBye,
    SinglesWaiting,
    SwapNotAllowed,
    TooFewEntries,
)
from .guards import REASON_MAX, in_progress_words, locked, pair_seats

#: The fewest pairs each format needs.
LEAST = {Tournament.Format.SWISS: 2, Tournament.Format.GROUPS: 3, Tournament.Format.KNOCKOUT: 2}


def _draw_lots(tournament: Tournament, entries: list[Entry]) -> None:
    """The drawing of lots, once, at the start: a permutation from the stored seed."""
    numbers = list(range(1, len(entries) + 1))
    random.Random(f"{tournament.seed}:lots").shuffle(numbers)
    for entry, lot in zip(entries, numbers, strict=True):
        entry.lot = lot
    Entry.objects.bulk_update(entries, ["lot"])


def _store_round(
    tournament: Tournament,
    number: int,
    stage: str,
    pairs: Sequence[tuple[Entry | int, Entry | int | None, int | None, int | None]],
    withdrawn: set[int],
) -> Round:
    """Store a round's pairings (home, away or None for a bye, group, slot) in order;
    a pairing with a withdrawn entry is forfeited by it at once."""
    round_ = Round.objects.create(tournament=tournament, number=number, stage=stage)
    _store_pairings(round_, pairs, withdrawn)
    return round_


def _store_pairings(
    round_: Round,
    pairs: Sequence[tuple[Entry | int, Entry | int | None, int | None, int | None]],
    withdrawn: set[int],
) -> None:
    rows = []
    for board, (home, away, group, slot) in enumerate(pairs, start=1):
        home_id = home if isinstance(home, int) else home.pk
        away_id = away if away is None or isinstance(away, int) else away.pk
        out = next((e for e in (home_id, away_id) if e in withdrawn), None)
        rows.append(
            Pairing(
                round=round_,
                board=board,
                home_id=home_id,
                away_id=away_id,
                group=group,
                slot=slot,
                forfeited_by_id=out if away_id is not None else None,
                forfeit_reason="withdrawn" if out and away_id is not None else "",
            )
        )
    Pairing.objects.bulk_create(rows)


def close_round(round_: Round) -> None:
    if round_.closed_at is None:
        round_.closed_at = timezone.now()
        round_.save(update_fields=["closed_at"])


def previous_done(tournament: Tournament, last: Round | None) -> None:
    """The previous round is over: started, no match open, every pairing decided."""
    if last is None:
        return
    if not last.started:
        raise RoundInProgress(round=last.number, what=in_progress_words(last))
    state = selectors.round_state(tournament, last)
    if state.open_matches:
        score, match = state.open_matches[0]
        raise MatchStillOpen(
            table=match.table.number if match.table else "?",
            home=score.pairing.home.name,
            away=score.pairing.away.name if score.pairing.away else "",
        )
    if state.undecided:
        pairing = state.undecided[0].pairing
        raise PairingUndecided(
            home=pairing.home.name, away=pairing.away.name if pairing.away else ""
        )


def _swiss(
    tournament: Tournament, number: int, leaving: Collection[int] = ()
) -> list[tuple[Entry, Entry | None, None, None]]:
    playing = [e for e in selectors.active_entries(tournament, number) if e.pk not in leaving]
    rows = selectors.standings(tournament, entries=selectors.entries_of(tournament))
    place = {r.entry.pk: i for i, r in enumerate(rows)}
    standing = sorted(playing, key=lambda e: place[e.pk])
    scores = {r.entry.pk: r.row.match_points for r in rows}
    met, byes = selectors.history(tournament, before=number)
    found = pure.swiss_pairing([e.pk for e in standing], scores, met, byes)
    by_id = {e.pk: e for e in standing}
    pairs: list[tuple[Entry, Entry | None, None, None]] = [
        (by_id[a], by_id[b], None, None) for a, b in found.pairs
    ]
    if found.bye is not None:
        pairs.append((by_id[found.bye], None, None, None))
    return pairs


def _group_round(tournament: Tournament, number: int) -> list[tuple[int, int | None, int, None]]:
    pairs: list[tuple[int, int | None, int, None]] = []
    for group, rounds in selectors.group_rounds(tournament).items():
        if number <= len(rounds):
            this = rounds[number - 1]
            pairs.extend((home, away, group, None) for home, away in this.pairings)
            if this.bye is not None:
                pairs.append((this.bye, None, group, None))
    return pairs


def _knockout_round(tournament: Tournament, number: int) -> list[tuple[int, int | None, None, int]]:
    """The pairings of knockout round ``number`` of the bracket (1-based), byes too."""
    rounds = selectors.bracket(tournament)
    if number > len(rounds):
        raise NoRoundLeft()
    pairs: list[tuple[int, int | None, None, int]] = []
    for slot in rounds[number - 1]:
        if slot.bye and slot.winner is not None:
            pairs.append((slot.winner, None, None, slot.slot))
        elif slot.home is not None and slot.away is not None:
            pairs.append((slot.home, slot.away, None, slot.slot))
    return pairs


def _start_tournament(tournament: Tournament, user: User) -> None:
    """Round 1 is paired: registration closes for groups and knockouts, the lots are
    drawn (the last tie-break and, if chosen, the seeding), the groups made."""
    waiting = tournament.singles.filter(entry=None).count()
    if waiting:
        raise SinglesWaiting(count=waiting)
    entries = selectors.active_entries(tournament, 1)
    least = LEAST[Tournament.Format(tournament.format)]
    if tournament.format == Tournament.Format.GROUPS:
        least = max(least, 2 * 3 if tournament.qualifiers == 1 else 3)
    if len(entries) < least:
        raise TooFewEntries(least=least, count=len(entries))
    _draw_lots(tournament, entries)
    if tournament.format == Tournament.Format.GROUPS:
        groups = pure.split_groups(selectors.seeded(tournament, entries), tournament.group_size)
        for number, members in enumerate(groups, start=1):
            for entry in members:
                entry.group = number
        Entry.objects.bulk_update(entries, ["group"])
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_started",
        obj=tournament,
        after={"seed": tournament.seed, "lots": {e.pk: e.lot for e in entries}},
    )


@transaction.atomic
def round_pair(*, tournament: Tournament, user: User) -> Round:
    """Pair the next round (the previous one must be over): Swiss by the matching,
    groups by the circle method, the knockout by the bracket. The director may still
    swap two entries or give a bye before starting it."""
    tournament = locked(tournament, user)
    last = selectors.current_round(tournament)
    previous_done(tournament, last)
    if last is None:
        _start_tournament(tournament, user)
    number = (last.number if last else 0) + 1
    if number > selectors.total_rounds(tournament):
        raise NoRoundLeft()
    withdrawn = {e.pk for e in selectors.entries_of(tournament) if e.withdrawn_after is not None}
    pairs: Sequence[tuple[Any, Any, int | None, int | None]]
    if tournament.format == Tournament.Format.SWISS:
        stage, pairs = Round.Stage.SWISS, _swiss(tournament, number)
    elif tournament.format == Tournament.Format.KNOCKOUT:
        stage, pairs = Round.Stage.KNOCKOUT, _knockout_round(tournament, number)
    elif number <= selectors.group_stage_rounds(tournament):
        stage, pairs = Round.Stage.GROUP, _group_round(tournament, number)
    else:
        stage = Round.Stage.KNOCKOUT
        pairs = _knockout_round(tournament, number - selectors.group_stage_rounds(tournament))
    if last is not None:
        close_round(last)
    round_ = _store_round(tournament, number, stage, pairs, withdrawn)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_round_paired",
        obj=round_,
        after={"pairings": [[p.home_id, p.away_id] for p in round_.pairings.order_by("board")]},
    )
    return round_


def _paired_round(tournament: Tournament) -> Round:
    last = selectors.current_round(tournament)
    if last is None:
        raise RoundNotPaired()
    if last.started:
        raise RoundStarted(round=last.number)
    return last


def _playing_entry(round_: Round, entry: Entry) -> Pairing:
    """The pairing ``entry`` plays in this round (as stored now, not as the caller
    last read it); a withdrawn entry is never paired."""
    entry = Entry.objects.filter(pk=entry.pk).first() or entry
    if entry.withdrawn:
        raise EntryWithdrawn(path="entry", entry=entry.name)
    found = round_.pairings.filter(home=entry).first() or round_.pairings.filter(away=entry).first()
    if found is None:
        raise EntryNotInRound(path="entry", entry=entry.name)
    return found


@transaction.atomic
def pairing_swap(*, tournament: Tournament, first: Entry, second: Entry, user: User) -> Round:
    """Swap two entries between the pairings of the round paired and not started (a
    director's correction: two friends kept apart, a pair that asked to play later)."""
    tournament = locked(tournament, user)
    round_ = _paired_round(tournament)
    if round_.stage != Round.Stage.SWISS:
        raise SwapNotAllowed()
    a, b = _playing_entry(round_, first), _playing_entry(round_, second)
    if a.pk == b.pk:
        if a.away_id is not None:  # the two play each other: nothing to swap but sides
            a.home_id, a.away_id = a.away_id, a.home_id
            _resave(a)
        return round_
    slot_a = "home" if a.home_id == first.pk else "away"
    slot_b = "home" if b.home_id == second.pk else "away"
    setattr(a, f"{slot_a}_id", second.pk)
    setattr(b, f"{slot_b}_id", first.pk)
    _resave(a, b)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_pairing_swapped",
        obj=round_,
        after={"swapped": [first.pk, second.pk]},
    )
    return round_


def _resave(*pairings: Pairing) -> None:
    """Store changed pairings: delete and insert them again (the unique home/away
    constraints would refuse the half-swapped state of an update one by one)."""
    rows = list(pairings)
    Pairing.objects.filter(pk__in=[p.pk for p in rows]).delete()
    for p in rows:
        p.pk = None
        p.id = None
    Pairing.objects.bulk_create(rows)


def _no_second_bye(round_: Round, entry_id: int) -> None:
    """At most one bye per entry: refuse to rest ``entry_id`` again by hand."""
    had = selectors.earlier_byes(round_).get(entry_id)
    if had is not None:
        raise SecondBye(path="entry", entry=Entry.objects.get(pk=entry_id).name, round=had)


@transaction.atomic
def pairing_bye(*, tournament: Tournament, entry: Entry, user: User) -> Round:
    """Give ``entry`` a bye in the round paired and not started (Swiss only). Its
    opponent takes the place of the entry that had the bye, if any; else it rests too.
    An entry rests at most once: a bye to an entry that has had one, or that would make
    its opponent rest a second time, is refused."""
    tournament = locked(tournament, user)
    round_ = _paired_round(tournament)
    if round_.stage != Round.Stage.SWISS:
        raise ByeNotAllowed()
    mine = _playing_entry(round_, entry)
    if mine.away_id is None:
        return round_
    _no_second_bye(round_, entry.pk)
    other = mine.away_id if mine.home_id == entry.pk else mine.home_id
    resting = round_.pairings.filter(away=None).first()
    if resting is None:
        _no_second_bye(round_, other)
    changed = [mine]
    mine.home_id, mine.away_id = entry.pk, None
    if resting is not None:
        resting.away_id = other
        changed.append(resting)
        _resave(*changed)
    else:
        _resave(*changed)
        board = (
            round_.pairings.order_by("-board").values_list("board", flat=True).first() or 0
        ) + 1
        Pairing.objects.create(round=round_, board=board, home_id=other, away=None)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_bye_given",
        obj=round_,
        after={"entry": entry.pk, "opponent": other},
    )
    return round_


def _tables(night: Night, count: int, user: User) -> list[Table]:
    """The night's tables 1..count, creating the missing ones."""
    have = {t.number: t for t in Table.objects.filter(night=night, number__lte=count)}
    for number in range(1, count + 1):
        if number not in have:
            have[number] = matches.table_create(night=night, number=number, name="", user=user)
    return [have[n] for n in range(1, count + 1)]


def _seat(tournament: Tournament, pairing: Pairing) -> dict[str, int]:
    home_seats, away_seats = pair_seats(tournament.game, tournament.rules)
    home, away = pairing.home, pairing.away
    assert away is not None
    return {
        home_seats[0]: home.first_id,
        home_seats[1]: home.second_id,
        away_seats[0]: away.first_id,
        away_seats[1]: away.second_id,
    }


def create_match(tournament: Tournament, pairing: Pairing, user: User) -> Match:
    match = matches.match_create(
        night=tournament.night,
        game=tournament.game,
        rules=tournament.rules,
        seats=_seat(tournament, pairing),
        user=user,
        table=pairing.table,
    )
    PairingMatch.objects.create(pairing=pairing, match=match)
    return match


@transaction.atomic
def round_start(*, tournament: Tournament, user: User) -> Round:
    """Start the next round: pair it first if it is not paired yet, then give each
    pairing a table of the night (top pairing at table 1; tables made as needed) and
    create its match with the four players seated, home pair on the first side."""
    tournament = locked(tournament, user)
    last = selectors.current_round(tournament)
    if last is None or last.started:
        last = round_pair(tournament=tournament, user=user)
        tournament.refresh_from_db()
    playing = list(
        last.pairings.filter(away__isnull=False, forfeited_by__isnull=True)
        .select_related("home", "away")
        .order_by("board")
    )
    tables = _tables(tournament.night, len(playing), user)
    for pairing, table in zip(playing, tables, strict=True):
        pairing.table = table
        pairing.save(update_fields=["table"])
        create_match(tournament, pairing, user)
    last.started_at = timezone.now()
    last.save(update_fields=["started_at"])
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_round_started",
        obj=last,
        after={"tables": {p.pk: p.table.number for p in playing if p.table}},
    )
    return last


def leave_paired_round(round_: Round, entry: Entry, reason: str) -> int:
    """Take ``entry`` out of the round paired and not started; the last round it
    counts as having played."""
    mine = round_.pairings.filter(home=entry).first() or round_.pairings.filter(away=entry).first()
    if mine is None:
        return round_.number - 1
    if round_.stage != Round.Stage.SWISS:
        if mine.away_id is not None:
            mine.forfeited_by = entry
            mine.forfeit_reason = reason[:REASON_MAX]
            mine.save(update_fields=["forfeited_by", "forfeit_reason"])
        return round_.number
    if mine.away_id is None:
        mine.delete()
        return round_.number - 1
    other = mine.away_id if mine.home_id == entry.pk else mine.home_id
    resting = round_.pairings.filter(away=None).first()
    if resting is not None:
        mine.delete()
        resting.away_id = other
        _resave(resting)
    elif other not in selectors.earlier_byes(round_):
        mine.home_id, mine.away_id = other, None
        _resave(mine)
    else:  # the opponent would rest a second time: the round is paired again without it
        round_.pairings.all().delete()
        tournament = round_.tournament
        pairs = _swiss(tournament, round_.number, leaving={entry.pk})
        _store_pairings(round_, pairs, set())
    return round_.number - 1
