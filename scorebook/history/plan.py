"""The preview: every row of a sheet checked by the engine, before anything is stored.

``plan_sheet`` reads the rows into nights (one per date), matches (one per date, table
and match number) and deals (in file order), checks each match as deal entry would (the
game, its house rules, the seats and the first dealer through ``Game.new_match``, every
deal through ``Game.add_deal``: the same refusals, so the same words) and matches the
seated names to the club's players without case. What it finds is a :class:`Plan`, plain
JSON, stored on the import until the director accepts it; each problem names the file's
row and column and carries its words in English and Italian.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.services import PlayerErased
from scorebook.core.dates import DateOutOfRange, check_date
from scorebook.core.dates import today as dates_today
from scorebook.core.inputs import loads
from scorebook.core.numbers import parse_int
from scorebook.core.reasons import check_reason
from scorebook.core.refusals import Refusal
from scorebook.matches.selectors import ABANDON, STOP, ending_at_close
from scorebook.rules import Rejection, get_game
from scorebook.rules.game import Game
from scorebook.rules.houserules import Rules
from scorebook.rules.result import MatchState

from .template import ABANDONED_WORDS, COLUMNS, Row, Sheet, letter

#: The problems a preview lists (the rest are counted): a director fixes a file in rounds.
MAX_PROBLEMS = 200
#: A player's name, as long as the club's model takes.
NAME_MAX = 80
#: An abandoned match's reason, as long as the match's field takes.
ABANDONED_MAX = 200
_SEAT_SPLIT = re.compile(r"\s*;\s*")
#: The columns that describe a match: read from its first row, repeated or blank after.
DESCRIBING = ("game", "rules", "seats", "first_dealer", "stake", "currency", "abandoned")


class BadDate(Refusal):
    code = "import.bad_date"
    message = _("'%(value)s' is not a date: write it as 2019-03-21 (or 21/03/2019).")


class FutureDate(Refusal):
    code = "import.future_date"
    message = _("%(value)s is in the future: only nights already played can be imported.")


class BadNumber(Refusal):
    code = "import.bad_number"
    message = _("'%(value)s' is not a whole number from 1 to %(limit)s.")


class BadStake(Refusal):
    code = "import.bad_stake"
    message = _("'%(value)s' is not a stake: write an amount such as 0.50 (at most 2 decimals).")


class BadCurrency(Refusal):
    code = "import.bad_currency"
    message = _("'%(value)s' is not a currency the club can use (%(allowed)s).")


class BadRules(Refusal):
    code = "import.bad_rules"
    message = _("The house rules must be a profile name or a JSON object: %(error)s")


class BadSeats(Refusal):
    code = "import.bad_seats"
    message = _("Write the seats as seat=name pairs separated by ';' (N=Nino; E=Salvo): %(error)s")


class SeatsOfGame(Refusal):
    code = "import.seats_of_game"
    message = _("This game is played at the seats %(seats)s here, not %(given)s.")


class SamePlayerTwice(Refusal):
    code = "import.same_player_twice"
    message = _("%(name)s sits at two seats of the same match.")


class NotADeal(Refusal):
    code = "import.not_a_deal"
    message = _(
        "The deal must be a JSON object in the deal format (docs/deal-format.md); or write "
        "the match's final score in the final column."
    )


class BadFinal(Refusal):
    code = "import.bad_final"
    message = _(
        "Write the final score as scorer=total pairs separated by ';' (A=21; B=13, or "
        "P1=31; P2=18): %(error)s"
    )


class WinnerWithoutFinal(Refusal):
    code = "import.winner_without_final"
    message = _(
        "The winner column goes with a final score (the final column): a match recorded "
        "deal by deal is won by its deals."
    )


class DealAndFinal(Refusal):
    code = "import.deal_and_final"
    message = _("A row holds one deal or the match's final score, not both.")


class MixedMatch(Refusal):
    code = "import.mixed_match"
    message = _(
        "The match that starts on row %(first)s is recorded %(how)s: a match is recorded "
        "either deal by deal or by its final score (one row), not both."
    )


class DifferentMatchValue(Refusal):
    code = "import.match_value_differs"
    message = _(
        "This row belongs to the match that starts on row %(first)s, which says '%(value)s' "
        "here: leave it blank or write the same."
    )


class AbandonedFinished(Refusal):
    code = "import.abandoned_finished"
    message = _(
        "The match that starts on row %(first)s ends in this file (its deals or its final "
        "score finish it): a finished match cannot be abandoned. Leave the abandoned "
        "column empty, or remove the deals after it was abandoned."
    )


class NotChecked(Refusal):
    code = "import.not_checked"
    message = _("Not checked: an earlier deal of this match was refused.")


@dataclass
class Plan:
    """What an accepted import will store, and what stops it."""

    nights: list[dict[str, Any]] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)
    more_problems: int = 0
    #: Names as written (first spelling seen) -> existing player id, or None (a new guest).
    players: dict[str, int | None] = field(default_factory=dict)

    def problem(self, row: int, column: str, code: str, en: str, it: str, path: str = ""):
        if len(self.problems) >= MAX_PROBLEMS:
            self.more_problems += 1
            return
        index = COLUMNS.index(column) if column in COLUMNS else -1
        self.problems.append(
            {
                "row": row,
                "column": column,
                "letter": self._letters.get(column, letter(index) if index >= 0 else ""),
                "code": code,
                "path": path,
                "message": {"en": en, "it": it},
            }
        )

    def refusal(self, row: int, column: str, refusal: Refusal) -> None:
        with translation.override("en"):
            en = refusal.text()
        with translation.override("it"):
            it = refusal.text()
        self.problem(row, column, refusal.code, en, it, refusal.path)

    def rejection(self, row: int, column: str, rejection: Rejection) -> None:
        for found in rejection.problems:
            self.problem(row, column, found.code, found.en, found.it, found.path)

    _letters: dict[str, str] = field(default_factory=dict)
    #: Shared between the matches of a long file: house rules resolved once per spec,
    #: finished states, and the texts that describe matches (``_retire``).
    _rules_cache: dict[tuple[str, str], Any] = field(default_factory=dict)
    _tombs: dict[tuple[Any, ...], MatchState] = field(default_factory=dict)
    _texts: dict[str, str] = field(default_factory=dict)

    def _rules_of(self, game: Any, spec: Any) -> Any:
        key = (game.key, _canonical(spec))
        if key not in self._rules_cache:
            self._rules_cache[key] = game.rules(spec)
        return self._rules_cache[key]

    def _text(self, text: str) -> str:
        return self._texts.setdefault(text, text)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.more_problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "nights": self.nights,
            "problems": self.problems,
            "more_problems": self.more_problems,
            "players": self.players,
        }


def parse_date(text: str) -> date | None:
    if not text.isascii():  # strptime reads "２０１６" (full-width digits) as 2016
        return None
    for pattern in ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def parse_number(text: str, limit: int) -> int | None:
    """A table's or a match's number: ASCII digits only (``²`` passes ``isdigit()`` and
    makes ``int()`` raise; ``int()`` reads ``٣`` and ``３`` as 3)."""
    if not text:
        return 1
    return parse_int(text, low=1, high=limit)


def parse_stake(text: str) -> Decimal | None:
    if not text:
        return Decimal("0")
    if not text.isascii():  # Decimal() reads "٣" and "０.５" as numbers
        return None
    try:
        amount = Decimal(text.replace(",", "."))
    except InvalidOperation:
        return None
    if not amount.is_finite() or amount < 0 or amount >= 10**8 or -amount.as_tuple().exponent > 2:  # type: ignore[operator]
        return None
    return amount.quantize(Decimal("0.01"))


def parse_rules(text: str) -> Any:
    """A profile name, or a JSON object of switches (with ``profile``), or the stored form
    ``{"game", "profile", "values"}`` an export writes."""
    if not text:
        return {}
    if not text.startswith("{"):
        return {"profile": text}
    spec = loads(text)
    if not isinstance(spec, dict):
        raise BadRules(error=_("not an object"))
    if isinstance(spec.get("values"), dict):
        flat = dict(spec["values"])
        if spec.get("profile"):
            flat["profile"] = spec["profile"]
        return flat
    return spec


def parse_seats(text: str) -> dict[str, str]:
    if not text.strip(" ;"):  # the words ended in ': ' with nothing after them
        raise BadSeats(error=_("the cell is empty, and a match's first row names its seats"))
    seats: dict[str, str] = {}
    for pair in _SEAT_SPLIT.split(text.strip().strip(";")):
        seat, equals, name = pair.partition("=")
        seat, name = seat.strip(), " ".join(name.split())
        if not equals or not seat or not name:
            raise BadSeats(error=pair[:40])
        if len(name) > NAME_MAX:
            raise BadSeats(error=_("a name longer than %(n)s characters") % {"n": NAME_MAX})
        if seat in seats:
            raise BadSeats(error=_("seat %(seat)s twice") % {"seat": seat[:8]})
        seats[seat] = name
    return seats


def parse_final(text: str) -> dict[str, int]:
    """``A=21; B=13`` -> {"A": 21, "B": 13} (the totals per scorer; the engine checks
    the scorers and what the totals mean)."""
    totals: dict[str, int] = {}
    for pair in _SEAT_SPLIT.split(text.strip().strip(";")):
        scorer, equals, value = pair.partition("=")
        scorer, value = scorer.strip(), value.strip()
        total = parse_int(value, low=-999_999, high=999_999) if len(value) <= 7 else None
        if not equals or not scorer or total is None:
            raise BadFinal(error=pair[:40])
        if scorer in totals:
            raise BadFinal(error=_("%(scorer)s twice") % {"scorer": scorer[:8]})
        totals[scorer] = total
    return totals


def parse_abandoned(text: str) -> str | None:
    """The ``abandoned`` cell: None (not abandoned), or the reason ("" for a bare yes)."""
    text = " ".join(text.split())
    if not text:
        return None
    return "" if text.lower() in ABANDONED_WORDS else text


def fingerprint(night: dict[str, Any]) -> str:
    """The night's identity for idempotency: its date and matches as the rows say them
    (names without case), so the same night in any later file is found again."""
    return fingerprint_of(night["date"], night["matches"])


def fingerprint_of(day: str, matches: Iterable[dict[str, Any]]) -> str:
    """``fingerprint`` of the night ``day`` whose matches (in table and match order) are
    read one at a time: the hash of the same JSON text, fed a match at a time."""
    digest = hashlib.sha256()
    digest.update(('{"date":' + _canonical(day) + ',"matches":[').encode())
    for index, m in enumerate(matches):
        canonical = {
            **{k: m[k] for k in ("table", "number", "game", "rules", "first_dealer")},
            "stake": m["stake"],
            "currency": m["currency"],
            "seats": {s: n.lower() for s, n in m["seats"].items()},
            "deals": m["deals"],
            # only when there is one: the nights imported before keep their prints
            **({"final": m["final"]} if m.get("final") is not None else {}),
            **({"winner": m["winner"]} if m.get("winner") else {}),
            **({"abandoned": m["abandoned"]} if m.get("abandoned") is not None else {}),
        }
        digest.update((("," if index else "") + _canonical(canonical)).encode())
    digest.update(b"]}")
    return digest.hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: Where a preview's matches go as each is complete: ``sink(day, match)`` with the
#: match's plain JSON (table, number, game, rules, seats, first_dealer, stake, currency,
#: first, rows, deals, final, abandoned; winner when given).
Sink = Callable[[str, dict[str, Any]], None]


def plan_sheet(
    sheet: Sheet,
    *,
    club_players: Iterable[tuple[int, str]],
    currencies: Iterable[str],
    imported: Iterable[str] = (),
    today: date | None = None,
    sink: Sink | None = None,
    erased: Iterable[int] = (),
) -> Plan:
    """Check every row; group the good ones into nights. ``club_players`` are the club's
    (id, name); ``imported`` the fingerprints of nights already imported (skipped);
    ``erased`` the ids of erased players (a match seating one is refused in its first
    row: ``player.erased``).

    The rows are read once, as they stream. A match leaves memory as soon as it is over
    (the engine says so) or the file ends: it goes to ``sink`` (while the preview has no
    problem), and only what a later row of it would be checked against stays (its first
    row, the values that describe it, how many deals: ``_retire``). Without ``sink`` the
    matches are kept and grouped into ``plan.nights`` here; with one, the caller groups
    them (``nights_of``) from where it put them."""
    plan = Plan()
    plan._letters = {name: letter(i) for i, name in enumerate(sheet.columns)}
    today = today or dates_today()
    allowed = tuple(currencies)
    by_name = {name.lower(): pk for pk, name in club_players}
    locked = set(erased)
    kept: list[tuple[str, dict[str, Any]]] = []
    out = sink or (lambda day, match: kept.append((day, match)))
    matches: dict[tuple[str, int, int], Any] = {}
    spelled: dict[str, str] = {}  # a name without case -> its first spelling in the file
    late: list[int] = []  # the first rows of abandoned matches that the file finishes
    for row in sheet.rows:
        key = _match_key(plan, row, today)
        if key is None:
            continue
        match = matches.get(key)
        if match is None:
            match = _new_match(plan, row, key, allowed)
            if match is None:
                matches[key] = _REFUSED
                continue
            gone = [n for n in match["seats"].values() if by_name.get(n.lower()) in locked]
            if gone:
                plan.refusal(row.number, "seats", PlayerErased(path="seats", name=gone[0]))
                matches[key] = _REFUSED
                continue
            for seat, name in match["seats"].items():
                if name.lower() not in spelled:
                    spelled[name.lower()] = name
                    plan.players[name] = by_name.get(name.lower())
                match["seats"][seat] = spelled[name.lower()]
            matches[key] = match
        elif match is _REFUSED:
            continue
        else:
            if isinstance(match, tuple):  # over already: a later row of it
                match = matches[key] = _revive(match)
            _same_values(plan, row, match)
        _add_deal(plan, row, match)
        if match["_state"].finished or match.get("_stopped"):
            matches[key] = _finish(plan, key, match, out, late)
    for key, match in matches.items():
        if isinstance(match, dict):  # not over when the file ends (or abandoned)
            _finish(plan, key, match, out, late)
    for first in sorted(late):
        plan.refusal(first, "abandoned", AbandonedFinished(first=first))
    if sink is None:
        kept.sort(key=lambda found: (found[0], found[1]["table"], found[1]["number"]))
        plan.nights = list(nights_of(kept, imported, keep_matches=True))
    return plan


def nights_of(
    matches: Iterable[tuple[str, dict[str, Any]]], imported: Iterable[str], *, keep_matches=False
) -> Iterator[dict[str, Any]]:
    """The nights of ``matches`` as (day, match), in date, table and match order: each
    night's date, fingerprint, deals, matches (how many; the list itself with
    ``keep_matches``), those by their final score and those abandoned, and whether it is
    ``already`` imported (its fingerprint in ``imported``). Reads one night at a time."""
    done = set(imported)
    for day, group in itertools.groupby(matches, key=lambda found: found[0]):
        listed = [match for _day, match in group]
        night: dict[str, Any] = {"date": day}
        if keep_matches:
            night["matches"] = listed
        night["fingerprint"] = fingerprint_of(day, listed)
        night["deals"] = sum(len(m["deals"]) for m in listed)
        night["already"] = night["fingerprint"] in done
        night["count"] = len(listed)
        night["final_scores"] = sum(1 for m in listed if m.get("final") is not None)
        night["abandoned"] = sum(1 for m in listed if m.get("abandoned") is not None)
        for ending in (STOP, ABANDON):  # left unfinished by the file: ended at the close
            night[f"{ending}_at_close"] = sum(1 for m in listed if m.get("at_close") == ending)
        yield night


def summary_of(nights: list[dict[str, Any]], players: dict[str, int | None]) -> dict[str, Any]:
    """The preview in numbers, from its nights (``nights_of``) and names: the nights it
    will store and those already imported, matches (those by their final score, those
    abandoned), deals, the first and last night, the years, the names found among the
    club's players and the guests it will add; and the matches the file leaves
    unfinished, which the night's close finishes (chips sessions) or abandons."""
    new = [n for n in nights if not n["already"]]
    return {
        "nights": len(new),
        "nights_already": len(nights) - len(new),
        "matches": sum(n["count"] for n in new),
        "deals": sum(n["deals"] for n in new),
        "final_scores": sum(n["final_scores"] for n in new),
        "abandoned": sum(n["abandoned"] for n in new),
        # matches the file leaves unfinished, ended with their night's close
        "stopped_at_close": sum(n.get(f"{STOP}_at_close", 0) for n in new),
        "abandoned_at_close": sum(n.get(f"{ABANDON}_at_close", 0) for n in new),
        "first": new[0]["date"] if new else None,
        "last": new[-1]["date"] if new else None,
        "years": sorted({n["date"][:4] for n in new}),
        "players": sorted(name for name, pk in players.items() if pk is not None),
        "guests": sorted(name for name, pk in players.items() if pk is None),
    }


#: A match whose first row was refused: its later rows are not checked.
_REFUSED = ("refused",)


def _finish(
    plan: Plan,
    key: tuple[str, int, int],
    match: dict[str, Any],
    out: Sink,
    late: list[int],
) -> Any:
    """The match is over (a refused deal stops it too), or the file ended: out to the
    sink, once, and what stays of it."""
    if not match.get("_out"):
        if match["abandoned"] is not None and match["_state"].finished:
            late.append(match["first"])
        elif plan.ok and not match.get("_stopped"):
            if match["abandoned"] is None and not match["_state"].finished:
                # the import closes every night, and the close ends the matches still
                # open: a chips session finished with its scores, any other abandoned
                played = match["_state"].deals_played
                match["at_close"] = ending_at_close(match["_game"], match["_rules"], played)
            out(key[0], {k: v for k, v in match.items() if not k.startswith("_")})
    return _retire(plan, match)


def _retire(plan: Plan, match: dict[str, Any]) -> tuple[Any, ...]:
    """What a later row of a match that is over is checked against, in a few bytes: its
    first row, the values its first row gave (shared strings), its game and house rules
    (shared objects), how many deals and rows, its final score's presence, whether a
    refused deal stopped it, and a finished state shared by every match it fits."""
    state = match["_state"]
    reason = state.outcome.reason if state.outcome else "finished"
    tomb_key = (state.game, state.dealer, state.deals_played, state.finished, reason)
    tomb = plan._tombs.get(tomb_key)
    if tomb is None:
        tomb = plan._tombs[tomb_key] = MatchState(
            game=state.game, seats=(), scorers=(), dealer=state.dealer, totals={}, units={},
            deals_played=state.deals_played, finished=state.finished, outcome=state.outcome,
        )  # fmt: skip
    raw = tuple(plan._text(match["_raw"][c]) for c in DESCRIBING)
    return (
        match["first"], raw, match["_game"], match["_rules"], len(match["deals"]),
        len(match["rows"]), match["final"] is not None, match["abandoned"],
        bool(match.get("_stopped")), tomb,
    )  # fmt: skip


def _revive(retired: tuple[Any, ...]) -> dict[str, Any]:
    """A retired match as the checks of a later row read it (``_retire``'s inverse, for
    what they read: it is over, so no deal of it is kept again)."""
    first, raw, game, rules, deals, rows, final, abandoned, stopped, tomb = retired
    return {
        "first": first,
        "_raw": dict(zip(DESCRIBING, raw, strict=True)),
        "_game": game,
        "_rules": rules,
        "_state": tomb,
        "deals": range(deals),
        "rows": range(rows),
        "final": {} if final else None,
        "abandoned": abandoned,
        "_stopped": stopped,
        "_out": True,
    }


def _match_key(plan: Plan, row: Row, today: date) -> tuple[str, int, int] | None:
    day = parse_date(row.get("date"))
    if day is None:
        plan.refusal(row.number, "date", BadDate(value=row.get("date")[:40]))
        return None
    if day > today:
        plan.refusal(row.number, "date", FutureDate(value=day.isoformat()))
        return None
    try:
        check_date(day)  # the dates Scorebook keeps (core.dates), refused in words
    except DateOutOfRange as refusal:
        plan.refusal(row.number, "date", refusal)
        return None
    table = parse_number(row.get("table"), 999)
    if table is None:
        plan.refusal(row.number, "table", BadNumber(value=row.get("table")[:40], limit=999))
        return None
    number = parse_number(row.get("match"), 999)
    if number is None:
        plan.refusal(row.number, "match", BadNumber(value=row.get("match")[:40], limit=999))
        return None
    return day.isoformat(), table, number


def _new_match(
    plan: Plan, row: Row, key: tuple[str, int, int], currencies: tuple[str, ...]
) -> dict[str, Any] | None:
    """The match a key's first row describes, checked with the engine (None: refused)."""
    started = _engine_match(plan, row)
    if started is None:
        return None
    game, spec, rules, seats, state = started
    described = _match_columns(plan, row, seats, currencies)
    if described is None:
        return None
    stake, currency, abandoned = described
    return {
        "table": key[1],
        "number": key[2],
        "game": game.key,
        "rules": spec,
        "seats": {seat: seats[seat] for seat in state.seats},
        "first_dealer": state.dealer,
        "stake": str(stake),
        "currency": currency,
        "first": row.number,
        "rows": [],
        "deals": [],
        "final": None,
        "abandoned": abandoned,
        "_state": state,
        "_game": game,
        "_rules": rules,
        "_raw": {c: row.get(c) for c in DESCRIBING},
    }


def _engine_match(
    plan: Plan, row: Row
) -> tuple[Game, Any, Rules, dict[str, str], MatchState] | None:
    """The game, house rules (as written and resolved), seats and the engine's new match
    a first row names; None at the first column the engine or the template refuses."""
    try:
        game = get_game(row.get("game"))
    except Rejection as rejection:
        plan.rejection(row.number, "game", rejection)
        return None
    try:
        spec = parse_rules(row.get("rules"))
        rules = plan._rules_of(game, spec)
    except Refusal as refusal:
        plan.refusal(row.number, "rules", refusal)
        return None
    except Rejection as rejection:
        plan.rejection(row.number, "rules", rejection)
        return None
    try:
        seats = parse_seats(row.get("seats"))
    except Refusal as refusal:
        plan.refusal(row.number, "seats", refusal)
        return None
    dealer = row.get("first_dealer") or None
    try:
        state = game.new_match(rules, len(seats) or None, dealer)
    except Rejection as rejection:
        column = "first_dealer" if any("dealer" in p.path for p in rejection.problems) else "seats"
        plan.rejection(row.number, column, rejection)
        return None
    if set(seats) != set(state.seats):
        plan.refusal(
            row.number,
            "seats",
            SeatsOfGame(seats=", ".join(state.seats), given=", ".join(seats)[:60]),
        )
        return None
    return game, spec, rules, seats, state


def _match_columns(
    plan: Plan, row: Row, seats: dict[str, str], currencies: tuple[str, ...]
) -> tuple[Decimal, str, str | None] | None:
    """The stake, currency and abandonment a first row gives, each column checked (a
    player named twice too); None when any is refused, every refusal said."""
    ok = True
    lowered = [n.lower() for n in seats.values()]
    twice = next((n for n in seats.values() if lowered.count(n.lower()) > 1), None)
    if twice:
        plan.refusal(row.number, "seats", SamePlayerTwice(name=twice))
        ok = False
    stake = parse_stake(row.get("stake"))
    if stake is None:
        plan.refusal(row.number, "stake", BadStake(value=row.get("stake")[:40]))
        ok = False
    currency = row.get("currency").upper()
    if currency and currency not in currencies:
        plan.refusal(
            row.number,
            "currency",
            BadCurrency(value=row.get("currency")[:10], allowed=", ".join(currencies)),
        )
        ok = False
    abandoned = parse_abandoned(row.get("abandoned"))
    try:
        check_reason(abandoned or "", most=ABANDONED_MAX, path="abandoned")
    except Refusal as refusal:
        plan.refusal(row.number, "abandoned", refusal)
        ok = False
    if not ok or stake is None:  # a stake refused is not ok already
        return None
    return stake, currency, abandoned


def _same_values(plan: Plan, row: Row, match: dict[str, Any]) -> None:
    for column, first in match["_raw"].items():
        value = row.get(column)
        if value and value != first:
            plan.refusal(
                row.number,
                column,
                DifferentMatchValue(first=match["first"], value=first[:40] or "—"),
            )


def _add_deal(plan: Plan, row: Row, match: dict[str, Any]) -> None:
    if match.get("_stopped"):
        plan.refusal(row.number, "deal", NotChecked())
        return
    if row.get("winner") and not row.get("final"):
        plan.refusal(row.number, "winner", WinnerWithoutFinal())
        match["_stopped"] = True
        return
    if row.get("abandoned") and not row.get("deal") and not row.get("final"):
        if not match["rows"]:  # the match's only row: abandoned before its first deal
            match["rows"].append(row.number)
            return
    if row.get("final"):
        if row.get("deal"):
            plan.refusal(row.number, "final", DealAndFinal())
            match["_stopped"] = True
            return
        _add_final(plan, row, match)
        return
    if match["final"] is not None:
        plan.refusal(
            row.number, "deal", MixedMatch(first=match["first"], how=_("by its final score"))
        )
        match["_stopped"] = True
        return
    try:
        data = loads(row.get("deal") or "null")
        if not isinstance(data, dict):
            raise NotADeal()
    except Refusal as refusal:
        plan.refusal(row.number, "deal", refusal)
        match["_stopped"] = True
        return
    state = match["_state"]
    number = state.deal_number
    try:
        match["_game"].add_deal(state, data, match["_rules"], f"deals[{number - 1}]")
    except Rejection as rejection:
        plan.rejection(row.number, "deal", rejection)
        match["_stopped"] = True
        return
    match["deals"].append(data)
    match["rows"].append(row.number)


def _add_final(plan: Plan, row: Row, match: dict[str, Any]) -> None:
    """The match's final score (its only row): the engine decides the result from it."""
    if match["deals"]:
        plan.refusal(row.number, "final", MixedMatch(first=match["first"], how=_("deal by deal")))
        match["_stopped"] = True
        return
    winner = row.get("winner") or None
    try:
        totals = parse_final(row.get("final"))
        match["_game"].record_final(
            match["_state"], totals, match["_rules"], "final", winner=winner, winner_path="winner"
        )
    except Refusal as refusal:
        plan.refusal(row.number, "final", refusal)
        match["_stopped"] = True
        return
    except Rejection as rejection:
        # the winner's problems (missing where the totals cannot tell, another than
        # theirs) in its column, the totals' in theirs
        for column in ("final", "winner"):
            found = [p for p in rejection.problems if (p.path == "winner") == (column == "winner")]
            if found:
                plan.rejection(row.number, column, Rejection(found))
        match["_stopped"] = True
        return
    match["final"] = totals
    if winner is not None:
        match["winner"] = winner
    match["rows"].append(row.number)
