"""What the tournament services refuse, in words (the one ``Refusal`` type: nothing is
stored when one is raised)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal


class TournamentSettings(Refusal):
    code = "tournament.settings"
    message = _("The tournament's settings do not hold: %(problem)s")


class TournamentNameTaken(Refusal):
    code = "tournament.name_taken"
    status = 409
    message = _("Tonight already has a tournament called '%(name)s'.")


class NightClosed(Refusal):
    code = "tournament.night_closed"
    status = 409
    message = _("The night is closed: a tournament cannot be run on it.")


class NotAPairsGame(Refusal):
    code = "tournament.not_pairs"
    message = _("A pairs tournament needs a game played two against two in fixed pairs.")


class PrizeSplitOver(Refusal):
    code = "tournament.prizes_over"
    message = _("The prizes and the club's share come to %(total)s%%: at most 100%%.")


class PrizesOverPot(Refusal):
    code = "tournament.prizes_over_pot"
    status = 409
    message = _("The prizes and the club's share (%(total)s) are more than the pot (%(pot)s).")


class RegistrationClosed(Refusal):
    code = "tournament.registration_closed"
    status = 409
    message = _("This tournament's format takes no entries once round 1 is paired.")


class TournamentFinished(Refusal):
    code = "tournament.finished"
    status = 409
    message = _("The tournament is finished.")


class TournamentCancelled(Refusal):
    code = "tournament.cancelled"
    status = 409
    message = _("The tournament was cancelled.")


class PlayerAlreadyIn(Refusal):
    code = "tournament.player_in"
    status = 409
    message = _("%(player)s is already in this tournament.")


class SamePlayerTwice(Refusal):
    code = "tournament.same_player"
    message = _("A pair is two different players.")


class UnknownPlayer(Refusal):
    code = "tournament.unknown_player"
    message = _("There is no such player in this club.")


class NeedsAPlayerOrName(Refusal):
    code = "tournament.player_or_name"
    message = _("Choose a player of the club or give a new guest's name.")


class SinglesOdd(Refusal):
    code = "tournament.singles_odd"
    status = 409
    message = _("%(count)s players are waiting to be drawn: the draw needs an even number.")


class NothingToDraw(Refusal):
    code = "tournament.nothing_to_draw"
    status = 409
    message = _("Nobody is waiting to be drawn into a pair.")


class SingleDrawn(Refusal):
    code = "tournament.single_drawn"
    status = 409
    message = _("%(player)s is already drawn into a pair: the pair withdraws instead.")


class SinglesWaiting(Refusal):
    code = "tournament.singles_waiting"
    status = 409
    message = _("%(count)s players are still waiting for the draw: draw the pairs first.")


class TooFewEntries(Refusal):
    code = "tournament.too_few"
    status = 409
    message = _("This format needs at least %(least)s pairs; there are %(count)s.")


class RoundInProgress(Refusal):
    """``what``: "paired" (paired, not started) or "playing" (matches not finished),
    said in words in the reader's language."""

    code = "tournament.round_in_progress"
    status = 409
    message = _("Round %(round)s is still in progress: %(what)s")
    WHAT = {
        "paired": _("it is paired and not started; start it first."),
        "playing": _("its matches are not all finished."),
    }

    def words(self) -> dict[str, Any]:
        what = self.params.get("what", "")
        return {**self.params, "what": str(self.WHAT.get(what, what))}


class MatchStillOpen(Refusal):
    code = "tournament.match_open"
    status = 409
    message = _(
        "The match at table %(table)s (%(home)s against %(away)s) is still open: finish it, or "
        "record a forfeit, before the next round."
    )


class PairingUndecided(Refusal):
    code = "tournament.pairing_undecided"
    status = 409
    message = _(
        "%(home)s against %(away)s is not decided yet: it needs another match (la bella, or "
        "the next game of its series)."
    )


class NoRoundLeft(Refusal):
    code = "tournament.no_round_left"
    status = 409
    message = _("All the tournament's rounds have been played.")


class RoundNotPaired(Refusal):
    code = "tournament.round_not_paired"
    status = 409
    message = _("There is no round paired and waiting to start.")


class RoundStarted(Refusal):
    code = "tournament.round_started"
    status = 409
    message = _("Round %(round)s has started: its pairings can no longer change.")


class RoundNotStarted(Refusal):
    code = "tournament.round_not_started"
    status = 409
    message = _("Round %(round)s has not started yet.")


class EntryWithdrawn(Refusal):
    code = "tournament.entry_withdrawn"
    status = 409
    message = _("%(entry)s has withdrawn: it cannot be paired.")


class EntryNotInRound(Refusal):
    code = "tournament.entry_not_in_round"
    message = _("%(entry)s does not play in this round.")


class EntryAlreadyOut(Refusal):
    code = "tournament.entry_out"
    status = 409
    message = _("%(entry)s has already withdrawn.")


class NotInPairing(Refusal):
    code = "tournament.not_in_pairing"
    message = _("%(entry)s does not play in this pairing.")


class AlreadyForfeited(Refusal):
    code = "tournament.already_forfeited"
    status = 409
    message = _("This pairing was already forfeited by %(entry)s.")


class PairingDecided(Refusal):
    code = "tournament.pairing_decided"
    status = 409
    message = _("This pairing is already decided by its matches.")


class NoBellaNeeded(Refusal):
    code = "tournament.no_bella"
    status = 409
    message = _("This pairing needs no further match.")


class ByeNotAllowed(Refusal):
    code = "tournament.bye_not_allowed"
    status = 409
    message = _("A bye is given only in Swiss rounds.")


class SecondBye(Refusal):
    code = "tournament.second_bye"
    status = 409
    message = _(
        "%(entry)s has already had a bye (round %(round)s): a pair rests at most once. Give "
        "the bye to a pair that has not had one."
    )


class ReasonNeeded(Refusal):
    code = "tournament.reason_needed"
    message = _("Say why: a forfeit or a withdrawal needs a reason.")


class NotFinishedYet(Refusal):
    code = "tournament.not_finished_yet"
    status = 409
    message = _("The tournament is not over: %(played)s of its %(rounds)s rounds are paired.")


class SwapNotAllowed(Refusal):
    code = "tournament.swap_not_allowed"
    status = 409
    message = _("Entries are swapped only in Swiss rounds (groups and brackets are fixed).")
