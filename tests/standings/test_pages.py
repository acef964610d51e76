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
