"""Declarations (accusi, buon gioco): reading them and checking they can all be true.

Section 2.1.3 and invariants A1-A6, A8, A9 of the reference. A declaration names the cards
it requires; every check is about those card sets, so the same code serves every game
that plays with accusi.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import SUIT_NAMES_EN, SUIT_NAMES_IT, SUITS, Card
from .errors import Localized, Problems, messages
from .parse import boolean, card_name, integer, join, known_fields, obj, one_of

KINDS = ("napoletana", "three", "four", "decima")
GROUP_RANKS = ("3", "2", "A")
#: The coda of a napoletana: further cards of its suit below the ace, in order (A9).
CODA_ORDER = ("R", "C", "F", "7", "6", "5", "4")
MAX_PLAYER = 19
MAX_SIDE = 21
FIELDS = ("player", "type", "suit", "rank", "missing", "coda", "trick")
#: How a declaration went wrong, under the tournament code's handling (``anomalies``):
#: made before the player's turn or after his first card ("when"), incomplete or wrong
#: ("form"), how an incomplete or wrong one was put right ("fixed"), and whether an
#: opponent contested it at the end of the trick ("contested").
ANOMALY_FIELDS = ("when", "form", "fixed", "contested")
WHEN = ("early", "late")
FORMS = ("incomplete", "wrong")
#: How an incomplete or wrong declaration was put right (Codice del tressette, "Il gioco
#: con l'Accusa" and "Anomalie dell'accusa"): by the declarer during the first trick; by
#: the play of the first trick; at an opponent's or the partner's question during the
#: first trick; after the first trick (a late declaration); or never.
FIXES = (
    "by_declarer",
    "found_in_play",
    "asked_by_opponent",
    "asked_by_partner",
    "after_first_trick",
    "never",
)

messages(
    {
        "decl.not_a_list": (
            "'declarations' must be a list.",
            "'declarations' deve essere una lista.",
        ),
        "decl.bad_type": (
            "{value!r} is not a declaration; use napoletana, three, four or decima.",
            "{value!r} non è un accuso; usa napoletana, three, four o decima.",
        ),
        "decl.bad_player": (
            "{value!r} is not a player at this table; players: {allowed}.",
            "{value!r} non è un giocatore di questo tavolo; giocatori: {allowed}.",
        ),
        "decl.bad_suit": (
            "A {kind} must name its suit (d, c, s or b), not {value!r}.",
            "Una {kind} deve indicare il seme (d, c, s o b), non {value!r}.",
        ),
        "decl.bad_rank": (
            "Three or four of a kind is of 3s, 2s or aces, not {value!r}.",
            "Tre o quattro carte uguali sono di tre, due o assi, non {value!r}.",
        ),
        "decl.bad_missing": (
            "Three {rank}s must name the one missing suit (d, c, s or b), not {value!r}.",
            "Il buongioco di {rank} deve indicare il seme che manca (d, c, s o b), non {value!r}.",
        ),
        "decl.extra_field": (
            "A {kind} does not take '{field}'.",
            "Un accuso {kind} non prevede '{field}'.",
        ),
        "decl.coda_off": (
            "The coda is not played under these house rules.",
            "La coda non si gioca con queste regole della casa.",
        ),
        "decl.same_rank_twice": (
            "{player} declared {rank}s twice: a rank is declared once (four replaces three).",
            "{player} ha accusato due volte i {rank}: un rango si accusa una volta sola "
            "(il quattro sostituisce il tre).",
        ),
        "decl.same_player_conflict": (
            "{player} declared three {rank}s missing {suit} and a napoletana in {suit}: "
            "he would hold all four {rank}s and must declare four {rank}s.",
            "{player} ha accusato tre {rank} senza {suit} e la napoletana di {suit}: "
            "avrebbe tutti e quattro i {rank} e deve accusare quattro {rank}.",
        ),
        "decl.too_many_cards": (
            "{player}'s declarations need {count} different cards, more than the {size} in a hand.",
            "Gli accusi di {player} richiedono {count} carte diverse, più delle {size} "
            "di una mano.",
        ),
        "decl.cross_player_conflict": (
            "{first} declared {first_decl} and {second} declared {second_decl}: both would "
            "hold the {card}.",
            "{first} ha accusato {first_decl} e {second} ha accusato {second_decl}: "
            "entrambi avrebbero la carta {card}.",
        ),
        "decl.player_total": (
            "{player} declared {points} points; no hand can declare more than {limit}.",
            "{player} ha accusato {points} punti; nessuna mano può accusarne più di {limit}.",
        ),
        "decl.side_total": (
            "Side {side} declared {points} points; no side can declare more than {limit}.",
            "Il lato {side} ha accusato {points} punti; nessun lato può accusarne più di {limit}.",
        ),
        "decl.anomaly_off": (
            "{player}'s declaration is marked '{field}': under these house rules a "
            "declaration must be complete, right and made in time, or it is not entered "
            "(the tournament code's handling is the switch t4.decl_anomalies).",
            "L'accuso di {player} è segnato '{field}': con queste regole della casa un accuso "
            "dev'essere completo, giusto e fatto in tempo, altrimenti non si inserisce (il "
            "trattamento del codice di torneo è l'opzione t4.decl_anomalies).",
        ),
        "decl.fixed_without_form": (
            "'fixed' says how an incomplete or wrong declaration was put right: say which "
            "it was ('form': incomplete or wrong).",
            "'fixed' dice come è stato sistemato un accuso incompleto o errato: indica quale "
            "('form': incomplete o wrong).",
        ),
        "decl.form_without_fixed": (
            "{player}'s declaration was {form}: say how it was put right ('fixed': by the "
            "declarer, by the play, at an opponent's or the partner's question, after the "
            "first trick, or never).",
            "L'accuso di {player} era {form}: indica come è stato sistemato ('fixed': da chi "
            "ha accusato, dal gioco, su domanda di un avversario o del compagno, dopo la "
            "prima presa, o mai).",
        ),
        "decl.contested_nothing": (
            "Only a declaration made early or late (or put right after the first trick) can "
            "be contested: {player}'s was neither.",
            "Si contesta solo un accuso fatto prima del turno o in ritardo (o sistemato dopo "
            "la prima presa): quello di {player} non lo era.",
        ),
        "decl.not_in_hand": (
            "{player} declared {decl}, but the hand entered has no {card}.",
            "{player} ha accusato {decl}, ma la mano inserita non ha la carta {card}.",
        ),
    }
)

#: A declaration's points before its coda (none for a decima).
BASE_POINTS = {"napoletana": 3, "three": 3, "four": 4}

_RANK_EN = {"3": "3", "2": "2", "A": "ace"}
_RANK_IT = {"3": "tre", "2": "due", "A": "assi"}


@dataclass(slots=True)  # read-only by convention; frozen init is slow on the hot path
class Declaration:
    player: str
    kind: str
    suit: str | None = None
    rank: str | None = None
    missing: str | None = None
    coda: int = 0
    trick: int | None = None
    path: str = ""
    #: Not declared, but implied by three or more declared combinations (``implied``).
    implied: bool = False
    #: The tournament code's anomalies (``ANOMALY_FIELDS``); None: made as it should be.
    when: str | None = None
    form: str | None = None
    fixed: str | None = None
    contested: bool = False

    def cards(self) -> frozenset[Card]:
        return _required(self.kind, self.suit, self.rank, self.missing, self.coda)

    def own_cards(self, coda_from_partner: bool) -> frozenset[Card]:
        """The cards the declarer himself must hold: under PE's coda (2.1.3, "PE even
        counts the partner's cards") the coda's cards may be his partner's."""
        if coda_from_partner and self.coda:
            return _required(self.kind, self.suit, self.rank, self.missing, 0)
        return self.cards()

    def cards_in_order(self) -> tuple[Card, ...]:
        """:meth:`cards` sorted by code: the same input gives the same answer."""
        return _required_in_order(self.kind, self.suit, self.rank, self.missing, self.coda)

    @property
    def base_points(self) -> int:
        return BASE_POINTS.get(self.kind, 0)

    @property
    def points(self) -> int:
        return self.base_points + self.coda

    def label(self) -> Localized:
        if self.kind in ("napoletana", "decima") and self.suit is None:  # incomplete
            return Localized(self.kind, self.kind)
        if self.kind == "napoletana":
            assert self.suit
            extra_en = f" with a coda of {self.coda}" if self.coda else ""
            extra_it = f" con la coda di {self.coda}" if self.coda else ""
            return Localized(
                f"napoletana in {SUIT_NAMES_EN[self.suit]}{extra_en}",
                f"napoletana di {SUIT_NAMES_IT[self.suit]}{extra_it}",
            )
        if self.kind == "three" and self.missing is None:  # incomplete: no suit said
            assert self.rank
            return Localized(f"three {_RANK_EN[self.rank]}s", f"tre {_RANK_IT[self.rank]}")
        if self.kind == "three":
            assert self.rank and self.missing
            return Localized(
                f"three {_RANK_EN[self.rank]}s missing {SUIT_NAMES_EN[self.missing]}",
                f"tre {_RANK_IT[self.rank]} senza {SUIT_NAMES_IT[self.missing]}",
            )
        if self.kind == "four":
            assert self.rank
            return Localized(f"four {_RANK_EN[self.rank]}s", f"quattro {_RANK_IT[self.rank]}")
        assert self.suit
        return Localized(
            f"all ten {SUIT_NAMES_EN[self.suit]} (decima)",
            f"tutte le dieci di {SUIT_NAMES_IT[self.suit]} (decima)",
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "type": self.kind, "points": self.points}
        if self.suit is not None:
            out["suit"] = self.suit
        if self.rank is not None:
            out["rank"] = self.rank
        if self.missing is not None:
            out["missing"] = self.missing
        if self.coda:
            out["coda"] = self.coda
        if self.implied:
            out["implied"] = True
        return out

    def anomaly(self) -> dict[str, Any] | None:
        """The tournament code's outcome of this declaration's anomaly, as the detail of
        its line: None when it was made as it should be; ``"lost": True`` when its points
        are lost. Source: Codice del tressette (``regolamento.tex``), "Il gioco con
        l'Accusa" and "Anomalie dell'accusa":

        * early ("prima che sia giunto il suo turno di gioco") or late ("esauritasi la
          prima battuta"): it stands if nobody contested it ("sanatoria implicita"); if
          contested at the end of the trick, "perdita dei punti di buongioco";
        * incomplete or wrong, put right by the declarer during the first trick ("può - a
          prima battuta ancora in corso - ... completare o correggere l'accusa") or at an
          opponent's question ("può essere immediatamente integrata o corretta"): it
          counts; at the partner's question: "divieto di rettificare ... e la perdita dei
          punti"; shown by the play of the first trick: it counts, but "si constata
          l'erroneità dell'accusa di una napoletana: l'accusa non può essere corretta";
          put right after the first trick: as a late declaration; never: it was not
          "correttamente" declared and counts nothing.
        """
        if self.when is None and self.form is None:
            return None
        out: dict[str, Any] = {}
        lost = False
        if self.when is not None:
            out["when"] = self.when
            lost = self.contested
        if self.form is not None:
            out["form"] = self.form
            out["fixed"] = self.fixed
            if self.fixed in ("asked_by_partner", "never"):
                lost = True
            elif self.fixed == "found_in_play" and self.form == "wrong":
                lost = lost or self.kind == "napoletana"
            elif self.fixed == "after_first_trick":
                lost = lost or self.contested
        if self.contested:
            out["contested"] = True
        out["lost" if lost else "cured"] = True
        return out


def implied(declared: Sequence[Declaration]) -> list[Declaration]:
    """The combinations that a player's three or more declared ones show he holds without
    declaring them (the tournament code counts them as declared): three napoletane show
    three of a kind of the 3s, 2s and aces; three of a kind of the 3s, 2s and aces missing
    the same suit show the three napoletane of the other suits; and so on."""
    out: list[Declaration] = []
    players = sorted({d.player for d in declared})
    for player in players:
        own = [d for d in declared if d.player == player and d.kind != "decima"]
        if len(own) < 3:
            continue
        held = frozenset().union(*(d.cards() for d in own))
        napoletane = {d.suit for d in own if d.kind == "napoletana"}
        groups = {d.rank for d in own if d.kind in ("three", "four")}
        for suit in SUITS:
            if suit not in napoletane and all(Card(r, suit) in held for r in GROUP_RANKS):
                out.append(Declaration(player, "napoletana", suit=suit, implied=True))
        for rank in GROUP_RANKS:
            if rank in groups:
                continue
            suits = [s for s in SUITS if Card(rank, s) in held]
            if len(suits) == 4:
                out.append(Declaration(player, "four", rank=rank, implied=True))
            elif len(suits) == 3:
                (missing,) = (s for s in SUITS if s not in suits)
                out.append(Declaration(player, "three", rank=rank, missing=missing, implied=True))
    return out


@functools.lru_cache(maxsize=512)
def _required_in_order(
    kind: str, suit: str | None, rank: str | None, missing: str | None, coda: int
) -> tuple[Card, ...]:
    """:func:`_required` sorted by code (cached like it)."""
    return tuple(sorted(_required(kind, suit, rank, missing, coda), key=str))


@functools.lru_cache(maxsize=512)
def _required(
    kind: str, suit: str | None, rank: str | None, missing: str | None, coda: int
) -> frozenset[Card]:
    """The cards a declaration requires (cached: there are few distinct ones)."""
    if kind == "napoletana" and suit:
        held = {Card(r, suit) for r in GROUP_RANKS}
        held.update(Card(r, suit) for r in CODA_ORDER[:coda])
        return frozenset(held)
    if kind == "three" and rank and missing:
        return frozenset(Card(rank, s) for s in SUITS if s != missing)
    if kind == "four" and rank:
        return frozenset(Card(rank, s) for s in SUITS)
    if kind == "decima" and suit:
        from .cards import TRESSETTE_RANKS

        return frozenset(Card(r, suit) for r in TRESSETTE_RANKS)
    return frozenset()


def read_declarations(
    raw: Any,
    players: Sequence[str],
    path: str,
    problems: Problems,
    *,
    coda: str = "off",
    decima: bool = True,
    anomalies: bool = False,
) -> list[Declaration]:
    """A1: each declaration well formed (kind, suit, rank, missing suit, coda).

    With ``anomalies`` (the tournament code's handling) a declaration may also say how
    it went wrong (``ANOMALY_FIELDS``; see :meth:`Declaration.anomaly`); an incomplete
    one may leave out the suit nobody said. Without, those fields are refused in words.
    """
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add("decl.not_a_list", path)
        return []
    kinds = KINDS if decima else KINDS[:3]
    out: list[Declaration] = []
    for i, item in enumerate(raw):
        quick = _well_formed(item, players, kinds, f"{path}[{i}]")
        if quick is not None:
            out.append(quick)
            continue
        found = _read_one(item, join(path, i), players, kinds, problems, coda, anomalies)
        if found is not None:
            out.append(found)
    return out


def _read_one(
    item: Any,
    where: str,
    players: Sequence[str],
    kinds: Sequence[str],
    problems: Problems,
    coda: str,
    anomalies: bool,
) -> Declaration | None:
    """One declaration the quick check did not take, read field by field: every problem
    said at its field; None when any holds it back."""
    entry = obj(item, where, problems, what="A declaration")
    if not isinstance(item, Mapping):
        return None
    known_fields(entry, (*FIELDS, *ANOMALY_FIELDS), where, problems)
    player, kind = entry.get("player"), entry.get("type")
    ok = True
    if player not in players:
        problems.add(
            "decl.bad_player",
            join(where, "player"),
            value=player,
            allowed=", ".join(players),
        )
        ok = False
    if kind not in kinds:
        problems.add("decl.bad_type", join(where, "type"), value=kind)
        return None
    suit = entry.get("suit")
    rank = entry.get("rank")
    missing = entry.get("missing")
    wants_suit = kind in ("napoletana", "decima")
    said = _anomaly(entry, player, where, problems, anomalies)
    ok = ok and said is not None
    # An incomplete declaration may leave out the suit nobody said.
    unsaid = said is not None and said[1] == "incomplete"
    if wants_suit and suit not in SUITS and not (unsaid and suit is None):
        problems.add("decl.bad_suit", join(where, "suit"), kind=kind, value=suit)
        ok = False
    if not wants_suit and rank not in GROUP_RANKS:
        problems.add("decl.bad_rank", join(where, "rank"), value=rank)
        ok = False
    if kind == "three" and missing not in SUITS and not (unsaid and missing is None):
        problems.add("decl.bad_missing", join(where, "missing"), rank=rank, value=missing)
        ok = False
    for field, allowed in (
        ("suit", wants_suit),
        ("rank", not wants_suit),
        ("missing", kind == "three"),
        ("coda", kind == "napoletana"),
    ):
        if not allowed and entry.get(field) is not None:
            problems.add("decl.extra_field", join(where, field), kind=kind, field=field)
            ok = False
    tail = integer(
        entry, "coda", where, problems, low=0, high=len(CODA_ORDER), required=False, default=0
    )
    if tail and coda == "off":
        problems.add("decl.coda_off", join(where, "coda"))
        ok = False
    trick = integer(entry, "trick", where, problems, low=0, high=20, required=False)
    if not ok or said is None:
        return None
    when, form, fixed, contested = said
    return Declaration(
        player=str(player),
        kind=str(kind),
        suit=suit if wants_suit else None,
        rank=None if wants_suit else rank,
        missing=missing if kind == "three" else None,
        coda=tail or 0,
        trick=trick,
        path=where,
        when=when,
        form=form,
        fixed=fixed,
        contested=contested,
    )


def _anomaly(
    entry: Mapping[str, Any], player: Any, where: str, problems: Problems, allowed: bool
) -> tuple[str | None, str | None, str | None, bool] | None:
    """The anomaly fields of one declaration (when, form, fixed, contested); None when
    they are wrong (the problems say why)."""
    given = [f for f in ANOMALY_FIELDS if entry.get(f) is not None]
    if not given:
        return None, None, None, False
    if not allowed:
        for field in given:
            problems.add("decl.anomaly_off", join(where, field), player=player, field=field)
        return None
    before = len(problems.items)
    when = one_of(entry, "when", WHEN, where, problems, required=False)
    form = one_of(entry, "form", FORMS, where, problems, required=False)
    fixed = one_of(entry, "fixed", FIXES, where, problems, required=False)
    contested = boolean(entry, "contested", where, problems)
    if fixed is not None and form is None and entry.get("form") is None:
        problems.add("decl.fixed_without_form", join(where, "fixed"))
    if form is not None and fixed is None and entry.get("fixed") is None:
        problems.add("decl.form_without_fixed", join(where, "fixed"), player=player, form=form)
    if contested and when is None and fixed != "after_first_trick":
        problems.add("decl.contested_nothing", join(where, "contested"), player=player)
    if len(problems.items) > before:
        return None
    return when, form, fixed, contested


_FIELD_SET = frozenset(FIELDS)


def _well_formed(
    item: Any, players: Sequence[str], kinds: Sequence[str], path: str
) -> Declaration | None:
    """The common case, checked fast: a plain, valid declaration without coda or trick."""
    if type(item) is not dict or not item.keys() <= _FIELD_SET:
        return None
    kind, player = item.get("type"), item.get("player")
    if player not in players or kind not in kinds or "coda" in item or "trick" in item:
        return None
    suit, rank, missing = item.get("suit"), item.get("rank"), item.get("missing")
    if kind in ("napoletana", "decima"):
        ok = suit in SUITS and rank is None and missing is None
    elif kind == "four":
        ok = rank in GROUP_RANKS and suit is None and missing is None
    else:
        ok = rank in GROUP_RANKS and missing in SUITS and suit is None
    return Declaration(str(player), str(kind), suit, rank, missing, path=path) if ok else None


def check_declarations(
    declarations: Sequence[Declaration],
    problems: Problems,
    *,
    hand_size: int = 10,
    sides: Mapping[str, Sequence[str]] | None = None,
    hands: Mapping[str, Collection[Card]] | None = None,
    coda_from_partner: bool = False,
) -> None:
    """A2-A6 (and A8 when the dealt hands are known).

    ``coda_from_partner`` (PE): a coda may be made of the partner's cards, so its cards
    need not fit in the declarer's hand.
    """
    by_player: dict[str, list[Declaration]] = {}
    for decl in declarations:
        by_player.setdefault(decl.player, []).append(decl)
    plain_points: dict[str, int] = {}  # each player's, the decima aside
    for player, own in by_player.items():
        if len(own) > 1:
            _check_same_player(player, own, problems)
            needed = frozenset().union(*(d.own_cards(coda_from_partner) for d in own))
        else:  # one declaration: its own cards (a union of one is a copy)
            needed = own[0].own_cards(coda_from_partner)
        if len(needed) > hand_size:  # A2
            problems.add(
                "decl.too_many_cards",
                own[-1].path,
                player=player,
                count=len(needed),
                size=hand_size,
            )
        plain = 0
        for decl in own:
            if decl.kind != "decima":
                plain += BASE_POINTS.get(decl.kind, 0)  # ``base_points``
        plain_points[player] = plain
        if plain > MAX_PLAYER:  # A6
            problems.add(
                "decl.player_total", own[-1].path, player=player, points=plain, limit=MAX_PLAYER
            )
        if hands is not None and player in hands:  # A8
            for decl in own:
                for card in sorted(decl.cards() - set(hands[player]), key=str):
                    problems.add(
                        "decl.not_in_hand",
                        decl.path,
                        player=player,
                        decl=decl.label(),
                        card=card_name(card),
                    )
                    break
    if len(by_player) > 1:
        _check_cross_player(declarations, problems)
    # A side's points are some players' (none negative): under the limit when all are.
    if sides and sum(plain_points.values()) > MAX_SIDE:
        for side, members in sides.items():
            points = sum(plain_points.get(p, 0) for p in members)
            if points > MAX_SIDE:
                problems.add(
                    "decl.side_total", "declarations", side=side, points=points, limit=MAX_SIDE
                )


def _check_same_player(player: str, own: Sequence[Declaration], problems: Problems) -> None:
    """A3 and A4: one player's declarations against each other."""
    ranks: dict[str, Declaration] = {}
    for decl in own:
        if decl.rank is None:
            continue
        if decl.rank in ranks:  # A4
            problems.add("decl.same_rank_twice", decl.path, player=player, rank=_rank(decl.rank))
        ranks[decl.rank] = decl
    for decl in own:  # A3
        if decl.kind != "three" or decl.missing is None:
            continue
        for other in own:
            if other.kind == "napoletana" and other.suit == decl.missing:
                assert decl.rank and decl.missing
                problems.add(
                    "decl.same_player_conflict",
                    decl.path,
                    player=player,
                    rank=_rank(decl.rank),
                    suit=_suit(decl.missing),
                )


def _check_cross_player(declarations: Sequence[Declaration], problems: Problems) -> None:
    """A5: no card in two players' declarations (only one player's can share none)."""
    holders: dict[Card, Declaration] = {}
    reported: set[tuple[str, str]] = set()
    for decl in declarations:  # cards in a fixed order: the same input, the same answer
        for card in decl.cards_in_order():
            first = holders.setdefault(card, decl)
            if first.player == decl.player or (first.path, decl.path) in reported:
                continue
            reported.add((first.path, decl.path))
            shared = min(first.cards() & decl.cards(), key=str)
            problems.add(
                "decl.cross_player_conflict",
                decl.path,
                first=first.player,
                first_decl=first.label(),
                second=decl.player,
                second_decl=decl.label(),
                card=card_name(shared),
            )


def _rank(rank: str) -> Localized:
    return Localized(_RANK_EN[rank], _RANK_IT[rank])


def _suit(suit: str) -> Localized:
    return Localized(SUIT_NAMES_EN[suit], SUIT_NAMES_IT[suit])
