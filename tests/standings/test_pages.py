"""The leaderboard and ratings pages: members only, ranked first, freshness shown."""

from django.test import Client

from .conftest import A_WINS_DEAL, B_WINS_DEAL, play_pairs


def _client(people, who="member"):
    client = Client()
    client.force_login(people[who])
    return client


def test_leaderboard_and_ratings_pages(people, season, night, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play_pairs(people, night, [A_WINS_DEAL] * 3)
        play_pairs(people, night, [B_WINS_DEAL] * 3)
        play_pairs(people, night, [A_WINS_DEAL] * 3)
    page = _client(people).get(f"/c/{people.club.slug}/standings/?sort=-won")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index("Nino") < html.index("Ettore")  # 2 wins before 1
    assert "Brought up to date" in html
    page = _client(people).get(f"/c/{people.club.slug}/standings/?sort=won")
    html = page.content.decode()
    assert html.index("Ettore") < html.index("Nino")
    page = _client(people).get(f"/c/{people.club.slug}/standings/ratings")
    html = page.content.decode()
    assert page.status_code == 200 and "provisional" in html
    assert html.index("Nino") < html.index("Walter")


def test_pages_are_for_members_only(people, season):
    assert _client(people, "stranger").get(f"/c/{people.club.slug}/standings/").status_code == 404
    assert Client().get(f"/c/{people.club.slug}/standings/").status_code == 302  # to the login


CAPPOTTO = {
    "sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}},
    "last_trick": "A",
}


def test_the_leaderboard_shows_events_units_and_money_and_sorts_by_them(
    people, season, night, django_capture_on_commit_callbacks
):
    """Issue 14: every column of the leaderboard on the page, sortable (events made and
    suffered, units, money per currency)."""
    with django_capture_on_commit_callbacks(execute=True):
        play_pairs(people, night, [CAPPOTTO])  # a cappotto ends the game, stake x2
        play_pairs(people, night, [B_WINS_DEAL] * 3)
    html = _client(people).get(f"/c/{people.club.slug}/standings/").content.decode()
    for heading in ("Units", "cappotto (made)", "cappotto (suffered)", "EUR"):
        assert heading in html, heading
    made = (
        _client(people)
        .get(f"/c/{people.club.slug}/standings/?sort=-events:cappotto:made")
        .content.decode()
    )
    assert made.index("Nino") < made.index("Ettore")  # N-S made it
    suffered = (
        _client(people)
        .get(f"/c/{people.club.slug}/standings/?sort=-events:cappotto:suffered")
        .content.decode()
    )
    assert suffered.index("Ettore") < suffered.index("Nino")
    bad = _client(people).get(f"/c/{people.club.slug}/standings/?sort=-nonsense")
    assert bad.status_code == 200  # an unknown column falls back to wins


def test_public_standings_pages_for_clubs_that_publish_without_money(
    people, season, night, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        play_pairs(people, night, [A_WINS_DEAL] * 3)
    url = f"/public/{people.club.slug}/standings/"
    assert Client().get(url).status_code == 404  # the club does not publish
    people.club.public = True
    people.club.save()
    page = Client().get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Nino" in html and "EUR" not in html and "Money is never shown" in html
    assert Client().get(url + "?sort=-money:EUR").status_code == 200  # ignored, not shown
    ratings = Client().get(f"/public/{people.club.slug}/standings/ratings")
    assert ratings.status_code == 200 and "Nino" in ratings.content.decode()
    home = Client().get(f"/public/{people.club.slug}/").content.decode()
    assert f"/public/{people.club.slug}/standings/" in home
    italian = Client().get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Classifica" in italian
