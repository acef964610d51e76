"""The championship's forms on the pages (issue 34 item 3): an officer creates one (the
game's house rules from the engine's description), a club's director enters a team with
its roster and substitutes, an officer starts it, records a forfeit and moves a fixture's
night (as the home director may), and the fixture's page shows the line-ups. Through the
HTTP layer: who may not is refused in words (403/404), bad input is a 400 that stores
nothing, and nobody reads another club's players."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from scorebook.federations.models import Championship, ChampionshipFixture, Team
from tests import builders as build
from tests.federations.championship_helpers import home_fixture, league, officer

pytestmark = pytest.mark.django_db


def client_of(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


SHAPE = {
    "name": "Coppa dei circoli",
    "season": "2026/27",
    "tables": "2",
    "substitutes": "1",
    "format": "round_robin",
    "legs": "2",
    "groups": "1",
    "advance": "2",
    "first_day": "2026-12-04",
    "every_days": "7",
}


def _switches(client: Client, url: str) -> dict[str, str]:
    """The house-rule fields as the page fills them (name -> its selected or typed value)."""
    form = client.get(url).context["form"]
    return {
        f"rules.{s['key']}": str(form[f"rules.{s['key']}"].value()) for s in form.game["switches"]
    }


def test_an_officer_creates_a_championship_with_the_engines_house_rules(people):
    fed = build.federation(people.club, people.other)
    client = client_of(officer(fed))
    base = f"/f/{fed.slug}/championships/new"
    games = client.get(base)
    assert games.status_code == 200
    shown = {g["key"] for g in games.context["games"]}
    assert build.GAME in shown and "terziglio" not in shown  # three separate players: no
    url = f"{base}?game={build.GAME}&profile=classic_21"
    page = client.get(url).content.decode()
    assert "Points to win the game" in page  # a switch of the engine's, in words
    body = {**SHAPE, **_switches(client, url)}
    answer = client.post(url, body)
    assert answer.status_code == 302
    made = Championship.objects.get(federation=fed)
    assert (made.game, made.rules, made.tables, made.substitutes) == (
        build.GAME,
        {"profile": "classic_21"},
        2,
        1,
    )
    assert made.first_day == datetime.date(2026, 12, 4)
    assert answer["Location"] == f"/f/{fed.slug}/championships/{made.pk}/"
    # a switch changed from the profile is stored beside it
    target = next(k for k in body if k.endswith(".target"))
    other = "31" if body[target] != "31" else "41"
    again = client.post(url, {**body, "name": "Coppa 2", target: other})
    assert again.status_code == 302
    assert Championship.objects.get(name="Coppa 2").rules == {
        "profile": "classic_21",
        target.removeprefix("rules."): int(other),
    }


def test_only_an_officer_creates_one(people):
    fed = build.federation(people.club, people.other)
    url = f"/f/{fed.slug}/championships/new?game={build.GAME}"
    for user in (people.owner, people.director, people.member):
        client = client_of(user)
        answer = client.get(url)
        assert answer.status_code == 403
        assert "role in the federation" in answer.content.decode()
        assert client.post(url, SHAPE).status_code == 403
        listed = client.get(f"/f/{fed.slug}/championships/").content.decode()
        assert "New championship" not in listed
    assert client_of(build.club("Borgo", "borgo")[1]).get(url).status_code == 404
    assert not Championship.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"tables": "99"},
        {"tables": "x"},
        {"first_day": "9999-12-31"},
        {"first_day": "1800-01-01"},
        {"legs": "3"},
        {"format": "swiss"},
        {"name": ""},
        {"season": "x" * 21},
        {"every_days": "0"},
        {"rules.t4.target": "\x00"},
    ],
)
def test_bad_input_is_a_400_that_stores_nothing(people, change):
    fed = build.federation(people.club, people.other)
    client = client_of(officer(fed))
    url = f"/f/{fed.slug}/championships/new?game={build.GAME}"
    body = {**SHAPE, **_switches(client, url), **change}
    assert client.post(url, body).status_code == 400
    assert not Championship.objects.exists()


def test_a_name_taken_is_refused_in_words(people):
    made = league(people, start=False)
    client = client_of(officer(made.federation))
    url = f"/f/{made.federation.slug}/championships/new?game={build.GAME}"
    body = {**SHAPE, **_switches(client, url), "name": made.name, "season": made.season}
    answer = client.post(url, body)
    assert answer.status_code == 409 or answer.status_code == 400
    assert made.name in answer.content.decode()
    assert Championship.objects.count() == 1


def _open(people):
    fed = build.federation(people.club, people.other)
    from scorebook.federations.services import championships as champs

    return champs.championship_create(
        federation=fed,
        name="Campionato",
        season="2026/27",
        game=build.GAME,
        rules_spec=build.RULES,
        user=officer(fed),
        substitutes=1,
    )


def _team_body(players, subs=(), name="San Rocco A", **extra):
    body = {"name": name, "substitutes": [str(p.pk) for p in subs], **extra}
    for number, player in enumerate(players):
        body[f"player.{number // 2 + 1}.{number % 2 + 1}"] = str(player.pk)
    return body


def test_a_director_enters_a_team_with_its_roster(people):
    made = _open(people)
    extra = build.players(people.club, 1, "Riserva ")[0]
    url = f"/f/{made.federation.slug}/championships/{made.pk}/enter"
    client = client_of(people.director)
    page = client.get(url).content.decode()
    assert "Table 2, player 2" in page and "Nino" in page
    body = _team_body(people.seated, [extra], captain=str(people.member.pk))
    answer = client.post(url, body)
    assert answer.status_code == 302
    team = Team.objects.get(championship=made)
    roster = [(r.player_id, r.substitute) for r in team.roster.order_by("substitute", "order")]
    assert roster == [*((p.pk, False) for p in people.seated), (extra.pk, True)]
    assert team.captain == people.member and team.club == people.club
    shown = client.get(f"/f/{made.federation.slug}/championships/{made.pk}/").content.decode()
    assert "San Rocco A" in shown and "Riserva" in shown and "substitutes:" in shown


def test_a_team_refused_in_words_and_by_its_fields(people):
    made = _open(people)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/enter"
    client = client_of(people.director)
    seated = list(people.seated)
    twice = client.post(url, _team_body([*seated[:3], seated[0]]))
    assert twice.status_code == 400 and "already on the team" in twice.content.decode()
    many = build.players(people.club, 2, "Riserva ")
    too_many = client.post(url, _team_body(seated, many))
    assert too_many.status_code == 400 and "At most 1 substitutes" in too_many.content.decode()
    foreign = build.players(people.other, 1, "Altrove ")[0]
    stolen = client.post(url, _team_body([*seated[:3], foreign]))
    assert stolen.status_code == 400
    assert client.post(url, {"name": "x"}).status_code == 400
    client.post(url, _team_body(seated))
    taken = client.post(url, _team_body(build.players(people.club, 4, "B "), name="San Rocco A"))
    assert taken.status_code == 409 and "San Rocco A" in taken.content.decode()
    assert Team.objects.count() == 1


def test_only_a_director_of_a_member_club_enters_and_sees_only_its_own_players(people):
    made = _open(people)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/enter"
    for user in (people.member, people.scorer):
        answer = client_of(user).get(url)
        assert answer.status_code == 403 and "role in this club" in answer.content.decode()
        assert client_of(user).post(url, _team_body(people.seated)).status_code == 403
    # the stranger owns Altrove: their page lists Altrove's players, never San Rocco's
    stranger = client_of(people.stranger)
    page = stranger.get(f"{url}?club=san-rocco").content.decode()
    assert "Circolo Altrove" in page and "Nino" not in page and "Ettore" not in page
    sent = _team_body(people.seated, club="san-rocco")
    assert stranger.post(url, sent).status_code == 400
    assert not Team.objects.exists()


def test_entries_close_when_it_starts(people):
    made = league(people)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/enter"
    answer = client_of(people.director).post(
        url, _team_body(build.players(people.club, 4, "B "), name="San Rocco B")
    )
    assert answer.status_code == 409 and "only before it starts" in answer.content.decode()


def test_an_officer_starts_it_from_the_page(people):
    made = league(people, start=False)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/"
    assert client_of(people.director).post(url, {"do": "start"}).status_code == 403
    assert client_of(people.director).post(url, {"do": "\x00"}).status_code == 400
    client = client_of(officer(made.federation))
    assert "Start: draw the calendar" in client.get(url).content.decode()
    assert client.post(url, {"do": "start"}).status_code == 302
    made.refresh_from_db()
    assert made.status == Championship.Status.STARTED and made.fixtures.count() == 2


def test_the_fixture_page_shows_the_line_ups(people):
    made = league(people)
    fixture = home_fixture(made)
    url = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    page = client_of(people.stranger, "it").get(url).content.decode()
    assert "Formazioni" in page
    assert "Nino, Ettore" in page and "Salvo, Walter" in page  # table 1, table 2
    assert "Altrove 000, Altrove 001" in page
    listed = client_of(people.member).get(f"/f/{made.federation.slug}/championships/{made.pk}/")
    assert f"/f/{made.federation.slug}/fixtures/{fixture.pk}/" in listed.content.decode()
    assert client_of(build.club("Borgo", "borgo")[1]).get(url).status_code == 404


def test_a_postponement_moves_the_night_shown_in_the_calendar(people):
    made = league(people, first_day=datetime.date(2026, 12, 4))
    fixture = home_fixture(made)
    drawn = fixture.planned_on
    url = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    body = {"plan-day": "2026-12-14", "plan-reason": "Sala occupata", "plan": "1"}
    # the away club's owner and a member of the home club may not move it
    for user in (people.stranger, people.member):
        answer = client_of(user).post(url, body)
        assert answer.status_code == 403 and "role in the federation" in answer.content.decode()
    far = {**body, "plan-day": "2999-01-01"}
    assert client_of(officer(made.federation)).post(url, far).status_code == 400
    fixture.refresh_from_db()
    assert fixture.planned_on == drawn == datetime.date(2026, 12, 11)
    assert client_of(people.director).post(url, body).status_code == 302
    fixture.refresh_from_db()
    assert (fixture.planned_on, fixture.reason) == (datetime.date(2026, 12, 14), "Sala occupata")
    page = client_of(people.member).get(url).content.decode()
    assert "postponed" in page and "Sala occupata" in page
    calendar = client_of(people.member).get(f"/f/{made.federation.slug}/championships/{made.pk}/")
    assert "postponed" in calendar.content.decode() and "12/14/2026" in calendar.content.decode()
    # the officer moves it again
    again = {**body, "plan-day": "2026-12-11"}
    assert client_of(officer(made.federation)).post(url, again).status_code == 302
    fixture.refresh_from_db()
    assert fixture.planned_on == datetime.date(2026, 12, 11)


def test_an_officer_records_a_forfeit_and_the_table_moves(people):
    made = league(people)
    fixture = home_fixture(made)
    url = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    body = {"forfeit-team": str(fixture.away_id), "forfeit-reason": "Assenti", "forfeit": "1"}
    for user in (people.director, people.stranger, people.owner):
        answer = client_of(user).post(url, body)
        assert answer.status_code == 403 and "role in the federation" in answer.content.decode()
        assert "Record the forfeit" not in client_of(user).get(url).content.decode()
    client = client_of(officer(made.federation))
    assert client.post(url, {**body, "forfeit-team": "999999"}).status_code == 400
    assert client.post(url, {**body, "forfeit-reason": ""}).status_code == 400
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.PLANNED
    assert client.post(url, body).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.FORFEITED
    table = client.get(f"/f/{made.federation.slug}/championships/{made.pk}/").context["tables"]
    points = {r.team.name: r.row.points for r in table[0].rows}
    assert points == {"San Rocco A": 2, "Altrove A": 0}
    # settled: neither a second forfeit nor a postponement
    again = client.post(url, body)
    assert again.status_code == 409
    plan = {"plan-day": "2026-12-14", "plan-reason": "x", "plan": "1"}
    assert client.post(url, plan).status_code == 409
    page = client.get(url).content.decode()
    assert "forfeited by Altrove A" in page and "No line-ups" in page


def test_a_fixture_form_without_its_button_is_a_400(people):
    made = league(people)
    fixture = home_fixture(made)
    url = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    assert client_of(officer(made.federation)).post(url, {"x": "1"}).status_code == 400


def test_the_home_director_plays_it_with_a_substitute_in_the_line_up(people):
    from tests.federations.championship_helpers import tonight

    made = league(people)
    fixture = home_fixture(made)
    url = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    home = [r.player_id for r in fixture.home.roster.order_by("order")]
    away = [r.player_id for r in fixture.away.roster.order_by("order")]  # 4 + a substitute
    body = {"play": "1"}
    body |= {f"lineup-home.{i}": str(p) for i, p in enumerate(home)}
    body |= {f"lineup-away.{i}": str(p) for i, p in enumerate([away[0], away[4], *away[2:4]])}
    director = client_of(people.director)
    assert "Play this fixture" in director.get(url).content.decode()
    assert "Play this fixture" not in client_of(people.stranger).get(url).content.decode()
    no_night = director.post(url, body)
    assert no_night.status_code == 409 and "no night open today" in no_night.content.decode()
    tonight(people)
    assert client_of(people.stranger).post(url, body).status_code == 403
    twice = director.post(url, {**body, "lineup-away.1": str(away[0])})
    assert twice.status_code == 400 and "one place only" in twice.content.decode()
    foreign = director.post(url, {**body, "lineup-home.0": str(away[0])})
    assert foreign.status_code == 400
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.PLANNED
    assert director.post(url, body).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == ChampionshipFixture.Status.PLAYING
    first = fixture.boards.get(number=1)
    assert first.away_players == [away[0], away[4]]
    page = director.get(url).content.decode()
    assert "Altrove 004" in page and f"/m/{first.match_id}/" in page


def _queries(client: Client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)
    with CaptureQueriesContext(connection) as done:
        assert client.get(url).status_code == 200
    return len(done)


def test_the_championship_page_reads_in_as_many_queries_for_twelve_fixtures_as_for_two(people):
    from scorebook.federations.services import championships as champs

    small = league(people)
    large = league(people, start=False, federation=small.federation, name="Coppa grande")
    for n in range(2):
        players = build.players(people.club, 4, f"X{n} ")
        champs.team_enter(
            championship=large,
            club=people.club,
            name=f"San Rocco {n}",
            player_ids=[p.pk for p in players],
            user=people.director,
        )
    champs.championship_start(championship=large, user=officer(large.federation))
    assert (small.fixtures.count(), large.fixtures.count()) == (2, 12)
    forfeit = large.fixtures.order_by("pk").first()
    champs.fixture_forfeit(
        fixture=forfeit, team=forfeit.away, reason="x", user=officer(large.federation)
    )
    client = client_of(people.director)
    base = f"/f/{small.federation.slug}/championships"
    assert _queries(client, f"{base}/{small.pk}/") == _queries(client, f"{base}/{large.pk}/")


def _two_entered(people):
    """The open championship with San Rocco's team A (the seated four) and B."""
    from scorebook.federations.services import championships as champs

    made = _open(people)
    for name, players in (
        ("San Rocco A", people.seated),
        ("San Rocco B", build.players(people.club, 4, "B ")),
    ):
        champs.team_enter(
            championship=made,
            club=people.club,
            name=name,
            player_ids=[p.pk for p in players],
            user=people.director,
        )
    return made


def test_a_director_withdraws_the_clubs_team_before_the_start(people):
    from scorebook.core.models import AuditEvent

    made = _two_entered(people)
    first, second = made.teams.order_by("seed")
    url = f"/f/{made.federation.slug}/championships/{made.pk}/enter"
    client = client_of(people.director)
    page = client.get(url).content.decode()
    assert "Withdraw San Rocco A" in page and "until the championship starts" in page
    answer = client.post(url, {"withdraw": str(first.pk)})
    assert answer.status_code == 302
    assert answer["Location"] == f"{url}?club=san-rocco"
    assert list(made.teams.values_list("name", flat=True)) == ["San Rocco B"]
    event = AuditEvent.objects.get(verb="championship_team_withdrawn")
    assert (event.club_id, event.actor, event.object_id) == (
        people.club.pk,
        people.director,
        str(first.pk),
    )
    assert event.before == {"championship": made.pk, "name": "San Rocco A"}
    assert "Team withdrawn: San Rocco A." in client.get(url).content.decode()
    # its players may be entered again, after the last seed (no seed given twice)
    again = client.post(url, _team_body(people.seated, name="San Rocco C"))
    assert again.status_code == 302
    seeds = dict(made.teams.values_list("name", "seed"))
    assert seeds == {"San Rocco B": second.seed, "San Rocco C": second.seed + 1}


def test_only_a_director_of_its_club_withdraws_a_team_and_only_before_the_start(people):
    made = _two_entered(people)
    team = made.teams.get(name="San Rocco A")
    url = f"/f/{made.federation.slug}/championships/{made.pk}/enter"
    for user in (people.member, people.scorer):
        assert client_of(user).post(url, {"withdraw": str(team.pk)}).status_code == 403
    # the stranger directs Altrove, a member club: not San Rocco's team
    other = client_of(people.stranger).post(url, {"withdraw": str(team.pk)})
    assert other.status_code == 403 and "role in the federation" in other.content.decode()
    assert client_of(people.director).post(url, {"withdraw": "abc"}).status_code == 404
    assert made.teams.count() == 2
    from scorebook.federations.services import championships as champs

    champs.championship_start(championship=made, user=officer(made.federation))
    page = client_of(people.director).get(url).content.decode()
    assert "Withdraw San Rocco A" not in page
    # after the start only an officer withdraws a team (docs/federation.md's rule)
    late = client_of(people.director, "it").post(url, {"withdraw": str(team.pk)})
    assert late.status_code == 403
    assert "federazione" in late.content.decode()
    assert made.teams.filter(pk=team.pk, withdrawn=False).exists()


def test_the_api_withdraws_a_team_before_the_start_only(people):
    from rest_framework.test import APIClient

    made = _two_entered(people)
    team = made.teams.get(name="San Rocco A")
    api = APIClient()
    api.force_authenticate(people.director)
    answer = api.post(f"/api/v1/championship-teams/{team.pk}/withdraw")
    assert answer.status_code == 200
    assert [t["name"] for t in answer.json()["teams"]] == ["San Rocco B"]
    other = made.teams.get(name="San Rocco B")
    from scorebook.federations.services import championships as champs

    champs.team_enter(
        championship=made,
        club=people.club,
        name="San Rocco C",
        player_ids=[p.pk for p in people.seated],
        user=people.director,
    )
    champs.championship_start(championship=made, user=officer(made.federation))
    # after the start: an officer only, and the team stays, withdrawn by the rule
    late = api.post(f"/api/v1/championship-teams/{other.pk}/withdraw")
    assert late.status_code == 403
    assert late.json()["errors"][0]["code"] == "federation.officer_required"
    api.force_authenticate(officer(made.federation))
    done = api.post(f"/api/v1/championship-teams/{other.pk}/withdraw", {"reason": "chiude"})
    assert done.status_code == 200
    shown = {t["name"]: t["withdrawal"] for t in done.json()["teams"]}
    assert shown == {"San Rocco B": "annulled", "San Rocco C": ""}  # A left before the start


def _grown(people, teams: int):
    """A championship under way with San Rocco A, Altrove A and ``teams`` more San Rocco
    teams (four players and a substitute each): more fixtures, teams and players."""
    from scorebook.federations.services import championships as champs

    made = league(people, start=False, substitutes=1)
    for n in range(teams):
        players = build.players(people.club, 5, f"X{n} ")
        champs.team_enter(
            championship=made,
            club=people.club,
            name=f"San Rocco {n}",
            player_ids=[p.pk for p in players[:4]],
            substitute_ids=[players[4].pk],
            user=people.director,
        )
    champs.championship_start(championship=made, user=officer(made.federation))
    return made


#: measured: the fixture's page as the home director (line-up form), the team form
FIXTURE_QUERIES = 13
ENTER_QUERIES = 11


@pytest.mark.parametrize("teams", [0, 4])
def test_the_fixture_page_reads_in_13_queries_however_many_fixtures_and_players(
    people, teams, django_assert_num_queries
):
    made = _grown(people, teams)
    assert made.fixtures.count() == (2 + teams) * (1 + teams)
    fixture = made.fixtures.filter(home__club=people.club, away__club=people.other).first()
    client = client_of(people.director)
    url = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    client.get(url)
    with django_assert_num_queries(FIXTURE_QUERIES):
        page = client.get(url)
    assert page.status_code == 200 and page.context["may_play"]


@pytest.mark.parametrize("teams", [0, 4])
def test_the_team_form_reads_in_11_queries_however_many_teams_and_players(
    people, teams, django_assert_num_queries
):
    from scorebook.federations.services import championships as champs

    made = league(people, start=False)
    for n in range(teams):
        champs.team_enter(
            championship=made,
            club=people.club,
            name=f"San Rocco {n}",
            player_ids=[p.pk for p in build.players(people.club, 4, f"X{n} ")],
            user=people.director,
        )
    build.players(people.club, 5 * teams, "Altri ")
    client = client_of(people.director)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/enter"
    client.get(url)
    with django_assert_num_queries(ENTER_QUERIES):
        page = client.get(url)
    assert page.status_code == 200 and len(page.context["entered"]) == 1 + teams
