"""A director of the away club corrects a deal of a championship fixture's match, played
at the home club's night (issue 34 item 3: "a director of either club correcting a deal as
today"): the service through the registry ``matches.visitors`` (the federations' member),
the API's deal routes, the home club's audit log; nobody else of the away club, and no
other match of the home club."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from scorebook.clubs.models import Membership
from scorebook.clubs.services import NotAllowed
from scorebook.core.models import AuditEvent
from scorebook.federations import championship_selectors as reads
from scorebook.federations.services import championships as champs
from scorebook.matches import services as matches
from scorebook.matches import visitors
from scorebook.matches.models import Deal, Match
from scorebook.matches.refusals import NoSuchMatch
from tests import builders as build
from tests.federations.championship_helpers import home_fixture, league, play_out, tonight

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(people):
    """San Rocco A - Altrove A played at San Rocco's night, both tables won by the home
    side; the stranger owns Altrove (the away club)."""
    made = league(people)
    fixture = home_fixture(made)
    tonight(people)
    champs.fixture_play(fixture=fixture, user=people.director)
    play_out(people, fixture)
    fixture.refresh_from_db()
    return fixture


def _first_deal(fixture) -> Deal:
    match = fixture.boards.get(number=1).match
    return Deal.objects.get(match=match, number=1, is_current=True)


def test_the_away_clubs_director_corrects_a_deal_and_the_home_log_says_so(people, played):
    deal = _first_deal(played)
    assert reads.result(played).complete
    new = matches.deal_correct(
        deal=deal,
        data=build.B_WINS,
        reason="Il secondo tavolo ha sbagliato le carte",
        user=people.stranger,
        expected_version=deal.version,
    )
    assert (new.version, new.entered_by, new.supersedes_id) == (2, people.stranger, deal.pk)
    assert new.reason == "Il secondo tavolo ha sbagliato le carte"
    # the match reopens (A no longer has its three deals): the result follows the matches
    assert Match.objects.get(pk=deal.match_id).status == Match.Status.OPEN
    assert not reads.result(played).complete
    event = AuditEvent.objects.get(verb="deal_corrected_by_visitor")
    assert (event.club_id, event.actor, event.object_id) == (
        people.club.pk,  # the home club's log: its record was changed
        people.stranger,
        str(new.pk),
    )
    assert event.before == {"deal": deal.pk, "version": 1}
    assert event.after == {
        "fixture": played.pk,
        "federation": played.championship.federation.slug,
        "club": people.other.pk,
        "club_name": people.other.name,
        "deal": new.pk,
        "version": 2,
        "number": 1,
    }
    assert event.reason == "Il secondo tavolo ha sbagliato le carte"


def test_a_home_directors_correction_is_the_clubs_own_and_logs_no_visit(people, played):
    deal = _first_deal(played)
    matches.deal_correct(
        deal=deal, data=build.B_WINS, reason="x", user=people.director, expected_version=1
    )
    assert not AuditEvent.objects.filter(verb="deal_corrected_by_visitor").exists()


def test_only_a_director_of_the_away_club_and_only_on_a_fixtures_match(people, played):
    deal = _first_deal(played)
    away_member = get_user_model().objects.create_user("altrove-socio")
    Membership.objects.create(club=people.other, user=away_member, role="member")
    away_scorer = get_user_model().objects.create_user("altrove-segnapunti")
    Membership.objects.create(club=people.other, user=away_scorer, role="scorer")
    outsider = build.club("Borgo", "borgo")[1]
    for user in (away_member, away_scorer, outsider):
        with pytest.raises(NoSuchMatch):
            matches.deal_correct(
                deal=deal, data=build.B_WINS, reason="x", user=user, expected_version=1
            )
        assert visitors.visiting(deal.match_id, user) is None
    # a home member below director is still refused as a director's job
    with pytest.raises(NotAllowed):
        matches.deal_correct(
            deal=deal, data=build.B_WINS, reason="x", user=people.scorer, expected_version=1
        )
    # another match of San Rocco's night: not the away club's to correct
    seats = dict(
        zip(("N", "E", "S", "W"), (p.pk for p in build.players(people.club, 4, "Y ")), strict=True)
    )
    other = build.match(people, played.night, seats=seats)
    own = build.deals(people, other, build.A_WINS)[0]
    with pytest.raises(NoSuchMatch):
        matches.deal_correct(
            deal=own, data=build.B_WINS, reason="x", user=people.stranger, expected_version=1
        )
    assert visitors.visiting(other.pk, people.stranger) is None
    assert Deal.objects.get(pk=deal.pk).is_current


def test_the_api_lets_the_away_director_read_and_correct_the_deal(people, played):
    deal = _first_deal(played)
    api = APIClient()
    api.force_authenticate(people.stranger)
    read = api.get(f"/api/v1/deals/{deal.pk}")
    assert read.status_code == 200
    answer = api.post(
        f"/api/v1/deals/{deal.pk}/correct",
        {"deal": build.B_WINS, "reason": "carte sbagliate"},
        format="json",
        HTTP_IF_MATCH=read["ETag"],
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["version"] == 2
    assert AuditEvent.objects.filter(verb="deal_corrected_by_visitor", actor=people.stranger)
    member = get_user_model().objects.create_user("altrove-socio")
    Membership.objects.create(club=people.other, user=member, role="member")
    api.force_authenticate(member)
    assert api.get(f"/api/v1/deals/{deal.pk}").status_code == 404
    refused = api.post(
        f"/api/v1/deals/{deal.pk}/correct",
        {"deal": build.A_WINS, "reason": "x"},
        format="json",
        HTTP_IF_MATCH="*",
    )
    assert refused.status_code == 404


def _page(user, language: str = "en"):
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_away_director_corrects_from_the_fixtures_page(people, played):
    import uuid

    deal = _first_deal(played)
    fed = played.championship.federation.slug
    url = f"/f/{fed}/fixtures/{played.pk}/"
    away = _page(people.stranger)
    page = away.get(url).content.decode()
    assert "Correct a deal" in page and f"/d/{deal.pk}/correct" in page
    form = away.get(f"/d/{deal.pk}/correct")
    assert form.status_code == 200 and "Back to the fixture" in form.content.decode()
    body = {
        "level": "totals",
        "sides.A.thirds": "12",
        "sides.A.tricks": "5",
        "last_trick": "B",
        "expected_version": "1",
        "idempotency_key": str(uuid.uuid4()),
    }
    assert away.post(f"/d/{deal.pk}/correct?level=totals", body).status_code == 400  # no reason
    answer = away.post(
        f"/d/{deal.pk}/correct?level=totals", {**body, "reason": "Carte contate male"}
    )
    assert answer.status_code == 303 and answer["Location"] == url
    new = Deal.objects.get(match_id=deal.match_id, number=1, is_current=True)
    assert (new.version, new.entered_by, new.reason) == (2, people.stranger, "Carte contate male")
    event = AuditEvent.objects.get(verb="deal_corrected_by_visitor")
    assert event.club_id == people.club.pk and event.after["deal"] == new.pk
    # the home club's members reach the deals from the match; no correction list for them
    home = _page(people.director).get(url).content.decode()
    assert "Correct a deal" not in home and f"/m/{deal.match_id}/" in home
    # a member of the away club: neither the list nor the form
    member = get_user_model().objects.create_user("altrove-socio")
    Membership.objects.create(club=people.other, user=member, role="member")
    assert "Correct a deal" not in _page(member).get(url).content.decode()
    assert _page(member).get(f"/d/{new.pk}/correct").status_code == 404
    assert _page(member).post(f"/d/{new.pk}/correct", body).status_code == 404


def test_the_away_directors_correction_form_checks_as_it_goes(people, played):
    """The correction form's live check answered the away director 404 (it asked the home
    club's membership only): their form said nothing until the save. Now it checks for
    them as for the home club's members; a member of the away club still gets nothing."""
    deal = _first_deal(played)
    check = f"/m/{deal.match_id}/deals/check"
    body = {"level": "totals", "deal_number": "1", "sides.A.thirds": "12",
            "sides.A.tricks": "5", "last_trick": "B"}  # fmt: skip
    answer = _page(people.stranger).post(check, body)
    assert answer.status_code == 200 and 'class="verdict ok"' in answer.content.decode()
    wrong = _page(people.stranger).post(check, {**body, "sides.A.thirds": "40"})
    assert "must be between" in wrong.content.decode()
    member = get_user_model().objects.create_user("altrove-socio")
    Membership.objects.create(club=people.other, user=member, role="member")
    assert _page(member).post(check, body).status_code == 404


def test_a_home_member_who_directs_the_away_club_corrects_on_the_form(people, played):
    """The correction form answered 403 to a member of the home club who is also a
    director of the away club: it found the deal among their own club's and asked the
    home club's role only. Either role is enough now, as in the service; the home
    director still corrects as the club's own, and a plain member is refused."""
    import uuid

    deal = _first_deal(played)
    Membership.objects.create(club=people.other, user=people.member, role="director")
    body = {
        "level": "totals",
        "sides.A.thirds": "12",
        "sides.A.tricks": "5",
        "last_trick": "B",
        "expected_version": "1",
        "idempotency_key": str(uuid.uuid4()),
        "reason": "Carte contate male",
    }
    both = _page(people.member)
    form = both.get(f"/d/{deal.pk}/correct")
    assert form.status_code == 200 and "Back to the fixture" in form.content.decode()
    url = f"/f/{played.championship.federation.slug}/fixtures/{played.pk}/"
    answer = both.post(f"/d/{deal.pk}/correct?level=totals", body)
    assert answer.status_code == 303 and answer["Location"] == url
    new = Deal.objects.get(match_id=deal.match_id, number=1, is_current=True)
    assert (new.version, new.entered_by) == (2, people.member)
    assert AuditEvent.objects.get(verb="deal_corrected_by_visitor").actor == people.member
    # the home club's director: the club's own correction, no visit
    assert _page(people.director).get(f"/d/{new.pk}/correct").status_code == 200
    # a plain member of the home club (no role at the away club): 403, nothing stored
    plain = get_user_model().objects.create_user("socio-semplice")
    Membership.objects.create(club=people.club, user=plain, role="member")
    assert _page(plain).get(f"/d/{new.pk}/correct").status_code == 403
    refused = _page(plain).post(
        f"/d/{new.pk}/correct?level=totals",
        {**body, "expected_version": "2", "idempotency_key": str(uuid.uuid4())},
    )
    assert refused.status_code == 403
    assert Deal.objects.filter(match_id=deal.match_id, number=1).count() == 2


def test_the_api_lets_a_home_member_who_directs_the_away_club_correct(people, played):
    deal = _first_deal(played)
    Membership.objects.create(club=people.other, user=people.member, role="director")
    client = APIClient()
    client.force_authenticate(people.member)
    etag = client.get(f"/api/v1/deals/{deal.pk}")["ETag"]
    answer = client.post(
        f"/api/v1/deals/{deal.pk}/correct",
        {"deal": build.B_WINS, "reason": "Carte contate male"},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert answer.status_code == 201, answer.content
    plain = get_user_model().objects.create_user("socio-semplice")
    Membership.objects.create(club=people.club, user=plain, role="member")
    client.force_authenticate(plain)
    new = Deal.objects.get(match_id=deal.match_id, number=1, is_current=True)
    refused = client.post(
        f"/api/v1/deals/{new.pk}/correct",
        {"deal": build.A_WINS, "reason": "x"},
        format="json",
        HTTP_IF_MATCH="*",
    )
    assert refused.status_code == 403
    assert Deal.objects.filter(match_id=deal.match_id, number=1).count() == 2
