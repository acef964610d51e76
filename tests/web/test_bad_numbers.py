"""Ids and numbers posted by the pages' forms or sent in their query strings (issue 23):
anything that is not one (``abc``, ``''``, ``1.5``, ``²``, 4,400 digits) is a 4xx page in
words, the same answer as for an id that does not exist (or exists in another club), never
a 500, and nothing is stored."""

import pytest
from django.test import Client

from scorebook.clubs.models import Membership, Player
from scorebook.core.models import AuditEvent
from scorebook.matches.models import Deal
from scorebook.standings.leagues import services as leagues

BAD = ["abc", "", "1.5", "²", "9" * 4400, "9223372036854775808", "-1"]


def client_for(people, who="owner"):
    client = Client()
    client.force_login(people[who])
    return client


def stored():
    return (Deal.objects.count(), AuditEvent.objects.count(), Player.objects.count())


def _posts(club, people, world):
    league = leagues.league_create(club=club, name="Coppa", user=people.director)
    slug = world["slug"]
    return [
        (f"/c/{slug}/members", {"membership": "{}", "role": "member"}),
        (f"/c/{slug}/members", {"membership": "{}", "remove": "1"}),
        (f"/c/{slug}/players", {"toggle": "{}"}),
        (f"/n/{world['closed']}/settlement", {"transfer": "{}"}),
        (f"/c/{slug}/leagues/{league.pk}/withdraw", {"entry": "{}"}),
        (f"/d/{world['deal']}/confirm", {"player": "{}", "pin": "1234"}),
        (f"/m/{world['match']}/deals/check", {"deal_number": "{}"}),
        (f"/m/{world['match']}/deals/new", {"expected_number": "{}", "level": "totals"}),
        (
            f"/d/{world['deal']}/correct",
            {"expected_version": "{}", "reason": "typo", "level": "totals"},
        ),
    ]


def test_bad_ids_and_numbers_posted_by_the_pages_are_a_4xx_and_store_nothing(club, people, world):
    client = client_for(people)
    for url, form in _posts(club, people, world):
        before = stored()
        missing = client.post(url, {k: v.replace("{}", "987654") for k, v in form.items()})
        for bad in BAD:
            data = {k: v.replace("{}", bad) for k, v in form.items()}
            response = client.post(url, data)
            assert 400 <= response.status_code < 500 or (
                response.status_code == missing.status_code
            ), (url, bad[:20], response.status_code)
            if missing.status_code == 404:
                assert response.status_code == 404, (url, bad[:20])
        assert stored() == before, url


@pytest.mark.parametrize("who", ["owner", "anonymous"])
def test_bad_numbers_in_the_pages_query_strings_are_not_a_500(club, people, world, who):
    club.public = True
    club.save(update_fields=["public"])
    client = client_for(people) if who == "owner" else Client()
    slug = world["slug"]
    urls = [
        f"/public/{slug}/standings/?season={{}}",
        f"/public/{slug}/standings/?game=t%00x",
        f"/public/{slug}/standings/ratings?game=t%00x",
    ]
    if who == "owner":
        urls += [
            f"/c/{slug}/standings/?season={{}}",
            f"/c/{slug}/players/{world['player']}/stats?match={{}}",
            f"/n/{world['night']}/matches/new?game=tressette4&players={{}}",
            f"/m/{world['match']}/deals/new?saved={{}}",
        ]
    for url in urls:
        for bad in BAD:
            response = client.get(url.format(bad))
            assert response.status_code < 500, (url, bad[:20])


def test_a_nul_in_a_correction_reason_or_an_invitation_link_is_a_400_page(club, people, world):
    client = client_for(people)
    before = stored()
    response = client.post(
        f"/d/{world['deal']}/correct",
        {"reason": "typo\x00", "level": "totals", "expected_version": "1"},
    )
    assert response.status_code == 400
    assert "control character" in response.content.decode()
    assert Client().get(f"/join/{world['token']}%00").status_code == 400
    form = {"signup": "1", "username": "x", "password1": "p", "password2": "p"}
    assert Client().post("/join/abc%00", form).status_code == 400
    assert stored() == before
    assert Membership.objects.filter(user__username="x").count() == 0


DEEP = "[" * 5000 + "]" * 5000
LONG = '{"deals": ' + "9" * 5000 + "}"


@pytest.mark.parametrize("record", [DEEP, LONG, '{"a": ' + DEEP + "}"])
def test_a_pasted_play_record_nested_deep_or_with_a_huge_integer_is_refused_in_words(
    club, people, world, record
):
    client = client_for(people)
    before = stored()
    for url in (f"/m/{world['match']}/deals/new", f"/m/{world['match']}/deals/check"):
        response = client.post(url, {"level": "play", "record": record, "expected_number": "3"})
        assert 200 <= response.status_code < 500, (url, response.status_code)
        text = response.content.decode()
        assert "nested more than" in text or "more than 20 digits" in text, url
    assert stored() == before
