"""Confirming a deal (issue 22 step 2, the table phone): one phone per table is enough.

The other side confirms with one tap on the phone the deal was entered on, guests too,
where the club's setting counts it; the person who entered a deal never confirms it
alone (not their seat, not their side where sides are fixed); "confirm the remaining
deals" per seat; the audit log says how each confirmation was given."""

import datetime

import pytest

from scorebook.clubs.models import Club, ConfirmationPolicy, Membership
from scorebook.clubs.services import NotAllowed, club_update
from scorebook.core.models import AuditEvent
from scorebook.core.refusals import Refusal
from scorebook.matches import services
from scorebook.matches.models import Confirmation
from scorebook.matches.refusals import (
    EntererSeat,
    EntererSide,
    MethodNotAccepted,
    OwnEntry,
    UnknownSeat,
)
from scorebook.web.models import TablePin
from scorebook.web.services import deal_confirm_with_pin, pin_set
from tests import builders as build

SIDES = build.A_WINS
Method = Confirmation.Method


@pytest.fixture
def match(people):
    """Tressette in pairs: Nino (N, the member, made a scorer here: he enters on his phone)
    and Salvo (S) against Ettore (E) and Walter (W); the last three are guests."""
    Membership.objects.filter(user=people.member).update(role="scorer")
    return build.match(people, build.night(people), first_dealer="N", user=people.director)


MIRROR = {"sides": {"A": SIDES["sides"]["B"], "B": SIDES["sides"]["A"]}, "last_trick": "B"}


def enter(match, user, number=1, side=""):
    """Deal ``number``, won by each side in turn (the match goes on); ``side``: who is
    entering it, on a phone whose account does not sit at the match."""
    data = SIDES if number % 2 else MIRROR
    return services.deal_create(
        match=match, data=data, expected_number=number, user=user, entered_side=side
    )


def policy(people, value):
    club_update(club=people.club, changes={"confirmation_policy": value}, user=people.owner)


def test_a_new_club_counts_the_table_phone():
    assert Club().confirmation_policy == ConfirmationPolicy.TABLE_PHONE


def test_the_other_side_confirms_on_the_entering_phone_guests_too(people, match):
    deal = enter(match, people.member)  # Nino (N) enters on his phone ...
    ettore = people.seated[1]
    confirmation = services.deal_confirm_at_table(deal=deal, seat="E", user=people.member)
    # ... and Ettore, a guest with no account, taps "Confermiamo" on it.
    assert (confirmation.seat, confirmation.method) == ("E", Method.TABLE_PHONE)
    assert confirmation.player == ettore and confirmation.user is None
    assert confirmation.device_user == people.member
    # A second tap for the same seat gives back the same confirmation.
    again = services.deal_confirm_at_table(deal=deal, seat="E", user=people.member)
    assert again.pk == confirmation.pk and deal.confirmations.count() == 1


def test_the_entering_side_never_confirms_on_the_table_phone(people, match):
    deal = enter(match, people.member)  # Nino sits N, with Salvo (S)
    with pytest.raises(EntererSide) as side:
        services.deal_confirm_at_table(deal=deal, seat="S", user=people.member)
    assert side.value.params == {"player": "Salvo", "seat": "S"}
    assert "Salvo (S)" in side.value.text() and "other side" in side.value.text()
    with pytest.raises(OwnEntry):  # his own seat, on his own phone
        services.deal_confirm_at_table(deal=deal, seat="N", user=people.member)
    # Entered on the scorer's phone, Nino's own seat is still refused on the table phone.
    other = enter(match, people.member, 2)
    with pytest.raises(EntererSeat) as seat:
        services.deal_confirm_at_table(deal=other, seat="N", user=people.scorer)
    assert "Nino (N)" in seat.value.text()
    with pytest.raises(EntererSide):
        services.deal_confirm_at_table(deal=other, seat="S", user=people.scorer)
    assert not Confirmation.objects.exists()
    assert not AuditEvent.objects.filter(verb="deal_confirmed").exists()


def test_refusals_say_it_in_italian(people, match):
    from django.utils import translation

    deal = enter(match, people.member)
    with pytest.raises(EntererSide) as side:
        services.deal_confirm_at_table(deal=deal, seat="S", user=people.member)
    policy(people, "own_phone")
    with pytest.raises(MethodNotAccepted) as off:
        services.deal_confirm_at_table(deal=deal, seat="E", user=people.member)
    with translation.override("it"):
        assert "Salvo (S)" in side.value.text() and "coppia" in side.value.text()
        assert "telefono del tavolo" in off.value.text()
        assert "solo il telefono del giocatore" in off.value.text()
    with translation.override("en"):
        assert "only the player's own phone" in off.value.text()


def test_without_fixed_sides_only_the_enterers_seat_is_refused(people):
    """Tressette a 4 individual: nobody plays with anyone, so any other seat confirms."""
    Membership.objects.filter(user=people.member).update(role="scorer")
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 21), venue="", user=people.director
    )
    seats = {f"P{i}": p.pk for i, p in enumerate(people.seated, start=1)}
    match = services.match_create(
        night=night, game="tressette4i", rules=None, seats=seats, user=people.director
    )
    one = {"thirds": 8, "tricks": 2}
    data = {"seats": {"P1": one, "P2": one, "P3": one, "P4": {"thirds": 8, "tricks": 4}},
            "last_trick": "P4"}  # fmt: skip
    deal = services.deal_create(match=match, data=data, expected_number=1, user=people.member)
    with pytest.raises(OwnEntry):
        services.deal_confirm_at_table(deal=deal, seat="P1", user=people.member)
    # P3 sits across from Nino, as a partner would in pairs: here he confirms.
    assert services.deal_confirm_at_table(deal=deal, seat="P3", user=people.member).seat == "P3"
    assert services.deal_confirm_at_table(deal=deal, seat="P2", user=people.member).seat == "P2"


def test_each_policy(people, match):
    pin_set(user=people.member, pin="1357")
    deal = enter(match, people.scorer, side="A")  # the scorer, seated nowhere, enters
    # "pin": the tap does not count, the PIN typed on the phone does, and the own phone.
    policy(people, "pin")
    with pytest.raises(MethodNotAccepted) as off:
        services.deal_confirm_at_table(deal=deal, seat="E", user=people.scorer)
    assert off.value.code == "confirm.method_not_accepted" and off.value.status == 403
    by_pin = deal_confirm_with_pin(
        deal=deal, player_id=people.seated[0].pk, pin="1357", handed_by=people.scorer
    )
    assert (by_pin.method, by_pin.user, by_pin.device_user) == (
        Method.PIN,
        people.member,
        people.scorer,
    )
    # "own_phone": neither the tap nor the PIN; the player's own phone still does.
    policy(people, "own_phone")
    second = enter(match, people.scorer, 2, side="A")
    with pytest.raises(MethodNotAccepted):
        services.deal_confirm_at_table(deal=second, seat="E", user=people.scorer)
    with pytest.raises(MethodNotAccepted):
        deal_confirm_with_pin(
            deal=second, player_id=people.seated[0].pk, pin="1357", handed_by=people.scorer
        )
    # Said before any PIN is tried: a wrong one is not counted against Nino's PIN.
    with pytest.raises(MethodNotAccepted):
        deal_confirm_with_pin(
            deal=second, player_id=people.seated[0].pk, pin="0000", handed_by=people.scorer
        )
    assert TablePin.objects.get(user=people.member).failures == 0
    own = services.deal_confirm(deal=second, user=people.member)
    assert (own.method, own.seat, own.device_user) == (Method.OWN_PHONE, "N", people.member)
    # A tap for one's own seat on one's own phone is the own phone's, whatever the setting.
    third = enter(match, people.scorer, 3, side="B")
    mine = services.deal_confirm_at_table(deal=third, seat="N", user=people.member)
    assert (mine.method, mine.user) == (Method.OWN_PHONE, people.member)
    # The director's override counts under every setting.
    override = services.deal_confirm(deal=third, user=people.director, override_reason="ok")
    assert override.method == Method.OVERRIDE and override.override
    # "table_phone" again: the tap counts.
    policy(people, "table_phone")
    assert services.deal_confirm_at_table(deal=second, seat="W", user=people.scorer).seat == "W"


def test_who_may_hand_over_a_phone(people, match):
    deal = enter(match, people.scorer, side="A")
    with pytest.raises(UnknownSeat) as unknown:
        services.deal_confirm_at_table(deal=deal, seat="X", user=people.scorer)
    assert unknown.value.status == 400 and unknown.value.path == "seat"
    # A member neither seated nor a scorer has no table phone; nor has an outsider.
    Membership.objects.filter(user=people.owner).update(role="member")
    for user in (people.owner, people.stranger):
        with pytest.raises(NotAllowed):
            services.deal_confirm_at_table(deal=deal, seat="E", user=user)
    assert not Confirmation.objects.exists()


def test_confirm_the_remaining_deals_per_side(people, match):
    for number in (1, 2, 3):
        enter(match, people.member, number)  # Nino (side N-S) enters three ...
    enter(match, people.scorer, 4, side="B")  # ... and E-W the fourth, on the scorer's phone
    services.deal_confirm_at_table(
        deal=match.deals.get(number=2), seat="E", user=people.member
    )  # Ettore confirmed deal 2 already
    done = services.deal_confirm_remaining(match=match, seat="W", user=people.member)
    assert [c.deal.number for c in done] == [1, 3]
    assert {(c.seat, c.method) for c in done} == {("W", Method.TABLE_PHONE)}
    # Side E-W has confirmed what it did not enter; N-S only what it did not enter (the
    # fourth).
    assert services.deal_confirm_remaining(match=match, seat="E", user=people.member) == []
    (fourth,) = services.deal_confirm_remaining(match=match, seat="S", user=people.member)
    assert (fourth.deal.number, fourth.player) == (4, people.seated[2])
    assert services.deal_confirm_remaining(match=match, seat="S", user=people.member) == []
    # The setting holds for the batch as for one deal.
    policy(people, "pin")
    enter(match, people.scorer, 5, side="B")
    with pytest.raises(MethodNotAccepted):
        services.deal_confirm_remaining(match=match, seat="E", user=people.member)
    # A player's own phone confirms their own remaining deals under any setting.
    (fifth,) = services.deal_confirm_remaining(match=match, seat="N", user=people.member)
    assert (fifth.deal.number, fifth.method) == (5, Method.OWN_PHONE)


def test_the_audit_log_says_how_each_confirmation_was_given(people, match):
    pin_set(user=people.member, pin="1357")
    one, two, three = (enter(match, people.scorer, n, side="A") for n in (1, 2, 3))
    services.deal_confirm_at_table(deal=one, seat="E", user=people.scorer)
    deal_confirm_with_pin(
        deal=two, player_id=people.seated[0].pk, pin="1357", handed_by=people.scorer
    )
    services.deal_confirm(deal=three, user=people.member)
    services.deal_confirm(deal=three, user=people.director, override_reason="Walter left")
    services.deal_confirm_remaining(match=match, seat="W", user=people.scorer)
    lines = [
        (e.verb, int(e.object_id), e.after["seat"], e.after["method"], e.actor.username,
         e.after.get("remaining", False))
        for e in AuditEvent.objects.filter(object_type="deal").order_by("pk")
    ]  # fmt: skip
    assert lines == [
        ("deal_confirmed", one.pk, "E", "table_phone", "scorer", False),
        ("deal_confirmed", two.pk, "N", "pin", "scorer", False),
        ("deal_confirmed", three.pk, "N", "own_phone", "member", False),
        ("confirmation_override", three.pk, "", "override", "director", False),
        ("deal_confirmed", two.pk, "W", "table_phone", "scorer", True),
        ("deal_confirmed", three.pk, "W", "table_phone", "scorer", True),
    ]
    guest = AuditEvent.objects.filter(object_id=str(one.pk)).get()
    assert guest.after["player"] == people.seated[1].pk
    assert guest.after["device_user"] == people.scorer.pk
    override = AuditEvent.objects.get(verb="confirmation_override")
    assert override.reason == "Walter left"


# -- issue 31 item 9: whoever is signed in, the one tap is for the other side only ----------


def test_on_the_owners_phone_the_entering_side_is_refused(people, match):
    """The owner, seated nowhere, enters deal 1 for Nino's side (N-S): only Ettore (E) and
    Walter (W) may tap; Nino and Salvo are refused in words, nothing stored. Before,
    every seat was offered and a tap on Salvo's was stored as his confirmation."""
    from scorebook.matches.selectors import table_confirmers

    deal = enter(match, people.owner, side="A")
    assert deal.entered_side == "A"
    assert sorted(table_confirmers(match, deal)) == ["E", "W"]
    for seat, refusal in (("N", EntererSide), ("S", EntererSide)):
        with pytest.raises(refusal) as refused:
            services.deal_confirm_at_table(deal=deal, seat=seat, user=people.owner)
        assert refused.value.status == 403
    assert not Confirmation.objects.exists()
    tap = services.deal_confirm_at_table(deal=deal, seat="W", user=people.owner)
    assert (tap.seat, tap.method, tap.device_user) == ("W", Method.TABLE_PHONE, people.owner)
    # The side that confirmed is done; so is every seat of it.
    assert table_confirmers(match, deal) == []


def test_a_director_entering_for_the_other_side(people, match):
    deal = enter(match, people.director, side="B")
    from scorebook.matches.selectors import table_confirmers

    assert sorted(table_confirmers(match, deal)) == ["N", "S"]
    with pytest.raises(EntererSide):
        services.deal_confirm_at_table(deal=deal, seat="E", user=people.director)
    # Nino's own seat, tapped on his own phone, is his own confirmation.
    mine = services.deal_confirm_at_table(deal=deal, seat="N", user=people.member)
    assert mine.method == Method.OWN_PHONE


def test_nobody_said_who_entered_it(people, match):
    """Entered on an unseated account's phone without saying who: the table phone cannot
    tell the other side, so it offers and takes no tap; a player's own phone still does."""
    from scorebook.matches.selectors import remaining_by_seat, table_confirmers

    deal = enter(match, people.owner)
    assert deal.entered_side == ""
    assert table_confirmers(match, deal) == []
    assert all(left == [] for left in remaining_by_seat(match).values())
    for seat in "NESW":
        with pytest.raises(Refusal) as no:
            services.deal_confirm_at_table(deal=deal, seat=seat, user=people.owner)
        assert no.value.code in ("confirm.enterer_unknown", "deal.own_entry")
    assert not Confirmation.objects.exists()
    own = services.deal_confirm(deal=deal, user=people.member)
    assert (own.seat, own.method) == ("N", Method.OWN_PHONE)


def test_a_seated_player_enters_for_his_own_side(people, match):
    from scorebook.matches.refusals import EnteredSideNotYours, UnknownSide

    assert enter(match, people.member).entered_side == "A"  # Nino sits N, side A
    with pytest.raises(EnteredSideNotYours) as not_his:
        enter(match, people.member, 2, side="B")
    assert not_his.value.path == "entered_side"
    with pytest.raises(UnknownSide) as unknown:
        enter(match, people.owner, 2, side="N")  # a seat, where the sides are fixed
    assert "A, B" in unknown.value.text()
    assert match.deals.count() == 1


def test_each_policy_keeps_the_entering_side_out(people, match):
    """Under every setting, the seats the table phone offers are the other side's; where
    the setting does not count the tap, none is taken at all."""
    deal = enter(match, people.owner, side="A")
    for value in ("pin", "own_phone"):
        policy(people, value)
        for seat in "NESW":
            with pytest.raises((MethodNotAccepted, EntererSide)):
                services.deal_confirm_at_table(deal=deal, seat=seat, user=people.owner)
    policy(people, "table_phone")
    with pytest.raises(EntererSide):
        services.deal_confirm_at_table(deal=deal, seat="S", user=people.owner)
    assert services.deal_confirm_at_table(deal=deal, seat="E", user=people.owner).seat == "E"


def test_a_correction_keeps_the_entering_side(people, match):
    deal = enter(match, people.owner, side="B")
    fixed = services.deal_correct(
        deal=deal, data=MIRROR, reason="sides swapped", user=people.director, expected_version=1
    )
    assert fixed.entered_side == "B"
    by_nino = services.deal_correct(
        deal=fixed, data=SIDES, reason="back", user=people.member, expected_version=2
    )
    assert by_nino.entered_side == "A"  # seated: his own side
