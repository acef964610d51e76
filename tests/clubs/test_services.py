"""The club services called directly: who may hand out which role, the last owner,
linking players to accounts, and the audit trail every change leaves."""

import pytest
from django.contrib.auth import get_user_model

from scorebook.clubs import services
from scorebook.clubs.models import Club, Membership, Player, Role
from scorebook.core.models import AuditEvent


def membership(people, who):
    return Membership.objects.get(club=people.club, user=people[who])


@pytest.fixture
def newcomer(db):
    return get_user_model().objects.create_user("newcomer")


def test_founding_a_club_makes_the_founder_its_owner_and_is_audited(people, newcomer):
    club = services.club_create(name="Circolo Nuovo", slug="nuovo", user=newcomer)
    assert Membership.objects.get(club=club, user=newcomer).role == Role.OWNER
    event = AuditEvent.objects.get(club_id=club.pk, verb="club_created")
    assert event.actor == newcomer and event.after == {"name": "Circolo Nuovo"}


def test_only_owners_change_the_club_and_only_real_changes_are_audited(people):
    with pytest.raises(services.NotAllowed) as refused:
        services.club_update(club=people.club, changes={"public": True}, user=people.director)
    assert refused.value.params == {"role": "owner"}
    services.club_update(club=people.club, changes={"public": True}, user=people.owner)
    services.club_update(club=people.club, changes={"public": True}, user=people.owner)
    (event,) = AuditEvent.objects.filter(verb="club_changed")
    assert (event.before, event.after) == ({"public": False}, {"public": True})
    assert Club.objects.get(pk=people.club.pk).public is True


@pytest.mark.parametrize(
    "who, role, allowed",
    [
        ("director", Role.SCORER, True),
        ("director", Role.DIRECTOR, True),
        ("director", Role.OWNER, False),  # above their own
        ("scorer", Role.MEMBER, False),  # scorers manage no members
        ("owner", Role.OWNER, True),
    ],
)
def test_nobody_grants_a_role_above_their_own(people, newcomer, who, role, allowed):
    add = lambda: services.membership_add(  # noqa: E731
        club=people.club, member=newcomer, role=role, user=people[who]
    )
    if not allowed:
        with pytest.raises(services.NotAllowed):
            add()
        assert not Membership.objects.filter(user=newcomer).exists()
        return
    added = add()
    assert added.role == role
    event = AuditEvent.objects.get(verb="member_added")
    assert event.actor == people[who] and event.after == {"role": role}


def test_a_director_neither_promotes_to_owner_nor_touches_an_owner(people):
    with pytest.raises(services.NotAllowed):
        services.membership_change(
            membership=membership(people, "scorer"), role=Role.OWNER, user=people.director
        )
    with pytest.raises(services.NotAllowed):
        services.membership_remove(membership=membership(people, "owner"), user=people.director)
    changed = services.membership_change(
        membership=membership(people, "scorer"), role=Role.DIRECTOR, user=people.director
    )
    assert changed.role == Role.DIRECTOR
    event = AuditEvent.objects.get(verb="role_changed")
    assert (event.before, event.after) == ({"role": "scorer"}, {"role": "director"})


def test_the_last_owner_can_neither_step_down_nor_leave(people):
    owner = membership(people, "owner")
    with pytest.raises(services.LastOwner):
        services.membership_change(membership=owner, role=Role.DIRECTOR, user=people.owner)
    with pytest.raises(services.LastOwner):
        services.membership_remove(membership=owner, user=people.owner)
    assert membership(people, "owner").role == Role.OWNER
    services.membership_change(
        membership=membership(people, "director"), role=Role.OWNER, user=people.owner
    )
    services.membership_remove(membership=membership(people, "owner"), user=people.owner)
    assert list(
        Membership.objects.filter(club=people.club, role=Role.OWNER).values_list(
            "user__username", flat=True
        )
    ) == ["director"]
    event = AuditEvent.objects.get(verb="member_removed")
    assert event.before == {"user": people.owner.pk, "role": "owner"}


def test_players_link_only_to_members_of_their_club(people):
    with pytest.raises(services.NotAMember) as refused:
        services.player_create(
            club=people.club, name="Spia", user=people.scorer, linked_user=people.stranger
        )
    assert refused.value.path == "user"
    assert not Player.objects.filter(name="Spia").exists()
    guest = services.player_create(club=people.club, name="Ospite", user=people.scorer, guest=True)
    with pytest.raises(services.NotAMember):
        services.player_update(player=guest, changes={"user": people.stranger}, user=people.scorer)
    # Linking someone else's account needs their consent (an invitation they accept) ...
    with pytest.raises(services.LinkNeedsConsent):
        services.player_update(player=guest, changes={"user": people.director}, user=people.scorer)
    # ... and a member may link themselves, which is consent.
    linked = services.player_update(
        player=guest, changes={"user": people.director}, user=people.director
    )
    assert linked.user == people.director
    event = AuditEvent.objects.get(verb="player_changed")
    assert (event.before, event.after) == ({"user": None}, {"user": people.director.pk})


def test_members_add_no_players_and_an_unchanged_player_leaves_no_trace(people):
    with pytest.raises(services.NotAllowed):
        services.player_create(club=people.club, name="Zina", user=people.member)
    nino = people.seated[0]
    services.player_update(player=nino, changes={"name": "Nino"}, user=people.scorer)
    assert not AuditEvent.objects.filter(verb="player_changed").exists()
    created = services.player_create(club=people.club, name="Zina", user=people.scorer)
    event = AuditEvent.objects.get(verb="player_added")
    assert event.object_id == str(created.pk) and event.after == {"name": "Zina"}
