"""The tournament page's groups and knockout (reads only): each group's table with who
goes through, and the knockout bracket round by round (who plays whom, the result, who
goes on), from the same reads the services pair the rounds with (``selectors.bracket``,
``selectors.group_standings``), so the page shows the bracket the next round is paired
from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorebook.standings.leagues import knockout
from scorebook.standings.leagues.selectors import ROUND_NAMES
from scorebook.tournaments import selectors
from scorebook.tournaments.models import Entry, Round, Tournament


@dataclass
class GroupRow:
    position: int | None
    entry: Entry
    played: int
    match_points: int
    difference: int
    through: bool


@dataclass
class Group:
    number: int
    rows: list[GroupRow]
    done: bool


@dataclass
class Tie:
    """One place of the bracket as shown."""

    home: Entry | None
    away: Entry | None
    winner: Entry | None
    decided: bool
    bye: bool
    score: selectors.PairingScore | None


def round_title(number: int, total: int) -> str:
    """The knockout's round ``number`` of ``total`` by its name ("Semifinals", "Final")."""
    return str(ROUND_NAMES[knockout.round_name(number, total)]) % {"number": number}


def groups(tournament: Tournament) -> list[Group]:
    """Each group's standings; the top ``qualifiers`` marked once the group is over."""
    if tournament.format != Tournament.Format.GROUPS:
        return []
    group_rounds = [r for r in selectors.rounds_of(tournament) if r.stage == Round.Stage.GROUP]
    scores = selectors.pairing_scores(tournament, group_rounds) if group_rounds else {}
    found = []
    for number, rows in selectors.group_standings(tournament).items():
        mine = [s for s in scores.values() if s.pairing.group == number]
        # a round robin of n plays n - 1 rounds (n even) or n (n odd, one rests each)
        needed = len(rows) if len(rows) % 2 else len(rows) - 1
        played = {s.pairing.round_id for s in mine}
        done = len(played) >= needed and all(s.decided for s in mine)
        found.append(
            Group(
                number,
                [
                    GroupRow(
                        r.row.position,
                        r.entry,
                        r.row.played,
                        r.row.match_points,
                        r.row.difference,
                        done and i < tournament.qualifiers,
                    )
                    for i, r in enumerate(rows)
                ],
                done,
            )
        )
    return found


def bracket(tournament: Tournament) -> list[tuple[str, list[Tie]]]:
    """The knockout round by round (title, ties), once the knockout has entries: from
    round 1 of a straight knockout, from the first knockout round after the groups."""
    rounds = [r for r in selectors.rounds_of(tournament) if r.stage == Round.Stage.KNOCKOUT]
    if tournament.format == Tournament.Format.SWISS or not rounds:
        return []
    entries = {e.pk: e for e in selectors.entries_of(tournament)}
    scores = selectors.pairing_scores(tournament, rounds)
    offset = rounds[0].number - 1
    by_slot = {
        (s.pairing.round.number - offset, s.pairing.slot): s
        for s in scores.values()
        if s.pairing.slot is not None
    }
    found = selectors.bracket(tournament)
    total = len(found)

    def entry(pk: Any) -> Entry | None:
        return entries.get(pk) if pk is not None else None

    def tie(number: int, s: Any) -> Tie:
        score = by_slot.get((number, s.slot))
        if score is None:
            return Tie(entry(s.home), entry(s.away), entry(s.winner), s.decided, s.bye, None)
        # a paired slot shows its stored pairing: the pairs the round's lines seat
        p = score.pairing
        winner = entry(score.winner) if score.decided else None
        return Tie(entry(p.home_id), entry(p.away_id), winner, score.decided, p.away_id is None,
                   score)  # fmt: skip

    return [
        (round_title(number, total), [tie(number, s) for s in slots])
        for number, slots in enumerate(found, start=1)
    ]
