"""Forgetting a person: the name becomes "Erased player #n" in every stored row (a dump
of the whole database has it nowhere), the account is stripped, the record's numbers
stay as they were, the audit says who erased and when; and who may do it."""

import io
import logging

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token

from scorebook.archive import services
from scorebook.archive.models import Erasure
from scorebook.clubs.models import Club, Membership, Player
from scorebook.clubs.services import NotAllowed, player_create
from scorebook.core.models import AuditEvent
from scorebook.core.refusals import Refusal
from scorebook.ledger.models import Entry, Settlement
from scorebook.matches.models import Deal, Match
from scorebook.standings.models import LeaderboardRow, League, LeagueEntry, Rating
from scorebook.web.models import TablePin

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(demo_made_once):
    """The demo club made once for the module, each test in a savepoint of it."""
    return demo_made_once


FORGOTTEN = ("carmelo", "bellini")


@pytest.fixture
def elsewhere(db):
    """Another club, its owner (a stranger to San Rocco)."""
    other = Club.objects.create(name="Circolo Altrove", slug="altrove")
    stranger = get_user_model().objects.create_user("stranger")
    Membership.objects.create(club=other, user=stranger, role="owner")
    return other


def user(name):
    return get_user_model().objects.get(username=name)


def dump() -> str:
    out = io.StringIO()
    call_command("dumpdata", stdout=out)
    return out.getvalue().lower()


def numbers(club):
    """What erasure must leave as it was: the ledger, settlements, standings, ratings,
    every deal version's result and the matches' results."""
    return {
        "entries": list(Entry.objects.filter(club=club).values_list("payer", "payee", "amount")),
        "nets": list(Settlement.objects.filter(night__club=club).values_list("version", "nets")),
        "board": list(
            LeaderboardRow.objects.filter(club=club)
            .order_by("pk")
            .values_list("player", "game", "matches", "won", "lost", "points_for", "units")
        ),
        "ratings": list(
            Rating.objects.filter(club=club).order_by("pk").values_list("player", "mu")
        ),
        "deals": list(Deal.objects.filter(match__night__club=club).values_list("pk", "result")),
        "matches": list(Match.objects.filter(night__club=club).values_list("pk", "result")),
    }


def test_the_name_is_nowhere_in_the_database_and_the_numbers_are_unchanged(demo, caplog):
    carmelo = user("carmelo.bellini")
    Token.objects.create(user=carmelo)
    TablePin.objects.create(user=carmelo, pin_hash="x")
    Client().force_login(carmelo)  # a session of his
    player = Player.objects.get(club=demo, name="Carmelo")
    # his name in free text too: a correction's reason, a table's name
    deal = Deal.objects.filter(match__night__club=demo).first()
    Deal.objects.filter(pk=deal.pk).update(reason="Carmelo miscounted; carmelo agreed")
    assert "carmelo" in dump()
    before = numbers(demo)
    audit_count = AuditEvent.objects.count()
    with caplog.at_level(logging.DEBUG):
        erasure = services.player_erase(player=player, user=user("director"), confirm=" carmelo ")
    assert erasure.number == 1
    player.refresh_from_db()
    assert player.name == "Erased player #1" and player.user is None
    text = dump()
    for word in FORGOTTEN:
        assert word not in text
    assert "erased player #1 miscounted; erased player #1 agreed" in text
    assert numbers(demo) == before
    assert AuditEvent.objects.count() == audit_count + 1
    last = AuditEvent.objects.filter(verb="player_erased").get()
    assert last.actor == user("director") and last.after["name"] == "Erased player #1"
    assert all(w not in r.getMessage().lower() for r in caplog.records for w in FORGOTTEN)
    carmelo.refresh_from_db()
    assert not carmelo.is_active and not carmelo.has_usable_password()
    assert carmelo.username == f"erased-{carmelo.pk}" and carmelo.email == ""
    assert not Membership.objects.filter(user=carmelo).exists()
    assert not Token.objects.filter(user=carmelo).exists()
    assert not TablePin.objects.filter(user=carmelo).exists()
    request = RequestFactory().post("/login")
    assert authenticate(request, username="carmelo.bellini", password="pw-carmelo") is None


def test_pseudonyms_count_per_club_and_stay(demo):
    director = user("director")
    first = services.player_erase(
        player=Player.objects.get(club=demo, name="Tano"), user=director, confirm="Tano"
    )
    second = services.player_erase(
        player=Player.objects.get(club=demo, name="Rosa"), user=director, confirm="Rosa"
    )
    assert (first.number, second.number) == (1, 2)
    assert Player.objects.get(pk=first.player_id).name == "Erased player #1"
    with pytest.raises(services.AlreadyErased):
        services.player_erase(
            player=Player.objects.get(pk=first.player_id), user=director, confirm="x"
        )
    assert Erasure.objects.count() == 2


def test_a_taken_pseudonym_is_skipped(demo):
    player_create(club=demo, name="erased player #1", user=user("demo"))
    erasure = services.player_erase(
        player=Player.objects.get(club=demo, name="Tano"), user=user("director"), confirm="Tano"
    )
    assert erasure.number == 2


def test_another_players_longer_name_is_left_alone(demo):
    entry = LeagueEntry.objects.filter(league__club=demo).first()
    LeagueEntry.objects.filter(pk=entry.pk).update(name="Rosa B e Rosa")
    Player.objects.create(club=demo, name="Rosa B")
    services.player_erase(
        player=Player.objects.get(club=demo, name="Rosa"), user=user("director"), confirm="Rosa"
    )
    entry.refresh_from_db()
    assert entry.name == "Rosa B e Erased player #1"


def test_a_member_or_scorer_cannot_erase(demo):
    for role in ("member", "scorer"):
        someone = get_user_model().objects.create_user(role)
        Membership.objects.create(club=demo, user=someone, role=role)
        with pytest.raises(NotAllowed):
            services.player_erase(
                player=Player.objects.get(club=demo, name="Tano"), user=someone, confirm="Tano"
            )
    assert not Erasure.objects.exists()


def test_a_director_of_another_club_cannot_erase(demo, elsewhere):
    with pytest.raises(NotAllowed):
        services.player_erase(
            player=Player.objects.get(club=demo, name="Tano"), user=user("stranger"), confirm="Tano"
        )


def test_an_account_of_another_club_is_the_persons_to_erase(demo, elsewhere):
    Membership.objects.create(club=elsewhere, user=user("carmelo.bellini"))
    with pytest.raises(services.AccountElsewhere):
        services.player_erase(
            player=Player.objects.get(club=demo, name="Carmelo"),
            user=user("director"),
            confirm="Carmelo",
        )
    assert Player.objects.filter(name="Carmelo").exists()


def test_a_director_cannot_erase_an_owners_player_or_their_own(demo):
    owner = user("demo")
    Player.objects.filter(club=demo, name="Nino").update(user=owner)
    Membership.objects.filter(user=owner).update(role="owner")
    with pytest.raises(Refusal):  # the demo is also a member of no other club: the role
        services.player_erase(
            player=Player.objects.get(club=demo, name="Nino"), user=user("director"), confirm="Nino"
        )
    Player.objects.filter(club=demo, name="Tano").update(user=user("director"))
    with pytest.raises(services.OwnAccount):
        services.player_erase(
            player=Player.objects.get(club=demo, name="Tano"), user=user("director"), confirm="Tano"
        )
    assert not Erasure.objects.exists()


def test_the_person_erases_themselves(demo, elsewhere):
    carmelo = user("carmelo.bellini")
    other_player = Player.objects.create(club=elsewhere, name="Carmelo B.", user=carmelo)
    Membership.objects.create(club=elsewhere, user=carmelo)
    erasures = services.account_erase(user=carmelo, confirm="Carmelo.Bellini")
    assert {e.player_id for e in erasures} == {
        Player.objects.get(club=demo, erasure__isnull=False).pk,
        other_player.pk,
    }
    assert all(e.by_the_person and e.erased_by_id == carmelo.pk for e in erasures)
    for word in FORGOTTEN:
        assert word not in dump()


def test_the_only_owner_must_hand_the_club_over_first(demo):
    owner = user("demo")
    with pytest.raises(services.SoleOwner):
        services.account_erase(user=owner, confirm="demo")
    assert user("demo").is_active


def test_nothing_is_erased_without_the_name_typed(demo):
    with pytest.raises(services.NotConfirmed):
        services.player_erase(
            player=Player.objects.get(club=demo, name="Tano"), user=user("director"), confirm="Tan"
        )
    with pytest.raises(services.NotConfirmed):
        services.account_erase(user=user("carmelo.bellini"), confirm="carmelo")
    assert not Erasure.objects.exists() and user("carmelo.bellini").is_active


def test_the_export_is_a_directors_and_is_audited(demo):
    with pytest.raises(NotAllowed):
        services.club_export_file(club=demo, user=user("carmelo.bellini"))
    file = services.club_export_file(club=demo, user=user("director"))
    assert file.read(2) == b"PK"
    event = AuditEvent.objects.get(verb="club_exported")
    assert event.actor == user("director") and event.after["deals"] > 0


def test_a_tournaments_pairs_and_an_imports_preview_forget_the_name_too(demo):
    from scorebook.history.models import Import
    from scorebook.matches.models import Night
    from scorebook.tournaments.models import Entry as Pair
    from scorebook.tournaments.services.registration import entry_add
    from scorebook.tournaments.services.setup import tournament_create

    owner = user("demo")
    tonight = Night.objects.get(club=demo, status="open")
    game = League.objects.get(club=demo).game  # Tressette in pairs
    cup = tournament_create(
        night=tonight,
        name="Coppa di Carmelo",
        game=game,
        rules={"profile": "classic_21"},
        user=owner,
    )
    ids = dict(Player.objects.filter(club=demo).values_list("name", "pk"))
    pair = entry_add(tournament=cup, players=[ids["Carmelo"], ids["Tano"]], user=owner)
    assert "Carmelo" in Pair.objects.get(pk=pair.pk).name
    batch = Import.objects.create(
        club=demo,
        file_hash="0" * 64,
        uploaded_by=owner,
        plan={"nights": [{"matches": [{"seats": {"N": "Carmelo", "S": "Tano"}}]}]},
        summary={"players": ["Carmelo", "Tano"], "guests": []},
    )
    batch.planned.create(  # a preview's match waiting for its import
        date="2016-01-12", table=1, number=1, data={"seats": {"N": "Carmelo", "S": "Tano"}}
    )
    services.player_erase(
        player=Player.objects.get(pk=ids["Carmelo"]), user=user("director"), confirm="Carmelo"
    )
    for word in FORGOTTEN:
        assert word not in dump()
    assert Pair.objects.get(pk=pair.pk).name.startswith("Erased player #1")
