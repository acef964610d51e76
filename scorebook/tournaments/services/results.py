"""How pairings and the tournament end: a forfeit a tavolino, the next match of a series not
decided (la bella), the finish once the last round is decided (the prizes paid), the
cancel (the fees given back). The standings themselves are read (``selectors``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.matches import services as matches
from scorebook.matches.models import Match

from .. import cancelling, selectors
from ..models import Entry, Pairing, Tournament
from ..refusals import (
    AlreadyForfeited,
    NoBellaNeeded,
    NotFinishedYet,
    NotInPairing,
    PairingDecided,
    RoundNotStarted,
    RoundStarted,
)
from .guards import checked_reason, locked
from .money import pay_prizes, refund
from .rounds import close_round, create_match, previous_done


@transaction.atomic
def pairing_forfeit(*, pairing: Pairing, entry: Entry, reason: str, user: User) -> Pairing:
    """``entry`` loses the pairing "a tavolino" (it did not sit down, or left): the other
    wins with the score a series needs at the game's target, whatever its matches say.
    A pairing already decided by its matches cannot be forfeited."""
    round_ = pairing.round
    tournament = locked(round_.tournament, user)
    pairing = (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("home", "away")
        .get(pk=pairing.pk)
    )
    reason = checked_reason(reason)
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
    abandon_open(pairing, reason, user)
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_forfeit",
        obj=pairing,
        after={"entry": entry.pk, "round": round_.number},
        reason=reason,
    )
    return pairing


def abandon_open(pairing: Pairing, reason: str, user: User) -> None:
    """A forfeited pairing's matches still open end, abandoned with the forfeit's reason
    (the night's room, its close and the round then see them over; their deals stay)."""
    for match in Match.objects.filter(tournament_game__pairing=pairing, status=Match.Status.OPEN):
        matches.match_abandon(match=match, reason=reason, user=user)


@transaction.atomic
def pairing_next_match(*, pairing: Pairing, user: User) -> Match:
    """The next match of a pairing whose series is not decided: la bella of a level
    knockout pairing, or the next game of a best of N, at the same table."""
    round_ = pairing.round
    tournament = locked(round_.tournament, user)
    if not round_.started:
        raise RoundNotStarted(round=round_.number)
    score = selectors.pairing_scores(tournament, [round_])[pairing.pk]
    if not score.needs_match or score.decided:
        raise NoBellaNeeded()
    pairing = Pairing.objects.select_related("home", "away", "table").get(pk=pairing.pk)
    return create_match(tournament, pairing, user)


@transaction.atomic
def tournament_finish(*, tournament: Tournament, user: User) -> Tournament:
    """Close the tournament once its last round is decided and pay out of the pot: the
    prizes to the placed pairs (half to each player), the rest to the club's share; the
    night's settlement then settles them with everything else."""
    tournament = locked(tournament, user)
    last = selectors.current_round(tournament)
    if last is None:
        raise NotFinishedYet(played=0, rounds=selectors.total_rounds(tournament))
    previous_done(tournament, last)
    if last.number < selectors.total_rounds(tournament):
        raise NotFinishedYet(played=last.number, rounds=selectors.total_rounds(tournament))
    close_round(last)
    if tournament.plays_for_money:
        pay_prizes(tournament, user)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    audit(
        club_id=tournament.club_id,
        actor=user,
        verb="tournament_finished",
        obj=tournament,
        after={"places": selectors.final_places(tournament)},
    )
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, reason: str, user: User) -> Tournament:
    """Call the tournament off, with a reason (a night that ends before it does): every
    fee still in the pot goes back to who paid it (the entries reversed, so the night
    stays zero-sum), its matches still open are abandoned with the reason, and it is
    played no more. The night can then close (``selectors.night_close_waits_for``)."""
    tournament = locked(tournament, user)
    reason = checked_reason(reason)
    for pairing in Pairing.objects.filter(round__tournament=tournament):
        abandon_open(pairing, reason, user)
    refunded = refund(tournament, user)
    cancelling.cancelled(tournament, reason, user)
    last = selectors.current_round(tournament)
    if last is not None:
        close_round(last)
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
