"""The club's export carries the club's federation records (issue 34 x docs/export.md):
its federations and periods, its person links, its championship teams, rosters, fixtures
and the tables played at home, the federal tournaments it hosted and their registrations;
and nothing of another club's (its links, the tables played at its home, which player a
guest stood for). There is no import of these records, so no round trip: the import
template carries matches only (docs/import.md)."""

import io
import json
import zipfile

import pytest

from scorebook.archive import exports
from scorebook.federations.models import FixtureTable, PersonLink
from scorebook.federations.services import championships as champs
from scorebook.federations.services import federal_tournaments as federal
from tests import builders as build
from tests.federations.championship_helpers import home_fixture, league, play_out, tonight
from tests.federations.federal import announce, register_all, world

pytestmark = pytest.mark.django_db


def exported(club) -> dict[str, list[dict]]:
    out = io.BytesIO()
    exports.club_export(club, out)
    archive = zipfile.ZipFile(io.BytesIO(out.getvalue()))
    return {
        name[: -len(".json")]: json.loads(archive.read(name))
        for name in archive.namelist()
        if name.endswith(".json")
    }


def test_the_federation_records_of_each_club_and_no_other_clubs(people):
    made = league(people)  # San Rocco and Altrove in a federation, a team each
    fixture = home_fixture(made)
    tonight(people)
    champs.fixture_play(fixture=fixture, user=people.director)
    play_out(people, fixture)
    here = exported(people.club)
    there = exported(people.other)
    fed = made.federation
    assert [f["slug"] for f in here["federations"]] == [fed.slug]
    assert [m["federation_id"] for m in here["federation_memberships"]] == [fed.pk]
    assert {t["name"] for t in here["championship_teams"]} == {"San Rocco A"}
    assert {t["name"] for t in there["championship_teams"]} == {"Altrove A"}
    assert len(here["championship_rosters"]) == 4 and len(there["championship_rosters"]) == 5
    # both clubs' fixtures, home and away; the tables only where they were played
    both = {f["id"] for f in made.fixtures.values("id")}
    assert {f["id"] for f in here["championship_fixtures"]} == both
    assert {f["id"] for f in there["championship_fixtures"]} == both
    tables = set(FixtureTable.objects.filter(fixture=fixture).values_list("match_id", flat=True))
    assert {t["match_id"] for t in here["championship_tables"]} == tables
    assert there["championship_tables"] == []
    assert tables <= {m["id"] for m in here["matches"]}
    # the guests that stood for Altrove's players are San Rocco's players; whom they stood
    # for is not in either export
    assert "visitors" not in here and not any("visit" in name for name in here)


def test_links_and_a_hosted_federal_tournament(people):
    w = world(people)  # San Rocco (host) and Belmonte; four persons linked in each
    t = announce(w, fee="10", federation_share="2", currency="EUR")
    register_all(w, t)
    night = build.night(people, date=t.date)
    federal.federal_tournament_open(federal_tournament=t, night=night, user=people.director)
    here, there = exported(w.host), exported(w.belmonte)
    links_here = set(PersonLink.objects.filter(club=w.host).values_list("pk", flat=True))
    assert {row["id"] for row in here["person_links"]} == links_here
    assert {row["club_id"] for row in there["person_links"]} == {w.belmonte.pk}
    assert [row["id"] for row in here["federal_tournaments"]] == [t.pk]
    assert here["federal_tournaments"][0]["federation_share"] == "2.00"
    assert there["federal_tournaments"] == [] and there["federal_registrations"] == []
    assert len(here["federal_registrations"]) == 4
    # the accounts the links and registrations name are in users, by username only
    users = {u["id"]: u for u in here["users"]}
    for person in (*w.here, *w.there):
        assert person.pk in users and set(users[person.pk]) == {"id", "username", "is_active"}
