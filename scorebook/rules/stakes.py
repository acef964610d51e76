"""Stakes as the tournament code lists them, and the pot ("piatto").

Source: the *Codice del tressette* (repository Enucatl/tressette), ``regolamento.tex``,
chapter "Il tressette classico", subsection "Le Poste e il Piatto" (the same articles are
in ``regole`` under "Le Poste e il Piatto"), and the articles on a cappotto after the game
was won in "Norme che regolano la chiamata fuori". The code places them under the classic
game of four players in two pairs, so they are switches of Tressette in pairs only.

``match_stake`` says how many stakes each loser pays each winner and whether the winners
take the pot; ``piatto`` says, for the matches of one meeting in order, what each player
puts into the pot and what it pays out. Both are pure: the ledger books what they say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from .houserules import Switch, choice

#: t4.stake values. ``event_multipliers`` is what every match paid before these switches.
EVENT_MULTIPLIERS = "event_multipliers"
SINGLE = "single_stake"
SINGLE_OR_DOUBLE = "single_or_double"
POINT_DIFFERENCE = "point_difference"
MARCIO_E_BATUFFA = "marcio_e_batuffa"

STAKE_SWITCHES: tuple[Switch, ...] = (
    # "La posta può essere dei seguenti tipi": unica, variabile, semplice o doppia,
    # con marcio e batuffa. The default keeps the event multipliers (t4.multipliers).
    choice(
        "t4.stake",
        EVENT_MULTIPLIERS,
        SINGLE,
        SINGLE_OR_DOUBLE,
        POINT_DIFFERENCE,
        MARCIO_E_BATUFFA,
        help="What a match pays (the code's poste).",
    ),
    Switch(
        "t4.stake_step",
        1,
        between=(1, 100),
        help="Points of difference per stake (t4.stake = point_difference).",
    ),
    Switch(
        "t4.batuffa",
        11,
        between=(1, 1000),
        help="Losers with fewer points have not 'sbatuffato' and pay one stake more.",
    ),
    # "La coppia che consegue il cappotto dopo aver già vinto la partita ordinaria ...
    # non ha più il diritto di incassare la posta tripla, bensì la posta semplice o la
    # posta doppia".
    choice(
        "t4.cappotto_after_win",
        "cappotto_stake",
        "ordinary_stake",
        help="What a cappotto completed after the game was already won pays.",
    ),
)

#: The events the code calls a cappotto (a cappottone is a cappotto made by one player).
CAPPOTTO = frozenset({"cappotto", "cappottone"})


@dataclass(frozen=True)
class Stake:
    """What a finished match pays: ``stakes`` from each loser to each winner, and whether
    the winners share the pot (marcio e batuffa, a cappotto)."""

    stakes: int
    takes_pot: bool = False
    ordinary: bool = False  # a cappotto after the game was won, paid as an ordinary win


def match_stake(
    kind: str,
    *,
    event: str | None,
    event_multiplier: int,
    after_win: bool,
    winner_total: int,
    loser_total: int,
    step: int = 1,
    batuffa: int = 11,
    after_win_rule: str = "cappotto_stake",
) -> Stake:
    """The stakes each loser pays each winner of a match that ended with ``event`` (None
    for an ordinary win: target, claim, a fixed number of deals) and these totals.

    * ``event_multipliers``: the event's multiplier (t4.multipliers), 1 otherwise.
    * ``single_stake`` (posta unica): always one stake, cappotto or not.
    * ``single_or_double`` (posta semplice o doppia): one stake, two for a cappotto.
    * ``point_difference`` (posta variabile): one stake per ``step`` points of
      difference between the totals, at least one.
    * ``marcio_e_batuffa``: one stake if the losers "sbatuffato" (``batuffa`` points or
      more), two otherwise; a cappotto pays two or three and its winners share the pot.

    Events the code does not know (stramazzo, collatondrione) pay as an ordinary win
    under the code's stakes. With ``after_win_rule = ordinary_stake`` a cappotto
    completed after the side had already reached the target pays the ordinary stake (it
    still wins the pot).
    """
    cappotto = event in CAPPOTTO
    demoted = cappotto and after_win and after_win_rule == "ordinary_stake"
    if kind == EVENT_MULTIPLIERS:
        return Stake(1 if demoted else event_multiplier, ordinary=demoted)
    if kind == SINGLE:
        return Stake(1, ordinary=demoted)
    if kind == SINGLE_OR_DOUBLE:
        return Stake(2 if cappotto and not demoted else 1, ordinary=demoted)
    if kind == POINT_DIFFERENCE:
        return Stake(max(1, (winner_total - loser_total) // step), ordinary=demoted)
    if kind == MARCIO_E_BATUFFA:
        base = 1 if loser_total >= batuffa else 2
        return Stake(base + (1 if cappotto and not demoted else 0), cappotto, demoted)
    raise ValueError(f"unknown stake kind {kind!r}")


# -- the pot ------------------------------------------------------------------------------

POT = "pot"
CENT = Decimal("0.01")


@dataclass(frozen=True)
class PotMatch:
    """One finished match of a meeting, as the pot sees it.

    ``players`` are who sat (account keys), ``winners`` those of them who won, ``stake``
    the value of one stake, ``purse`` the unit and currency it is paid in (a meeting that
    changes currency keeps one pot per currency), ``takes_pot`` whether the winners share
    the pot (a cappotto under marcio e batuffa).
    """

    players: tuple[str, ...]
    winners: tuple[str, ...]
    stake: Decimal
    purse: str = ""
    takes_pot: bool = False
    doubled_by: tuple[str, ...] = ()  # a side that went for cappotto and failed


@dataclass(frozen=True)
class PotMove:
    payer: str  # a player key, or POT
    payee: str
    amount: Decimal


@dataclass
class _Purse:
    fresh: bool = True  # the next match is the first of the meeting or after a cappotto
    put_in: dict[str, Decimal] | None = None
    last: int | None = None  # index of the last match paid in this purse


def piatto(matches: Sequence[PotMatch], *, closed: bool = False) -> list[list[PotMove]]:
    """What each match of a meeting moves into and out of the pot, in order.

    "Il piatto si alimenta con la messa da parte di ciascun giocatore di una posta prima
    di dar inizio alla prima partita (o alla prima partita successiva ad un cappotto) e di
    un quarto di posta prima dell'inizio di ciascuna partita successiva": each seated
    player pays one stake into the pot before the first match and the first after a
    cappotto, a quarter stake (rounded to the cent, half up) before every other one.
    "I vincitori si dividono in parti uguali il piatto": a cappotto's winners share it,
    an odd cent going to the first winner; "il giocatore o i giocatori che riposavano ...
    hanno diritto a ritirare quanto dagli stessi versato nel piatto": whoever fed it and
    sat out the match that took it gets back what he put in. "La coppia che non consegue
    il cappotto dopo averlo dichiarato ... raddoppia la somma che si trova nel piatto": the
    players of ``doubled_by`` put in, between them, what the pot holds (odd cent: first).

    With ``closed`` (the night is over) what is left goes back to whoever put it in,
    with the last match of its purse, so every pot ends the night at zero.
    """
    out: list[list[PotMove]] = [[] for _ in matches]
    purses: dict[str, _Purse] = {}
    for index, match in enumerate(matches):
        purse = purses.setdefault(match.purse, _Purse())
        put_in = purse.put_in if purse.put_in is not None else {}
        feed = match.stake if purse.fresh else match.stake / 4
        feed = feed.quantize(CENT, rounding=ROUND_HALF_UP)
        moves = out[index]
        if feed > 0:
            for player in match.players:
                moves.append(PotMove(player, POT, feed))
                put_in[player] = put_in.get(player, Decimal(0)) + feed
        purse.fresh = False
        purse.put_in = put_in
        purse.last = index
        if match.doubled_by and not match.takes_pot:
            held = sum(put_in.values(), Decimal(0))
            each = (held / len(match.doubled_by)).quantize(CENT, rounding=ROUND_DOWN)
            odd = held - each * len(match.doubled_by)
            for number, player in enumerate(match.doubled_by):
                amount = each + (odd if number == 0 else Decimal(0))
                if amount > 0:
                    moves.append(PotMove(player, POT, amount))
                    put_in[player] = put_in.get(player, Decimal(0)) + amount
        if match.takes_pot and match.winners:
            seated = set(match.players)
            shared = Decimal(0)
            for player in sorted(put_in):
                if player in seated:
                    shared += put_in[player]
                elif put_in[player] > 0:
                    moves.append(PotMove(POT, player, put_in[player]))
            each = (shared / len(match.winners)).quantize(CENT, rounding=ROUND_DOWN)
            odd = shared - each * len(match.winners)
            for number, winner in enumerate(match.winners):
                amount = each + (odd if number == 0 else Decimal(0))
                if amount > 0:
                    moves.append(PotMove(POT, winner, amount))
            purse.fresh = True
            purse.put_in = {}
    if closed:
        for purse in purses.values():
            if purse.last is None or not purse.put_in:
                continue
            for player in sorted(purse.put_in):
                if purse.put_in[player] > 0:
                    out[purse.last].append(PotMove(POT, player, purse.put_in[player]))
    return out


def pot_balance(moves: Sequence[Sequence[PotMove]]) -> Decimal:
    """What the pot holds after ``moves``."""
    held = Decimal(0)
    for match in moves:
        for move in match:
            if move.payee == POT:
                held += move.amount
            if move.payer == POT:
                held -= move.amount
    return held
