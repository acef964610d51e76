"""Irregularities as tournaments record them: penalties, annulled and forfeited deals.

The federation-style *Codice del tressette* ("Le anomalie") does not only refuse a wrong
deal: it lets an irregularity nobody contested stand ("sanatoria implicita"), annuls a deal
and has it dealt again ("andata a monte"), and punishes the side at fault "con una penalità
di 3 punti". These are record fields any level may carry (totals, captures, play), read
here once for every game that takes them, so no game module repeats them:

- ``penalties``: ``[{"against": seat or side, "reason": code, "trick": n}]``, one per
  anomaly; the switches say how much and whom it hits;
- ``annulled_for``: ``{"reason", "stage", "asked_by", "trick"}``: the deal scores nothing
  (but its penalties) and the same dealer deals again;
- ``forfeit``: ``{"by": seat or side, "reason"}``: the deal is lost "per cappotto" for
  conduct, the opponents score the whole deal, and it is not a cappotto event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Localized, Problems, messages
from .houserules import Rules, Switch, choice
from .parse import integer, join, known_fields, obj, one_of
from .result import DealResult, Line, MatchState

messages(
    {
        "penalty.unknown_offender": (
            "{value!r} is neither a player nor a side of this deal; choose one of: {allowed}.",
            "{value!r} non è né un giocatore né una coppia di questa smazzata; scegli tra: "
            "{allowed}.",
        ),
        "penalty.twice": (
            "This anomaly ({reason}, {against}{trick}) is entered twice: each anomaly is "
            "penalised once.",
            "Questa anomalia ({reason}, {against}{trick}) è inserita due volte: ogni anomalia "
            "si punisce una volta sola.",
        ),
        "penalty.in_record": (
            "The play record already penalises {against}'s {reason} at trick {trick}; do not "
            "enter it again.",
            "La registrazione della giocata punisce già {reason} di {against} alla presa "
            "{trick}; non inserirla di nuovo.",
        ),
        "penalty.not_taken": (
            "{game} keeps no penalties of its own: enter the deal as it was scored.",
            "{game} non prevede penalità: inserisci la smazzata come è stata conteggiata.",
        ),
        "annul.with_scoring": (
            "An annulled deal scores nothing: remove '{field}' (only penalties may go with it).",
            "Una smazzata annullata non vale punti: togli '{field}' (può avere solo penalità).",
        ),
        "annul.and_forfeit": (
            "A deal is either annulled or forfeited, not both.",
            "Una smazzata o si annulla o si perde a tavolino, non entrambe le cose.",
        ),
        "forfeit.with_scoring": (
            "A forfeited deal is scored as lost by {by}: remove '{field}'.",
            "Una smazzata persa a tavolino si conta persa da {by}: togli '{field}'.",
        ),
        "forfeit.not_two_sides": (
            "A deal can be forfeited only where two sides (or two players) play against each "
            "other.",
            "Si può perdere una smazzata a tavolino solo quando giocano due parti (o due "
            "giocatori) l'una contro l'altra.",
        ),
        "irregularity.stage_trick": (
            "'trick' says when in the play it happened: give it only with stage 'play'.",
            "'trick' dice in che momento del gioco è successo: indicalo solo con la fase 'play'.",
        ),
    }
)

PENALTY_POINTS = Switch(
    "core.penalty_points",
    3,
    between=(0, 100),
    help="Points of one penalty for an anomaly entered in the deal (the tournament code: "
    "3). A revoke shown by a play record uses core.revoke_penalty.",
)
PENALTY_TO = choice(
    "core.penalty_to",
    "opponents_gain",
    "offenders_lose",
    help="Whom a penalty hits: every other side gains the points (the book's revoke "
    "penalty), or the side at fault loses them (the tournament code: 'sono puniti con una "
    "penalità di 3 punti').",
)
PENALTY_FLOOR = choice(
    "core.penalty_floor",
    "below_zero",
    "zero",
    help="A penalty may take a running total below zero, or it stops at zero (some clubs).",
)
OUT_OF_TURN = choice(
    "core.out_of_turn",
    "reject",
    "stands_if_uncontested",
    "penalty",
    help="A lead out of turn shown by a play record: refuse the deal; let it stand unless "
    "an opponent contested it (the code's 'sanatoria implicita'), a contested one is "
    "penalised; or always penalise it.",
)
#: The switches of every game that takes penalties (races to a target).
PENALTY_SWITCHES = (PENALTY_POINTS, PENALTY_TO, PENALTY_FLOOR, OUT_OF_TURN)

#: Anomalies of the code's list ("Casistica delle anomalie"), as reason codes.
PENALTY_REASONS: dict[str, tuple[str, str]] = {
    "revoke": ("a revoke", "una rinuncia"),
    "lead_out_of_turn": ("a lead out of turn", "un attacco fuori turno"),
    "play_out_of_turn": ("a card played out of turn", "una carta giocata fuori turno"),
    "declaration": ("a declaration not allowed", "una dichiarazione non consentita"),
    "declaration_mismatch": (
        "a card that does not match the declaration",
        "una carta incompatibile con la dichiarazione",
    ),
    "slow_answer": ("an answer not made at once", "una risposta non immediata"),
    "signal": ("a play made to catch the partner's eye", "una giocata per richiamare il compagno"),
    "exposed_card": ("a card shown or dropped", "una carta mostrata o lasciata cadere"),
    "mixed_piles": ("piles mixed up", "prese confuse"),
    "scoring_error": ("an error in the score", "un errore nel punteggio"),
    "false_anomaly": ("an anomaly called that was not one", "un'anomalia inesistente rilevata"),
    "conduct": ("conduct", "il comportamento"),
    "other": ("another anomaly", "un'altra anomalia"),
}
#: Why a deal is annulled and dealt again ("andata a monte").
ANNUL_REASONS = (
    "misdeal",
    "exposed_card",
    "card_on_floor",
    "wrong_card_count",
    "untimely_laydown",
    "mixed_piles",
    "absent_player",
    # "gli avversari hanno la facoltà di andare a monte" after a declaration made early,
    # late, or questioned by the declarer's partner (Anomalie dell'accusa).
    "declaration",
    "other",
)
ANNUL_STAGES = ("dealing", "play")
FORFEIT_REASONS = ("forbidden_talk", "conduct", "other")
#: The record fields read here; a game never sees them.
FIELDS = ("penalties", "annulled_for", "forfeit")
#: What an annulled or forfeited deal may carry besides these fields.
BARE_FIELDS = ("dealer", "level")


@dataclass(frozen=True, slots=True)
class Penalty:
    """One penalty: the scorer at fault, why, and the line detail it leaves."""

    offender: str
    amount: int
    detail: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Table:
    """Who is at the table, for reading who is at fault: seats and the scorer of each."""

    seats: tuple[str, ...]
    scorers: tuple[str, ...]
    scorer_of: Callable[[str], str]

    def scorer(self, name: Any) -> str | None:
        """The scorer a name stands for: a scorer itself (a side) or a seat's scorer."""
        if name in self.scorers:
            return str(name)
        if name in self.seats:
            return self.scorer_of(str(name))
        return None

    def names(self) -> str:
        return ", ".join(dict.fromkeys((*self.scorers, *self.seats)))


def read_penalties(
    raw: Any, table: Table, rules: Rules, problems: Problems, path: str = "penalties"
) -> list[Penalty]:
    """``penalties``: one entry per anomaly, ``{"against", "reason", "trick"?}``."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add("input.not_list", path, field=path)
        return []
    amount = rules.values.get("core.penalty_points", 3)
    out: list[Penalty] = []
    seen: set[tuple[Any, ...]] = set()
    for i, item in enumerate(raw):
        where = join(path, i)
        entry = obj(item, where, problems, what="A penalty")
        if not entry:
            continue
        known_fields(entry, ("against", "reason", "trick"), where, problems)
        offender = _offender(entry, "against", table, where, problems)
        reason = one_of(entry, "reason", tuple(PENALTY_REASONS), where, problems)
        trick = integer(entry, "trick", where, problems, low=1, high=40, required=False)
        if offender is None or reason is None:
            continue
        key = (entry["against"], reason, trick)
        if key in seen:
            problems.add(
                "penalty.twice",
                where,
                reason=_reason(reason),
                against=entry["against"],
                trick=_at_trick(trick),
            )
            continue
        seen.add(key)
        detail: dict[str, Any] = {"against": entry["against"], "reason": reason}
        if trick is not None:
            detail["trick"] = trick
        out.append(Penalty(offender, amount, {"penalty": detail}))
    return out


def check_not_in_record(entered: Iterable[Penalty], result: DealResult, problems: Problems) -> None:
    """A revoke or lead out of turn the play record penalises is not entered again."""
    marks = set()
    for lines in result.breakdown.values():
        for line in lines:
            for kind in ("revoke", "out_of_turn"):
                if line.kind == "penalty" and kind in line.detail:
                    marks.add((kind, line.detail[kind]["player"], line.detail[kind]["trick"]))
    kinds = {"revoke": "revoke", "lead_out_of_turn": "out_of_turn"}
    for i, p in enumerate(entered):
        d = p.detail["penalty"]
        mark = kinds.get(d["reason"])
        if mark and (mark, d["against"], d.get("trick")) in marks:
            problems.add(
                "penalty.in_record",
                join("penalties", i),
                against=d["against"],
                reason=_reason(d["reason"]),
                trick=d.get("trick"),
            )


def apply_penalties(
    result: DealResult,
    penalties: Iterable[Penalty],
    rules: Rules,
    state: MatchState | None,
    *,
    charge_offender: bool = False,
) -> DealResult:
    """``result`` with each penalty's lines: the offender loses the points, or every other
    scorer gains them (``core.penalty_to``); where points are penalties (Rovescino,
    ``charge_offender``) the offender always takes them. Under ``core.penalty_floor =
    zero`` a loss stops at a running total of zero."""
    penalties = list(penalties)
    if not penalties:
        return result
    points = dict(result.points)
    breakdown = {s: list(lines) for s, lines in result.breakdown.items()}
    to = rules.values.get("core.penalty_to", "opponents_gain")
    floor = rules.values.get("core.penalty_floor", "below_zero")
    for penalty in penalties:
        if not penalty.amount:
            continue
        offender = penalty.offender
        if charge_offender:
            hits = {offender: penalty.amount}
        elif to == "offenders_lose":
            amount = penalty.amount
            if floor == "zero":
                before = state.totals.get(offender, 0) if state is not None else 0
                amount = max(0, min(amount, before + points.get(offender, 0)))
            hits = {offender: -amount}
        else:
            hits = dict.fromkeys((s for s in breakdown if s != offender), penalty.amount)
        for scorer, value in hits.items():
            breakdown.setdefault(scorer, []).append(Line("penalty", value, penalty.detail))
            points[scorer] = points.get(scorer, 0) + value
    return _with(result, points=points, breakdown={s: tuple(v) for s, v in breakdown.items()})


def bare_result(
    game: str,
    deal: Mapping[str, Any],
    table: Table,
    problems: Problems,
    forfeit_points: int | None,
) -> DealResult | None:
    """The result of an annulled or forfeited deal (before its penalties), or None when
    the deal is neither."""
    annul, forfeit = deal.get("annulled_for"), deal.get("forfeit")
    if annul is None and forfeit is None:
        return None
    level = str(deal["level"]) if deal.get("level") in ("totals", "cards", "play") else "totals"
    zero = dict.fromkeys(table.scorers, 0)
    empty: dict[str, tuple[Line, ...]] = dict.fromkeys(table.scorers, ())
    if annul is not None and forfeit is not None:
        problems.add("annul.and_forfeit", "forfeit")
        return None
    if annul is not None:
        for field in deal:
            if field not in (*FIELDS, *BARE_FIELDS):
                problems.add("annul.with_scoring", field, field=field)
        facts = {"annulled_for": _annulment(annul, table, problems)}
        return DealResult(game, level, zero, empty, annulled=True, same_dealer=True, facts=facts)
    entry = obj(forfeit, "forfeit", problems, what="The forfeit")
    known_fields(entry, ("by", "reason"), "forfeit", problems)
    by = _offender(entry, "by", table, "forfeit", problems)
    reason = one_of(entry, "reason", FORFEIT_REASONS, "forfeit", problems)
    if forfeit_points is None or len(table.scorers) != 2:
        problems.add("forfeit.not_two_sides", "forfeit")
        return None
    for field in deal:
        if field not in (*FIELDS, *BARE_FIELDS):
            problems.add("forfeit.with_scoring", field, field=field, by=entry.get("by"))
    if by is None or reason is None:
        return None
    winner = next(s for s in table.scorers if s != by)
    detail = {"by": entry["by"], "reason": reason}
    return DealResult(
        game,
        level,
        {by: 0, winner: forfeit_points},
        {by: (), winner: (Line("forfeit", forfeit_points, detail),)},
        facts={"forfeit": detail},
    )


def _annulment(raw: Any, table: Table, problems: Problems) -> dict[str, Any]:
    entry = obj(raw, "annulled_for", problems, what="The annulment")
    if not entry:
        return {}
    where = "annulled_for"
    known_fields(entry, ("reason", "stage", "asked_by", "trick"), where, problems)
    reason = one_of(entry, "reason", ANNUL_REASONS, where, problems)
    stage = one_of(entry, "stage", ANNUL_STAGES, where, problems)
    asked_by = entry.get("asked_by")
    if asked_by is not None and asked_by not in table.seats:
        problems.add(
            "match.unknown_seat",
            join(where, "asked_by"),
            value=asked_by,
            allowed=", ".join(table.seats),
        )
    trick = integer(entry, "trick", where, problems, low=1, high=40, required=False)
    if trick is not None and stage == "dealing":
        problems.add("irregularity.stage_trick", join(where, "trick"))
    out: dict[str, Any] = {"reason": reason, "stage": stage}
    if asked_by is not None:
        out["asked_by"] = asked_by
    if trick is not None:
        out["trick"] = trick
    return out


def _offender(
    entry: Mapping[str, Any], key: str, table: Table, where: str, problems: Problems
) -> str | None:
    name = entry.get(key)
    if name is None:
        problems.add("input.missing", join(where, key), field=key)
        return None
    scorer = table.scorer(name)
    if scorer is None:
        problems.add(
            "penalty.unknown_offender", join(where, key), value=name, allowed=table.names()
        )
    return scorer


def _reason(code: str) -> Localized:
    en, it = PENALTY_REASONS[code]
    return Localized(en, it)


def _at_trick(trick: int | None) -> Localized:
    if trick is None:
        return Localized("", "")
    return Localized(f", trick {trick}", f", presa {trick}")


def _with(result: DealResult, **changes: Any) -> DealResult:
    from dataclasses import replace

    return replace(result, **changes)
