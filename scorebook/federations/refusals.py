"""What the federation services refuse, in words (the one ``Refusal`` type: nothing is
stored when one is raised). Codes: ``federation.*`` for the federation, its officers, its
member clubs and numbers; ``person_link.*`` for a person's links to players."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal

from .models import OfficerRole

OFFICER_NAMES = {
    OfficerRole.PRESIDENT: _("president"),
    OfficerRole.SECRETARY: _("secretary"),
    OfficerRole.OFFICER: _("officer"),
}

# -- the federation and its officers ------------------------------------------------------------


class OfficerRequired(Refusal):
    """The caller's office in the federation does not allow this write."""

    code = "federation.officer_required"
    status = 403
    message = _("This needs the %(role)s role in the federation.")

    def __init__(self, role: str) -> None:
        super().__init__(role=str(role))

    def words(self) -> dict[str, Any]:
        role = self.params["role"]
        return {"role": OFFICER_NAMES.get(OfficerRole(role), role)}


class FederationSlugTaken(Refusal):
    code = "federation.slug_taken"
    status = 409
    message = _("Another federation already uses the address '%(slug)s': choose another.")


class FoundingLimit(Refusal):
    """Any signed-in account may found a federation: not without end."""

    code = "federation.founding_limit"
    status = 429
    message = _(
        "You have founded %(count)s federations in the last %(hours)s hours, the most an "
        "account may: try again later."
    )


class UnknownAccount(Refusal):
    code = "federation.unknown_account"
    message = _("There is no account called '%(username)s': check the spelling.")


class AlreadyOfficer(Refusal):
    code = "federation.already_officer"
    status = 409
    message = _("%(username)s is already an officer of the federation.")


class OfficerGone(Refusal):
    code = "officer.not_found"
    status = 404
    message = _("This officer is no longer one: the list was out of date.")


class LastPresident(Refusal):
    code = "federation.last_president"
    status = 409
    message = _("A federation keeps at least one president: name another one first.")


# -- member clubs ------------------------------------------------------------------------------


class UnknownClub(Refusal):
    code = "federation.unknown_club"
    message = _("There is no club at the address '%(slug)s': check it with the club.")


class AlreadyMemberClub(Refusal):
    code = "federation.already_member"
    status = 409
    message = _("%(club)s is already a member of %(federation)s.")


class InvitationOpen(Refusal):
    code = "federation.invitation_open"
    status = 409
    message = _("%(club)s already has an open invitation from %(federation)s.")


class InvitationClosed(Refusal):
    code = "federation.invitation_closed"
    status = 409
    message = _("This invitation was already answered or withdrawn.")


class InvitationExpired(Refusal):
    code = "federation.invitation_expired"
    status = 410
    message = _("This invitation has expired: the federation can send a new one.")


class InvitationDays(Refusal):
    code = "federation.invitation_days"
    message = _("An invitation lasts 1 to %(days)s days.")


class NotAMemberClub(Refusal):
    code = "federation.not_member"
    status = 409
    message = _("%(club)s is not a member of %(federation)s (it has left already).")


# -- federation numbers ------------------------------------------------------------------------


class NumberTaken(Refusal):
    code = "federation.number_taken"
    status = 409
    message = _("Number %(number)s already belongs to another person of the federation.")


class NumberGone(Refusal):
    code = "federation_number.not_found"
    status = 404
    message = _("This person no longer has a number in the federation.")


class NumberRange(Refusal):
    code = "federation.number_range"
    message = _("A federation number is a whole number from 1 to %(most)s.")


# -- person links ------------------------------------------------------------------------------


class LinkUnknownAccount(Refusal):
    code = "person_link.unknown_account"
    message = _("There is no account called '%(username)s': ask the person for their username.")


class LinkUnknownClub(Refusal):
    code = "person_link.unknown_club"
    message = _("There is no club at the address '%(slug)s': ask the club for it.")


class PlayerAlreadyLinked(Refusal):
    code = "person_link.player_linked"
    status = 409
    message = _("%(name)s is already linked to an account, or a link waits for an answer.")


class AccountAlreadyLinked(Refusal):
    code = "person_link.account_linked"
    status = 409
    message = _(
        "This account is already linked to a player of %(club)s, or a link waits for an answer."
    )


class PlayerIsAnotherAccount(Refusal):
    code = "person_link.player_is_another_account"
    status = 409
    message = _("%(name)s is another member's player in this club: link that member instead.")


class AccountIsAnotherPlayer(Refusal):
    code = "person_link.account_is_another_player"
    status = 409
    message = _("This account is %(name)s at this club's tables: link that player instead.")


class PlayerOfAnotherClub(Refusal):
    code = "person_link.player_of_another_club"
    message = _("The player must be one of %(club)s.")


class PlayerNeeded(Refusal):
    code = "person_link.player_needed"
    message = _("Choose the club's player this person is.")


class NotYourLink(Refusal):
    """The caller is not the side of the link who may do this."""

    code = "person_link.not_yours"
    status = 403
    message = _("Only %(who)s can do this.")

    def words(self) -> dict[str, Any]:
        who = {
            "person": _("the person the link names"),
            "director": _("a director of the club"),
        }
        return {"who": who.get(self.params["who"], self.params["who"])}


class LinkNotWaiting(Refusal):
    code = "person_link.not_waiting"
    status = 409
    message = _("This link is not waiting for an answer any more.")


class LinkNotLive(Refusal):
    code = "person_link.not_live"
    status = 409
    message = _("This link was already declined or removed.")


# -- championships -----------------------------------------------------------------------------


class ChampionshipGone(Refusal):
    code = "championship.not_found"
    status = 404
    message = _("There is no such championship.")


class ChampionshipNameTaken(Refusal):
    code = "championship.name_taken"
    status = 409
    message = _("The federation already has a championship '%(name)s' in season %(season)s.")


class ChampionshipGame(Refusal):
    """The game is unknown, its house rules are refused, or its table has no two sides."""

    code = "championship.game"
    message = _(
        "A championship is played at a game whose table has two sides (pairs, or one "
        "against one): %(reason)s"
    )


class ChampionshipShape(Refusal):
    code = "championship.shape"
    message = _("%(reason)s")


class ChampionshipNotOpen(Refusal):
    code = "championship.not_open"
    status = 409
    message = _("The championship has started: teams enter and leave only before it starts.")


class ChampionshipNotStarted(Refusal):
    code = "championship.not_started"
    status = 409
    message = _("The championship has not started yet: its calendar is drawn when it starts.")


class TooFewTeams(Refusal):
    code = "championship.too_few_teams"
    status = 409
    message = _("A championship needs at least %(count)s teams to start.")


class TeamNameTaken(Refusal):
    code = "championship.team_name_taken"
    status = 409
    message = _("Another team of the championship is already called '%(name)s'.")


class ClubNotInFederation(Refusal):
    code = "championship.club_not_member"
    status = 409
    message = _("%(club)s is not a member club of the federation: it cannot enter a team.")


class RosterSize(Refusal):
    code = "championship.roster_size"
    message = _(
        "A team fields %(needed)s players (%(tables)s tables of %(side)s) and at most "
        "%(substitutes)s substitutes: this roster has %(regulars)s and %(extra)s."
    )


class RosterPlayers(Refusal):
    code = "championship.roster_players"
    message = _(
        "A roster names active players of the team's own club, each once, and none who is "
        "already on another team of the championship."
    )


class CaptainNotOfClub(Refusal):
    code = "championship.captain_not_of_club"
    message = _("The captain must be a member of %(club)s (their username).")


class FixtureGone(Refusal):
    code = "championship_fixture.not_found"
    status = 404
    message = _("There is no such fixture.")


class FixtureClosed(Refusal):
    """The fixture's result is confirmed or it was forfeited."""

    code = "championship_fixture.closed"
    status = 409
    message = _("This fixture's result is already settled (%(status)s).")


class FixtureAlreadyPlaying(Refusal):
    code = "championship_fixture.playing"
    status = 409
    message = _("This fixture is already being played, on the night of %(date)s.")


class NoNightTonight(Refusal):
    code = "championship_fixture.no_night"
    status = 409
    message = _(
        "%(club)s has no night open today: open tonight's night first, then play the fixture."
    )


class LineupInvalid(Refusal):
    code = "championship_fixture.lineup"
    message = _(
        "Each team's line-up names %(needed)s different players of its roster, in table "
        "order (%(side)s per table)."
    )


class FixtureNotFinished(Refusal):
    code = "championship_fixture.not_finished"
    status = 409
    message = _("The fixture's matches are not all finished: %(done)s of %(tables)s tables.")


class CaptainRequired(Refusal):
    code = "championship_fixture.captain_required"
    status = 403
    message = _("The away team's captain (or a director of its club) confirms the result.")


class HomeDirectorRequired(Refusal):
    code = "championship_fixture.home_director_required"
    status = 403
    message = _("A director of the home club plays the fixture at its night.")


class NotInFixture(Refusal):
    code = "championship_fixture.team_not_in_fixture"
    message = _("The team named does not play in this fixture.")


class KnockoutNotReady(Refusal):
    code = "championship.knockout_not_ready"
    status = 409
    message = _("%(reason)s")


class TeamWithdrawn(Refusal):
    code = "championship.team_withdrawn"
    status = 409
    message = _("%(name)s has already withdrawn from the championship.")


class ChampionshipFinished(Refusal):
    code = "championship.finished"
    status = 409
    message = _("The championship is over: its teams and results stay as they are.")


class NotForfeited(Refusal):
    code = "championship_fixture.not_forfeited"
    status = 409
    message = _("This fixture has no forfeit to undo (%(status)s).")


class ForfeitOfWithdrawn(Refusal):
    code = "championship_fixture.forfeit_of_withdrawn"
    status = 409
    message = _("A withdrawn team's fixtures stay as its withdrawal left them.")


class ForfeitDrawnFrom(Refusal):
    """Something later was drawn from the forfeit: the knockout, or its next round."""

    code = "championship_fixture.forfeit_drawn_from"
    status = 409
    message = _("The knockout's next fixtures were drawn from this result: the forfeit stands.")
