"""Writes to a tournament, each in one transaction; a refusal changes nothing.

The night's director registers pairs (or singles, drawn into pairs by lot, once), pairs
a round (Swiss: a maximum-weight matching; groups: the circle method; knockout: the
bracket), may swap two entries or give a bye before starting it, and starts it: the
entries are seated at the night's tables and each table's match is created through the
record's front door (``matches.services.match_create``), so the table phones enter deals
as on any night. Entry fees go into the tournament's pot in the ledger as the night's
entries; finishing the tournament pays the prizes and the club's share out of it.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Sequence
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scorebook.clubs.models import Player, Role
from scorebook.clubs.services import player_create, require_role
from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.core.reasons import check_reason
from scorebook.core.refusals import unique_or
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.matches import services as matches
from scorebook.matches.models import Match, Night, Table
from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.rules import Rejection, get_game
from scorebook.standings.leagues import knockout, roundrobin

from . import pairing as pure
from . import ranking, selectors
from .models import Draw, Entry, Pairing, PairingMatch, Round, Single, Tournament
from .refusals import (
    AlreadyForfeited,
    ByeNotAllowed,
    EntryAlreadyOut,
    EntryNotInRound,
    EntryWithdrawn,
    MatchStillOpen,
    NeedsAPlayerOrName,
    NightClosed,
    NoBellaNeeded,
    NoRoundLeft,
    NotAPairsGame,
    NotFinishedYet,
    NothingToDraw,
    NotInPairing,
    PairingDecided,
    PairingUndecided,
    PlayerAlreadyIn,
    PrizesOverPot,
    PrizeSplitOver,
    ReasonNeeded,
    RegistrationClosed,
    RoundInProgress,
    RoundNotPaired,
    RoundNotStarted,
    RoundStarted,
    SamePlayerTwice,
    SecondBye,
    SingleDrawn,
    SinglesOdd,
    SinglesWaiting,
    SwapNotAllowed,
    TooFewEntries,
    TournamentCancelled,
    TournamentFinished,
    TournamentNameTaken,
    TournamentSettings,
    UnknownPlayer,
)

CENT = Decimal("0.01")
#: The fewest pairs each format needs.
LEAST = {Tournament.Format.SWISS: 2, Tournament.Format.GROUPS: 3, Tournament.Format.KNOCKOUT: 2}
#: The longest reason stored (the column).
REASON_MAX = 200


# -- settings ----------------------------------------------------------------------------------


def _pair_seats(game: str, rules: Any) -> tuple[tuple[str, str], tuple[str, str]]:
    """The two sides' seats of a match of ``game`` under ``rules``, as the engine seats
    two fixed pairs; refused when the game is not played in fixed pairs."""
    try:
        engine = get_game(game)
        resolved = engine.rules(rules)
        seats = engine.seats(resolved, 4) if 4 in engine.player_counts else ()
    except (KeyError, Rejection):
        raise NotAPairsGame(path="game") from None
    if not seats:
        raise NotAPairsGame(path="game")
    sides = list(engine.table_shape(resolved.values, tuple(seats)).members.values())
    if len(sides) != 2 or any(len(side) != 2 for side in sides):
        raise NotAPairsGame(path="game")
    return (sides[0][0], sides[0][1]), (sides[1][0], sides[1][1])


def _amount(value: Any, path: str) -> Decimal:
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise TournamentSettings(path=path, problem=f"{value!r}") from None
    if not amount.is_finite() or amount < 0 or amount > Decimal("1000000"):
        raise TournamentSettings(path=path, problem=f"{value!r}")
    return amount.quantize(CENT)


def _check_prizes(kind: str, prizes: Sequence[Any], club_share: Any) -> tuple[list[str], Decimal]:
    """The prize split as stored (strings, two decimals) and the club's share; a split
    over 100% is refused."""
    if kind not in Tournament.PrizeKind.values:
        raise TournamentSettings(path="prize_kind", problem=str(kind)[:20])
    if not isinstance(prizes, (list, tuple)) or len(prizes) > 64:
        raise TournamentSettings(path="prizes", problem="a list of at most 64 places")
    amounts = [_amount(p, f"prizes[{i}]") for i, p in enumerate(prizes)]
    share = _amount(club_share, "club_share")
    if kind == Tournament.PrizeKind.PERCENT:
        total = sum(amounts, Decimal(0)) + share
        if total > 100:
            raise PrizeSplitOver(path="prizes", total=f"{total.normalize():f}")
    return [str(a) for a in amounts], share


#: The settings a director gives (``tournament_create``) or changes (``tournament_update``),
#: with their defaults.
DEFAULTS: dict[str, Any] = {
    "format": Tournament.Format.SWISS,
    "rounds": 3,
    "group_size": 4,
    "qualifiers": 1,
    "seeding": Tournament.Seeding.ORDER,
    "series": knockout.MATCHES,
    "series_games": 1,
    "tiebreaks": None,
    "points_win": 2,
    "points_draw": 1,
    "points_loss": 0,
    "entry_fee": 0,
    "currency": "",
    "prize_kind": Tournament.PrizeKind.PERCENT,
    "prizes": (),
    "club_share": 0,
}
#: What may still change once round 1 is paired: the tie-breaks and the points (the
#: standings are computed on read) and the prize split (paid at the end).
CHANGEABLE_WHILE_RUNNING = {
    "name",
    "tiebreaks",
    "points_win",
    "points_draw",
    "points_loss",
    "prize_kind",
    "prizes",
    "club_share",
}


def _small_int(value: Any, low: int, high: int, path: str, words: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise TournamentSettings(path=path, problem=words)
    return value


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """The settings as stored, each checked; a refusal names the first that does not hold."""
    out = dict(values)
    name = values["name"].strip() if isinstance(values["name"], str) else ""
    if not name or len(name) > 80:
        raise TournamentSettings(path="name", problem="a name of 1 to 80 characters")
    out["name"] = name
    if values["format"] not in Tournament.Format.values:
        raise TournamentSettings(path="format", problem=str(values["format"])[:20])
    _small_int(values["rounds"], 1, 20, "rounds", "1 to 20 rounds")
    _small_int(values["group_size"], 3, 5, "group_size", "groups of 3 to 5")
    _small_int(values["qualifiers"], 1, 2, "qualifiers", "1 or 2 of each group")
    if values["seeding"] not in Tournament.Seeding.values:
        raise TournamentSettings(path="seeding", problem=str(values["seeding"])[:20])
    _small_int(values["series_games"], 1, 9, "series_games", "1 to 9 games")
    try:
        knockout.Series(values["series"], values["series_games"])
    except (ValueError, TypeError):
        raise TournamentSettings(path="series", problem=str(values["series"])[:20]) from None
    try:
        out["tiebreaks"] = list(ranking.check_chain(values["tiebreaks"] or ranking.CRITERIA))
    except (ValueError, TypeError) as problem:
        raise TournamentSettings(path="tiebreaks", problem=str(problem)[:100]) from None
    for key in ("points_win", "points_draw", "points_loss"):
        _small_int(values[key], 0, 100, key, "0 to 100")
    fee = _amount(values["entry_fee"], "entry_fee")
    currency = values["currency"]
    # The stakes' currencies: the fee is booked in the ledger beside the night's stakes.
    if not isinstance(currency, str) or (currency and currency not in STAKE_CURRENCIES):
        raise TournamentSettings(path="currency", problem="one of " + ", ".join(STAKE_CURRENCIES))
    if fee and not currency:
        raise TournamentSettings(path="currency", problem="an entry fee needs a currency")
    prizes, share = _check_prizes(values["prize_kind"], values["prizes"], values["club_share"])
    out.update(
        entry_fee=fee,
        currency=currency if fee else "",
        prizes=prizes if fee else [],
        club_share=share if fee else Decimal(0),
    )
    return out


@transaction.atomic
def tournament_create(
    *,
    night: Night,
    name: str,
    game: str,
    rules: Any,
    user: User,
    seed: int | None = None,
    **settings: Any,
) -> Tournament:
    """A tournament on tonight's ``night``. The house rules are checked by the engine
    now (each match is created with them later); ``seed`` (default: a random one) drives
    every drawing of lots and is stored. ``settings``: any of ``DEFAULTS`` (format,
    rounds, group_size, qualifiers, seeding, series, series_games, tiebreaks, points_win,
    points_draw, points_loss, entry_fee, currency, prize_kind, prizes, club_share)."""
    require_role(user, night.club_id, Role.DIRECTOR)
    if night.status == Night.Status.CLOSED:
        raise NightClosed()
    unknown = set(settings) - set(DEFAULTS)
    if unknown:
        raise TournamentSettings(path=sorted(unknown)[0], problem="not a setting")
    values = _checked({**DEFAULTS, **settings, "name": name})
    _pair_seats(game, rules)
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**48):
        raise TournamentSettings(path="seed", problem="a whole number from 0 to 2^48")
    if Tournament.objects.filter(night=night, name=values["name"]).exists():
        raise TournamentNameTaken(path="name", name=values["name"])
    # The check above cannot see a director creating the same name at this moment.
    tournament = unique_or(
        TournamentNameTaken(path="name", name=values["name"]),
        lambda: Tournament.objects.create(
            club_id=night.club_id,
            night=night,
            game=game,
            rules=rules if rules is not None else {},
            seed=seed if seed is not None else secrets.randbits(48),
            created_by=user,
            **values,
        ),
    )
    audit(
        club_id=night.club_id,
        actor=user,
        verb="tournament_created",
        obj=tournament,
        after={"name": tournament.name, "format": tournament.format, "seed": tournament.seed},
    )
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, changes: dict[str, Any], user: User) -> Tournament:
    """Change settings (``DEFAULTS``' keys and the name). Before round 1 is paired
    anything may change but the fee once a fee is booked; afterwards only the name, the
    tie-breaks, the points and the prize split (``CHANGEABLE_WHILE_RUNNING``)."""
    tournament = _locked(tournament, user)
    if not isinstance(changes, dict):
        raise TournamentSettings(path="", problem="an object of settings")
    unknown = set(changes) - set(DEFAULTS) - {"name"}
    if unknown:
        raise TournamentSettings(path=sorted(unknown)[0], problem="not a setting")
    if tournament.status != Tournament.Status.REGISTRATION:
        fixed = sorted(set(changes) - CHANGEABLE_WHILE_RUNNING)
        if fixed:
            raise TournamentSettings(path=fixed[0], problem="fixed once round 1 is paired")
    current = {key: getattr(tournament, key) for key in [*DEFAULTS, "name"]}
    values = _checked({**current, **changes})
    booked = selectors.ledger_entries(tournament).exists()
    if booked and (
        values["entry_fee"] != tournament.entry_fee or values["currency"] != tournament.currency
    ):
        raise TournamentSettings(path="entry_fee", problem="fees are already paid")
    if (
        values["name"] != tournament.name
        and Tournament.objects.filter(night_id=tournament.night_id, name=values["name"]).exists()
    ):
        raise TournamentNameTaken(path="name", name=values["name"])
    changed = {k: v for k, v in values.items() if v != current[k]}
    for key, value in changed.items():
        setattr(tournament, key, value)
    if changed:
        # Another tournament renamed to this name at this moment: the same refusal.
        unique_or(
            TournamentNameTaken(path="name", name=values["name"]),
            lambda: tournament.save(update_fields=list(changed)),
        )
        audit(
            club_id=tournament.club_id,
            actor=user,
            verb="tournament_changed",
            obj=tournament,
            before={k: str(current[k]) for k in changed},
            after={k: str(v) for k, v in changed.items()},
        )
    return tournament


# -- registration ------------------------------------------------------------------------------


def _locked(tournament: Tournament, user: User) -> Tournament:
    """The tournament row locked (its writes go one at a time), for a director of its
    club, on a night still open, not finished."""
    require_role(user, tournament.club_id, Role.DIRECTOR)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentFinished()
    if tournament.status == Tournament.Status.CANCELLED:
        raise TournamentCancelled()
    if Night.objects.filter(pk=tournament.night_id, status=Night.Status.CLOSED).exists():
        raise NightClosed()
    return tournament


def _player(tournament: Tournament, who: int | str, user: User, path: str) -> Player:
    """An existing player of the club (by id), or a new guest (by name) made in the same
    step through the clubs' service."""
    if isinstance(who, bool):
        raise NeedsAPlayerOrName(path=path)
    if isinstance(who, int):
        player = Player.objects.filter(club_id=tournament.club_id, pk=who).first()
        if player is None:
            raise UnknownPlayer(path=path)
        return player
    if isinstance(who, str) and who.strip():
        return player_create(club=tournament.club, name=who.strip()[:80], user=user, guest=True)
    raise NeedsAPlayerOrName(path=path)


def _not_in_yet(tournament: Tournament, player: Player, path: str) -> None:
    taken = (
        Entry.objects.filter(tournament=tournament, first=player).exists()
        or Entry.objects.filter(tournament=tournament, second=player).exists()
        or Single.objects.filter(tournament=tournament, player=player).exists()
    )
    if taken:
        raise PlayerAlreadyIn(path=path, player=player.name)


def _registration_open(tournament: Tournament) -> int:
    """The round a new entry plays from: 1 before round 1 is paired; a Swiss tournament
    takes late arrivals between rounds (from the next round); other formats refuse."""
    last = tournament.round_set.order_by("-number").first()
    if last is None:
        return 1
    if tournament.format != Tournament.Format.SWISS:
        raise RegistrationClosed()
    if not selectors.round_state(tournament, last).status == "closed":
        raise RoundInProgress(round=last.number, what=_in_progress_words(last))
    if last.number >= tournament.rounds:
        raise NoRoundLeft()
    return last.number + 1


def _in_progress_words(round_: Round) -> str:
    """What keeps ``round_`` in progress, for ``RoundInProgress`` (which says it)."""
    return "playing" if round_.started else "paired"


def _fee_in(tournament: Tournament, players: Sequence[Player], user: User) -> None:
    """Each player pays the entry fee into the tournament's pot (the night's entries)."""
    if not tournament.plays_for_money:
        return
    night = tournament.night
    pot = ledger.night_pot_account(night=night, pot=selectors.pot_name(tournament))
    accounts = ledger.player_accounts(tournament.club_id, [p.pk for p in players])
    ledger.night_book(
        night=night,
        moves=[(accounts[p.pk], pot, tournament.entry_fee) for p in players],
        kind=LedgerEntry.Kind.FEE,
        currency=tournament.currency,
        user=user,
    )


def _next_seed(tournament: Tournament) -> int:
    last = tournament.entries.order_by("-seed").values_list("seed", flat=True).first()
    return (last or 0) + 1


def _new_entry(
    tournament: Tournament, first: Player, second: Player, first_round: int, drawn: bool, name: str
) -> Entry:
    lot = None
    if tournament.status == Tournament.Status.RUNNING:  # a late arrival: the next lot
        last = tournament.entries.exclude(lot=None).order_by("-lot").values_list("lot", flat=True)
        lot = (last.first() or 0) + 1
    return Entry.objects.create(
        tournament=tournament,
        name=name or f"{first.name} & {second.name}",
        first=first,
        second=second,
        seed=_next_seed(tournament),
        lot=lot,
        drawn=drawn,
        first_round=first_round,
    )


@transaction.atomic
def entry_add(
    *, tournament: Tournament, players: Sequence[int | str], user: User, name: str = ""
) -> Entry:
    """A pair at the door: two players, each an existing player's id or a new guest's
    name (made in the same step). Pays the entry fee (each player). A Swiss tournament
    takes a late pair between rounds, from the next round."""
    tournament = _locked(tournament, user)
    first_round = _registration_open(tournament)
    if not isinstance(players, (list, tuple)) or len(players) != 2:
        raise SamePlayerTwice(path="players")
    if not isinstance(name, str) or len(name) > 170:
        raise TournamentSettings(path="name", problem="a name of at most 170 characters")
    if players[0] == players[1]:
        raise SamePlayerTwice(path="players")
    chosen = [_player(tournament, who, user, f"players[{i}]") for i, who in enumerate(players)]
    if chosen[0].pk == chosen[1].pk:
        raise SamePlayerTwice(path="players")
    for i, player in enumerate(chosen):
        _not_in_yet(tournament, player, f"players[{i}]")
    entry = _new_entry(tournament, chosen[0], chosen[1], first_round, False, name.strip())
    _fee_in(tournament, chosen, user)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_entry_added",
        obj=entry,
        after={"tournament": tournament.pk, "players": [p.pk for p in chosen]},
    )
    return entry


@transaction.atomic
def single_add(*, tournament: Tournament, player: int | str, user: User) -> Single:
    """A player who came alone, to be drawn into a pair (``singles_draw``); pays the fee."""
    tournament = _locked(tournament, user)
    _registration_open(tournament)
    chosen = _player(tournament, player, user, "player")
    _not_in_yet(tournament, chosen, "player")
    single = Single.objects.create(tournament=tournament, player=chosen)
    _fee_in(tournament, [chosen], user)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_single_added",
        obj=single,
        after={"tournament": tournament.pk, "player": chosen.pk},
    )
    return single


@transaction.atomic
def single_withdraw(*, single: Single, reason: str, user: User) -> None:
    """A single who leaves before being drawn: the registration goes (audited, with the
    reason) and the fee is given back. Once drawn, the pair withdraws (``entry_withdraw``)."""
    tournament = _locked(single.tournament, user)
    single = Single.objects.select_for_update().select_related("player").get(pk=single.pk)
    reason = _reason(reason)
    if single.entry_id is not None:
        raise SingleDrawn(player=single.player.name)
    refunded = _refund(tournament, [single.player_id], user) if tournament.plays_for_money else []
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_single_withdrawn",
        obj=single,
        after={"tournament": tournament.pk, "player": single.player_id, "refunded": len(refunded)},
        reason=reason,
    )
    single.delete()


def draw_pairs(player_ids: Sequence[int], seed: int) -> list[tuple[int, int]]:
    """The draw of singles into pairs (pure): the players, in order of arrival, shuffled
    by a generator seeded with ``seed``, paired in the order drawn. The same seed and
    players always give the same pairs."""
    drawn = list(player_ids)
    random.Random(seed).shuffle(drawn)
    return [(drawn[i], drawn[i + 1]) for i in range(0, len(drawn) - 1, 2)]


@transaction.atomic
def singles_draw(*, tournament: Tournament, user: User) -> Draw:
    """Draw the waiting singles into pairs, by lot: an even number of them, each drawn
    once (a pair made is never drawn again). The seed is stored with the pairs and the
    draw audited, so anyone can check it."""
    tournament = _locked(tournament, user)
    first_round = _registration_open(tournament)
    waiting = list(tournament.singles.filter(entry=None).select_related("player").order_by("id"))
    if not waiting:
        raise NothingToDraw()
    if len(waiting) % 2:
        raise SinglesOdd(count=len(waiting))
    number = tournament.draws.count() + 1
    seed = random.Random(f"{tournament.seed}:{number}").getrandbits(48)
    pairs = draw_pairs([s.player_id for s in waiting], seed)
    draw = Draw.objects.create(
        tournament=tournament,
        number=number,
        seed=seed,
        pairs=[list(p) for p in pairs],
        made_by=user,
    )
    by_player = {s.player_id: s for s in waiting}
    for a, b in pairs:
        first, second = by_player[a], by_player[b]
        entry = _new_entry(tournament, first.player, second.player, first_round, True, "")
        for single in (first, second):
            single.entry, single.draw = entry, draw
            single.save(update_fields=["entry", "draw"])
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_pairs_drawn",
        obj=draw,
        after={"tournament": tournament.pk, "seed": seed, "pairs": draw.pairs},
    )
    return draw


def _last_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def _has_played(entry: Entry) -> bool:
    """Has ``entry`` been in a round that started (played, rested or forfeited there)?
    Until then a withdrawal gives its fees back."""
    return (
        Pairing.objects.filter(round__tournament_id=entry.tournament_id)
        .exclude(round__started_at=None)
        .filter(Q(home=entry) | Q(away=entry))
        .exists()
    )


@transaction.atomic
def entry_withdraw(*, entry: Entry, reason: str, user: User) -> Entry:
    """A pair leaves between rounds, never in the middle of one. A pair that has not
    played yet (round 1 not started, in any format; a late arrival before its first
    round starts) gets its fees back (the ledger entries reversed); once it has been in
    a started round they stay in the pot, its results stay in the standings and it is
    paired no more. When the next
    round is paired and not started: in a Swiss round it leaves its pairing (its opponent
    takes the resting entry's place, or rests); in a group or knockout round it forfeits
    its pairing, and later ones too."""
    tournament = _locked(entry.tournament, user)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.tournament_id != tournament.pk:
        raise EntryNotInRound(path="entry", entry=entry.name)
    reason = _reason(reason)
    if entry.withdrawn:
        raise EntryAlreadyOut(entry=entry.name)
    last = _last_round(tournament)
    after = last.number if last else 0
    if last is not None and not last.started:
        after = _leave_paired_round(last, entry, reason)
    elif last is not None and selectors.round_state(tournament, last).status != "closed":
        raise RoundInProgress(round=last.number, what=_in_progress_words(last))
    entry.withdrawn_at = timezone.now()
    entry.withdrawn_after = after
    entry.withdrawal_reason = reason
    entry.save(update_fields=["withdrawn_at", "withdrawn_after", "withdrawal_reason"])
    refunded = []
    if tournament.plays_for_money and not _has_played(entry):
        refunded = _refund(tournament, [entry.first_id, entry.second_id], user)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_entry_withdrawn",
        obj=entry,
        after={"after_round": entry.withdrawn_after, "refunded": len(refunded)},
        reason=reason,
    )
    return entry


def _reason(reason: Any) -> str:
    """A reason in words, required, as long as its column at most."""
    if not isinstance(reason, str) or not reason.strip():
        raise ReasonNeeded(path="reason")
    return check_reason(reason.strip(), most=REASON_MAX)


def _leave_paired_round(round_: Round, entry: Entry, reason: str) -> int:
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
    elif other not in _earlier_byes(round_):
        mine.home_id, mine.away_id = other, None
        _resave(mine)
    else:  # the opponent would rest a second time: the round is paired again without it
        round_.pairings.all().delete()
        tournament = round_.tournament
        pairs = _swiss(tournament, round_.number, leaving={entry.pk})
        _store_pairings(round_, pairs, set())
    return round_.number - 1


def _refund(tournament: Tournament, player_ids: Sequence[int], user: User) -> list[LedgerEntry]:
    pot = selectors.pot_account(tournament)
    if pot is None:
        return []
    fees = LedgerEntry.objects.filter(
        payee=pot,
        kind=LedgerEntry.Kind.FEE,
        payer__player_id__in=player_ids,
        reversed_by__isnull=True,
    )
    return ledger.night_reverse(entries=list(fees), user=user)


# -- rounds ------------------------------------------------------------------------------------


def _active(tournament: Tournament, number: int) -> list[Entry]:
    """The entries that play round ``number``: arrived by then, not withdrawn before."""
    return [
        e
        for e in selectors.entries_of(tournament)
        if e.first_round <= number and (e.withdrawn_after is None or e.withdrawn_after >= number)
    ]


def _draw_lots(tournament: Tournament, entries: list[Entry]) -> None:
    """The drawing of lots, once, at the start: a permutation from the stored seed."""
    numbers = list(range(1, len(entries) + 1))
    random.Random(f"{tournament.seed}:lots").shuffle(numbers)
    for entry, lot in zip(entries, numbers, strict=True):
        entry.lot = lot
    Entry.objects.bulk_update(entries, ["lot"])


def _seeded(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    if tournament.seeding == Tournament.Seeding.LOTS:
        return sorted(entries, key=lambda e: (e.lot or 0, e.seed))
    return sorted(entries, key=lambda e: e.seed)


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


def _close(round_: Round) -> None:
    if round_.closed_at is None:
        round_.closed_at = timezone.now()
        round_.save(update_fields=["closed_at"])


def _previous_done(tournament: Tournament, last: Round | None) -> None:
    """The previous round is over: started, no match open, every pairing decided."""
    if last is None:
        return
    if not last.started:
        raise RoundInProgress(round=last.number, what=_in_progress_words(last))
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
    playing = [e for e in _active(tournament, number) if e.pk not in leaving]
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


def _group_rounds(tournament: Tournament) -> dict[int, list[roundrobin.Round[int]]]:
    return {
        number: roundrobin.circle_rounds([e.pk for e in members])
        for number, members in selectors.groups_of(tournament).items()
    }


def _group_round(tournament: Tournament, number: int) -> list[tuple[int, int | None, int, None]]:
    pairs: list[tuple[int, int | None, int, None]] = []
    for group, rounds in _group_rounds(tournament).items():
        if number <= len(rounds):
            this = rounds[number - 1]
            pairs.extend((home, away, group, None) for home, away in this.pairings)
            if this.bye is not None:
                pairs.append((this.bye, None, group, None))
    return pairs


def knockout_entries(tournament: Tournament) -> list[int]:
    """The knockout's entries in seeding order: every entry (straight knockout), or the
    top of each group once the groups are played."""
    if tournament.format == Tournament.Format.KNOCKOUT:
        return [e.pk for e in _seeded(tournament, _active(tournament, 1))]
    ranked = [
        [row.entry.pk for row in rows] for rows in selectors.group_standings(tournament).values()
    ]
    return pure.knockout_seeds(ranked, tournament.qualifiers)


def bracket(tournament: Tournament) -> list[list[knockout.Slot[int]]]:
    """The knockout bracket as far as it has been played (the leagues' bracket code):
    a slot's winner is its stored pairing's."""
    seeds = knockout_entries(tournament)
    rounds = list(tournament.round_set.filter(stage=Round.Stage.KNOCKOUT).order_by("number"))
    scores = selectors.pairing_scores(tournament, rounds)
    by_slot = {
        (s.pairing.round.number, s.pairing.slot): s
        for s in scores.values()
        if s.pairing.slot is not None
    }
    offset = rounds[0].number - 1 if rounds else 0

    def decide(number: int, slot: int, home: int, away: int) -> Any:
        score = by_slot.get((number + offset, slot))
        if score is None or not score.decided or score.winner is None:
            return knockout.UNDECIDED
        return score.winner

    return knockout.bracket(seeds, decide)


def _group_stage_rounds(tournament: Tournament) -> int:
    return max((len(r) for r in _group_rounds(tournament).values()), default=0)


def _knockout_round(tournament: Tournament, number: int) -> list[tuple[int, int | None, None, int]]:
    """The pairings of knockout round ``number`` of the bracket (1-based), byes too."""
    rounds = bracket(tournament)
    if number > len(rounds):
        raise NoRoundLeft()
    pairs: list[tuple[int, int | None, None, int]] = []
    for slot in rounds[number - 1]:
        if slot.bye and slot.winner is not None:
            pairs.append((slot.winner, None, None, slot.slot))
        elif slot.home is not None and slot.away is not None:
            pairs.append((slot.home, slot.away, None, slot.slot))
    return pairs


def total_rounds(tournament: Tournament) -> int:
    """How many rounds the tournament plays in all."""
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds
    if tournament.format == Tournament.Format.KNOCKOUT:
        return knockout.round_count(len(_active(tournament, 1)))
    groups = _group_stage_rounds(tournament)
    qualified = len(selectors.groups_of(tournament)) * tournament.qualifiers
    return groups + knockout.round_count(qualified)


def _start_tournament(tournament: Tournament, user: User) -> None:
    """Round 1 is paired: registration closes for groups and knockouts, the lots are
    drawn (the last tie-break and, if chosen, the seeding), the groups made."""
    waiting = tournament.singles.filter(entry=None).count()
    if waiting:
        raise SinglesWaiting(count=waiting)
    entries = _active(tournament, 1)
    least = LEAST[Tournament.Format(tournament.format)]
    if tournament.format == Tournament.Format.GROUPS:
        least = max(least, 2 * 3 if tournament.qualifiers == 1 else 3)
    if len(entries) < least:
        raise TooFewEntries(least=least, count=len(entries))
    _draw_lots(tournament, entries)
    if tournament.format == Tournament.Format.GROUPS:
        groups = pure.split_groups(_seeded(tournament, entries), tournament.group_size)
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
    tournament = _locked(tournament, user)
    last = _last_round(tournament)
    _previous_done(tournament, last)
    if last is None:
        _start_tournament(tournament, user)
    number = (last.number if last else 0) + 1
    if number > total_rounds(tournament):
        raise NoRoundLeft()
    withdrawn = {e.pk for e in selectors.entries_of(tournament) if e.withdrawn_after is not None}
    pairs: Sequence[tuple[Any, Any, int | None, int | None]]
    if tournament.format == Tournament.Format.SWISS:
        stage, pairs = Round.Stage.SWISS, _swiss(tournament, number)
    elif tournament.format == Tournament.Format.KNOCKOUT:
        stage, pairs = Round.Stage.KNOCKOUT, _knockout_round(tournament, number)
    elif number <= _group_stage_rounds(tournament):
        stage, pairs = Round.Stage.GROUP, _group_round(tournament, number)
    else:
        stage = Round.Stage.KNOCKOUT
        pairs = _knockout_round(tournament, number - _group_stage_rounds(tournament))
    if last is not None:
        _close(last)
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
    last = _last_round(tournament)
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
    tournament = _locked(tournament, user)
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


def _earlier_byes(round_: Round) -> dict[int, int]:
    """Entry -> the round of its bye, for the byes before ``round_``."""
    rows = Pairing.objects.filter(
        round__tournament_id=round_.tournament_id, round__number__lt=round_.number, away=None
    ).values_list("home_id", "round__number")
    return dict(rows)


def _no_second_bye(round_: Round, entry_id: int) -> None:
    """At most one bye per entry: refuse to rest ``entry_id`` again by hand."""
    had = _earlier_byes(round_).get(entry_id)
    if had is not None:
        raise SecondBye(path="entry", entry=Entry.objects.get(pk=entry_id).name, round=had)


@transaction.atomic
def pairing_bye(*, tournament: Tournament, entry: Entry, user: User) -> Round:
    """Give ``entry`` a bye in the round paired and not started (Swiss only). Its
    opponent takes the place of the entry that had the bye, if any; else it rests too.
    An entry rests at most once: a bye to an entry that has had one, or that would make
    its opponent rest a second time, is refused."""
    tournament = _locked(tournament, user)
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
    home_seats, away_seats = _pair_seats(tournament.game, tournament.rules)
    home, away = pairing.home, pairing.away
    assert away is not None
    return {
        home_seats[0]: home.first_id,
        home_seats[1]: home.second_id,
        away_seats[0]: away.first_id,
        away_seats[1]: away.second_id,
    }


def _create_match(tournament: Tournament, pairing: Pairing, user: User) -> Match:
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
    tournament = _locked(tournament, user)
    last = _last_round(tournament)
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
        _create_match(tournament, pairing, user)
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


@transaction.atomic
def pairing_forfeit(*, pairing: Pairing, entry: Entry, reason: str, user: User) -> Pairing:
    """``entry`` loses the pairing "a tavolino" (it did not sit down, or left): the other
    wins with the score a series needs at the game's target, whatever its matches say.
    A pairing already decided by its matches cannot be forfeited."""
    round_ = pairing.round
    tournament = _locked(round_.tournament, user)
    pairing = (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("home", "away")
        .get(pk=pairing.pk)
    )
    reason = _reason(reason)
    if entry.pk not in (pairing.home_id, pairing.away_id) or pairing.away_id is None:
        raise NotInPairing(path="entry", entry=entry.name)
    if pairing.forfeited_by_id is not None:
        raise AlreadyForfeited(entry=Entry.objects.get(pk=pairing.forfeited_by_id).name)
    later = tournament.round_set.filter(number__gt=round_.number).exists()
    if later:
        raise RoundStarted(round=round_.number + 1)
    score = selectors.pairing_scores(tournament, [round_])[pairing.pk]
    if score.decided:
        raise PairingDecided()
    pairing.forfeited_by = entry
    pairing.forfeit_reason = reason
    pairing.save(update_fields=["forfeited_by", "forfeit_reason"])
    _abandon_open(pairing, reason, user)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_forfeit",
        obj=pairing,
        after={"entry": entry.pk, "round": round_.number},
        reason=reason,
    )
    return pairing


def _abandon_open(pairing: Pairing, reason: str, user: User) -> None:
    """A forfeited pairing's matches still open end, abandoned with the forfeit's reason
    (the night's room, its close and the round then see them over; their deals stay)."""
    for match in Match.objects.filter(tournament_game__pairing=pairing, status=Match.Status.OPEN):
        matches.match_abandon(match=match, reason=reason, user=user)


@transaction.atomic
def pairing_next_match(*, pairing: Pairing, user: User) -> Match:
    """The next match of a pairing whose series is not decided: la bella of a level
    knockout pairing, or the next game of a best of N, at the same table."""
    round_ = pairing.round
    tournament = _locked(round_.tournament, user)
    if not round_.started:
        raise RoundNotStarted(round=round_.number)
    score = selectors.pairing_scores(tournament, [round_])[pairing.pk]
    if not score.needs_match or score.decided:
        raise NoBellaNeeded()
    pairing = Pairing.objects.select_related("home", "away", "table").get(pk=pairing.pk)
    return _create_match(tournament, pairing, user)


# -- the end: prizes ---------------------------------------------------------------------------


def final_places(tournament: Tournament) -> list[tuple[int, list[int]]]:
    """(place, entries sharing it) from the first: the standings of a Swiss tournament,
    the knockout's placings otherwise (the losers of each round share a place)."""
    if tournament.format == Tournament.Format.SWISS:
        rows = selectors.standings(tournament)
        found: dict[int, list[int]] = {}
        for r in rows:
            found.setdefault(r.row.position or 0, []).append(r.entry.pk)
        return sorted(found.items())
    placed = knockout.placings(bracket(tournament))
    by_place: dict[int, list[int]] = {}
    for entry, (place, _shared) in placed.items():
        by_place.setdefault(place, []).append(entry)
    return sorted(by_place.items())


def prizes_paid(tournament: Tournament) -> tuple[list[tuple[int, Entry, Decimal]], Decimal]:
    """([(place, pair, what its two players were paid)], the club's share), from the first
    place, read from the ledger's prize entries (``selectors.paid_out``); nothing before
    the payout or in a tournament without money. Reads only (beside ``final_places``)."""
    players, club = selectors.paid_out(tournament)
    if not players and not club:
        return [], Decimal("0.00")
    entries = {e.pk: e for e in selectors.entries_of(tournament)}
    lines = []
    for place, ids in final_places(tournament):
        for pk in ids:
            entry = entries[pk]
            won = players.get(entry.first_id, Decimal(0)) + players.get(entry.second_id, Decimal(0))
            if won:
                lines.append((place, entry, won))
    return lines, club


def prize_plan(
    pot: Decimal,
    kind: str,
    prizes: Sequence[Decimal],
    club_share: Decimal,
    places: Sequence[tuple[int, Sequence[int]]],
) -> tuple[dict[int, Decimal], Decimal]:
    """(entry -> prize, the club's amount) out of ``pot`` (pure). Percentages are of the
    pot, rounded down to the cent; entries sharing a place share the prizes of the
    places they span. Whatever the prizes leave in the pot goes to the club, so the pot
    ends at zero."""
    if kind == Tournament.PrizeKind.PERCENT:
        amounts = [(pot * p / 100).quantize(CENT, rounding=ROUND_DOWN) for p in prizes]
    else:
        amounts = [Decimal(p) for p in prizes]
    won: dict[int, Decimal] = {}
    for place, entries in places:
        span = amounts[place - 1 : place - 1 + len(entries)]
        total = sum(span, Decimal(0))
        if not total:
            continue
        share = (total / len(entries)).quantize(CENT, rounding=ROUND_DOWN)
        for i, entry in enumerate(entries):
            won[entry] = share + (total - share * len(entries) if i == 0 else 0)
    paid = sum(won.values(), Decimal(0))
    # The club's share, a fixed amount with fixed prizes, is kept out of the pot first;
    # a percentage was checked with the prizes (at most 100% in all).
    reserved = club_share if kind == Tournament.PrizeKind.FIXED else Decimal(0)
    if paid + reserved > pot:
        raise PrizesOverPot(total=str(paid + reserved), pot=str(pot))
    return won, pot - paid


def _halves(amount: Decimal) -> tuple[Decimal, Decimal]:
    half = (amount / 2).quantize(CENT, rounding=ROUND_DOWN)
    return amount - half, half


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user: User) -> Tournament:
    """Close the tournament once its last round is decided and pay out of the pot: the
    prizes to the placed pairs (half to each player), the rest to the club's share; the
    night's settlement then settles them with everything else."""
    tournament = _locked(tournament, user)
    last = _last_round(tournament)
    if last is None:
        raise NotFinishedYet(played=0, rounds=total_rounds(tournament))
    _previous_done(tournament, last)
    if last.number < total_rounds(tournament):
        raise NotFinishedYet(played=last.number, rounds=total_rounds(tournament))
    _close(last)
    if tournament.plays_for_money:
        pot = selectors.pot_balance(tournament)
        won, club = prize_plan(
            pot,
            tournament.prize_kind,
            [Decimal(p) for p in tournament.prizes],
            tournament.club_share,
            final_places(tournament),
        )
        entries = {e.pk: e for e in selectors.entries_of(tournament)}
        night = tournament.night
        pot_account = ledger.night_pot_account(night=night, pot=selectors.pot_name(tournament))
        ids = [pid for pk in won for pid in (entries[pk].first_id, entries[pk].second_id)]
        accounts = ledger.player_accounts(tournament.club_id, ids)
        moves = []
        for pk, amount in won.items():
            a, b = _halves(amount)
            moves.append((pot_account, accounts[entries[pk].first_id], a))
            moves.append((pot_account, accounts[entries[pk].second_id], b))
        club_account = ledger.night_pot_account(night=night, pot=selectors.CLUB_POT)
        moves.append((pot_account, club_account, club))
        ledger.night_book(
            night=night,
            moves=moves,
            kind=LedgerEntry.Kind.PRIZE,
            currency=tournament.currency,
            user=user,
        )
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_finished",
        obj=tournament,
        after={"places": final_places(tournament)},
    )
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, reason: str, user: User) -> Tournament:
    """Call the tournament off, with a reason (a night that ends before it does): every
    fee still in the pot goes back to who paid it (the entries reversed, so the night
    stays zero-sum), its matches still open are abandoned with the reason, and it is
    played no more. The night can then close (``selectors.night_close_waits_for``)."""
    tournament = _locked(tournament, user)
    reason = _reason(reason)
    for pairing in Pairing.objects.filter(round__tournament=tournament):
        _abandon_open(pairing, reason, user)
    refunded: list[LedgerEntry] = []
    pot = selectors.pot_account(tournament)
    if pot is not None:
        fees = LedgerEntry.objects.filter(
            payee=pot, kind=LedgerEntry.Kind.FEE, reversed_by__isnull=True
        )
        refunded = ledger.night_reverse(entries=list(fees), user=user)
    last = _last_round(tournament)
    if last is not None:
        _close(last)
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_cancelled",
        obj=tournament,
        after={"refunded": len(refunded)},
        reason=reason,
    )
    return tournament
