"""The match page says what the table plays to and for how much: "41 con l'accuso ·
posta 0,50 EUR" (it said neither; a player had to ask the director)."""

from django.test import Client

from scorebook.clubs.models import Club
from tests.web.test_deal_words import _match
from tests.web.test_pages import client_for


def test_the_match_page_says_the_house_rules_and_the_stake(people, world):
    client = client_for(people, "member")
    url = f"/m/{world['match']}/"  # classic_21 at 0.50 EUR
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<p class="meta">a 21, senza accusi · posta 0,50 EUR</p>' in italian
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<p class="meta">to 21, no declarations · stake 0.50 EUR</p>' in english
    Club.objects.filter(pk=people.club.pk).update(public=True)
    public = Client().get(f"/public/{world['slug']}/m/{world['match']}").content.decode()
    assert "0.50" not in public and "0,50" not in public  # never the stakes in public


def test_without_a_profile_the_target_is_said(people):
    match = _match(people, "tressette4", 4, {"t4.target": 31})
    page = client_for(people, "member").get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert '<p class="meta">a 31 punti</p>' in page.content.decode()


def test_a_finished_match_names_its_winners_not_a_leader(people, world):
    """Over a finished match the scoreboard still said "in testa" (leading)."""
    client = client_for(people, "member")
    italian = client.get(f"/m/{world['finished']}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert italian.count("<strong>vittoria</strong>") == 1 and "in testa" not in italian
    english = client.get(f"/m/{world['finished']}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert english.count("<strong>winner</strong>") == 1 and ">leading<" not in english
    running = client.get(f"/m/{world['match']}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "winner" not in running


def test_only_a_match_being_played_asks_for_its_score_again(people, world):
    client = client_for(people, "member")
    running = client.get(f"/m/{world['match']}/").content.decode()
    assert f'<div id="live" hx-get="/m/{world["match"]}/" hx-trigger="every 15s"' in running
    finished = client.get(f"/m/{world['finished']}/").content.decode()
    assert '<div id="live">' in finished and "hx-trigger" not in finished
