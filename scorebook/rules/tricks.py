"""What trick games share: captured thirds or cards per scorer, the deck checks of
section 4.1 (D1-D10), and turning thirds into points (section 1.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from .cards import (
    CARD_THIRDS_IN_DECK,
    CARICHI,
    DEAL_POINTS,
    DECK40,
    FIGURE,
    LAST_TRICK_THIRDS,
    TRESSETTE_RANKS,
    TRESSETTE_RANKS_J_ABOVE_Q,
    Card,
    thirds_of,
)
from .errors import Localized, Problem, Problems, messages, problem
from .houserules import Rules, choice
from .parse import cards, integer, join, known_fields, no_duplicates, obj, one_of
from .result import Line

messages(
    {
        "capture.thirds_and_cards": (
            "Enter either the thirds or the cards taken, not both.",
            "Inserisci i terzi oppure le carte prese, non entrambi.",
        ),
        "capture.nothing": (
            "Enter the thirds or the cards that {scorer} took.",
            "Inserisci i terzi o le carte prese da {scorer}.",
        ),
        "capture.missing_scorer": (
            "{scorer} is missing: every {what} needs an entry.",
            "Manca {scorer}: ogni {what_it} deve avere una voce.",
        ),
        "capture.unknown_scorer": (
            "{value!r} is not in this deal; expected: {allowed}.",
            "{value!r} non fa parte di questa smazzata; previsti: {allowed}.",
        ),
        "capture.thirds_total": (
            "The thirds entered add up to {total}, but the cards of a deal hold {expected} "
            "thirds ({points} points) in all.",
            "I terzi inseriti sommano {total}, ma le carte di una smazzata valgono {expected} "
            "terzi ({points} punti) in tutto.",
        ),
        "capture.thirds_over": (
            "The thirds entered add up to {total}, more than the {expected} thirds in the deck.",
            "I terzi inseriti sommano {total}, più dei {expected} terzi del mazzo.",
        ),
        "capture.all_tricks_bad_side": (
            "'all_tricks' names the side that took every trick, one of {allowed}, not {value!r}.",
            "'all_tricks' indica la parte che ha fatto tutte le prese, una tra {allowed}, "
            "non {value!r}.",
        ),
        "capture.all_tricks_with_counts": (
            "Give either the tricks each side took or the side that took them all "
            "('all_tricks'), not both.",
            "Indica le prese di ciascuna parte oppure la parte che le ha fatte tutte "
            "('all_tricks'), non entrambe.",
        ),
        "capture.all_tricks_with_claim": (
            "After a claim, give the tricks each side had taken by then.",
            "Dopo una chiamata, indica le prese che ciascuna parte aveva fatto fino ad allora.",
        ),
        "capture.tricks_total": (
            "The tricks entered add up to {total}; this deal has {expected} tricks.",
            "Le prese inserite sommano {total}; questa smazzata ha {expected} prese.",
        ),
        "capture.tricks_over": (
            "The tricks entered add up to {total}, more than the {expected} tricks played.",
            "Le prese inserite sommano {total}, più delle {expected} prese giocate.",
        ),
        "capture.thirds_without_tricks": (
            "{scorer} won no trick, so cannot have taken {thirds} thirds.",
            "{scorer}: nessuna presa, quindi nessun terzo, non {thirds}.",
        ),
        "capture.thirds_over_tricks": (
            "{scorer} won {won}, which can hold at most {limit} thirds, not {thirds}.",
            "{scorer}: in {won} ci stanno al massimo {limit} terzi, non {thirds}.",
        ),
        "capture.thirds_under_cards": (
            "{scorer} won {won}, that is {cards} cards, and only 16 cards of the pack are "
            "worth nothing (7, 6, 5, 4): at least {limit} thirds, not {thirds}.",
            "{scorer}: in {won} ci sono {cards} carte, e nel mazzo solo 16 carte valgono "
            "zero (7, 6, 5, 4): almeno {limit} terzi, non {thirds}.",
        ),
        "capture.too_many_cards": (
            "{scorer} won {won}, which can hold {limit} cards, but {count} cards are listed.",
            "{scorer}: in {won} ci sono {limit} carte, ma ne sono elencate {count}.",
        ),
        "capture.card_count": (
            "{scorer} won {won}, that is exactly {limit} cards, but {count} are listed.",
            "{scorer}: in {won} ci sono esattamente {limit} carte, ma ne sono elencate {count}.",
        ),
        "capture.counters_missing": (
            "These counting cards are not in anybody's pile: {cards}.",
            "Queste carte che contano non sono nelle prese di nessuno: {cards}.",
        ),
        "last_trick.unknown": (
            "The last trick must be won by one of {allowed}, not {value!r}.",
            "L'ultima presa deve essere di uno tra {allowed}, non {value!r}.",
        ),
        "last_trick.no_tricks": (
            "{scorer} is entered as winning the last trick but won no trick.",
            "L'ultima presa risulta di {scorer}, ma a {scorer} non risulta nessuna presa.",
        ),
        "last_trick.all_tricks": (
            "{scorer} won every trick, so also the last one, not {value}.",
            "Tutte le prese a {scorer}, quindi anche l'ultima, non {value}.",
        ),
        "last_trick.missing": (
            "Say who won the last trick.",
            "Indica chi ha fatto l'ultima presa.",
        ),
        "ind.level_cards": (
            "At the cards level every entry lists the cards taken, but {scorer} has only thirds.",
            "Al livello carte ogni voce elenca le carte prese, ma per {scorer} ci sono solo "
            "i terzi.",
        ),
        "ind.no_declarations": (
            "Declarations (accusi) are not scored in {game}: remove 'declarations'.",
            "In {game} non si accusa: togli 'declarations'.",
        ),
        "ind.points_mismatch": (
            "{scorer} is entered with {entered} points, but {thirds} thirds{lt} make "
            "{expected} under the rule '{rounding}'.",
            "Per {scorer} sono segnati {entered} punti, ma {thirds} terzi{lt} fanno {expected} "
            "punti con la regola '{rounding}'.",
        ),
        "ind.total_over_eleven": (
            "The points of this deal add up to {total}, more than 11: rounding two thirds up "
            "('round_two_thirds_up') can do that.",
            "I punti di questa smazzata sommano {total}, più di 11: può succedere "
            "arrotondando per eccesso i due terzi ('round_two_thirds_up').",
        ),
    }
)

ROUNDING = choice(
    "core.rounding",
    "floor_per_scorer",
    "remainder_to_last_trick",
    "round_two_thirds_up",
    help="How captured thirds become points (1.4).",
)
DIRECTION = choice("core.direction", "anticlockwise", "clockwise", help="Direction of play.")
FRENCH_COURT = choice(
    "core.french_court_order", "Q_above_J", "J_above_Q", help="French packs: Q vs J (1.2)."
)
FIRST_LEAD = choice(
    "core.first_lead",
    "eldest",
    "holder_of_4d",
    "holder_of_4d_first_deal_only",
    help="Who leads to the first trick.",
)
CORE_SWITCHES = (ROUNDING, DIRECTION, FRENCH_COURT, FIRST_LEAD)

CAPTURE_FIELDS = ("thirds", "cards", "tricks")


@dataclass(slots=True)  # not frozen: built many times per deal, frozen init is slow
class Capture:
    """What one scorer took: thirds (entered or derived from cards) and tricks."""

    scorer: str
    path: str
    thirds: int
    tricks: int
    cards: tuple[Card, ...] | None = None  # None at the totals level
    #: False where the table did not count the tricks (only whether a side took them all)
    tricks_counted: bool = True

    @property
    def aces(self) -> int:
        """Aces taken, when known from cards; at the totals level thirds bound it."""
        if self.cards is None:
            return self.thirds // 3
        return sum(1 for c in self.cards if c.rank == "A")

    def counters_below_one_point(self) -> bool:
        """Less than one point in counters: at most 2 thirds and no ace (E2, E3 loose)."""
        return self.thirds <= 2


def read_captures(
    data: Mapping[str, Any],
    key: str,
    scorers: Sequence[str],
    path: str,
    problems: Problems,
    *,
    deck: Iterable[Card] = DECK40,
    what: tuple[str, str] = ("side", "lato"),
    extra_fields: Sequence[str] = (),
) -> dict[str, Capture]:
    """Read ``data[key]``: an object from each scorer to ``{thirds|cards, tricks}``."""
    where = f"{path}.{key}" if path else key  # ``join`` of a field's name
    raw = data.get(key)
    if raw is None:
        problems.add("input.missing", where, field=key)
        return {}
    raw = obj(raw, where, problems, what=key)
    deck = tuple(deck)
    out: dict[str, Capture] = {}
    for name in raw:
        if name not in scorers:
            problems.add(
                "capture.unknown_scorer",
                join(where, str(name)),
                value=name,
                allowed=", ".join(scorers),
            )
    for scorer in scorers:
        spath = f"{where}.{scorer}"
        entry = raw.get(scorer)
        if type(entry) is dict and len(entry) == 2:  # fast path: {"thirds": n, "tricks": n}
            thirds, tricks = entry.get("thirds"), entry.get("tricks")
            if (
                type(thirds) is int
                and type(tricks) is int
                and 0 <= thirds <= CARD_THIRDS_IN_DECK
                and 0 <= tricks <= 40
            ):
                out[scorer] = Capture(scorer, spath, thirds, tricks)
                continue
        if scorer not in raw:
            problems.add(
                "capture.missing_scorer", spath, scorer=scorer, what=what[0], what_it=what[1]
            )
            continue
        entry = obj(raw[scorer], spath, problems, what=scorer)
        known_fields(entry, (*CAPTURE_FIELDS, *extra_fields), spath, problems)
        tricks = integer(entry, "tricks", spath, problems, low=0, high=40)
        has_thirds = entry.get("thirds") is not None
        has_cards = entry.get("cards") is not None
        if has_thirds and has_cards:
            problems.add("capture.thirds_and_cards", spath)
            continue
        if not has_thirds and not has_cards:
            problems.add("capture.nothing", spath, scorer=scorer)
            continue
        if has_thirds:
            thirds = integer(entry, "thirds", spath, problems, low=0, high=CARD_THIRDS_IN_DECK)
            if thirds is not None and tricks is not None:
                out[scorer] = Capture(scorer, spath, thirds, tricks)
        else:
            taken = cards(entry, "cards", spath, problems, deck=deck)
            if taken is not None and tricks is not None:
                out[scorer] = Capture(scorer, spath, thirds_of(taken), tricks, tuple(taken))
    return out


def merge_captures(scorer: str, path: str, caps: Sequence[Capture]) -> Capture:
    """Several players' captures as one side's (cards kept when every pile is known)."""
    thirds = tricks = 0
    known = True
    for c in caps:
        thirds += c.thirds
        tricks += c.tricks
        if c.cards is None:
            known = False
    return Capture(
        scorer,
        path,
        thirds,
        tricks,
        tuple(card for c in caps for card in (c.cards or ())) if known else None,
    )


def check_captures(
    captures: Mapping[str, Capture],
    problems: Problems,
    *,
    tricks_in_deal: int,
    cards_per_trick: int,
    thirds_in_play: int = CARD_THIRDS_IN_DECK,
    complete: bool = True,
    extra_cards: Mapping[str, int] | None = None,
    extra_thirds: Mapping[str, int] | None = None,
    counting_cards: Iterable[Card] = (),
    other_piles: Mapping[str, Sequence[Card]] | None = None,
    path: str = "",
) -> None:
    """D2, D5-D9 over every scorer's capture.

    ``complete`` is False for a deal stopped by a claim: totals may then fall short.
    ``extra_cards``/``extra_thirds`` are cards a scorer got beyond its tricks (a monte to
    the last-trick winner). ``counting_cards`` lists every card that counts in play, so a
    cards-level entry can say which counters nobody took.
    """
    extra_cards = extra_cards or {}
    extra_thirds = extra_thirds or {}
    total_thirds = total_tricks = 0
    at_cards_level = bool(captures)
    for c in captures.values():  # one pass: the totals, and whether every pile is known
        total_thirds += c.thirds
        total_tricks += c.tricks
        if c.cards is None:
            at_cards_level = False
    if at_cards_level:
        piles: dict[str, Sequence[Card]] = {
            c.path + ".cards": list(c.cards or ()) for c in captures.values()
        }
        piles.update(other_piles or {})
        no_duplicates(piles, problems)
    if complete and len(captures) and total_tricks != tricks_in_deal:
        problems.add("capture.tricks_total", path, total=total_tricks, expected=tricks_in_deal)
    elif not complete and total_tricks > tricks_in_deal:
        problems.add("capture.tricks_over", path, total=total_tricks, expected=tricks_in_deal)
    for cap in captures.values():
        bonus_cards = extra_cards.get(cap.scorer, 0) if extra_cards else 0
        bonus_thirds = extra_thirds.get(cap.scorer, 0) if extra_thirds else 0
        if cap.tricks == 0 and bonus_cards == 0 and cap.thirds > 0:
            problems.add(
                "capture.thirds_without_tricks", cap.path, scorer=cap.scorer, thirds=cap.thirds
            )
            continue
        held = cards_per_trick * cap.tricks + bonus_cards
        _check_pile(problems, cap, held, 3 * cards_per_trick * cap.tricks + bonus_thirds)
    if complete and len(captures):
        if at_cards_level and counting_cards:
            taken = {card for c in captures.values() for card in (c.cards or ())}
            taken.update(card for pile in (other_piles or {}).values() for card in pile)
            missing = [c for c in counting_cards if c.thirds and c not in taken]
            if missing:
                problems.add(
                    "capture.counters_missing",
                    path,
                    cards=", ".join(c.code for c in missing),
                )
                return
        if total_thirds != thirds_in_play:
            problems.add(
                "capture.thirds_total",
                path,
                total=total_thirds,
                expected=thirds_in_play,
                points=_points_text(thirds_in_play),
            )
    elif total_thirds > thirds_in_play:
        problems.add("capture.thirds_over", path, total=total_thirds, expected=thirds_in_play)


#: The 40-card pack (1.3): 4 aces of 3 thirds, 20 cards of 1 (3, 2, R, C, F), 16 of 0.
ACES, ONE_THIRD_CARDS, BLANKS = 4, 20, 16


def most_thirds(cards: int) -> int:
    """The most thirds ``cards`` cards of the pack can hold: the aces first, then the
    cards of one third (D4, D9: two tricks of four cards hold 4 aces + 4 figures, 16)."""
    return 3 * min(cards, ACES) + min(max(cards - ACES, 0), ONE_THIRD_CARDS)


def least_thirds(cards: int) -> int:
    """The fewest thirds ``cards`` cards of the pack can hold: only 16 cards are worth
    nothing (7, 6, 5, 4), so a pile of more holds a counter for each card beyond them.
    Exact for the 40-card pack; a stripped pack (a 4 out) has fewer blanks, so it is a
    bound there."""
    ones = min(max(cards - BLANKS, 0), ONE_THIRD_CARDS)
    return ones + 3 * max(cards - BLANKS - ONE_THIRD_CARDS, 0)


def _check_pile(problems: Problems, cap: Capture, held: int, limit: int) -> None:
    """D6, D8, D9 for one scorer: ``held`` cards (its tricks and any monte) hold at most
    ``limit`` thirds (3 a card) and what the pack's cards allow, at least what its blanks
    leave, and no more cards than that are listed."""
    if cap.tricks_counted:  # placeholder counts (tricks not counted) bound nothing
        limit = min(limit, most_thirds(held))
    if cap.thirds > limit:
        _over(problems, "capture.thirds_over_tricks", cap, limit=limit, thirds=cap.thirds)
    elif cap.tricks_counted and cap.thirds < least_thirds(held):
        _over(
            problems,
            "capture.thirds_under_cards",
            cap,
            cards=held,
            limit=least_thirds(held),
            thirds=cap.thirds,
        )
    if cap.cards is not None and len(cap.cards) > held:
        _over(problems, "capture.too_many_cards", cap, limit=held, count=len(cap.cards))


def _over(problems: Problems, code: str, cap: Capture, **params: Any) -> None:
    """A scorer's capture holds more than its tricks can: said at the capture, with the
    scorer and its tricks."""
    problems.add(
        code, cap.path, scorer=cap.scorer, tricks=cap.tricks, won=tricks_said(cap.tricks), **params
    )


def tricks_said(count: int) -> Localized:
    """ "1 trick" / "3 tricks", "1 presa" / "3 prese": a count of tricks in a message."""
    if count == 1:
        return Localized("1 trick", "1 presa")
    return Localized(f"{count} tricks", f"{count} prese")


def _points_text(thirds: int) -> str:
    whole, rest = divmod(thirds, 3)
    return f"{whole}" + {0: "", 1: "⅓", 2: "⅔"}[rest]


def check_last_trick(
    last_trick: Any,
    captures: Mapping[str, Capture],
    scorers: Sequence[str],
    tricks_in_deal: int,
    path: str,
    problems: Problems,
    *,
    required: bool = True,
) -> str | None:
    """D10: one last-trick winner, who won a trick; a scorer with every trick is it."""
    if last_trick is None:
        if required:
            problems.add("last_trick.missing", path)
        return None
    if last_trick not in scorers:
        problems.add("last_trick.unknown", path, value=last_trick, allowed=", ".join(scorers))
        return None
    cap = captures.get(last_trick)
    if cap is not None and cap.tricks == 0:
        problems.add("last_trick.no_tricks", path, scorer=last_trick)
    for other in captures.values():
        if other.scorer != last_trick and other.tricks == tricks_in_deal:
            problems.add("last_trick.all_tricks", path, scorer=other.scorer, value=last_trick)
    return str(last_trick)


def score_thirds(
    thirds: Mapping[str, int],
    last_trick: str | None,
    rounding: str,
    *,
    last_trick_points: int = LAST_TRICK_THIRDS // 3,
    deal_points: int = DEAL_POINTS,
) -> dict[str, list[Line]]:
    """Section 1.4: each scorer's card points and last-trick point, as breakdown lines.

    ``floor_per_scorer`` drops every remainder; ``remainder_to_last_trick`` gives the
    last-trick winner ``deal_points`` minus everyone else's points; ``round_two_thirds_up``
    credits a remainder of two thirds as a point.
    """
    lines: dict[str, list[Line]] = {}
    for scorer, th in thirds.items():
        whole, rest = divmod(th, 3)
        detail: dict[str, Any] = {"thirds": th, "dropped_thirds": rest}
        if rounding == "round_two_thirds_up" and rest == 2:
            whole += 1
            detail = {"thirds": th, "dropped_thirds": 0, "rounded_up": True}
        lines[scorer] = [Line("cards", whole, detail)]
        if scorer == last_trick:
            lines[scorer].append(Line("last_trick", last_trick_points))
    if rounding == "remainder_to_last_trick" and last_trick in lines:
        others = sum(lines[s][0].points for s in lines if s != last_trick)
        own = lines[last_trick][0].points + last_trick_points
        leftover = deal_points - others - own
        if leftover:
            lines[last_trick].append(Line("leftover", leftover, {"from_dropped_thirds": True}))
    return lines


def total(lines: Iterable[Line]) -> int:
    return sum(line.points for line in lines)


ANNUL_RULE = choice(
    "t4.annul_rule",
    "less_than_one_point",
    "no_carico_and_lt3_figures",
    "off",
    help="When a poor hand may have the deal cancelled (2.1.2).",
)


def may_annul(hand: Iterable[Card], rule: str) -> bool:
    """2.1.2: PEN/SPZ/TSO: counters under one point; GG/CC: no 3, 2 or ace, < 3 figures."""
    hand = tuple(hand)
    if rule == "less_than_one_point":
        return thirds_of(hand) < 3
    if rule == "no_carico_and_lt3_figures":
        return (
            not any(c.rank in CARICHI for c in hand)
            and sum(1 for c in hand if c.rank in FIGURE) < 3
        )
    return False


# -- entries at the totals and cards levels, shared by the games that score thirds ------

LEVELS = ("totals", "cards")
POINTS = ("points",)  # optional field of a capture entry (S3)
WITH_LT = Localized(" and the last trick", " e l'ultima presa")
NO_LT = Localized("", "")


def read_level(deal: Mapping[str, Any], problems: Problems) -> str | None:
    """The optional ``level`` field; ``play`` is not accepted yet."""
    if "level" not in deal:
        return None
    level = one_of(deal, "level", LEVELS, "", problems, required=False)
    return level if isinstance(level, str) else None


def check_level(level: str | None, captures: Mapping[str, Capture], problems: Problems) -> str:
    """The deal's level: ``cards`` when every entry lists cards, else ``totals``."""
    at_cards = bool(captures)
    for cap in captures.values():
        if cap.cards is None:
            at_cards = False
            break
    if level == "cards" and not at_cards:
        for cap in captures.values():
            if cap.cards is None:
                problems.add("ind.level_cards", cap.path, scorer=cap.scorer)
    return "cards" if at_cards else "totals"


def entered_points(
    deal: Mapping[str, Any], key: str, scorers: Sequence[str], problems: Problems
) -> dict[str, int]:
    """Optional ``points`` a club entered per scorer (S3: checked against the thirds)."""
    raw = deal.get(key)
    out: dict[str, int] = {}
    if not _mapping(raw):
        return out
    for scorer in scorers:
        entry = raw.get(scorer)
        if type(entry) is dict:
            if len(entry) < 3:  # the usual {"thirds"|"cards", "tricks"}: no points
                continue
        elif not isinstance(entry, Mapping):
            continue
        if "points" in entry:
            value = integer(entry, "points", f"{key}.{scorer}", problems, low=0, high=100)
            if value is not None:
                out[scorer] = value
    return out


def check_points(
    entered: Mapping[str, int],
    points: Mapping[str, int],
    thirds: Mapping[str, int],
    last: str | None,
    rounding: str,
    key: str,
    problems: Problems,
) -> None:
    for scorer, value in entered.items():
        if value != points[scorer]:
            problems.add(
                "ind.points_mismatch",
                f"{key}.{scorer}.points",
                scorer=scorer,
                entered=value,
                thirds=thirds[scorer],
                lt=WITH_LT if scorer == last else NO_LT,
                expected=points[scorer],
                rounding=rounding,
            )


def uncounted_seat_tricks(
    deal: Mapping[str, Any],
    seats: Sequence[str],
    tricks: int,
    cards_per_trick: int,
    takers: Sequence[Any] = (),
) -> tuple[Mapping[str, Any], bool]:
    """The tricks of a seats entry in thirds, counted by the table or not counted at all
    (a paper sheet writes each player's points, never his tricks).

    Uncounted, the rules see counts that say nothing: each player with card points the
    fewest tricks that hold them, each of ``takers`` (who took a last trick) one at
    least, the rest to the first of them; the result's facts must not report them.
    Returns the deal with those counts and whether the table counted them."""
    piles = deal.get("seats")
    if not _mapping(piles) or set(piles) != set(seats):
        return deal, True
    for pile in piles.values():
        if not _mapping(pile) or "tricks" in pile or "cards" in pile:
            return deal, True
        if type(pile.get("thirds")) is not int or not 0 <= pile["thirds"] <= 40 * 3:
            return deal, True
    held = 3 * cards_per_trick
    some = {s: -(-int(piles[s]["thirds"]) // held) for s in seats}
    named = [t for t in takers if isinstance(t, str) and t in some]
    for seat in named:
        some[seat] = max(1, some[seat])
    spare = tricks - sum(some.values())
    if spare < 0:
        return deal, True
    some[named[0] if named else max(seats, key=lambda s: some[s])] += spare
    filled = {s: {**piles[s], "tricks": some[s]} for s in seats}
    return {**deal, "seats": filled}, False


def _mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """``isinstance(value, Mapping)``, the usual answers first (the ABC check is slow)."""
    if type(value) is dict:
        return True
    return value is not None and isinstance(value, Mapping)


def over_eleven(points_total: int, limit: int = DEAL_POINTS) -> tuple[Problem, ...]:
    """S5: rounding two thirds up may push a deal past 11 points: warn, do not reject."""
    if points_total > limit:
        return (problem("ind.total_over_eleven", "", total=points_total),)
    return ()


def rank_order(rules: Rules) -> tuple[str, ...]:
    if rules.values.get("core.french_court_order") == "J_above_Q":
        return TRESSETTE_RANKS_J_ABOVE_Q
    return TRESSETTE_RANKS


def capture_entry(taken: Sequence[Card], tricks: int, level: str) -> dict[str, Any]:
    """One scorer's capture as a deal entry at ``level``."""
    if level == "cards":
        return {"cards": [c.code for c in taken], "tricks": tricks}
    return {"thirds": thirds_of(taken), "tricks": tricks}


def uncounted_tricks(
    deal: Mapping[str, Any],
    sides: Sequence[str],
    tricks: int,
    complete: bool,
    problems: Problems,
) -> tuple[Mapping[str, Any], bool]:
    """The tricks of a sides entry: counted by the table, or not counted at all (nobody
    counts tricks at a table unless a side took them all: ``all_tricks`` names it).

    Uncounted, the rules see what they need: the side named took all the tricks and the other
    none; with no side named, each side took some (so no cappotto by tricks, and a
    stramazzo is the points' to say). Returns the deal with those counts and whether
    the table counted them."""
    piles = deal.get("sides")
    everyone = deal.get("all_tricks")
    if not _mapping(piles):
        return deal, True
    counts = False
    for pile in piles.values():
        if not _mapping(pile):
            return deal, True
        counts = counts or "tricks" in pile
    if counts:
        if everyone is not None:
            problems.add("capture.all_tricks_with_counts", "all_tricks")
        return deal, True
    if not complete:
        if everyone is not None:
            problems.add("capture.all_tricks_with_claim", "all_tricks")
        return deal, True  # a claim needs the counts so far: read_captures asks for them
    if everyone is not None and everyone not in sides:
        problems.add(
            "capture.all_tricks_bad_side", "all_tricks", value=everyone, allowed=", ".join(sides)
        )
        return deal, True
    if everyone is None:
        some = dict.fromkeys(sides, tricks // 2)
    else:
        some = {side: tricks if side == everyone else 0 for side in sides}
    filled = {
        side: {**pile, "tricks": some[side]} if side in some else pile
        for side, pile in piles.items()
    }
    return {**deal, "sides": filled}, everyone is not None
