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
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from scorebook.core.inputs import loads
from scorebook.core.numbers import parse_int
from scorebook.core.reasons import check_reason
from scorebook.core.refusals import Refusal
from scorebook.rules import Rejection, get_game

from .template import ABANDONED_WORDS, COLUMNS, Row, Sheet, letter

#: The problems a preview lists (the rest are counted): a director fixes a file in rounds.
MAX_PROBLEMS = 200
#: A player's name, as long as the club's model takes.
NAME_MAX = 80
#: An abandoned match's reason, as long as the match's field takes.
ABANDONED_MAX = 200
_SEAT_SPLIT = re.compile(r"\s*;\s*")


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
    canonical = {
        "date": night["date"],
        "matches": [
            {
                **{k: m[k] for k in ("table", "number", "game", "rules", "first_dealer")},
                "stake": m["stake"],
                "currency": m["currency"],
                "seats": {s: n.lower() for s, n in m["seats"].items()},
                "deals": m["deals"],
                # only when there is one: the nights imported before keep their prints
                **({"final": m["final"]} if m.get("final") is not None else {}),
                **({"abandoned": m["abandoned"]} if m.get("abandoned") is not None else {}),
            }
            for m in night["matches"]
        ],
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def plan_sheet(
    sheet: Sheet,
    *,
    club_players: Iterable[tuple[int, str]],
    currencies: Iterable[str],
    imported: Iterable[str] = (),
    today: date | None = None,
) -> Plan:
    """Check every row; group the good ones into nights. ``club_players`` are the club's
    (id, name); ``imported`` the fingerprints of nights already imported (skipped)."""
    plan = Plan()
    plan._letters = {name: letter(i) for i, name in enumerate(sheet.columns)}
    today = today or timezone.localdate()
    allowed = tuple(currencies)
    by_name = {name.lower(): pk for pk, name in club_players}
    matches: dict[tuple[str, int, int], dict[str, Any]] = {}
    for row in sheet.rows:
        key = _match_key(plan, row, today)
        if key is None:
            continue
        match = matches.get(key)
        if match is None:
            match = _new_match(plan, row, key, allowed)
            if match is None:
                matches[key] = {"refused": True, "first": row.number}
                continue
            matches[key] = match
        elif match.get("refused"):
            continue
        else:
            _same_values(plan, row, match)
        _add_deal(plan, row, match)
    nights: dict[str, dict[str, Any]] = {}
    spelled: dict[str, str] = {}  # a name without case -> its first spelling in the file
    for key, match in matches.items():
        if match.get("refused"):
            continue
        if match["abandoned"] is not None and match["_state"].finished:
            plan.refusal(match["first"], "abandoned", AbandonedFinished(first=match["first"]))
            continue
        for seat, name in match["seats"].items():
            if name.lower() not in spelled:
                spelled[name.lower()] = name
                plan.players[name] = by_name.get(name.lower())
            match["seats"][seat] = spelled[name.lower()]
        night = nights.setdefault(key[0], {"date": key[0], "matches": []})
        night["matches"].append({k: v for k, v in match.items() if not k.startswith("_")})
    done = set(imported)
    for day in sorted(nights):
        night = nights[day]
        night["matches"].sort(key=lambda m: (m["table"], m["number"]))
        night["fingerprint"] = fingerprint(night)
        night["deals"] = sum(len(m["deals"]) for m in night["matches"])
        night["already"] = night["fingerprint"] in done
        plan.nights.append(night)
    return plan


def _match_key(plan: Plan, row: Row, today: date) -> tuple[str, int, int] | None:
    day = parse_date(row.get("date"))
    if day is None:
        plan.refusal(row.number, "date", BadDate(value=row.get("date")[:40]))
        return None
    if day > today:
        plan.refusal(row.number, "date", FutureDate(value=day.isoformat()))
        return None
    if day.year < 1900:
        plan.refusal(row.number, "date", BadDate(value=row.get("date")[:40]))
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
    ok = True
    try:
        game = get_game(row.get("game"))
    except Rejection as rejection:
        plan.rejection(row.number, "game", rejection)
        return None
    try:
        spec = parse_rules(row.get("rules"))
        rules = game.rules(spec)
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
    if not ok:
        return None
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
        "_raw": {
            c: row.get(c)
            for c in ("game", "rules", "seats", "first_dealer", "stake", "currency", "abandoned")
        },
    }


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
    try:
        totals = parse_final(row.get("final"))
        match["_game"].record_final(match["_state"], totals, match["_rules"], "final")
    except Refusal as refusal:
        plan.refusal(row.number, "final", refusal)
        match["_stopped"] = True
        return
    except Rejection as rejection:
        plan.rejection(row.number, "final", rejection)
        match["_stopped"] = True
        return
    match["final"] = totals
    match["rows"].append(row.number)
