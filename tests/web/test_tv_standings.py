"""The TV view shows the season's leaderboard under tonight's scores (VISION, step 8: the
public page and the TV view show the standings); it showed only the scores."""

import datetime

from django.test import Client

from scorebook.clubs.models import Club
from scorebook.standings import refresh
from scorebook.standings import services as standings


def test_the_tv_shows_the_seasons_first_players(people, club, world):
    Club.objects.filter(pk=club.pk).update(public=True)
    anyone = Client()
    assert (
        "Classifica"
        not in anyone.get(f"/public/{club.slug}/tv", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    )
    standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people["director"],
    )
    refresh.rebuild(club_id=club.pk)
    for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):  # the page, and its refresh every 5 s
        body = anyone.get(f"/public/{club.slug}/tv", HTTP_ACCEPT_LANGUAGE="it", **htmx)
        text = body.content.decode()
        assert "Classifica · 2026-27" in text
        for name in ("Nino", "Ettore", "Salvo", "Walter"):
            assert f'<th scope="row">{name}</th>' in text, name
        assert "EUR" not in text  # never the stakes in public
