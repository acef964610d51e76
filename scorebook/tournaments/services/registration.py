"""Registration at the door: pairs (players or new guests, each paying the fee), singles
drawn into pairs by lot (the seed stored with the draw), withdrawals (a single before the
draw, a pair between rounds, with its fees back while it has not played)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scorebook.clubs.models import Player
from scorebook.clubs.services import PlayerErased, player_create
from scorebook.core.audit import audit
from scorebook.core.people import User

from .. import pairing as pure
from .. import selectors
from ..models import Draw, Entry, Single, Tournament
from ..refusals import (
    EntryAlreadyOut,
    EntryNotInRound,
    NeedsAPlayerOrName,
    NoRoundLeft,
    NothingToDraw,
    PlayerAlreadyIn,
    RegistrationClosed,
    RoundInProgress,
    SamePlayerTwice,
    SingleDrawn,
    SinglesOdd,
    TournamentSettings,
    UnknownPlayer,
)
from .guards import checked_reason, in_progress_words, locked
from .money import fee_in, refund
from .rounds import leave_paired_round


def _player(tournament: Tournament, who: int | str, user: User, path: str) -> Player:
    """An existing player of the club (by id), or a new guest (by name) made in the same
    step through the clubs' service."""
    if isinstance(who, bool):
        raise NeedsAPlayerOrName(path=path)
    if isinstance(who, int):
        player = Player.objects.filter(club_id=tournament.club_id, pk=who).first()
        if player is None:
            raise UnknownPlayer(path=path)
        if player.erased:
            raise PlayerErased(path=path, name=player.name)
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
        raise RoundInProgress(round=last.number, what=in_progress_words(last))
    if last.number >= tournament.rounds:
        raise NoRoundLeft()
    return last.number + 1


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
    tournament = locked(tournament, user)
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
    fee_in(tournament, chosen, user)
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
    tournament = locked(tournament, user)
    _registration_open(tournament)
    chosen = _player(tournament, player, user, "player")
    _not_in_yet(tournament, chosen, "player")
    single = Single.objects.create(tournament=tournament, player=chosen)
    fee_in(tournament, [chosen], user)
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
    tournament = locked(single.tournament, user)
    single = Single.objects.select_for_update().select_related("player").get(pk=single.pk)
    reason = checked_reason(reason)
    if single.entry_id is not None:
        raise SingleDrawn(player=single.player.name)
    refunded = refund(tournament, user, [single.player_id]) if tournament.plays_for_money else []
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_single_withdrawn",
        obj=single,
        after={"tournament": tournament.pk, "player": single.player_id, "refunded": len(refunded)},
        reason=reason,
    )
    single.delete()


@transaction.atomic
def singles_draw(*, tournament: Tournament, user: User) -> Draw:
    """Draw the waiting singles into pairs, by lot: an even number of them, each drawn
    once (a pair made is never drawn again). The seed is stored with the pairs and the
    draw audited, so anyone can check it."""
    tournament = locked(tournament, user)
    first_round = _registration_open(tournament)
    waiting = list(tournament.singles.filter(entry=None).select_related("player").order_by("id"))
    if not waiting:
        raise NothingToDraw()
    if len(waiting) % 2:
        raise SinglesOdd(count=len(waiting))
    number = tournament.draws.count() + 1
    seed = random.Random(f"{tournament.seed}:{number}").getrandbits(48)
    pairs = pure.draw_pairs([s.player_id for s in waiting], seed)
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
    tournament = locked(entry.tournament, user)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.tournament_id != tournament.pk:
        raise EntryNotInRound(path="entry", entry=entry.name)
    reason = checked_reason(reason)
    if entry.withdrawn:
        raise EntryAlreadyOut(entry=entry.name)
    last = selectors.current_round(tournament)
    after = last.number if last else 0
    if last is not None and not last.started:
        after = leave_paired_round(last, entry, reason)
    elif last is not None and selectors.round_state(tournament, last).status != "closed":
        raise RoundInProgress(round=last.number, what=in_progress_words(last))
    entry.withdrawn_at = timezone.now()
    entry.withdrawn_after = after
    entry.withdrawal_reason = reason
    entry.save(update_fields=["withdrawn_at", "withdrawn_after", "withdrawal_reason"])
    refunded = []
    if tournament.plays_for_money and not selectors.has_played(entry):
        refunded = refund(tournament, user, [entry.first_id, entry.second_id])
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_entry_withdrawn",
        obj=entry,
        after={"after_round": entry.withdrawn_after, "refunded": len(refunded)},
        reason=reason,
    )
    return entry
