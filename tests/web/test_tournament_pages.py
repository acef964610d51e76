"""Tonight's tournament on the pages (issue 27): from the night page to the prizes, in
Italian; bad form values are refused in words with nothing stored; another club's
tournament is a 404."""

import pytest
from django.test import Client

from scorebook.matches.models import Match
from scorebook.tournaments.models import Entry, Tournament
from tests.tournaments.helpers import finish_match, players

SETTINGS = {"name": "T", "game": "tressette4", "format": "swiss", "rounds": 3}


def client_of(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(user)
    return client


def test_a_swiss_night_on_the_pages(people, night):
    director = client_of(people.director)
    page = director.get(f"/n/{night.pk}/")
    assert f"/n/{night.pk}/tournaments/new" in page.content.decode()
    created = director.post(
        f"/n/{night.pk}/tournaments/new",
        {"name": "Torneo", "game": "tressette4", "format": "swiss", "rounds": "2", "entry_fee": "5",
         "currency": "EUR", "prizes": "60, 40"},
    )  # fmt: skip
    assert created.status_code == 302, created.content.decode()[:2000]
    t = Tournament.objects.get()
    base = f"/t/{t.pk}/"
    ps = players(people.club, 6)
    for i in range(3):
        answer = director.post(
            base + "do/pair-add", {"first": ps[2 * i].pk, "second_guest": f"Ospite {i}"}
        )
        assert answer.status_code == 302
    for name in ("Lia", "Tano"):
        director.post(base + "do/single-add", {"player_guest": name})
    assert director.post(base + "do/draw").status_code == 302
    assert t.entries.count() == 4
    html = director.get(base).content.decode()
    assert "Coppie" in html or "Coppia" in html
    assert director.post(base + "do/start").status_code == 302
    html = director.get(base).content.decode()
    assert "Tavolo 1" in html and "Tavolo 2" in html
    for match in Match.objects.filter(night=night, status="open"):
        assert f"/m/{match.pk}/" in html
        finish_match(people, match)
    entry = t.entries.order_by("seed").first()
    out = director.post(base + "do/withdraw", {"entry": entry.pk, "reason": "treno"})
    assert out.status_code == 302
    assert director.post(base + "do/start").status_code == 302
    for match in Match.objects.filter(night=night, status="open"):
        finish_match(people, match)
    html = director.get(base).content.decode()
    assert "Classifica" in html
    assert director.post(base + "do/finish").status_code == 302
    t.refresh_from_db()
    assert t.status == "finished"
    for path in ("standings.csv", "standings.pdf", "round-1.pdf", "tables-2.pdf"):
        assert director.get(base + path).status_code == 200, path


@pytest.mark.parametrize(
    "action, body",
    [
        ("pair-add", {}),
        ("pair-add", {"first": "abc", "second_guest": "x" * 81}),
        ("pair-add", {"first_guest": "\x00", "second_guest": "B"}),
        ("single-add", {"player": "999999999999"}),
        ("withdraw", {"entry": "²", "reason": ""}),
        ("forfeit", {"pairing": "1", "entry": "1", "reason": "x"}),
        ("swap", {"first": "-1", "second": "1e9"}),
        ("bye", {"entry": "1"}),
        ("start", {}),
        ("finish", {}),
        ("nonsense", {}),
    ],
)
def test_bad_values_are_refused_and_nothing_stored(people, night, action, body):
    director = client_of(people.director)
    director.post(f"/n/{night.pk}/tournaments/new", SETTINGS)
    t = Tournament.objects.get()
    answer = director.post(f"/t/{t.pk}/do/{action}", body)
    assert answer.status_code in (400, 404, 409), answer.status_code
    assert not Entry.objects.exists() and not t.round_set.exists()


def test_members_see_no_controls_and_strangers_get_404(people, night):
    client_of(people.director).post(f"/n/{night.pk}/tournaments/new", SETTINGS)
    t = Tournament.objects.get()
    member = client_of(people.member)
    html = member.get(f"/t/{t.pk}/").content.decode()
    assert "do/pair-add" not in html
    assert (
        member.post(f"/t/{t.pk}/do/pair-add", {"first_guest": "A", "second_guest": "B"}).status_code
        == 403
    )
    assert client_of(people.stranger).get(f"/t/{t.pk}/").status_code == 404
    assert not Entry.objects.exists()


def test_the_tv_shows_the_rounds_pairings_then_the_standings_and_no_money(people, night):
    from scorebook.clubs.models import Club
    from scorebook.tournaments.services.registration import entry_add
    from scorebook.tournaments.services.rounds import round_start
    from scorebook.tournaments.services.setup import tournament_create

    Club.objects.filter(pk=people.club.pk).update(public=True)
    t = tournament_create(
        night=night, name="Torneo", game="tressette4", rules={"profile": "classic_21"},
        user=people.director, entry_fee="5", currency="EUR", prizes=["100"],
    )  # fmt: skip
    for i in range(3):
        entry_add(tournament=t, players=[f"A{i}", f"B{i}"], user=people.director)
    round_start(tournament=t, user=people.director)
    anyone = Client(HTTP_ACCEPT_LANGUAGE="it")
    url = f"/public/{people.club.slug}/tv"
    pairings = anyone.get(url, {"show": "pairings"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Tavolo 1" in pairings and "A0 &amp; B0" in pairings and "Riposo" in pairings
    standings = anyone.get(url, {"show": "standings"}).content.decode()
    assert "Torneo · Classifica" in standings and "A2 &amp; B2" in standings
    for text in (pairings, standings):
        assert "EUR" not in text and "5.00" not in text
    assert anyone.get(url, {"show": "bogus"}).status_code == 200
