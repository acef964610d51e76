"""A federation, its officers and its member clubs (issue 34 item 1), through the services:
who may do what, what is refused and that a refusal changes nothing, a club's history
after it leaves."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from scorebook.clubs.services import NotAllowed
from scorebook.core.models import AuditEvent
from scorebook.federations import refusals, selectors
from scorebook.federations.models import Affiliation, ClubInvitation, Federation, Officer
from scorebook.federations.services import federation as federations
from scorebook.federations.services import membership
from tests import builders as build

pytestmark = pytest.mark.django_db


@pytest.fixture
def fed(people):
    return build.federation()


def officer(fed, role):
    return get_user_model().objects.get(username=f"{fed.slug}-{role}")


def test_founding_makes_the_founder_president(people):
    made = federations.federation_create(
        name="FITres Sicilia", slug="fitres-sicilia", level="regional", user=people.stranger
    )
    office = Officer.objects.get(federation=made)
    assert (office.user, office.role) == (people.stranger, "president")
    assert selectors.is_officer(people.stranger, made.pk, "president")
    assert not selectors.is_officer(people.owner, made.pk)
    assert AuditEvent.objects.filter(verb="federation_created", club=None).count() == 1


def test_a_slug_taken_is_refused_and_nothing_is_made(people, fed):
    with pytest.raises(refusals.FederationSlugTaken):
        federations.federation_create(name="Altro", slug=fed.slug, user=people.owner)
    assert Federation.objects.count() == 1
    assert not Officer.objects.filter(user=people.owner).exists()


def test_only_the_president_changes_the_federation_and_names_officers(people, fed):
    for role in ("secretary", "officer"):
        with pytest.raises(refusals.OfficerRequired) as refused:
            federations.federation_update(
                federation=fed, changes={"publishes": True}, user=officer(fed, role)
            )
        assert refused.value.code == "federation.officer_required"
        with pytest.raises(refusals.OfficerRequired):
            federations.officer_add(
                federation=fed, username="owner", role="officer", user=officer(fed, role)
            )
    with pytest.raises(refusals.OfficerRequired):  # a club's owner is nobody here
        federations.federation_update(federation=fed, changes={"name": "X"}, user=people.owner)
    changed = federations.federation_update(
        federation=fed,
        changes={"publishes": True, "level": "regional"},
        user=officer(fed, "president"),
    )
    assert (changed.publishes, changed.level) == (True, "regional")


def test_officers_words_are_in_italian(people, fed):
    from django.utils import translation

    with pytest.raises(refusals.OfficerRequired) as refused:
        federations.officer_add(
            federation=fed, username="owner", role="officer", user=officer(fed, "officer")
        )
    with translation.override("it"):
        text = refused.value.text()
    assert "presidente" in text and "federazione" in text


def test_a_federation_keeps_a_president(people, fed):
    president = Officer.objects.get(federation=fed, role="president")
    with pytest.raises(refusals.LastPresident):
        federations.officer_change(officer=president, role="secretary", user=president.user)
    with pytest.raises(refusals.LastPresident):
        federations.officer_remove(officer=president, user=president.user)
    second = Officer.objects.get(federation=fed, role="secretary")
    federations.officer_change(officer=second, role="president", user=president.user)
    federations.officer_remove(officer=president, user=president.user)  # steps down
    assert list(Officer.objects.filter(federation=fed, role="president")) == [second]


def test_an_officer_steps_down_but_removes_nobody_else(people, fed):
    mine = Officer.objects.get(federation=fed, role="officer")
    secretary = Officer.objects.get(federation=fed, role="secretary")
    with pytest.raises(refusals.OfficerRequired):
        federations.officer_remove(officer=secretary, user=mine.user)
    federations.officer_remove(officer=mine, user=mine.user)
    assert not Officer.objects.filter(pk=mine.pk).exists()


def test_an_unknown_or_repeated_officer_is_refused(people, fed):
    president = officer(fed, "president")
    with pytest.raises(refusals.UnknownAccount):
        federations.officer_add(federation=fed, username="nobody", role="officer", user=president)
    with pytest.raises(refusals.AlreadyOfficer):
        federations.officer_add(
            federation=fed, username=f"{fed.slug}-officer", role="secretary", user=president
        )


# -- member clubs --------------------------------------------------------------------------------


def test_a_club_joins_when_its_owner_accepts(people, fed):
    invitation = membership.club_invite(
        federation=fed, slug="san-rocco", user=officer(fed, "secretary")
    )
    assert list(selectors.open_club_invitations(club=people.club)) == [invitation]
    for who in (people.director, people.member, people.stranger, officer(fed, "president")):
        with pytest.raises(NotAllowed):  # the owner's, nobody else's
            membership.club_invitation_accept(invitation=invitation, user=who)
    assert not Affiliation.objects.exists()
    joined = membership.club_invitation_accept(invitation=invitation, user=people.owner)
    assert list(selectors.member_clubs(fed)) == [people.club]
    assert list(selectors.club_federations(people.club)) == [fed]
    assert joined.invitation.status == ClubInvitation.Status.ACCEPTED
    assert AuditEvent.objects.filter(club=people.club, verb="federation_joined").exists()
    with pytest.raises(refusals.InvitationClosed):
        membership.club_invitation_accept(invitation=invitation, user=people.owner)
    with pytest.raises(refusals.AlreadyMemberClub):
        membership.club_invite(federation=fed, slug="san-rocco", user=officer(fed, "secretary"))


def test_only_a_secretary_or_the_president_invites(people, fed):
    with pytest.raises(refusals.OfficerRequired):
        membership.club_invite(federation=fed, slug="san-rocco", user=officer(fed, "officer"))
    with pytest.raises(refusals.OfficerRequired):
        membership.club_invite(federation=fed, slug="san-rocco", user=people.owner)
    with pytest.raises(refusals.UnknownClub):
        membership.club_invite(federation=fed, slug="nowhere", user=officer(fed, "secretary"))
    assert not ClubInvitation.objects.exists()


def test_one_open_invitation_and_an_expired_one_cannot_be_accepted(people, fed):
    secretary = officer(fed, "secretary")
    first = membership.club_invite(federation=fed, slug="altrove", user=secretary)
    with pytest.raises(refusals.InvitationOpen):
        membership.club_invite(federation=fed, slug="altrove", user=secretary)
    ClubInvitation.objects.filter(pk=first.pk).update(expires_at=timezone.now())
    with pytest.raises(refusals.InvitationExpired):
        membership.club_invitation_accept(invitation=first, user=people.stranger)
    again = membership.club_invite(federation=fed, slug="altrove", user=secretary)
    first.refresh_from_db()
    assert first.status == ClubInvitation.Status.EXPIRED
    membership.club_invitation_decline(invitation=again, user=people.stranger)
    assert not Affiliation.objects.exists()


def test_a_withdrawn_invitation_cannot_be_accepted(people, fed):
    invitation = membership.club_invite(
        federation=fed, slug="altrove", user=officer(fed, "secretary")
    )
    membership.club_invitation_withdraw(invitation=invitation, user=officer(fed, "president"))
    with pytest.raises(refusals.InvitationClosed):
        membership.club_invitation_accept(invitation=invitation, user=people.stranger)


def test_a_club_leaves_and_its_history_stays(people, fed):
    joined = build.joined(fed, people.club)
    before = timezone.now()
    with pytest.raises(NotAllowed):
        membership.club_leave(affiliation=joined, user=people.director)
    membership.club_leave(affiliation=joined, user=people.owner)
    assert list(selectors.member_clubs(fed)) == []
    assert list(selectors.member_clubs(fed, at=before)) == [people.club]
    with pytest.raises(refusals.NotAMemberClub):
        membership.club_leave(affiliation=joined, user=people.owner)
    again = build.joined(fed, people.club)  # joining again is a new period
    periods = list(Affiliation.objects.filter(club=people.club).order_by("pk"))
    assert periods[0].left_at is not None and periods[1] == again and again.left_at is None
    assert list(selectors.member_clubs(fed)) == [people.club]


def test_member_clubs_at_a_time_between_periods(people, fed):
    joined = build.joined(fed, people.club)
    Affiliation.objects.filter(pk=joined.pk).update(
        joined_at=timezone.now() - datetime.timedelta(days=10),
        left_at=timezone.now() - datetime.timedelta(days=5),
    )
    assert list(selectors.member_clubs(fed, at=timezone.now() - datetime.timedelta(days=7))) == [
        people.club
    ]
    assert list(selectors.member_clubs(fed, at=timezone.now() - datetime.timedelta(days=2))) == []


def test_who_sees_which_federation(people, fed):
    other = build.federation(slug="regionale", name="Comitato regionale", publishes=True)
    build.joined(fed, people.club)
    assert set(selectors.federations_visible(people.member)) == {fed, other}
    assert set(selectors.federations_visible(people.stranger)) == {other}
    assert set(selectors.federations_visible(officer(fed, "officer"))) == {fed, other}
    from django.contrib.auth.models import AnonymousUser

    assert set(selectors.federations_visible(AnonymousUser())) == {other}
