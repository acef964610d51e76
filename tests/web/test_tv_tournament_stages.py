"""The TV shows a groups or knockout tournament's current stage: it showed Swiss
pairings and one Swiss standings table for every format, so a groups night had no group
tables and a knockout's final came under an overall 'standings' that means nothing.
Now: the group rounds' pairings and the group tables; in the knockout, the round's
pairings under its name (semifinals, final) in place of standings. No money."""

import pytest
from django.test import Client

from scorebook.clubs.models import Club
from scorebook.tournaments.services.rounds import round_start
from tests.tournaments.helpers import play_round, with_pairs
from tests.web.test_tournament_pages_more import text_of


@pytest.fixture
def night(people):
    from django.utils import timezone

    Club.objects.filter(pk=people.club.pk).update(public=True)
    from scorebook.matches import services as matches

    return matches.night_open(
        club_id=people.club.pk, date=timezone.localdate(), venue="", user=people.director
    )


def tv(people, show, language="it"):
    body = (
        Client()
        .get(f"/public/{people.club.slug}/tv?show={show}", HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    return text_of(body.split('class="card tv-tournament"', 1)[1].split("</section>", 1)[0])


def test_groups_show_the_group_tables_then_the_knockouts_round(people, night):
    t = with_pairs(
        people, night, 6, format="groups", group_size=3, qualifiers=1, entry_fee="5",
        currency="EUR",
    )  # fmt: skip
    names = dict(t.entries.values_list("pk", "name"))
    first = round_start(tournament=t, user=people.director)
    shown = tv(people, "standings")
    assert "Girone 1" in shown and "Girone 2" in shown
    assert all(name in shown for name in names.values())
    assert "Classifica" not in shown and "EUR" not in shown
    assert "Group 1" in tv(people, "standings", "en")
    pairings = tv(people, "pairings")
    assert "Turno 1" in pairings and "Tavolo 1" in pairings
    play_round(people, first)
    for _ in range(2):
        play_round(people, round_start(tournament=t, user=people.director))
    final = round_start(tournament=t, user=people.director)
    pairing = final.pairings.get()
    for show in ("pairings", "standings"):  # the knockout: its round, never standings
        shown = tv(people, show)
        assert "Finale" in shown and "Classifica" not in shown and "Girone" not in shown
        assert names[pairing.home_id] in shown and names[pairing.away_id] in shown
        assert "EUR" not in shown
    assert "Final" in tv(people, "standings", "en")


def test_a_straight_knockout_shows_its_round_by_name(people, night):
    t = with_pairs(people, night, 4, format="knockout")
    round_start(tournament=t, user=people.director)
    shown = tv(people, "standings")
    assert "Semifinali" in shown and "Classifica" not in shown
    assert "Tavolo 1" in shown and "Tavolo 2" in shown


def test_a_swiss_tournament_still_shows_its_standings(people, night):
    t = with_pairs(people, night, 4, rounds=2)
    round_start(tournament=t, user=people.director)
    assert "Classifica" in tv(people, "standings")
    assert "Turno 1" in tv(people, "pairings")


def test_a_round_of_more_tables_than_a_screen_turns_with_the_clock(people, night, monkeypatch):
    """Twenty pairs, ten tables: the TV showed the first twelve lines and never the rest of
    a larger round; now a screen holds TV_PAIRING_LINES tables and the next screen turns
    with the clock, so every table is shown."""
    from scorebook.web.views import public

    t = with_pairs(people, night, 20, rounds=3)
    round_start(tournament=t, user=people.director)
    seen = set()
    for screen in range(2):
        monkeypatch.setattr(public.time, "time", lambda s=screen: s * public.TV_PAGE_SECONDS)
        shown = tv(people, "pairings")
        tables = {n for n in range(1, 11) if f"Tavolo {n} " in shown}
        assert len(tables) <= public.TV_PAIRING_LINES
        seen |= tables
    assert seen == set(range(1, 11))
