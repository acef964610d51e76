"""The tournament as the director, the players and the TV read it (reads only, on top of
``selectors``): each round as lines by table ("table 3: Nino & Salvo vs Lia & Tano"),
the round now played, what the director can do next. The API, the pages, the TV and the
printables all show these, so they never disagree."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorebook.matches.models import Match

from . import selectors
from .models import Entry, Round, Tournament


@dataclass
class TableLine:
    """One pairing of a round, as shown: its table, the two pairs (``away`` None: a
    bye), its matches (the table phones' links) and how it stands."""

    pairing_id: int
    board: int
    table_number: int | None
    table_id: int | None
    home: Entry
    away: Entry | None
    status: str
    home_wins: int
    away_wins: int
    home_points: int
    away_points: int
    winner: int | None
    decided: bool
    needs_match: bool
    forfeited_by: int | None
    forfeit_reason: str
    matches: list[Match] = field(default_factory=list)

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def open_match(self) -> Match | None:
        """The match the table plays now (the last one still open), if any."""
        found = [m for m in self.matches if m.status == Match.Status.OPEN]
        return found[-1] if found else None


@dataclass
class RoundBoard:
    round: Round
    status: str  # paired, playing, closed
    lines: list[TableLine]


def round_board(tournament: Tournament, round_: Round) -> RoundBoard:
    """A round's lines by table, top first (byes last)."""
    state = selectors.round_state(tournament, round_)
    entries = {e.pk: e for e in selectors.entries_of(tournament)}
    pairings = {p.pk: p for p in round_.pairings.select_related("table").order_by("board")}
    lines = []
    for score in state.scores:
        p = pairings[score.pairing.pk]
        lines.append(
            TableLine(
                pairing_id=p.pk,
                board=p.board,
                table_number=p.table.number if p.table else None,
                table_id=p.table_id,
                home=entries[p.home_id],
                away=entries.get(p.away_id) if p.away_id else None,
                status=score.status,
                home_wins=score.home_wins,
                away_wins=score.away_wins,
                home_points=score.home_points,
                away_points=score.away_points,
                winner=score.winner,
                decided=score.decided,
                needs_match=score.needs_match,
                forfeited_by=p.forfeited_by_id,
                forfeit_reason=p.forfeit_reason,
                matches=list(score.matches),
            )
        )
    lines.sort(key=lambda line: (line.is_bye, line.board))
    return RoundBoard(round_, state.status, lines)


def boards(tournament: Tournament) -> list[RoundBoard]:
    """Every round, first to last."""
    return [round_board(tournament, r) for r in selectors.rounds_of(tournament)]


@dataclass
class NextStep:
    """What the director can do now, for the buttons: pair, start, finish."""

    can_register: bool
    can_draw: bool
    can_pair: bool
    can_start: bool
    can_finish: bool
    can_withdraw: bool
    rounds_total: int
    round_status: str | None


def next_step(tournament: Tournament) -> NextStep:
    """Which of the director's actions make sense now (the services still decide: a
    button shown at the wrong moment is refused in words)."""

    running = tournament.status != Tournament.Status.FINISHED
    last = selectors.current_round(tournament)
    status = selectors.round_state(tournament, last).status if last else None
    total = selectors.total_rounds(tournament)  # a knockout's: known once the entries are in
    more = last is None or last.number < total or total == 0
    between = last is None or status == "closed"
    waiting = tournament.singles.filter(entry=None).count()
    swiss = tournament.format == Tournament.Format.SWISS
    return NextStep(
        can_register=running and (last is None or (swiss and between and more)),
        can_draw=running and waiting >= 2 and (last is None or (swiss and between)),
        can_pair=running and between and more,
        can_start=running and (status == "paired" or (between and more)),
        can_finish=running and last is not None and status == "closed" and not more,
        can_withdraw=running and between,
        rounds_total=total,
        round_status=status,
    )
