"""The table phone's confirmation on the pages: what the one-tap partial
``templates/web/deals/_confirm_here.html`` offers on this phone, and how a confirmation
is told apart from another (own phone, PIN, table phone, director's override).

The services decide (``scorebook.matches.services.deal_confirm_at_table``); this only
reads, so that a page offers no button the service would refuse.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from scorebook.clubs.models import Membership, Player, Role
from scorebook.clubs.selectors import membership_of
from scorebook.matches.models import Confirmation, Deal, Match, Night
from scorebook.matches.selectors import (
    accepts,
    remaining_by_seat,
    sides,
    table_confirmers,
    user_seats,
)
from scorebook.web.seats import and_words, seat_letter, seated

#: Where a one-tap confirmation returns: the match page, the deal's page, the next deal.
BACKS = ("match", "deal", "new")


def confirm_here(
    match: Match,
    user: Any,
    deal: Deal | None = None,
    back: str = "match",
    *,
    deals: list[Deal] | None = None,
    names: dict[int, str] | None = None,
    membership: Membership | None = None,
) -> dict[str, Any] | None:
    """The context ``confirm_here`` of ``_confirm_here.html`` for ``user``'s phone, or None
    when it offers nothing:

    - ``deal`` (default: the match's newest deal) and ``seats``: while nobody has confirmed
      it, on the phone that entered it (or an unseated scorer's), one "Confermiamo — Walter
      (E)" button per seat of the sides that did not enter it (``Deal.entered_side``,
      whoever is signed in here; none where nobody said who entered it);
    - ``remaining``: "confirm the remaining deals", one button per seat with its count
      (when it is more than the deal offered above);
    - ``sides``: whether the game has fixed sides (the words say "the other side");
    - ``back``: where the taps return (``match``, ``deal`` or ``new``).

    Nothing on a closed night, for a club that does not count the table phone's tap (the
    user's own remaining deals excepted), or for a user neither seated nor a scorer. A page
    that read them already passes the match's current ``deals`` (confirmations
    prefetched), the players' ``names`` by id and the user's ``membership``."""
    night = match.night
    if night.status != Night.Status.OPEN:
        return None
    by_user = user_seats(match)
    own = by_user.get(user.pk)
    membership = membership or membership_of(user, night.club_id)
    if own is None and (membership is None or not membership.at_least(Role.SCORER)):
        return None
    table = accepts(night.club.confirmation_policy, Confirmation.Method.TABLE_PHONE)
    if names is None:
        names = dict(Player.objects.filter(pk__in=match.seats.values()).values_list("pk", "name"))

    def button(seat: str, **extra: Any) -> dict[str, Any]:
        name = names.get(match.seats[seat], "?")
        return {"seat": seat, "letter": seat_letter(seat), "name": name, **extra}

    if deal is None and deals is not None:
        deal = max(deals, key=lambda d: d.number, default=None)
    elif deal is None:
        deal = match.deals.filter(is_current=True).order_by("-number").first()
    seats = []
    # The phone that saved the deal, or a scorer's phone serving the table: a player seated
    # on another phone confirms for himself ("I confirm").
    this_phone = own is None or (deal is not None and deal.entered_by_id == user.pk)
    if deal is not None and table and this_phone and not deal.confirmations.all():
        seats = [button(s) for s in table_confirmers(match, deal) if s != own]
    # The remaining deals, where they are more than the one deal offered just above.
    above = {deal.pk} if seats and deal is not None else set()
    remaining = [
        button(seat, count=len(left))
        for seat, left in remaining_by_seat(match, deals).items()
        if {d.pk for d in left} - above and (table or seat == own)
    ]
    if not seats and not remaining:
        return None
    return {
        "deal": deal,
        "seats": seats,
        "remaining": remaining,
        "sides": any(side != seat for seat, side in sides(match).items()),
        "back": back if back in BACKS else "match",
    }


def entering(match: Match, user: Any, names: dict[str, str]) -> dict[str, Any] | None:
    """The deal form's "who is entering?" chips, on a phone whose account does not sit at
    the match where the club counts the table phone's tap (on a seated player's phone it is
    their side, and the form asks nothing): one chip per side (per seat where sides are not
    fixed), in seating order, with the players' names; ``value``: the side this account
    named for its last deal of the match. None when the form asks nothing. ``names``: the
    players' names by seat."""
    if not accepts(match.night.club.confirmation_policy, Confirmation.Method.TABLE_PHONE):
        return None
    if user.pk in user_seats(match):
        return None
    side = sides(match)
    members: dict[str, list[str]] = {}
    for seat in match.seat_order():  # seats alone: in playing order
        members.setdefault(side[seat], []).append(seat)
    if any(code not in match.seats for code in members):  # fixed sides: A before B, N before S
        members = {
            code: sorted(seats, key=list(match.seats).index)
            for code, seats in sorted(members.items())
        }
    choices = [
        (
            code,
            seated(code, names.get(code))
            if seats == [code]
            else and_words([names.get(s) or seat_letter(s) for s in seats]),
        )
        for code, seats in members.items()
    ]
    last = (
        Deal.objects.filter(match=match, entered_by_id=user.pk)
        .exclude(entered_side="")
        .order_by("-pk")
        .values_list("entered_side", flat=True)
        .first()
    )
    return {"choices": choices, "value": last if last in members else ""}


def how(confirmation: Confirmation, names: dict[int, str], users: dict[int, str]) -> str:
    """How a confirmation was given, in words: "on the table phone (Nino's)"."""
    device = users.get(confirmation.device_user_id, "?") if confirmation.device_user_id else "?"
    if confirmation.method == Confirmation.Method.TABLE_PHONE:
        return _("on the table phone (%(device)s's)") % {"device": device}
    if confirmation.method == Confirmation.Method.PIN:
        return _("with their PIN, on %(device)s's phone") % {"device": device}
    if confirmation.method == Confirmation.Method.OVERRIDE:
        return _("director's override: %(reason)s") % {"reason": confirmation.reason}
    return _("from their own phone")


def who(confirmation: Confirmation, names: dict[int, str], users: dict[int, str]) -> str:
    """Who confirmed: the seat's player ("Walter (O)"), else the account."""
    if confirmation.player_id is not None:
        name = names.get(confirmation.player_id, "?")
        return seated(confirmation.seat, name) if confirmation.seat else name
    return users.get(confirmation.user_id or 0, "?")


def badge(confirmations: Iterable[Confirmation]) -> tuple[str, str] | None:
    """The deal list's mark, strongest first: a player's own (phone or PIN), a tap on the
    table phone, a director's override. (words, CSS class); None when unconfirmed."""
    methods = {c.method for c in confirmations}
    if methods & {Confirmation.Method.OWN_PHONE, Confirmation.Method.PIN}:
        return _("confirmed"), "open"
    if Confirmation.Method.TABLE_PHONE in methods:
        return _("confirmed at the table"), "table"
    if Confirmation.Method.OVERRIDE in methods:
        return _("confirmed by a director"), "override"
    return None
