"""What each match contributes to the leaderboards, per player, and the sums of them.

A leaderboard row (season, game, player) is the sum of the contributions of the matches
of the season that the player sat at. Both ways of keeping the rows use the functions
here, so they count alike: the full rebuild sums every match's contribution; the refresh
of a changed match subtracts the contribution stored for it (``MatchStanding``) and adds
the new one. Integers and two-place decimals add and subtract exactly, and entries that
come back to nothing are dropped, so the two give the same rows (the property test in
``tests/standings/test_incremental_equals_rebuild.py``).

``read_contributions`` reads a set of matches in a handful of queries (the matches, one
GROUP BY of deal counts, the deals with an event or a bid, two GROUP BYs of the ledger),
streaming the matches in chunks.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, Sum
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import JSONObject

from scorebook.ledger.models import Entry, Unit
from scorebook.matches.models import Deal, Match, SeatFact
from scorebook.rules import games

from .columns import COLUMNS, SUMMED, Column
from .selectors import SeatResult, deal_facts, finished_at_of, match_results

#: The games whose every deal is a contest of its own (the engine's ``deal_contest``): a
#: bidder against the others, with a contract ...
BIDDING = tuple(key for key, game in games().items() if game.deal_contest == "bid")
#: ... or the sides a deal forms (Chiamata's caller and partner).
PER_DEAL_CONTESTS = tuple(key for key, game in games().items() if game.deal_contest)
CENT = Decimal("0.01")

Line = dict[str, Any]  # one player's counts: see ``blank``


def blank() -> Line:
    """A line of zeros: one entry per summed column (see ``columns``)."""
    line = dict(_ZEROS)  # numbers are immutable: shared; each line its own dicts
    for name in _NESTED:
        line[name] = {}
    return line


_ZERO: dict[str, Any] = {"count": int, "amount": Decimal, "money": dict, "tally": dict}
_ZEROS: dict[str, Any] = {c.name: _ZERO[c.kind]() for c in SUMMED}
_NESTED = tuple(c.name for c in SUMMED if c.kind in ("money", "tally"))
#: The columns counted from each player's result in a finished match.
PER_RESULT = tuple(c for c in COLUMNS if c.per_result is not None)


@dataclass
class Played:
    """The parts of a stored match the standings read (duck-types ``Match`` for the
    selectors' readers), without the rest of its JSON."""

    pk: int
    club_id: int
    day: date
    game: str
    rules: dict[str, Any]
    seats: dict[str, int]
    status: str
    state: dict[str, Any]
    result: dict[str, Any] | None
    finished_at: Any = None
    deals: int = 0
    special: list[dict[str, Any]] = field(default_factory=list)  # results, in deal order


def _keys(column: str, *keys: str) -> JSONObject:
    """One JSON object of some keys of a JSON column: one value to decode per row, not
    one per key (decoding is most of what reading costs)."""
    return JSONObject(**{key: KeyTransform(key, column) for key in keys})


def read_matches(
    matches: Q, *, finished_at: bool = False, chunk: int = 2000
) -> Iterator[list[Played]]:
    """The matches selected by ``matches`` (a filter on ``Match``), in chunks, each with
    its count of current deals and the results of its deals that count beyond that
    (an event, a bid, every deal of a game rated per deal); with ``finished_at``, when
    each finished (``selectors.finished_matches_in_order``)."""
    rows = Match.objects.filter(matches).order_by("pk")
    if finished_at:
        rows = rows.annotate(finished_at=finished_at_of())
    parts = JSONObject(
        values=KeyTransform("values", "rules"),
        seats="seats",
        state=_keys("state", "seats", "scorers", "totals", "units"),
        result=_keys("result", "winners", "losers", "units"),
    )
    columns = ["pk", "night__club_id", "night__date", "game", "status"]
    read: Any = rows.values_list(*columns, parts, *(["finished_at"] if finished_at else []))
    batch: list[Played] = []
    for row in read.iterator(chunk_size=chunk):
        pk, club, day, game, status = row[:5]
        data: Any = row[5]
        if isinstance(data, str):
            data = json.loads(data)
        for key in ("values", "seats"):  # SQLite nests a JSON column as text
            if isinstance(data[key], str):
                data[key] = json.loads(data[key])
        data["state"], data["result"] = _scalars(data["state"]), _scalars(data["result"])
        result = data["result"]
        if all(v is None for v in result.values()):
            data["result"] = None  # no outcome yet
        else:
            result["winners"] = result["winners"] or []
            result["losers"] = result["losers"] or []
        state = {k: v for k, v in data["state"].items() if v is not None}
        batch.append(
            Played(
                pk,
                club,
                day,
                game,
                {"values": data["values"]},
                data["seats"],
                status,
                state,
                data["result"],
                row[6] if finished_at else None,
            )
        )
        if len(batch) >= chunk:
            yield _with_deals(batch)
            batch = []
    if batch:
        yield _with_deals(batch)


#: What SQLite gives for a JSON null, true or false picked out of a column into a new
#: object: their text (PostgreSQL keeps them JSON).
_SQLITE_TEXT = {"null": None, "true": True, "false": False}


def _scalars(picked: dict[str, Any]) -> dict[str, Any]:
    """The picked keys' values as JSON means them, on SQLite too (no stored key's value
    is the text "null", "true" or "false": events, seats and contracts are other words)."""
    return {
        k: _SQLITE_TEXT[v] if isinstance(v, str) and v in _SQLITE_TEXT else v
        for k, v in picked.items()
    }


def _with_deals(batch: list[Played]) -> list[Played]:
    by_pk = {m.pk: m for m in batch}
    ids = list(by_pk)
    counts = (
        Deal.objects.filter(match_id__in=ids, is_current=True)
        .values("match_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("match_id", "n")
    )
    for match_id, n in counts:
        by_pk[match_id].deals = n
    special = Deal.objects.filter(match_id__in=ids, is_current=True).filter(
        Q(match__game__in=PER_DEAL_CONTESTS) | ~Q(result__event=None)
    )
    rows = special.order_by("match_id", "number").values_list(
        "match_id", _keys("result", "facts", "event", "annulled", "points")
    )
    for match_id, result in rows.iterator(chunk_size=5000):
        if isinstance(result, str):
            result = json.loads(result)
        by_pk[match_id].special.append(_scalars(result))
    return batch


def contributions(batch: list[Played]) -> dict[int, dict[int, Line]]:
    """Match id -> player id -> the match's contribution. A match counts for a player
    once one of its deals is in, or once it is finished (a match recorded by its final
    score has no deals), or the ledger booked them something in it."""
    out: dict[int, dict[int, Line]] = {}
    for match in batch:
        lines: dict[int, Line] = defaultdict(blank)
        if match.deals or match.status == Match.Status.FINISHED:
            for pid in match.seats.values():
                lines[pid]["deals"] += match.deals
            for r in match_results(match):
                line = lines[r.player_id]
                for column in PER_RESULT:
                    line[column.name] += column.per_result(r)  # type: ignore[misc]
            for result in match.special:
                _count_deal(match, result, lines)
        out[match.pk] = lines
    _count_ledger([m.pk for m in batch], out)
    return {pk: dict(lines) for pk, lines in out.items() if lines}


def _count_deal(match: Played, result: dict[str, Any], lines: dict[int, Line]) -> None:
    facts = deal_facts(match, result)
    if facts.event:
        for seat in facts.made:
            _bump(lines[match.seats[seat]]["events"], facts.event, "made", "suffered", 1, 0)
        for seat in facts.suffered:
            _bump(lines[match.seats[seat]]["events"], facts.event, "made", "suffered", 0, 1)
    if facts.bid and facts.bidder:
        bids = lines[match.seats[facts.bidder]]["bids"]
        _bump(bids, facts.bid, "made", "won", 1, int(facts.bid_won))


def _bump(table: dict[str, dict[str, int]], key: str, a: str, b: str, da: int, db: int):
    entry = table.setdefault(key, {a: 0, b: 0})
    entry[a] += da
    entry[b] += db


def _count_ledger(match_ids: Any, out: dict[int, Any]) -> None:
    """Net stakes per player and match from the ledger: received less paid, per unit and
    currency (pots are not players and are left out). ``match_ids``: a list or a
    subquery of match ids."""
    for match_id, pid, unit, currency, amount in _stakes(match_ids):
        line = out[match_id][pid]
        if unit == Unit.MONEY:
            line["money"][currency] = line["money"].get(currency, Decimal(0)) + amount
        else:
            line["units"] += amount


def _stakes(match_ids: Any) -> Iterator[tuple[int, int, str, str, Decimal]]:
    """(match, player, unit, currency, signed amount): one GROUP BY per side."""
    entries = Entry.objects.filter(match_id__in=match_ids)
    for side, sign in (("payee", 1), ("payer", -1)):
        totals = (
            entries.filter(**{f"{side}__player__isnull": False})
            .values_list("match_id", f"{side}__player_id", "unit", "currency")
            .annotate(total=Sum("amount"))
            .order_by()
        )
        for match_id, pid, unit, currency, total in totals:
            yield match_id, pid, unit, currency, sign * Decimal(total).quantize(CENT)


# -- storing, adding and subtracting -------------------------------------------------------


def dump(line: Line) -> dict[str, Any]:
    """A contribution as stored (JSON: decimals as strings), its zeros and empty parts
    left out: a rebuild stores one per match, and most of a line is zeros."""
    out: dict[str, Any] = {}
    for c in SUMMED:
        value = line[c.name]
        if not value:
            continue
        if c.kind == "count":
            out[c.name] = value
        elif c.kind == "amount":
            out[c.name] = str(value)
        elif c.kind == "money":
            out[c.name] = {k: str(v) for k, v in sorted(value.items())}
        else:
            out[c.name] = {k: dict(v) for k, v in sorted(value.items())}
    return out


def load(data: dict[str, Any]) -> Line:
    """The line of a stored contribution (``dump``'s, or the older form with every key)."""
    return {c.name: _read(c, data.get(c.name)) for c in SUMMED}


def _read(column: Column, value: Any) -> Any:
    """A column's value as a line holds it, from what was stored (None: nothing)."""
    if column.kind == "count":
        return value or 0
    if column.kind == "amount":
        return Decimal(value or 0)
    if column.kind == "money":
        return {cur: Decimal(v) for cur, v in (value or {}).items()}
    return {k: dict(v) for k, v in (value or {}).items()}


def add(total: Line, part: Line, sign: int = 1) -> None:
    """``total += sign * part``, in place."""
    for c in SUMMED:
        name = c.name
        if c.kind in ("count", "amount"):
            total[name] += sign * part[name]
        elif c.kind == "money":
            for cur, v in part[name].items():
                total[name][cur] = total[name].get(cur, Decimal(0)) + sign * v
        else:
            for key, counts in part[name].items():
                mine = total[name].setdefault(key, dict.fromkeys(counts, 0))
                for k, v in counts.items():
                    mine[k] += sign * v


def row_values(line: Line) -> dict[str, Any]:
    """A leaderboard row's columns from the summed line: entries that came back to
    nothing (a currency netting 0, an event made and suffered 0 times) are left out,
    as a sum that never had them would."""
    out: dict[str, Any] = {}
    for c in COLUMNS:
        if c.kind == "rate":
            part, whole = c.of  # type: ignore[misc]
            out[c.name] = round(100.0 * line[part] / line[whole], 2) if line[whole] else 0.0
        elif c.kind == "count":
            out[c.name] = line[c.name]
        elif c.kind == "amount":
            out[c.name] = line[c.name].quantize(CENT)
        elif c.kind == "money":
            out[c.name] = {
                cur: str(v.quantize(CENT)) for cur, v in sorted(line[c.name].items()) if v
            }
        else:
            out[c.name] = {k: dict(v) for k, v in sorted(line[c.name].items()) if any(v.values())}
    return out


def row_line(row: Any) -> Line:
    """The line of a stored leaderboard row (to add a delta to)."""
    return {c.name: _read(c, getattr(row, c.name)) for c in SUMMED}


# -- from the facts stored at entry --------------------------------------------------------

#: The ``SeatFact`` columns of a deal rated on its own (a contest) the rebuild reads.
CONTEST_COLUMNS = ("match_id", "deal_id", "player_id", "team", "team_place", "winner", "contract")
#: ... and of a finished match's result.
RESULT_COLUMNS = (
    "match_id",
    "player_id",
    "seat",
    "side",
    "won",
    "lost",
    "units",
    "points_for",
    "points_against",
    "score",
)


@dataclass
class Fact:
    """One seat's row of a deal rated on its own (``SeatFact``: its team, its place in
    it, the winning team and the contract rated)."""

    match_id: int
    deal_id: int
    player_id: int
    team: int
    team_place: int | None
    winner: int | None
    contract: str


@dataclass
class Counted:
    """A match as the rebuild from facts reads it: its plain columns, its seats, its
    count of current deals, its result's facts (in playing order), its events and bids
    counted per player by the database, and, when it is a finished match of a game rated
    per deal, its contests' facts (per current deal with a contest, in deal order)."""

    pk: int
    club_id: int
    day: date
    game: str
    status: str
    seats: dict[str, int]
    finished_at: Any = None
    deals: int = 0
    results: list[SeatResult] = field(default_factory=list)
    scores: dict[int, float] = field(default_factory=dict)
    #: (player id, column, key, first side's count, second side's count): an event
    #: (made, suffered) or a contract (bid, won), summed over the match's current deals.
    tallies: list[tuple[int, str, str, int, int]] = field(default_factory=list)
    dealt: list[list[Fact]] = field(default_factory=list)  # per current deal rated
    stakes: list[tuple[int, str, str, Decimal]] = field(default_factory=list)  # see _stakes


def read_facts(
    matches: Q, *, finished_at: bool = False, chunk: int = 2000
) -> Iterator[list[Counted]]:
    """The matches selected by ``matches``, in chunks, with their stored facts: no JSON
    but the seats is read (``SeatFact``, written at entry). What a deal adds to the sums
    (an event, a bid) comes counted by the database (a GROUP BY per chunk); only the
    contests the ratings replay come row by row."""
    rows = Match.objects.filter(matches).order_by("pk")
    if finished_at:
        rows = rows.annotate(finished_at=finished_at_of())
    columns = ["pk", "night__club_id", "night__date", "game", "status", "seats"]
    read: Any = rows.values_list(*columns, *(["finished_at"] if finished_at else []))
    batch: list[Counted] = []
    for row in read.iterator(chunk_size=chunk):
        seats = row[5]
        if isinstance(seats, str):
            seats = json.loads(seats)
        pk, club, day, game, status = row[:5]
        batch.append(Counted(pk, club, day, game, status, seats, row[6] if finished_at else None))
        if len(batch) >= chunk:
            yield _with_facts(matches, batch)
            batch = []
    if batch:
        yield _with_facts(matches, batch)


def _with_facts(matches: Q, batch: list[Counted]) -> list[Counted]:
    by_pk = {m.pk: m for m in batch}
    # The chunk's matches as a subquery (its range of ids and the caller's filter), not a
    # list of 2,000 ids: building and sending such a list was a tenth of a rebuild.
    chunk = Match.objects.filter(matches, pk__gte=batch[0].pk, pk__lte=batch[-1].pk)
    ids = chunk.values("pk")
    counts = (
        Deal.objects.filter(match_id__in=ids, is_current=True)
        .values("match_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("match_id", "n")
    )
    for match_id, n in counts:
        by_pk[match_id].deals = n
    finished = Match.Status.FINISHED
    results = (
        SeatFact.objects.filter(match_id__in=ids, deal__isnull=True, match__status=finished)
        .order_by("match_id", "position")
        .values_list(*RESULT_COLUMNS)
    )
    for values in results.iterator(chunk_size=5000):
        match = by_pk[values[0]]
        match.results.append(SeatResult(*values[1:9]))
        match.scores[values[1]] = values[9]
    current = SeatFact.objects.filter(match_id__in=ids, deal__is_current=True)
    for column, key, first, second in (
        ("events", "event", Count("id"), Count("id", filter=Q(made=False))),
        ("bids", "bid", Count("id"), Count("id", filter=Q(bid_won=True))),
    ):
        summed = (
            current.exclude(**{key: ""})
            .values("match_id", "player_id", key)
            .annotate(a=first, b=second)
            .order_by()
            .values_list("match_id", "player_id", key, "a", "b")
        )
        for match_id, pid, name, a, b in summed:
            if column == "events":
                a -= b  # made = all less suffered
            by_pk[match_id].tallies.append((pid, column, name, a, b))
    contests = (
        current.filter(match__status=finished, match__game__in=PER_DEAL_CONTESTS)
        .exclude(team=None)
        .order_by("match_id", "deal__number", "position")
        .values_list(*CONTEST_COLUMNS)
    )
    for match_id, *stake in _stakes(ids):
        by_pk[match_id].stakes.append(tuple(stake))  # type: ignore[arg-type]
    last_deal: Any = None
    for values in contests.iterator(chunk_size=5000):
        fact = Fact(*values)
        match = by_pk[fact.match_id]
        if fact.deal_id != last_deal:
            match.dealt.append([])
            last_deal = fact.deal_id
        match.dealt[-1].append(fact)
    return batch


def facts_contributions(batch: list[Counted]) -> dict[int, dict[int, Line]]:
    """``contributions`` from the stored facts: the same lines."""
    out: dict[int, dict[int, Line]] = {}
    for match in batch:
        lines: dict[int, Line] = defaultdict(blank)
        if match.deals or match.status == Match.Status.FINISHED:
            for pid in match.seats.values():
                lines[pid]["deals"] += match.deals
            for r in match.results:
                line = lines[r.player_id]
                for column in PER_RESULT:
                    line[column.name] += column.per_result(r)  # type: ignore[misc]
            for pid, tally, key, a, b in match.tallies:
                sides = _SIDES[tally]
                _bump(lines[pid][tally], key, sides[0], sides[1], a, b)
        for pid, unit, currency, amount in match.stakes:  # as _count_ledger
            line = lines[pid]
            if unit == Unit.MONEY:
                line["money"][currency] = line["money"].get(currency, Decimal(0)) + amount
            else:
                line["units"] += amount
        out[match.pk] = lines
    return {pk: dict(lines) for pk, lines in out.items() if lines}


_SIDES = {c.name: tuple(c.sides) for c in COLUMNS if c.kind == "tally"}
