"""A director opens a season from the leaderboard page: the page said "No season yet: a
director opens one", and no page let them (only the API did)."""

import datetime

from scorebook.standings.models import Season
from tests.web.test_pages import client_for


def test_a_director_opens_a_season_on_the_leaderboard(people, club):
    client = client_for(people, "director")
    url = f"/c/{club.slug}/standings/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Nessuna stagione ancora: apri la prima qui sotto." in page
    assert "Apri la stagione" in page and 'name="starts_on"' in page
    answer = client.post(url, {"name": "2026-27", "starts_on": "2026-09-01", "ends_on": ""})
    season = Season.objects.get(club=club)
    assert (season.name, season.starts_on, season.ends_on) == (
        "2026-27",
        datetime.date(2026, 9, 1),
        None,
    )
    assert answer.status_code == 302 and answer["Location"] == f"{url}?season={season.pk}"
    again = client.post(url, {"name": "2026-27", "starts_on": "2026-10-01"})
    assert again.status_code == 409  # the name is taken: said on the page, nothing stored
    assert Season.objects.filter(club=club).count() == 1


def test_members_see_no_season_form_and_cannot_post_one(people, club):
    client = client_for(people, "member")
    url = f"/c/{club.slug}/standings/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No season yet: a director opens one." in page and "Open a season" not in page
    assert client.post(url, {"name": "x", "starts_on": "2026-09-01"}).status_code == 403
    assert not Season.objects.exists()
