"""One person across clubs (issue 34 item 2): links with both consents, each side's
answer, removal by either side, what contradicts the club's record refused, and the
federation numbers the links bring."""

import pytest
from django.contrib.auth import get_user_model

from scorebook.clubs.models import Player
from scorebook.clubs.services import NotAllowed, PlayerErased
from scorebook.federations import refusals, selectors
from scorebook.federations.models import FederationNumber, PersonLink
from scorebook.federations.services import links, numbers
from tests import builders as build

pytestmark = pytest.mark.django_db


@pytest.fixture
def mario(people):
    """A person who plays at San Rocco as 'Mario' (no account there) and owns nothing."""
    return get_user_model().objects.create_user("mario", password="pw-mario")


@pytest.fixture
def player(people):
    return Player.objects.create(club=people.club, name="Mario")


def test_a_director_proposes_and_the_person_accepts(people, mario, player):
    link = links.person_link_propose(player=player, username="mario", user=people.director)
    assert (link.status, link.origin, link.proposed_by) == ("proposed", "club", people.director)
    assert selectors.person_of(player) is None  # not before the person says yes
    for who in (people.director, people.owner, people.stranger):
        with pytest.raises(refusals.NotYourLink):
            links.person_link_accept(link=link, user=who)
    accepted = links.person_link_accept(link=link, user=mario)
    assert accepted.status == "accepted" and accepted.answered_by == mario
    assert selectors.person_of(player) == mario
    assert list(selectors.linked_players(mario)) == [player]
    player.refresh_from_db()
    assert player.user is None  # a link gives no place in the club


def test_the_person_asks_and_a_director_names_the_player(people, mario, player):
    link = links.person_link_ask(slug="san-rocco", user=mario)
    assert (link.player, link.origin) == (None, "person")
    with pytest.raises(NotAllowed):  # the person does not answer their own request
        links.person_link_accept(link=link, user=mario, player=player)
    with pytest.raises(NotAllowed):
        links.person_link_accept(link=link, user=people.scorer, player=player)
    with pytest.raises(refusals.PlayerNeeded):
        links.person_link_accept(link=link, user=people.director)
    elsewhere = Player.objects.create(club=people.other, name="Mario")
    with pytest.raises(refusals.PlayerOfAnotherClub):
        links.person_link_accept(link=link, user=people.director, player=elsewhere)
    link.refresh_from_db()
    assert (link.status, link.player) == ("proposed", None)
    links.person_link_accept(link=link, user=people.director, player=player)
    assert selectors.person_of(player) == mario


def test_a_director_proposing_their_own_account_is_both_sides(people):
    own = Player.objects.create(club=people.club, name="Direttore")
    link = links.person_link_propose(player=own, username="director", user=people.director)
    assert link.status == "accepted"


def test_declined_and_withdrawn_links_leave_nothing_linked(people, mario, player):
    link = links.person_link_propose(player=player, username="mario", user=people.director)
    links.person_link_decline(link=link, user=mario)
    with pytest.raises(refusals.LinkNotWaiting):
        links.person_link_accept(link=link, user=mario)
    again = links.person_link_propose(player=player, username="mario", user=people.director)
    links.person_link_remove(link=again, user=people.director)  # withdrawn
    with pytest.raises(refusals.LinkNotLive):
        links.person_link_remove(link=again, user=people.director)
    assert selectors.person_of(player) is None
    assert list(PersonLink.objects.values_list("status", flat=True).order_by("pk")) == [
        "declined",
        "removed",
    ]


def test_either_side_removes_an_accepted_link(people, mario, player):
    first = build.linked(player, mario)
    links.person_link_remove(link=first, user=mario)
    assert selectors.person_of(player) is None
    second = build.linked(player, mario)
    with pytest.raises(NotAllowed):
        links.person_link_remove(link=second, user=people.scorer)
    with pytest.raises(refusals.NotYourLink):
        links.person_link_remove(link=second, user=people.stranger)
    links.person_link_remove(link=second, user=people.director)
    assert selectors.person_of(player) is None
    assert PersonLink.objects.filter(status="removed").count() == 2


def test_what_the_club_says_is_not_contradicted(people, mario, player):
    nino = people.seated[0]  # the member's own player
    with pytest.raises(refusals.PlayerIsAnotherAccount):
        links.person_link_propose(player=nino, username="mario", user=people.director)
    with pytest.raises(refusals.AccountIsAnotherPlayer):  # the member is Nino here
        links.person_link_propose(player=player, username="member", user=people.director)
    links.person_link_propose(player=nino, username="member", user=people.director)  # agrees
    links.person_link_propose(player=player, username="mario", user=people.director)
    with pytest.raises(refusals.PlayerAlreadyLinked):
        links.person_link_propose(player=player, username="owner", user=people.director)
    other = Player.objects.create(club=people.club, name="Mario bis")
    with pytest.raises(refusals.AccountAlreadyLinked):
        links.person_link_propose(player=other, username="mario", user=people.director)
    with pytest.raises(refusals.AccountAlreadyLinked):
        links.person_link_ask(slug="san-rocco", user=mario)
    with pytest.raises(refusals.LinkUnknownAccount):
        links.person_link_propose(player=other, username="nobody", user=people.director)
    with pytest.raises(refusals.LinkUnknownClub):
        links.person_link_ask(slug="nowhere", user=mario)
    with pytest.raises(NotAllowed):
        links.person_link_propose(player=other, username="mario", user=people.scorer)


def test_an_erased_player_is_never_linked(people, mario, player):
    Player.objects.filter(pk=player.pk).update(erased=True)
    with pytest.raises(PlayerErased):
        links.person_link_propose(player=player, username="mario", user=people.director)
    ask = links.person_link_ask(slug="san-rocco", user=mario)
    with pytest.raises(PlayerErased):
        links.person_link_accept(link=ask, user=people.director, player=player)


def test_the_club_changing_its_record_before_the_answer_is_seen(people, mario, player):
    """The member's account linked to the player after the proposal: the person's
    acceptance is refused rather than contradicting the club."""
    link = links.person_link_propose(player=player, username="mario", user=people.director)
    Player.objects.filter(pk=player.pk).update(user=people.scorer)
    with pytest.raises(refusals.PlayerIsAnotherAccount):
        links.person_link_accept(link=link, user=mario)


# -- federation numbers ------------------------------------------------------------------------


def test_a_link_in_a_member_club_gives_a_number_once(people, mario, player):
    fed = build.federation(people.club)
    assert selectors.number_of(fed, mario) is None
    link = build.linked(player, mario)
    assert selectors.number_of(fed, mario) == 1
    links.person_link_remove(link=link, user=mario)
    build.linked(player, mario)
    assert selectors.number_of(fed, mario) == 1  # kept, not given again
    assert FederationNumber.objects.count() == 1


def test_a_club_joining_numbers_its_linked_persons(people, mario, player):
    build.linked(player, mario)
    build.linked(people.seated[0], people.member)
    fed = build.federation()
    assert not FederationNumber.objects.exists()  # not a member club yet
    build.joined(fed, people.club)
    assert sorted(FederationNumber.objects.values_list("number", flat=True)) == [1, 2]
    assert {p.pk for p in selectors.persons_of(fed)} == {mario.pk, people.member.pk}


def test_a_secretary_sets_a_card_number_and_the_next_skips_it(people, mario, player):
    fed = build.federation(people.club)
    secretary = get_user_model().objects.get(username=f"{fed.slug}-secretary")
    build.linked(player, mario)
    row = FederationNumber.objects.get(user=mario)
    for who in (people.owner, get_user_model().objects.get(username=f"{fed.slug}-officer")):
        with pytest.raises(refusals.OfficerRequired):
            numbers.number_set(row=row, number=2, user=who)
    numbers.number_set(row=row, number=2, user=secretary)
    build.linked(people.seated[0], people.member)
    assert selectors.number_of(fed, people.member) == 3  # 2 is Mario's card
    with pytest.raises(refusals.NumberTaken):
        numbers.number_set(row=row, number=3, user=secretary)
    for bad in (0, -1, numbers.NUMBER_MAX + 1):
        with pytest.raises(refusals.NumberRange):
            numbers.number_set(row=row, number=bad, user=secretary)
    assert selectors.number_of(fed, mario) == 2


def test_the_officers_list_of_persons(people, mario, player):
    fed = build.federation(people.club)
    build.linked(player, mario)
    far = Player.objects.create(club=people.other, name="Mario A.")
    build.linked(far, mario)  # Altrove is no member: not listed
    (row,) = selectors.federation_persons(fed)
    assert row["number"].number == 1 and row["user"] == mario
    assert row["players"] == [player]
