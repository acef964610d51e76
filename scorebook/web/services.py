"""Writes the pages need besides the shared services: the table PIN."""

from __future__ import annotations

import re

from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Player
from scorebook.core.people import User
from scorebook.core.refusals import Refusal
from scorebook.matches import services as matches
from scorebook.matches.models import Confirmation, Deal
from scorebook.matches.refusals import MethodNotAccepted
from scorebook.matches.selectors import accepts

from .models import TablePin

#: Wrong PINs in a row before the PIN stops working (10,000 PINs: 5 tries is 0.05%).
MAX_FAILURES = 5


class PinInvalid(Refusal):
    code = "pin.invalid"
    message = _("A PIN is 4 to 8 digits.")


class PinWrong(Refusal):
    code = "pin.wrong"
    status = 403
    message = _("That PIN is not right.")


class PinLocked(Refusal):
    code = "pin.locked"
    status = 403
    message = _("Too many wrong PINs: %(name)s must set a new PIN on their own phone.")


class PinMissing(Refusal):
    code = "pin.missing"
    message = _("%(name)s has no PIN yet: set one on their own phone first.")


class NotSeated(Refusal):
    code = "pin.not_seated"
    status = 403
    message = _("Only a player seated at this match can confirm its deals.")


@transaction.atomic
def pin_set(*, user: User, pin: str) -> TablePin:
    if not re.fullmatch(r"\d{4,8}", pin or ""):
        raise PinInvalid(path="pin")
    row, _ = TablePin.objects.update_or_create(
        user=user, defaults={"pin_hash": make_password(pin), "failures": 0}
    )
    return row


def deal_confirm_with_pin(
    *, deal: Deal, player_id: int, pin: str, handed_by: User | None = None
) -> Confirmation:
    """The phone of ``handed_by`` is handed to a seated player, who types their PIN: the
    confirmation is that player's, given by PIN on that phone (``deal_confirm`` checks
    their rights and the club's setting). A wrong PIN is counted before it is refused, so
    the count survives the refusal."""
    match = deal.match
    player = Player.objects.filter(pk=player_id, club_id=match.night.club_id).first()
    if player is None or player.pk not in match.seats.values() or player.user_id is None:
        raise NotSeated(path="player")
    policy = match.night.club.confirmation_policy
    if not accepts(policy, Confirmation.Method.PIN):  # said before a PIN is tried and counted
        raise MethodNotAccepted(method=Confirmation.Method.PIN, policy=policy)
    with transaction.atomic():
        row = TablePin.objects.select_for_update().filter(user_id=player.user_id).first()
        if row is None:
            raise PinMissing(path="player", name=player.name)
        if row.failures >= MAX_FAILURES:
            raise PinLocked(path="pin", name=player.name)
        right = check_password(pin or "", row.pin_hash)
        TablePin.objects.filter(pk=row.pk).update(failures=0 if right else F("failures") + 1)
    if not right:
        raise PinWrong(path="pin")
    assert player.user is not None  # a seated player with a PIN has an account (NotSeated)
    return matches.deal_confirm(deal=deal, user=player.user, handed_by=handed_by)
