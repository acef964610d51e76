"""Player names are compared without case: "nino" beside "Nino" is the same name. Both
were accepted, and every seat picker then offered both. Refused in words next to the
field (page and API alike), and the database refuses it too (a unique Lower(name))."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from scorebook.clubs import services
from scorebook.clubs.models import Player
from scorebook.core.refusals import Refusal
from tests.migrating import migrated_to
from tests.web.test_pages import client_for


@pytest.mark.parametrize("name", ["nino", "NINO", "nIno"])
def test_a_name_in_other_case_is_refused_naming_the_player_there(people, club, name):
    with pytest.raises(Refusal) as refused:
        services.player_create(club=club, name=name, user=people.scorer)
    assert refused.value.code == "player.name_taken" and refused.value.path == "name"
    assert "'Nino'" in str(refused.value.message % refused.value.params)
    assert Player.objects.filter(club=club, name__iexact="nino").count() == 1


def test_a_rename_to_another_players_name_in_other_case_is_refused(people, club):
    ettore = people.seated[1]
    with pytest.raises(Refusal):
        services.player_update(player=ettore, changes={"name": "SALVO"}, user=people.scorer)
    # a player may change the case of their own name
    services.player_update(player=ettore, changes={"name": "ETTORE"}, user=people.scorer)
    assert Player.objects.get(pk=ettore.pk).name == "ETTORE"


def test_another_club_may_have_the_same_name(people):
    services.player_create(club=people.other, name="nino", user=people.stranger)


def test_the_database_refuses_it_too(people, club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="nINO")


def test_the_page_says_it_next_to_the_field(people, club):
    client = client_for(people, "scorer")
    response = client.post(f"/c/{club.slug}/players", {"name": "nino"}, HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 409
    body = response.content.decode()
    field = body.split('for="id_name"', 1)[1].split("</div>", 1)[0]
    assert "Il circolo ha già un giocatore chiamato &#x27;Nino&#x27;" in field, field
    english = client.post(f"/c/{club.slug}/players", {"name": "NINO"}).content.decode()
    assert "The club already has a player called &#x27;Nino&#x27;" in english


def test_the_api_refuses_it(people, club):
    client = client_for(people, "scorer")
    response = client.post(
        "/api/v1/players", {"club": club.pk, "name": "nino"}, content_type="application/json"
    )
    assert response.status_code == 409, response.content
    assert response.json()["errors"][0]["code"] == "player.name_taken"


BEFORE = [("clubs", "0002_invitation")]


@pytest.mark.migration
@pytest.mark.django_db(transaction=True)
def test_names_already_twice_in_other_case_are_told_apart_by_the_migration():
    """A club that already has "nino" and "Nino" keeps both players, the later one renamed
    "nino (2)", so the constraint can be added."""
    with migrated_to(BEFORE) as executor:
        latest = executor.loader.graph.leaf_nodes()
        apps = executor.loader.project_state(BEFORE).apps
        club = apps.get_model("clubs", "Club").objects.create(name="Circolo", slug="circolo")
        old = apps.get_model("clubs", "Player")
        first = old.objects.create(club=club, name="Nino")
        second = old.objects.create(club=club, name="nino")
        old.objects.create(club=club, name="NINO")
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(latest)
        names = dict(Player.objects.filter(club_id=club.pk).values_list("pk", "name"))
        assert names[first.pk] == "Nino" and names[second.pk] == "nino (2)"
        assert sorted(names.values()) == ["NINO (3)", "Nino", "nino (2)"]
