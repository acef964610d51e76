"""Federation x erase (issue 34 item 2: "erasure covers every link and every federation
record"): a player erased in a club loses its links; a person erasing their account loses
every link, number and office, and their linked players in every club take a pseudonym;
an account used by the federation is the person's to erase."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scorebook.archive import services as archive
from scorebook.clubs.models import Player
from scorebook.federations import selectors
from scorebook.federations.models import FederationNumber, Officer, PersonLink
from scorebook.federations.services import federation as federations
from tests import builders as build

pytestmark = pytest.mark.django_db


def dump() -> str:
    out = io.StringIO()
    call_command("dumpdata", stdout=out)
    return out.getvalue().lower()


@pytest.fixture
def zebulon(people):
    """Zebulon Quixote: plays at San Rocco as 'Zeb' and at Altrove as 'Zebulon Q.'
    (linked in both, a member of neither), numbered in the federation of both clubs."""
    person = get_user_model().objects.create_user(
        "zquixote", password="pw", first_name="Zebulon", last_name="Quixote"
    )
    build.federation(people.club, people.other)
    here = Player.objects.create(club=people.club, name="Zeb")
    there = Player.objects.create(club=people.other, name="Zebulon Q.")
    build.linked(here, person)
    build.linked(there, person)
    return person


def test_a_player_erased_by_the_director_loses_its_links_only(people, zebulon):
    here = Player.objects.get(club=people.club, name="Zeb")
    archive.player_erase(player=here, user=people.director, confirm="Zeb")
    assert not PersonLink.objects.filter(player=here).exists()
    assert [p.name for p in selectors.linked_players(zebulon)] == ["Zebulon Q."]
    assert FederationNumber.objects.filter(user=zebulon).count() == 1  # still the person's


def test_the_person_erasing_their_account_erases_every_federation_record(people, zebulon):
    fed = build.federation(slug="regionale")
    federations.officer_add(
        federation=fed,
        username="zquixote",
        role="officer",
        user=Officer.objects.get(federation=fed, role="president").user,
    )
    assert "quixote" in dump()
    archive.account_erase(user=zebulon, confirm="zquixote")
    assert not PersonLink.objects.filter(user=zebulon).exists()
    assert not FederationNumber.objects.filter(user=zebulon).exists()
    assert not Officer.objects.filter(user=zebulon).exists()
    names = set(
        Player.objects.filter(name__startswith="Erased player").values_list("club__slug", flat=True)
    )
    assert names == {"san-rocco", "altrove"}  # the linked players of both clubs
    text = dump()
    assert "quixote" not in text and "zebulon" not in text and '"zeb"' not in text


def test_the_only_president_names_another_first(people):
    fed = build.federation()
    president = Officer.objects.get(federation=fed, role="president").user
    with pytest.raises(archive.SolePresident) as refused:
        archive.account_erase(user=president, confirm=president.get_username())
    assert refused.value.code == "erase.sole_president"
    assert Officer.objects.filter(user=president).exists()
    secretary = Officer.objects.get(federation=fed, role="secretary")
    federations.officer_change(officer=secretary, role="president", user=president)
    archive.account_erase(user=president, confirm=president.get_username())
    assert not Officer.objects.filter(user=president).exists()


def test_a_director_does_not_strip_an_account_the_federation_knows(people):
    """Player.user is the member's account here; linked in another club, or an officer,
    the account is the person's to erase (erase.account_elsewhere), not the director's."""
    person = get_user_model().objects.create_user("gino", password="pw")
    from scorebook.clubs.models import Membership

    Membership.objects.create(club=people.club, user=person, role="member")
    here = Player.objects.create(club=people.club, name="Gino", user=person)
    there = Player.objects.create(club=people.other, name="Gino")
    link = build.linked(there, person)
    with pytest.raises(archive.AccountElsewhere):
        archive.player_erase(player=here, user=people.director, confirm="Gino")
    from scorebook.federations.services import links

    links.person_link_remove(link=link, user=person)
    fed = build.federation()
    federations.officer_add(
        federation=fed,
        username="gino",
        role="officer",
        user=Officer.objects.get(federation=fed, role="president").user,
    )
    with pytest.raises(archive.AccountElsewhere):
        archive.player_erase(player=here, user=people.director, confirm="Gino")


def test_two_teams_named_after_players_of_two_clubs_both_erased(people):
    """The pseudonyms are numbered per club ("Erased player #1" in each), a championship's
    team names across its clubs: the second erasure made a team name the first had made
    (an IntegrityError, a 500; found by tests/crossings/federation.py). It takes a number
    after it."""
    from tests.federations.championship_helpers import league

    made = league(people, start=False)
    aldo = Player.objects.create(club=people.club, name="Aldo Unico")
    bruno = Player.objects.create(club=people.other, name="Bruno Solo")
    for team, player in ((made.teams.get(club=people.club), aldo),
                         (made.teams.get(club=people.other), bruno)):  # fmt: skip
        team.name = f"Squadra di {player.name}"
        team.save(update_fields=["name"])
    archive.player_erase(player=aldo, user=people.director, confirm="Aldo Unico")
    archive.player_erase(player=bruno, user=people.stranger, confirm="Bruno Solo")
    assert sorted(made.teams.values_list("name", flat=True)) == [
        "Squadra di Erased player #1",
        "Squadra di Erased player #1 2",
    ]
