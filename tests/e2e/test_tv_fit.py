"""The TV view fits a TV: at 1280 x 720 and 1920 x 1080 everything is on the screen with no
scrolling (a TV cannot scroll; at 1280 x 720 only the first standings row was visible),
tonight's scores and the standings side by side; more matches turn pages."""

from __future__ import annotations

import datetime

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ONE = {"sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
       "last_trick": "B"}  # fmt: skip
WON = {"sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
       "last_trick": "A"}  # fmt: skip
FINISHED = [WON, ONE, WON, WON]  # to 21, as tests/web/conftest.py's finished match
TERZ = {"bids": [{"player": "P2", "bid": "solo"}, {"player": "P3", "bid": "pass"},
                 {"player": "P1", "bid": "pass"}],
        "sides": {"soloist": {"thirds": 17, "tricks": 5}, "coalition": {"thirds": 15, "tricks": 7}},
        "last_trick": "coalition"}  # fmt: skip

FITS = """
() => {
  const w = window.innerWidth, h = window.innerHeight;
  const doc = document.documentElement;
  const out = [];
  if (doc.scrollHeight > h + 1) out.push(`page is ${doc.scrollHeight} px high`);
  if (doc.scrollWidth > w + 1) out.push(`page is ${doc.scrollWidth} px wide`);
  for (const e of document.querySelectorAll('.score, .tv-standings tr, .card h2, h1')) {
    const r = e.getBoundingClientRect();
    if (r.bottom > h + 1 || r.right > w + 1 || r.top < -1)
      out.push(`${e.tagName} "${e.textContent.trim().slice(0, 20)}" at ${Math.round(r.bottom)}`);
    if (e.scrollWidth > e.clientWidth + 1 && !e.matches('tr'))
      out.push(`"${e.textContent.trim().slice(0, 20)}" does not fit its box`);
  }
  return out;
}
"""


@pytest.fixture
def tv_club(players):
    """Twelve players with a finished match each in this season, tonight four tables
    playing (one of them a Terziglio), and a night opened for tomorrow."""
    from django.utils import timezone

    from scorebook.clubs.models import Club, Player
    from scorebook.matches import services
    from scorebook.standings import refresh
    from scorebook.standings import services as standings

    director = players["direttore"]
    club = Club.objects.get(slug="san-rocco")
    club.public = True
    club.save()
    for name in ("Pina", "Carmelo", "Rosa", "Tano", "Gino", "Lia", "Ciccio", "Maria"):
        Player.objects.create(club=club, name=name)
    ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    today = timezone.localdate()
    standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=today - datetime.timedelta(days=60),
        ends_on=None,
        user=director,
    )
    past = services.night_open(
        club_id=club.pk, date=today - datetime.timedelta(days=7), venue="", user=director
    )
    for group in range(3):
        four = ids[group * 4 : group * 4 + 4]
        match = services.match_create(
            night=past,
            game="tressette4",
            rules={"profile": "classic_21"},
            seats=dict(zip("NESW", four, strict=True)),
            user=director,
        )
        for number, data in enumerate(FINISHED, start=1):
            services.deal_create(match=match, data=data, expected_number=number, user=director)
    services.night_close(night=past, user=director)
    tonight = services.night_open(club_id=club.pk, date=today, venue="Bar", user=director)
    services.night_open(
        club_id=club.pk, date=today + datetime.timedelta(days=1), venue="", user=director
    )

    def table(number, game="tressette4"):
        t = services.table_create(
            night=tonight, number=number, name=f"Tavolo {number}", user=director
        )
        if game == "terziglio":
            match = services.match_create(
                night=tonight,
                table=t,
                game=game,
                rules={"profile": "chips_1_2_4_8_16"},
                seats={"P1": ids[0], "P2": ids[5], "P3": ids[10]},
                first_dealer="P1",
                user=director,
            )
            services.deal_create(match=match, data=TERZ, expected_number=1, user=director)
            return
        four = [ids[k % len(ids)] for k in range((number - 1) * 2, (number - 1) * 2 + 4)]
        match = services.match_create(
            night=tonight,
            table=t,
            game=game,
            rules={"profile": "classic_21"},
            seats=dict(zip("NESW", four, strict=True)),
            user=director,
        )
        services.deal_create(match=match, data=ONE, expected_number=1, user=director)

    for number in (1, 2, 3):
        table(number)
    table(4, "terziglio")
    refresh.rebuild(club_id=club.pk)
    return {"table": table}


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("language", ["it", "en"])
def test_the_tv_view_fits_the_screen(phone, tv_club, shots, language, size):
    page = phone(None, language)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto("/public/san-rocco/tv")
    assert page.locator(".tv-grid .card").count() == 4  # tonight's, not tomorrow's (none)
    assert page.locator(".tv-standings tbody tr").count() == 10
    assert page.evaluate(FITS) == []
    # The Terziglio's players below zero: a minus sign, not a hyphen, and it fits (FITS:
    # no score wider than its box). Issue 32 item 5: the TV kept the hyphen.
    points = page.locator(".tv-grid .score .points").all_inner_texts()
    assert any(p.startswith("\u2212") for p in points), points
    assert not any(p.startswith("-") for p in points), points
    scores = page.locator(".tv-grid").bounding_box()
    standings = page.locator(".tv-standings").bounding_box()
    assert standings["x"] >= scores["x"] + scores["width"]  # side by side
    shots(page, f"tv-{size[0]}x{size[1]}-{language}")


def test_more_tables_turn_pages_and_still_fit(phone, tv_club, shots):
    tv_club["table"](5)
    tv_club["table"](6)
    page = phone(None, "it")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto("/public/san-rocco/tv?page=2")
    assert page.locator(".tv-grid .card").count() == 2
    assert "Pagina 2 di 2" in page.locator(".tv-matches .lead").inner_text()
    assert page.evaluate(FITS) == []
    shots(page, "tv-1280x720-page-2")


TOURNAMENT_FITS = """
() => {
  const w = window.innerWidth, h = window.innerHeight;
  const out = [];
  const lines = '.tv-tournament tr, .tv-tournament li, .tv-tournament caption';
  for (const e of document.querySelectorAll(lines)) {
    const r = e.getBoundingClientRect();
    if (r.bottom > h + 1 || r.right > w + 1)
      out.push(`${e.tagName} "${e.textContent.trim().slice(0, 30)}" at ${Math.round(r.bottom)}`);
  }
  return out;
}
"""


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_groups_tournament_on_the_tv_fits(phone, tv_club, shots, players, language):
    """Sixteen pairs in four groups of four: the group tables a screenful at a time (two
    groups, then the other two), and the group round's eight tables, at 1280 x 720, no money."""
    from types import SimpleNamespace

    from django.utils import timezone

    from scorebook.clubs.models import Club
    from scorebook.matches.models import Night
    from scorebook.tournaments.models import Entry
    from scorebook.tournaments.services.rounds import round_start
    from tests.tournaments.helpers import with_pairs

    club = Club.objects.get(slug="san-rocco")
    people = SimpleNamespace(club=club, director=players["direttore"])
    tonight = Night.objects.get(club=club, date=timezone.localdate())
    t = with_pairs(
        people, tonight, 16, format="groups", group_size=4, qualifiers=1, entry_fee="5",
        currency="EUR", name="Torneo della Festa di San Rocco",
    )  # fmt: skip
    # Long names, the same length whatever ids the database gives (the suite's ids made
    # the lines wrap where a lone run's did not).
    for n, entry in enumerate(Entry.objects.filter(tournament=t), start=101):
        entry.name = f"Bartolomeo Santangelo {n} & Mariagrazia Buonaccorsi {n}"
        entry.save()
    round_start(tournament=t, user=people.director)
    page = phone(None, language)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto("/public/san-rocco/tv?show=standings")
    assert page.locator(".tv-tournament table").count() == 2  # a page of groups
    shots(page, f"tv-groups-{language}")
    assert page.evaluate(FITS) == [] and page.evaluate(TOURNAMENT_FITS) == []
    assert "EUR" not in page.content()
    page.goto("/public/san-rocco/tv?show=pairings")
    assert page.locator(".tv-pairings li").count() == 8
    assert page.evaluate(FITS) == [] and page.evaluate(TOURNAMENT_FITS) == []
    shots(page, f"tv-groups-pairings-{language}")
