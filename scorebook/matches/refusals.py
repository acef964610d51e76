"""What the match services refuse, and why (each a :class:`Refusal`: code, status, words
in English and Italian). In their own module because the readers raise one too
(``selectors.fold``: a stored deal the engine no longer accepts)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scorebook.core.refusals import Refusal
from scorebook.rules import Rejection, get_game

from .models import Deal, Match


class RulesRejected(Refusal):
    """The engine refused the entry; ``rejection.problems`` says every reason."""

    code = "rules.rejected"
    message = _("The rules refuse this entry.")

    def __init__(self, rejection: Rejection) -> None:
        super().__init__()
        self.rejection = rejection

    def errors(self, language: str | None = None) -> list[dict[str, Any]]:
        """The engine's own problems (code, path, params), in the request's language."""
        lang = "it" if (language or get_language() or "en").startswith("it") else "en"
        return [problem.as_dict(lang) for problem in self.rejection.problems]


class DealConflict(Refusal):
    """Another entry already took this deal number (two phones at one table)."""

    code = "deal.conflict"
    status = 409
    message = _("Deal %(number)d is already entered or is not the next deal.")

    def __init__(self, stored: Deal | None, expected: int) -> None:
        super().__init__(path="number", number=expected)
        self.stored = stored
        self.expected = expected

    def extra(self) -> dict[str, Any]:
        return {"stored": self.stored} if self.stored is not None else {}


class StaleVersion(Refusal):
    """The edit names a version that is no longer current."""

    code = "deal.stale_version"
    status = 412
    message = _("Someone changed this deal meanwhile: check the current version.")

    def __init__(self, current: Deal) -> None:
        super().__init__()
        self.current = current

    def extra(self) -> dict[str, Any]:
        return {"current": self.current}

    def headers(self) -> dict[str, str]:
        return {"ETag": self.current.etag}


class NightNotReady(Refusal):
    """Something on the night must be done before it closes (``what``: in words, from the
    app that holds it, e.g. a tournament not finished)."""

    code = "night.not_ready"
    status = 409
    message = _("The night cannot be closed yet: %(what)s")


class OpenMatches(Refusal):
    """The night has matches still open: the close ends them only when asked to end
    exactly those (``end_open``): the ones with no end of their own are finished with
    their scores, the others abandoned."""

    code = "night.open_matches"
    status = 409
    message = _(
        "These matches are not finished: %(matches)s. Closing the night ends them: a "
        "match with no target (a chips session) is finished with its scores, any other is "
        "abandoned and counts for nothing. Confirm to end them and close."
    )

    def __init__(self, matches: list[Match]) -> None:
        super().__init__(path="end_open", matches=", ".join(str(m.pk) for m in matches))
        self.matches = matches

    def words(self) -> dict[str, Any]:
        italian = (get_language() or "en").startswith("it")
        named = []
        for match in self.matches:
            game = get_game(match.game)
            name = game.name_it if italian else game.name_en
            named.append(f"{match.table} · {name}" if match.table_id else name)
        return {"matches": "; ".join(named)}


class MatchAbandoned(Refusal):
    """The match was abandoned (a forfeit): no deal is added to it."""

    code = "match.abandoned"
    status = 409
    message = _("This match was abandoned: %(reason)s")


class MatchFinished(Refusal):
    code = "match.finished"
    status = 409
    message = _("This match is already over.")


class ClosedNight(Refusal):
    """The night is closed: only a director may still change it."""

    code = "night.closed"
    status = 409
    message = _("The night is closed.")


class CorrectionLeavesOpen(Refusal):
    """A correction on a closed night would leave its match unfinished: no deal can be
    added there and the close does not run again (docs/night-close.md)."""

    code = "night.correction_leaves_open"
    status = 409
    message = _(
        "The night is closed: this correction would leave the match unfinished, and no "
        "deal can be added to end it. Correct the deals so that they still end the match."
    )


class NoSuchMatch(Refusal):
    """The match does not exist, or the user is no member of its club (the same to them)."""

    code = "match.not_found"
    status = 404
    message = _("There is no such match.")


class SeatsMismatch(Refusal):
    """The seats named are not the seats of this game."""

    code = "match.seats"
    message = _("The seats must be exactly %(seats)s.")


class TableNotOfNight(Refusal):
    """The table named is not one of this night's (or is another club's: the same)."""

    code = "match.table"
    message = _("There is no such table at this night.")


class TableNumberTaken(Refusal):
    code = "table.number_taken"
    status = 409
    message = _("The night already has a table %(number)s: choose another number.")


class OwnEntry(Refusal):
    """The person who entered a deal version never confirms it."""

    code = "deal.own_entry"
    status = 403
    message = _("You entered this deal: another player at the table confirms it.")


class SeatPlayers(Refusal):
    """A seat names a player of another club, or one player sits twice."""

    code = "match.seat_players"
    message = _("Each seat needs a different player of this club.")


#: The currencies a match may be played for (blank: points, no money). One home: the
#: match form offers them, the service refuses any other ("eur", "XXX" were stored).
STAKE_CURRENCIES = ("EUR", "CHF")


class StakeCurrency(Refusal):
    code = "match.currency"
    message = _("A stake's currency is one of %(allowed)s, or none (points).")


#: How a confirmation was given, as a refusal names it.
METHOD_WORDS = {"table_phone": _("a tap on the table phone"), "pin": _("a PIN")}


class MethodNotAccepted(Refusal):
    """The club's setting does not count this way of confirming."""

    code = "confirm.method_not_accepted"
    status = 403
    message = _("This club does not count %(method)s as a confirmation (its setting: %(policy)s).")

    def words(self) -> dict[str, Any]:
        from scorebook.clubs.models import ConfirmationPolicy

        return {
            "method": METHOD_WORDS.get(self.params["method"], self.params["method"]),
            "policy": str(ConfirmationPolicy(self.params["policy"]).label).lower(),
        }


class EntererSeat(Refusal):
    """The seat named on the table phone is the seat of the person who entered the deal."""

    code = "confirm.enterer_seat"
    status = 403
    message = _("%(player)s (%(seat)s) entered this deal: another player at the table confirms it.")


class EntererSide(Refusal):
    """The seat named on the table phone is on the side of the person who entered it."""

    code = "confirm.enterer_side"
    status = 403
    message = _(
        "%(player)s (%(seat)s) is on the side that entered this deal: "
        "a player of the other side confirms it."
    )


class EnteredSideNotYours(Refusal):
    """A player seated at the match says another side entered the deal on their phone."""

    code = "deal.entered_side_not_yours"
    message = _(
        "You sit at this match: the deals you save are entered by your side (%(side)s), "
        "not %(given)s."
    )


class UnknownSide(Refusal):
    """The side named as entering the deal is not a side (or seat) of this match."""

    code = "deal.unknown_side"
    message = _("%(given)s is not a side of this match; its sides are %(allowed)s.")


class EntererUnknown(Refusal):
    """Nobody said who entered the deal: the table phone cannot tell the other side."""

    code = "confirm.enterer_unknown"
    status = 403
    message = _(
        "Nobody said who entered deal %(number)s, so the table phone cannot tell the other "
        "side: confirm it from your own phone or with your PIN."
    )


class UnknownSeat(Refusal):
    """The seat named is not a seat of this match."""

    code = "confirm.unknown_seat"
    message = _("%(seat)s is not a seat at this match.")
