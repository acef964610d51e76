"""A team withdrawing after the championship has started, and a forfeit undone (the rule of
docs/federation.md, "A team withdraws"): through the API as an officer and as those who
may not (nothing stored when refused), the table recomputed and the cached public table
never stale, and the crossings: a fixture being played tonight and the night's close, the
calendar feeds, the club's export, the federation's rating, a rostered player erased."""

from __future__ import annotations

import io
import itertools
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scorebook.archive import services as archive
from scorebook.core.models import AuditEvent
from scorebook.federations import championship_selectors as reads
from scorebook.federations import selectors
from scorebook.federations.models import Championship, ChampionshipFixture, Federation, Team
from scorebook.federations.rating_models import RatingFreshness
from scorebook.federations.services import championships as champs
from scorebook.federations.services import withdrawals
from scorebook.matches import services as matches
from scorebook.matches.models import Match
from scorebook.sharing.feeds import federation_calendar
from tests import builders as build
from tests.federations.championship_helpers import (
    home_fixture,
    league,
    officer,
    play_out,
    tonight,
)

pytestmark = pytest.mark.django_db
Status = ChampionshipFixture.Status


def _outsider():
    return get_user_model().objects.create_user("nessuno")


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _withdraw(user, team: Team, reason: str = "Il circolo chiude"):
    return api(user).post(
        f"/api/v1/championship-teams/{team.pk}/withdraw", {"reason": reason}, format="json"
    )


def _three(people) -> Championship:
    """San Rocco A, Altrove A and Altrove B (three teams, home and away: four fixtures
    each), started."""
    made = league(people, start=False)
    more = build.players(people.other, 4, "Borgo ")
    champs.team_enter(
        championship=made,
        club=people.other,
        name="Altrove B",
        player_ids=[p.pk for p in more],
        user=people.stranger,
    )
    champs.championship_start(championship=made, user=officer(made.federation))
    made.refresh_from_db()
    return made


def _row(made: Championship, name: str):
    rows = [r for g in reads.standings(made) for r in g.rows]
    return next(r for r in rows if r.team.name == name)


def _stored(made: Championship) -> tuple:
    """What a refused withdrawal or undo must leave as it was."""
    made.refresh_from_db()
    return (
        made.version,
        made.status,
        sorted(made.teams.values_list("pk", "withdrawn", "withdrawal", "withdrawal_reason")),
        sorted(made.fixtures.values_list("pk", "status", "forfeited_by", "reason")),
        AuditEvent.objects.count(),
    )


def test_in_the_first_half_the_results_are_annulled_and_the_public_table_follows(people):
    made = _three(people)
    gone = made.teams.get(name="Altrove B")
    boss = officer(made.federation)
    beaten = made.fixtures.filter(home__name="San Rocco A", away=gone).get()
    champs.fixture_forfeit(fixture=beaten, team=gone, reason="assenti", user=boss)
    assert _row(made, "San Rocco A").row.points == 2
    public = f"/public/f/{made.federation.slug}/championships/{made.pk}/"
    made.federation.publishes = True
    made.federation.save()
    before = Client().get(public).content.decode()  # cached under the version
    version = Championship.objects.get(pk=made.pk).version

    answer = _withdraw(boss, gone)  # 1 of its 4 fixtures settled: the first half

    assert answer.status_code == 200
    shown = next(t for t in answer.json()["teams"] if t["id"] == gone.pk)
    assert (shown["withdrawn"], shown["withdrawal"]) == (True, "annulled")
    gone.refresh_from_db()
    assert gone.withdrawn and gone.withdrawn_at and gone.withdrawal_reason == "Il circolo chiude"
    theirs = made.fixtures.filter(home=gone) | made.fixtures.filter(away=gone)
    assert sorted(theirs.values_list("status", flat=True)) == [
        Status.ANNULLED,
        Status.ANNULLED,
        Status.ANNULLED,
        Status.FORFEITED,  # settled before: it stays, struck out of the table
    ]
    assert _row(made, "San Rocco A").row.points == 0
    assert (_row(made, "Altrove B").row.position, _row(made, "Altrove B").row.withdrawn) == (
        None,
        True,
    )
    event = AuditEvent.objects.get(verb="championship_team_withdrawn")
    assert event.actor == boss and event.reason == "Il circolo chiude"
    assert event.after["rule"] == "annulled" and len(event.after["fixtures"]) == 3
    made.refresh_from_db()
    assert made.version > version and made.status == Championship.Status.STARTED
    after = Client().get(public).content.decode()
    assert after != before and "withdrawn" in after
    # an annulled fixture is never played, forfeited or moved
    annulled = theirs.filter(status=Status.ANNULLED).first()
    assert (
        api(boss)
        .post(
            f"/api/v1/championship-fixtures/{annulled.pk}/forfeit",
            {"team": gone.pk},
            format="json",
        )
        .status_code
        == 409
    )


def test_from_half_on_the_results_stand_and_the_rest_is_forfeited(people):
    made = league(people)
    boss = officer(made.federation)
    first = home_fixture(made)
    away = made.fixtures.exclude(pk=first.pk).get()
    gone = made.teams.get(name="Altrove A")
    champs.fixture_forfeit(fixture=first, team=first.home, reason="", user=boss)  # Altrove won

    assert _withdraw(boss, gone).status_code == 200  # 1 of 2 settled: half

    away.refresh_from_db()
    assert (away.status, away.forfeited_by_id) == (Status.FORFEITED, gone.pk)
    assert _row(made, "Altrove A").row.points == 2  # its win stands
    assert _row(made, "San Rocco A").row.points == 2  # and it lost the rest
    made.refresh_from_db()
    assert made.status == Championship.Status.FINISHED  # nothing left to play
    assert AuditEvent.objects.get(verb="championship_team_withdrawn").after["rule"] == "forfeits"


def test_a_refused_withdrawal_stores_nothing(people):
    made = league(people)
    boss = officer(made.federation)
    team = made.teams.get(name="Altrove A")
    before = _stored(made)
    assert _withdraw(people.stranger, team).status_code == 403  # its club's owner: no officer
    assert _withdraw(people.member, team).status_code == 403
    assert _withdraw(boss, team, reason="x" * 201).status_code == 400
    outsider = _outsider()
    assert _withdraw(outsider, team).status_code == 404
    assert api(boss).post("/api/v1/championship-teams/999999/withdraw").status_code == 404
    assert _stored(made) == before
    assert _withdraw(boss, team).status_code == 200
    again = _stored(made)
    answer = _withdraw(boss, made.teams.get(name="San Rocco A"))  # the championship is over
    assert (
        answer.status_code == 409 and answer.json()["errors"][0]["code"] == "championship.finished"
    )
    answer = _withdraw(boss, team)
    assert (
        answer.status_code == 409
        and answer.json()["errors"][0]["code"] == "championship.team_withdrawn"
    )
    assert _stored(made) == again


def test_a_fixture_being_played_tonight_is_annulled_and_the_night_closes(people):
    made = league(people)
    fixture = home_fixture(made)
    night = tonight(people)
    champs.fixture_play(fixture=fixture, user=people.director)
    assert selectors.night_close_waits_for(night)  # its tables are open
    freshness = RatingFreshness.objects.count()

    assert _withdraw(officer(made.federation), made.teams.get(name="Altrove A")).status_code == 200

    fixture.refresh_from_db()
    assert fixture.status == Status.ANNULLED and reads.counts(fixture) is False
    assert RatingFreshness.objects.count() == freshness  # the withdrawal changed no match
    assert selectors.night_close_waits_for(night) == []
    still = Match.objects.filter(night=night, status=Match.Status.OPEN)
    open_ = list(still.values_list("pk", flat=True))
    matches.night_close(night=night, user=people.director, end_open=open_, reason="ritirati")
    # the feeds keep the fixtures, marked cancelled (the same UID)
    ics = federation_calendar(made.federation, host="t", language="en").decode()
    assert f"championship-fixture-{fixture.pk}@t" in ics and "STATUS:CANCELLED" in ics


def test_the_export_carries_the_withdrawal_and_an_erasure_rewrites_its_reason(people):
    made = league(people)
    gone = made.teams.get(name="San Rocco A")
    nino = people.seated[0]
    withdrawals.team_withdraw(
        team=gone, user=officer(made.federation), reason=f"{nino.name} si è trasferito"
    )
    archive.player_erase(player=nino, user=people.director, confirm=nino.name)
    file = archive.club_export_file(club=people.club, user=people.director)
    with zipfile.ZipFile(io.BytesIO(file.read())) as zipped:
        name = next(
            n for n in zipped.namelist() if "championship_teams" in n and n.endswith("json")
        )
        rows = json.loads(zipped.read(name))
    row = next(r for r in rows if r["id"] == gone.pk)
    assert row["withdrawn"] is True and row["withdrawal"] == "annulled"
    assert (
        nino.name not in row["withdrawal_reason"] and "si è trasferito" in row["withdrawal_reason"]
    )
    page = _page(people.director).get(f"/f/{made.federation.slug}/championships/{made.pk}/")
    assert nino.name not in page.content.decode()


def test_in_the_knockout_the_seed_stays_and_the_fixtures_are_forfeited(people):
    made = league(people, start=False, format="groups_knockout", groups=1, advance=2)
    boss = officer(made.federation)
    champs.championship_start(championship=made, user=boss)
    for fixture in made.fixtures.all():
        champs.fixture_forfeit(fixture=fixture, team=fixture.away, reason="", user=boss)
    champs.knockout_start(championship=made, user=boss)
    final = made.fixtures.get(stage="knockout")
    seeded = reads.knockout_seeded(made)
    gone = final.home

    assert _withdraw(boss, gone).status_code == 200

    final.refresh_from_db()
    assert (final.status, final.forfeited_by_id) == (Status.FORFEITED, gone.pk)
    assert reads.knockout_seeded(made) == seeded  # the bracket as drawn
    gone.refresh_from_db()
    assert gone.withdrawal == Team.Withdrawal.KNOCKOUT
    made.refresh_from_db()
    assert made.status == Championship.Status.FINISHED


# -- undoing a forfeit ------------------------------------------------------------------------


def _undo(user, fixture, reason: str = "registrato per errore"):
    return api(user).post(
        f"/api/v1/championship-fixtures/{fixture.pk}/undo-forfeit",
        {"reason": reason},
        format="json",
    )


def test_a_forfeit_undone_before_the_fixture_was_played_is_planned_again(people):
    made = league(people)
    boss = officer(made.federation)
    fixture = home_fixture(made)
    champs.fixture_forfeit(fixture=fixture, team=fixture.away, reason="assenti", user=boss)
    assert _row(made, "San Rocco A").row.points == 2
    version = Championship.objects.get(pk=made.pk).version

    answer = _undo(boss, fixture)

    assert answer.status_code == 200 and answer.json()["status"] == "planned"
    fixture.refresh_from_db()
    assert (fixture.forfeited_by_id, fixture.reason) == (None, "")
    assert _row(made, "San Rocco A").row.points == 0
    assert Championship.objects.get(pk=made.pk).version > version
    event = AuditEvent.objects.get(verb="championship_forfeit_undone")
    assert (
        event.before["forfeited_by"] == fixture.away_id and event.reason == "registrato per errore"
    )
    assert AuditEvent.objects.filter(verb="championship_fixture_forfeited").count() == 1


def test_a_forfeit_undone_after_the_tables_were_played_gives_their_result_back(people):
    made = league(people)
    boss = officer(made.federation)
    fixture = home_fixture(made)
    tonight(people)
    champs.fixture_play(fixture=fixture, user=people.director)
    play_out(people, fixture)  # the home side wins both tables
    other = made.fixtures.exclude(pk=fixture.pk).get()
    champs.fixture_forfeit(fixture=other, team=other.home, reason="", user=boss)
    champs.fixture_forfeit(fixture=fixture, team=fixture.home, reason="sbaglio", user=boss)
    made.refresh_from_db()
    assert made.status == Championship.Status.FINISHED

    assert _undo(boss, fixture).json()["status"] == "playing"

    fixture.refresh_from_db()
    found = reads.result(fixture)
    assert (found.home_tables, found.away_tables, found.complete) == (2, 0, True)
    made.refresh_from_db()
    assert made.status == Championship.Status.STARTED
    champs.fixture_confirm(fixture=fixture, user=people.stranger)  # the away club confirms
    assert _row(made, "San Rocco A").row.points == 4  # both won, this one at the tables


def test_a_refused_undo_stores_nothing(people):
    made = league(people)
    boss = officer(made.federation)
    fixture = home_fixture(made)
    before = _stored(made)
    answer = _undo(boss, fixture)  # nothing forfeited
    assert (
        answer.status_code == 409
        and answer.json()["errors"][0]["code"] == "championship_fixture.not_forfeited"
    )
    champs.fixture_forfeit(fixture=fixture, team=fixture.away, reason="", user=boss)
    before = _stored(made)
    assert _undo(people.director, fixture).status_code == 403
    assert _undo(people.stranger, fixture).status_code == 403
    assert _undo(_outsider(), fixture).status_code == 404
    assert _undo(boss, fixture, reason="x" * 201).status_code == 400
    assert api(boss).post("/api/v1/championship-fixtures/999999/undo-forfeit").status_code == 404
    assert _stored(made) == before
    withdrawals.team_withdraw(team=fixture.away, user=boss, reason="ritirata")
    before = _stored(made)
    answer = _undo(boss, fixture)
    assert answer.status_code == 409
    assert answer.json()["errors"][0]["code"] == "championship_fixture.forfeit_of_withdrawn"
    assert _stored(made) == before


# -- the pages --------------------------------------------------------------------------------


def _page(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_officer_withdraws_a_team_and_undoes_a_forfeit_on_the_pages(people):
    made = league(people)
    boss = officer(made.federation)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/"
    team = made.teams.get(name="Altrove A")
    assert "Ritira una squadra" in _page(boss, "it").get(url).content.decode()
    assert "withdraw-form" not in _page(people.member).get(url).content.decode()
    before = _stored(made)
    body = {"do": "withdraw", "withdraw-team": team.pk, "withdraw-reason": "chiude"}
    assert _page(people.member).post(url, body).status_code == 403
    assert _page(boss).post(url, {**body, "withdraw-reason": ""}).status_code == 400
    assert _stored(made) == before
    assert _page(boss).post(url, body).status_code == 302
    team.refresh_from_db()
    assert team.withdrawn and team.withdrawal_reason == "chiude"
    assert "withdrawn" in _page(boss).get(url).content.decode()

    other = league(people, federation=made.federation, name="Coppa")
    fixture = home_fixture(other)
    champs.fixture_forfeit(fixture=fixture, team=fixture.away, reason="", user=boss)
    page = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    assert "Annulla la sconfitta a tavolino" in _page(boss, "it").get(page).content.decode()
    assert "undo-form" not in _page(people.director).get(page).content.decode()
    undo = {"undo": "1", "undo-reason": "errore"}
    before = _stored(other)
    assert _page(people.director).post(page, undo).status_code == 403
    assert _page(boss).post(page, {"undo": "1", "undo-reason": ""}).status_code == 400
    assert _stored(other) == before
    assert _page(boss).post(page, undo).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == Status.PLANNED


_FUZZ = itertools.count()
GARBAGE = st.one_of(
    st.text(max_size=300),
    st.sampled_from(["", "0", "-1", "999999", "1e9", "null", "[]", "\x00", "Altrove A"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(team=GARBAGE, reason=GARBAGE, undo=GARBAGE, undo_reason=GARBAGE)
def test_garbage_in_the_withdraw_and_undo_forms_is_never_a_500_and_stores_nothing(
    people, team, reason, undo, undo_reason
):
    """Whatever a person or a program types into the two forms: an answer below 500, and
    a refusal (not a redirect) changes nothing."""
    made = league(people, federation=Federation.objects.first(), name=f"Fuzz {next(_FUZZ)}")
    boss = officer(made.federation)
    fixture = home_fixture(made)
    champs.fixture_forfeit(fixture=fixture, team=fixture.away, reason="", user=boss)
    client = _page(boss)
    url = f"/f/{made.federation.slug}/championships/{made.pk}/"
    page = f"/f/{made.federation.slug}/fixtures/{fixture.pk}/"
    for where, body in (
        (url, {"do": "withdraw", "withdraw-team": team, "withdraw-reason": reason}),
        (page, {"undo": undo, "undo-reason": undo_reason}),
    ):
        before = _stored(made)
        answer = client.post(where, {k: v.replace("\x00", "") for k, v in body.items()})
        assert answer.status_code < 500
        if answer.status_code != 302:
            assert _stored(made) == before
