"""Invitations: the only way into a club is accepting one (issue 15)."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from scorebook.clubs import services
from scorebook.clubs.models import Membership, Player
from scorebook.core.models import AuditEvent
from scorebook.core.refusals import Refusal


def invite(people, who="director", **kwargs):
    return services.invitation_create(
        club=people.club, role=kwargs.pop("role", "member"), user=people[who], **kwargs
    )


def test_accepting_makes_a_member_with_the_role(club, people):
    invitation = invite(people, role="scorer")
    stranger = people["stranger"]
    membership = services.invitation_accept(token=invitation.token, user=stranger)
    assert (membership.club, membership.user, membership.role) == (club, stranger, "scorer")
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert AuditEvent.objects.filter(verb="member_joined", actor=stranger).exists()


def test_a_used_invitation_is_refused(club, people, django_user_model):
    invitation = invite(people)
    services.invitation_accept(token=invitation.token, user=people["stranger"])
    other = django_user_model.objects.create_user("late")
    with pytest.raises(services.InvitationUsedUp) as refused:
        services.invitation_accept(token=invitation.token, user=other)
    assert refused.value.status == 410
    assert not Membership.objects.filter(user=other).exists()


def test_a_link_for_a_table_of_people_serves_each_once(club, people, django_user_model):
    invitation = invite(people, max_uses=3)
    for name in ("a", "b", "c"):
        services.invitation_accept(
            token=invitation.token, user=django_user_model.objects.create_user(name)
        )
    with pytest.raises(services.InvitationUsedUp):
        services.invitation_accept(
            token=invitation.token, user=django_user_model.objects.create_user("d")
        )


def test_expired_withdrawn_and_unknown_links_are_refused(club, people):
    stranger = people["stranger"]
    expired = invite(people)
    expired.expires_at = timezone.now() - datetime.timedelta(seconds=1)
    expired.save()
    with pytest.raises(services.InvitationExpired):
        services.invitation_accept(token=expired.token, user=stranger)
    withdrawn = services.invitation_revoke(invitation=invite(people), user=people["director"])
    with pytest.raises(services.InvitationExpired):
        services.invitation_accept(token=withdrawn.token, user=stranger)
    with pytest.raises(services.InvitationInvalid) as unknown:
        services.invitation_accept(token="nope", user=stranger)
    assert unknown.value.status == 404 and unknown.value.path == "token"
    assert not Membership.objects.filter(user=stranger, club=club).exists()


def test_a_member_cannot_join_twice(club, people):
    with pytest.raises(services.AlreadyMember) as refused:
        services.invitation_accept(token=invite(people).token, user=people["member"])
    assert "Circolo San Rocco" in refused.value.text()


def test_only_directors_invite_and_never_above_their_role(club, people):
    for who in ("member", "scorer"):
        with pytest.raises(Refusal):
            invite(people, who=who)
    with pytest.raises(Refusal):
        invite(people, who="director", role="owner")
    with pytest.raises(Refusal):
        invite(people, who="stranger")
    assert invite(people, who="owner", role="owner").role == "owner"


def test_limits_are_refused(club, people):
    with pytest.raises(services.InvitationLimits):
        invite(people, max_uses=0)
    with pytest.raises(services.InvitationLimits):
        invite(people, days=services.INVITATION_MAX_DAYS + 1)


def test_the_invitee_becomes_the_player(club, people):
    ettore = people.seated[1]
    invitation = invite(people, player=ettore)
    services.invitation_accept(token=invitation.token, user=people["stranger"])
    ettore.refresh_from_db()
    assert ettore.user == people["stranger"]


def test_a_linked_player_or_another_clubs_player_cannot_be_offered(club, people):
    nino = people.seated[0]  # linked to the member's account
    with pytest.raises(services.InvitationPlayer):
        invite(people, player=nino)
    elsewhere = Player.objects.create(club=people.other, name="Altro")
    with pytest.raises(services.InvitationPlayer):
        invite(people, player=elsewhere)


def test_sign_up_makes_the_account_and_the_membership_or_neither(club, people):
    invitation = invite(people)
    membership = services.invitation_sign_up(
        token=invitation.token, username="rosa", password="a-long-secret-1"
    )
    assert membership.user.check_password("a-long-secret-1")
    with pytest.raises(services.InvitationUsedUp):
        services.invitation_sign_up(
            token=invitation.token, username="pina", password="a-long-secret-1"
        )
    assert not get_user_model().objects.filter(username="pina").exists()


def test_tokens_are_unguessable_and_distinct(club, people):
    tokens = {invite(people).token for _ in range(5)}
    assert len(tokens) == 5 and all(len(t) >= 32 for t in tokens)
