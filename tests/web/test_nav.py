"""The club's standings and leagues are one tap from every club page: the pages existed
(/c/<slug>/standings/, /leagues/) but nothing linked to them, so a member could not find
the leaderboard without typing its address."""

import re

from tests.web.test_pages import client_for


def _nav(body):
    return re.search(r'<nav class="nav" aria-label="Club">(.*?)</nav>', body, re.S).group(1)


def test_every_club_page_links_the_standings(people, world):
    client = client_for(people, "member")
    for url in ("/c/{slug}/", "/n/{night}/", "/m/{match}/", "/c/{slug}/players"):
        nav = _nav(client.get(url.format(**world), HTTP_ACCEPT_LANGUAGE="en").content.decode())
        assert f'href="/c/{world["slug"]}/standings/">Standings</a>' in nav, url
    italian = client.get(f"/c/{world['slug']}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert ">Classifiche</a>" in italian


def test_the_standings_pages_lead_to_each_other_and_to_the_leagues(people, world):
    client = client_for(people, "member")
    for url in ("/c/{slug}/standings/", "/c/{slug}/standings/ratings", "/c/{slug}/leagues/"):
        body = client.get(url.format(**world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert 'aria-current="page">Standings</a>' in _nav(body), url  # the club's nav
        for other in ("standings/", "standings/ratings", "leagues/"):
            assert f'href="/c/{world["slug"]}/{other}"' in body, (url, other)
