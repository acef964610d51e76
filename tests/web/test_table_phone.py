"""The table phone on the pages (issue 22 step 2): the match page and the deal page offer
the other side one tap ("Confermiamo — Ettore (E)"), guests included; the tap is shown
apart from a player's own confirmation; the entering side is refused in words; "confirm
the remaining deals"; the club setting (directors) that forbids the tap."""

import datetime
import re

import pytest
from django.test import Client

from scorebook.clubs.models import Membership
from scorebook.matches import services
from scorebook.matches.models import Confirmation
from tests.api.common import SIDES, SMALL


@pytest.fixture
def match(people):
    """Nino (N, made a scorer) enters deals on his phone; Ettore, Salvo, Walter are guests."""
    Membership.objects.filter(user=people.member).update(role="scorer")
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 20), venue="", user=people.director
    )
    return services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "accuso_41"},
        seats=dict(zip("NESW", (p.pk for p in people.seated), strict=True)),
        first_dealer="N",
        user=people.director,
    )


def phone(people, who):
    client = Client()
    client.force_login(people[who])
    return client


def it(client, url):
    return client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()


def test_the_other_side_confirms_with_one_tap_on_the_match_page(people, match):
    deal = services.deal_create(match=match, data=SIDES, expected_number=1, user=people.member)
    nino = phone(people, "member")
    page = it(nino, f"/m/{match.pk}/")
    # The other side's seats, not Nino's side (N and his partner S).
    assert "Smazzata 1: l'altra coppia conferma su questo telefono" in page
    assert "Confermiamo — Ettore (E)" in page and "Confermiamo — Walter (O)" in page
    assert "Confermiamo — Salvo (S)" not in page and "Confermiamo — Nino (N)" not in page
    tapped = nino.post(f"/d/{deal.pk}/confirm", {"seat": "E", "back": "match"})
    assert tapped.status_code == 303 and tapped["Location"] == f"/m/{match.pk}/"
    (confirmation,) = deal.confirmations.all()
    assert (confirmation.seat, confirmation.method, confirmation.user) == (
        "E",
        Confirmation.Method.TABLE_PHONE,
        None,
    )
    page = it(nino, f"/m/{match.pk}/")
    assert "Confermiamo — Walter (O)" not in page  # the deal is confirmed: no more buttons
    assert 'class="badge table">confermata al tavolo' in page
    english = phone(people, "member").get(f"/d/{deal.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    html = english.content.decode()
    assert "Confirmed by Ettore (E)" in html and "on the table phone (Nino&#x27;s)" in html
    assert 'class="row table_phone"' in html
    # A player's own confirmation is marked otherwise.
    services.deal_create(match=match, data=SMALL, expected_number=2, user=people.scorer)
    second = match.deals.get(number=2)
    services.deal_confirm(deal=second, user=people.member)
    page = it(nino, f"/m/{match.pk}/")
    assert 'class="badge open">confermata<' in page
    assert "dal suo telefono" in it(nino, f"/d/{second.pk}/")


def test_the_entering_side_is_refused_in_italian(people, match):
    deal = services.deal_create(match=match, data=SIDES, expected_number=1, user=people.member)
    nino = phone(people, "member")
    refused = nino.post(
        f"/d/{deal.pk}/confirm", {"seat": "S", "back": "match"}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert refused.status_code == 403
    assert "Salvo (S) è della coppia che ha inserito questa smazzata" in refused.content.decode()
    assert not Confirmation.objects.exists()


def test_the_deal_page_offers_it_and_the_tap_returns_to_the_next_deal(people, match):
    deal = services.deal_create(match=match, data=SIDES, expected_number=1, user=people.member)
    nino = phone(people, "member")
    page = it(nino, f"/d/{deal.pk}/")
    assert "Confermiamo — Ettore (E)" in page and 'name="back" value="deal"' in page
    tapped = nino.post(
        f"/d/{deal.pk}/confirm", {"seat": "W", "back": "new"}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert tapped["Location"] == f"/m/{match.pk}/deals/new"
    assert "Smazzata 1 confermata da Walter (O)." in it(nino, tapped["Location"])
    history = it(nino, f"/d/{deal.pk}/")
    assert "Confermata da Walter (O), sul telefono del tavolo (di Nino)" in history


def test_confirm_the_remaining_deals(people, match):
    for number, data in ((1, SIDES), (2, SMALL), (3, SIDES)):
        services.deal_create(match=match, data=data, expected_number=number, user=people.member)
    nino = phone(people, "member")
    page = it(nino, f"/m/{match.pk}/")
    assert "Conferma le smazzate rimaste" in page
    assert "Confermiamo 3 smazzate — Ettore (E)" in page
    done = nino.post(f"/m/{match.pk}/confirm-remaining", {"seat": "E"}, HTTP_ACCEPT_LANGUAGE="it")
    assert done.status_code == 303 and done["Location"] == f"/m/{match.pk}/"
    assert Confirmation.objects.filter(seat="E", method="table_phone").count() == 3
    page = it(nino, f"/m/{match.pk}/")
    assert "3 smazzate confermate" in page and "Conferma le smazzate rimaste" not in page
    refused = nino.post(
        f"/m/{match.pk}/confirm-remaining", {"seat": "Z"}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert refused.status_code == 400 and "Z non è un posto" in refused.content.decode()


def test_the_club_setting_forbids_the_tap(people, match):
    deal = services.deal_create(match=match, data=SIDES, expected_number=1, user=people.member)
    director = phone(people, "director")
    settings = it(director, f"/c/{people.club.slug}/settings")
    assert 'name="confirmation_policy"' in settings and 'name="name"' not in settings
    saved = director.post(f"/c/{people.club.slug}/settings", {"confirmation_policy": "own_phone"})
    assert saved.status_code == 302
    people.club.refresh_from_db()
    assert people.club.confirmation_policy == "own_phone"
    nino = phone(people, "member")
    assert "Confermiamo" not in it(nino, f"/m/{match.pk}/")
    deal_page = it(nino, f"/d/{deal.pk}/")
    assert "Confermiamo" not in deal_page and "f-pin" not in deal_page  # no PIN hand-over
    refused = nino.post(f"/d/{deal.pk}/confirm", {"seat": "E"}, HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 403 and "telefono del tavolo" in refused.content.decode()
    assert not Confirmation.objects.exists()
    # A member reads the setting; only a director or the owner changes it.
    member = phone(people, "scorer")
    assert 'name="confirmation_policy"' not in it(member, f"/c/{people.club.slug}/settings")
    assert "Solo il telefono del giocatore" in it(member, f"/c/{people.club.slug}/settings")
    owner = it(phone(people, "owner"), f"/c/{people.club.slug}/settings")
    assert 'name="confirmation_policy"' in owner and 'name="name"' in owner


# -- issue 31 item 9: whoever is signed in, the one tap is the other side's -----------------

TOTALS = {
    "level": "totals",
    "sides.A.thirds": "20",
    "sides.A.tricks": "5",
    "sides.B.thirds": "12",
    "sides.B.tricks": "5",
    "last_trick": "A",
}


def page_save(client, match, number, **extra):
    import uuid

    body = {**TOTALS, "expected_number": str(number), "idempotency_key": str(uuid.uuid4())}
    return client.post(
        f"/m/{match.pk}/deals/new?level=totals", {**body, **extra}, HTTP_ACCEPT_LANGUAGE="it"
    )


def test_the_owners_phone_asks_who_is_entering_and_offers_only_the_other_side(people, match):
    """Signed in as the owner, seated nowhere: the form asks who is entering (a chip per
    pair, with the names); after the save the box offers Ettore (E) and Walter (O) only,
    and a tap for Salvo (S), Nino's partner, is refused in words. Before, the box offered
    all four seats and the tap on Salvo's was stored as his confirmation."""
    owner = phone(people, "owner")
    form = it(owner, f"/m/{match.pk}/deals/new?level=totals")
    assert "Chi sta inserendo questa smazzata?" in form
    assert 'name="entered_side" value="A"><span>Nino e Salvo</span>' in form
    assert 'name="entered_side" value="B"><span>Ettore e Walter</span>' in form
    saved = page_save(owner, match, 1, entered_side="A")
    assert saved.status_code == 303, saved.content.decode()[:500]
    deal = match.deals.get()
    assert deal.entered_side == "A"
    after = it(owner, saved["Location"])
    # on the next deal's form a button shows the name, "Confermiamo —" ends the saved line
    said = re.sub(r"<[^>]+>", "", after)
    assert "Confermiamo — Ettore (E)" in said and "Confermiamo — Walter (O)" in said
    assert "Confermiamo — Salvo (S)" not in said and "Confermiamo — Nino (N)" not in said
    # The next deal's form names the side again, as the owner said it last.
    assert 'name="entered_side" value="A" checked>' in after
    # The same on the deal's page.
    deal_page = it(owner, f"/d/{deal.pk}/")
    assert "Confermiamo — Walter (O)" in deal_page and "Confermiamo — Salvo (S)" not in deal_page
    refused = owner.post(
        f"/d/{deal.pk}/confirm", {"seat": "S", "back": "new"}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert refused.status_code == 403
    assert "Salvo (S) è della coppia che ha inserito questa smazzata" in refused.content.decode()
    assert not Confirmation.objects.exists()
    tapped = owner.post(f"/d/{deal.pk}/confirm", {"seat": "W", "back": "new"})
    assert tapped.status_code == 303
    assert list(deal.confirmations.values_list("seat", "method")) == [("W", "table_phone")]


def test_when_nobody_says_who_entered_the_phone_offers_no_tap(people, match):
    owner = phone(people, "owner")
    saved = page_save(owner, match, 1)
    assert saved.status_code == 303
    deal = match.deals.get()
    assert deal.entered_side == ""
    after = it(owner, saved["Location"])
    assert "Confermiamo —" not in after
    assert "Confermiamo —" not in it(owner, f"/m/{match.pk}/")
    refused = owner.post(f"/d/{deal.pk}/confirm", {"seat": "E"}, HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 403
    assert "Nessuno ha detto chi ha inserito la smazzata 1" in refused.content.decode()
    assert not Confirmation.objects.exists()


def test_a_seated_player_is_not_asked_and_cannot_say_another_side(people, match):
    nino = phone(people, "member")
    assert "entered_side" not in it(nino, f"/m/{match.pk}/deals/new?level=totals")
    refused = page_save(nino, match, 1, entered_side="B")
    assert refused.status_code == 400
    assert "Siedi a questa partita" in refused.content.decode()
    assert not match.deals.exists()
    assert page_save(nino, match, 1).status_code == 303
    assert match.deals.get().entered_side == "A"


def test_the_question_follows_the_clubs_setting(people, match):
    for policy in ("pin", "own_phone"):
        people.club.confirmation_policy = policy
        people.club.save()
        form = it(phone(people, "owner"), f"/m/{match.pk}/deals/new?level=totals")
        assert "entered_side" not in form, policy


def test_the_remaining_deals_on_the_owners_phone(people, match):
    owner = phone(people, "owner")
    for number, side in ((1, "A"), (2, "B"), (3, "A"), (4, "")):
        assert page_save(owner, match, number, entered_side=side).status_code == 303
    page = it(owner, f"/m/{match.pk}/")
    assert "Confermiamo 2 smazzate — Ettore (E)" in page
    assert "Confermiamo 1 smazzata — Nino (N)" in page
    done = owner.post(f"/m/{match.pk}/confirm-remaining", {"seat": "N"})
    assert done.status_code == 303
    assert list(Confirmation.objects.values_list("deal__number", "seat")) == [(2, "N")]
