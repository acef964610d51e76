"""Federal tournaments (issue 34 item 4) and the ranking they make (item 5), through the
services: who announces, registers, withdraws and opens; the waiting list; the visiting
persons played as linked guests of the host; the fees in the host's ledger with the
federation's share; the placings, their points and the rolling ranking."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from scorebook.clubs.models import Player
from scorebook.clubs.services import NotAllowed
from scorebook.federations import federal_refusals as refused_
from scorebook.federations import points, ranking, refusals, selectors
from scorebook.federations.models import FederalRegistration, FederalTournament, PersonLink
from scorebook.federations.services import federal_tournaments as federal
from scorebook.ledger.models import Account
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.tournaments.models import Tournament
from tests import builders as build
from tests.federations.federal import announce, play_through, register_all, world

pytestmark = pytest.mark.django_db


@pytest.fixture
def w(people):
    return world(people)


def tonight(people):
    return build.night(people, date=timezone.localdate())


def test_an_officer_announces_and_nobody_else(people, w):
    made = announce(w)
    assert (made.status, made.host, made.level, made.cap) == ("announced", w.host, "provincial", 8)
    for who in (people.owner, people.director, w.here[0]):
        with pytest.raises(refusals.OfficerRequired):
            federal.federal_tournament_announce(
                federation=w.fed, user=who, name="X", date=timezone.localdate(), host="x", cap=4
            )
    assert FederalTournament.objects.count() == 1


@pytest.mark.parametrize(
    ("values", "code"),
    [
        ({"host": "altrove"}, "federation.not_member"),
        ({"host": "nowhere"}, "federation.unknown_club"),
        ({"cap": 1}, "federal_tournament.settings"),
        ({"level": "world"}, "federal_tournament.settings"),
        ({"format": "ladder"}, "federal_tournament.settings"),
        ({"date": datetime.date(2020, 1, 1)}, "federal_tournament.settings"),
        ({"fee": "5", "federation_share": "6", "currency": "EUR"}, "federal_tournament.settings"),
        ({"fee": "5"}, "federal_tournament.settings"),
        ({"game": "chess"}, "tournament.not_pairs"),
    ],
)
def test_what_an_announcement_refuses(people, w, values, code):
    with pytest.raises(Exception) as caught:
        announce(w, **values)
    assert getattr(caught.value, "code", None) == code
    assert not FederalTournament.objects.exists()


def test_pairs_register_past_the_cap_they_wait_and_a_withdrawal_promotes(people, w):
    t = announce(w, cap=2)
    first, second, third, fourth = register_all(w, t)
    assert [r.status for r in (first, second, third, fourth)] == [
        "registered",
        "registered",
        "waiting",
        "waiting",
    ]
    assert ranking.waiting_position(fourth) == 2
    federal.registration_withdraw(registration=second, user=w.there[1])  # either person
    third.refresh_from_db()
    fourth.refresh_from_db()
    assert (third.status, fourth.status) == ("registered", "waiting")
    assert third.promoted_at is not None and ranking.waiting_position(fourth) == 1
    # a waiting pair's withdrawal promotes nobody
    federal.registration_withdraw(registration=fourth, user=w.officer)
    assert FederalRegistration.objects.filter(status="registered").count() == 2
    with pytest.raises(refused_.AlreadyWithdrawn):
        federal.registration_withdraw(registration=fourth, user=w.there[2])


def test_who_may_register_and_withdraw(people, w):
    t = announce(w)
    with pytest.raises(refused_.NotAPerson) as refused:  # the director is no linked person
        federal.registration_add(federal_tournament=t, partner="sr1", user=people.director)
    assert refused.value.path == "user"
    with pytest.raises(refused_.NotAPerson):
        federal.registration_add(federal_tournament=t, partner="director", user=w.here[0])
    with pytest.raises(refusals.UnknownAccount):
        federal.registration_add(federal_tournament=t, partner="nobody", user=w.here[0])
    with pytest.raises(refused_.SamePerson):
        federal.registration_add(federal_tournament=t, partner="sr1", user=w.here[0])
    pair = federal.registration_add(federal_tournament=t, partner="bm1", user=w.here[0])
    with pytest.raises(refused_.AlreadyRegistered) as again:
        federal.registration_add(federal_tournament=t, partner="bm1", user=w.here[1])
    assert again.value.path == "partner"
    with pytest.raises(refused_.NotInThePair):
        federal.registration_withdraw(registration=pair, user=w.here[1])
    assert FederalRegistration.objects.get().status == "registered"


def test_opening_enters_the_pairs_visitors_as_linked_guests_and_books_the_share(people, w):
    t = announce(w, fee="10", federation_share="2", currency="EUR")
    pairs = register_all(w, t)
    assert all(p.status == "registered" for p in pairs)
    night = tonight(people)
    with pytest.raises(NotAllowed):  # only the host's director opens it
        federal.federal_tournament_open(
            federal_tournament=t, night=night, user=w.belmonte.memberships.first().user
        )
    other_day = build.night(people, date=timezone.localdate() + datetime.timedelta(days=1))
    with pytest.raises(refused_.WrongNight):
        federal.federal_tournament_open(federal_tournament=t, night=other_day, user=people.director)
    made = federal.federal_tournament_open(federal_tournament=t, night=night, user=people.director)
    t.refresh_from_db()
    assert (t.status, t.tournament) == ("opened", made)
    assert (made.club, made.night, made.entry_fee, made.currency) == (
        w.host,
        night,
        Decimal("8.00"),
        "EUR",
    )
    entries = list(made.entries.order_by("seed"))
    assert len(entries) == 4
    assert [FederalRegistration.objects.get(pk=p.pk).entry_id for p in pairs] == [
        e.pk for e in entries
    ]
    # a San Rocco person plays as their own player; a Belmonte person as a guest of San
    # Rocco named after them, linked to them
    assert entries[0].first.name == "Rocco 1"
    guest = entries[1].first
    assert (guest.club, guest.guest, guest.name) == (w.host, True, "bm1")
    assert selectors.person_of(guest) == w.there[0]
    assert PersonLink.objects.filter(club=w.host, user=w.there[0], status="accepted").exists()
    # the fees: 8 per player to the tournament's pot, 2 per player to the federation's line
    share = Account.objects.get(night=night, pot=federal.share_pot(w.fed.pk))
    fees = LedgerEntry.objects.filter(night=night, kind="fee")
    assert sum(e.amount for e in fees.filter(payee=share)) == Decimal("16.00")
    assert sum(e.amount for e in fees.exclude(payee=share)) == Decimal("64.00")
    with pytest.raises(refused_.NotAnnounced):  # registrations closed
        federal.registration_add(federal_tournament=t, partner="sr2", user=w.here[0])
    with pytest.raises(refused_.NotAnnounced):
        federal.federal_tournament_open(federal_tournament=t, night=night, user=people.director)


def test_a_visitor_plays_as_the_same_guest_next_time(people, w):
    night = tonight(people)
    first = announce(w)
    federal.registration_add(federal_tournament=first, partner="bm2", user=w.there[0])
    federal.registration_add(federal_tournament=first, partner="sr2", user=w.here[0])
    one = federal.federal_tournament_open(
        federal_tournament=first, night=night, user=people.director
    )
    second = announce(w, name="Secondo torneo")
    federal.registration_add(federal_tournament=second, partner="bm1", user=w.here[0])
    federal.registration_add(federal_tournament=second, partner="bm2", user=w.here[1])
    two = federal.federal_tournament_open(
        federal_tournament=second, night=night, user=people.director
    )
    guest = one.entries.get(seed=1).first
    assert two.entries.get(seed=1).second == guest
    assert Player.objects.filter(club=w.host, name="bm1").count() == 1


def test_an_announced_tournament_without_pairs_cannot_open_and_can_be_cancelled(people, w):
    t = announce(w)
    with pytest.raises(refused_.NoPairs):
        federal.federal_tournament_open(
            federal_tournament=t, night=tonight(people), user=people.director
        )
    with pytest.raises(refusals.OfficerRequired):
        federal.federal_tournament_cancel(federal_tournament=t, reason="pioggia", user=w.here[0])
    federal.federal_tournament_cancel(federal_tournament=t, reason="pioggia", user=w.officer)
    t.refresh_from_db()
    assert (t.status, t.cancel_reason) == ("cancelled", "pioggia")
    assert not Tournament.objects.exists()


def test_the_placings_give_federal_points_and_move_the_ranking(people, w):
    # Two rounds, and one visiting pair (bm1+bm2, registered second) wins every match it
    # plays: the only 2-0, so first whatever the lots pair. (One round with both visiting
    # pairs winning left two 1-0s, first to the tie-breaks, and the two could meet.)
    t = announce(w, rounds=2)
    register_all(w, t)
    made = federal.federal_tournament_open(
        federal_tournament=t, night=tonight(people), user=people.director
    )
    assert ranking.placings(t) == (0, []) and ranking.ranking(w.fed) == []
    champion = made.entries.get(seed=2)
    play_through(people, made, winners={champion.pk})
    t = FederalTournament.objects.get(pk=t.pk)
    field, placed = ranking.placings(t)
    assert field == 4
    pairs = {frozenset(p.persons) for p in placed}
    assert pairs == {frozenset(w.here[:2]), frozenset(w.here[2:]), frozenset(w.there[:2])} | {
        frozenset(w.there[2:])
    }
    assert [p.place for p in placed] == sorted(p.place for p in placed)
    assert frozenset(placed[0].persons) == frozenset(w.there[:2])  # the visiting pair won
    assert [p.place for p in placed][:2] == [1, 2]
    assert [p.points for p in placed] == [
        points.federal_points("provincial", 4, p.place) for p in placed
    ]
    rows = ranking.ranking(w.fed)
    scoring = {u for p in placed if p.points for u in p.persons}
    assert {r.user for r in rows} == scoring and len(scoring) == 4  # the top half scores
    assert rows[0].user in placed[0].persons and rows[0].points == placed[0].points
    assert rows[0].number == selectors.number_of(w.fed, rows[0].user)
    assert all(a.points >= b.points for a, b in zip(rows, rows[1:], strict=False))
    history = ranking.person_history(w.fed, rows[0].user.pk)
    assert [(h.federal, h.place, h.field) for h in history] == [(t, 1, 4)]
    # twelve months later the tournament no longer counts
    later = timezone.localdate() + datetime.timedelta(days=ranking.WINDOW_DAYS)
    assert ranking.ranking(w.fed, as_of=later) == []
    assert ranking.ranking(w.fed, as_of=later - datetime.timedelta(days=1)) != []


def test_an_erased_account_leaves_the_registrations(people, w):
    from scorebook.federations import erasure

    t = announce(w)
    federal.registration_add(federal_tournament=t, partner="bm1", user=w.here[0])
    erasure.account_forget(w.there[0].pk)
    assert not FederalRegistration.objects.exists()
