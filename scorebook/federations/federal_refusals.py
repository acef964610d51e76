"""What the federal tournaments' services refuse, in words (the one ``Refusal`` type:
nothing is stored when one is raised). Codes ``federal_tournament.*`` and
``federal_registration.*``; the federation's own (``federation.officer_required``,
``federation.not_member``, ``federation.unknown_account``) are in ``refusals``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal


class FederalSettings(Refusal):
    code = "federal_tournament.settings"
    message = _("The federal tournament's settings do not hold (%(field)s): %(problem)s")


class FederalTournamentGone(Refusal):
    code = "federal_tournament.not_found"
    status = 404
    message = _("There is no such federal tournament.")


class NotAnnounced(Refusal):
    """Registrations, withdrawals and the cancel are for a tournament still announced."""

    code = "federal_tournament.not_announced"
    status = 409
    message = _("Registrations are closed: the tournament is %(status)s.")


class RegistrationDeadline(Refusal):
    code = "federal_tournament.deadline"
    status = 409
    message = _("Registrations closed on %(date)s: ask the host club on the night.")


class NotAPerson(Refusal):
    code = "federal_registration.not_a_person"
    message = _(
        "%(username)s plays for no member club of the federation: a director of their club "
        "links them first."
    )


class SamePerson(Refusal):
    code = "federal_registration.same_person"
    message = _("A pair is two persons: name your partner.")


class AlreadyRegistered(Refusal):
    code = "federal_registration.already_in"
    status = 409
    message = _("%(username)s is already registered for this tournament.")


class NotInThePair(Refusal):
    code = "federal_registration.not_yours"
    status = 403
    message = _("Only the pair's two persons (or an officer) may withdraw it.")


class AlreadyWithdrawn(Refusal):
    code = "federal_registration.withdrawn"
    status = 409
    message = _("This pair has already withdrawn.")


class WrongNight(Refusal):
    code = "federal_tournament.wrong_night"
    status = 409
    message = _("This tournament is played at %(club)s on %(date)s: open it on that night.")


class NoPairs(Refusal):
    code = "federal_tournament.no_pairs"
    status = 409
    message = _("No pair is registered: there is nothing to open (cancel it instead).")
