"""The match record: deals append-only, checked by the engine, serialized per match."""

import pytest

from scorebook.matches import services
from scorebook.matches.models import Deal, Match
from scorebook.matches.refusals import OwnEntry
from tests import builders as build

SIDES, SMALL = build.A_WINS, build.B_WINS_SMALL


@pytest.fixture
def match(people):
    return build.match(people, build.night(people, venue="Bar"), first_dealer="N")


def test_match_snapshot_keeps_the_resolved_rules(match):
    assert match.rules["values"]["t4.target"] == 21
    assert match.rules["profile"] == "classic_21"
    assert match.state["dealer"] == "N"


def test_deals_are_numbered_and_fold_into_the_state(match, people):
    scorer = people.scorer
    services.deal_create(match=match, data=SIDES, expected_number=1, user=scorer)
    services.deal_create(match=match, data=SIDES, expected_number=2, user=scorer)
    match.refresh_from_db()
    assert match.state["totals"] == {"A": 14, "B": 8}
    assert [d.number for d in Deal.objects.filter(match=match)] == [1, 2]


def test_a_rejected_deal_changes_nothing(match, people):
    bad = {**SIDES, "last_trick": "C"}
    with pytest.raises(services.RulesRejected) as caught:
        services.deal_create(match=match, data=bad, expected_number=1, user=people.scorer)
    assert caught.value.rejection.problems[0].code == "last_trick.unknown"
    assert Deal.objects.count() == 0
    match.refresh_from_db()
    assert match.version == 0


def test_second_phone_with_the_same_number_gets_a_conflict(match, people):
    first = services.deal_create(match=match, data=SIDES, expected_number=1, user=people.scorer)
    with pytest.raises(services.DealConflict) as caught:
        services.deal_create(match=match, data=SIDES, expected_number=1, user=people.director)
    assert caught.value.stored == first


def test_members_may_not_enter_deals_and_outsiders_do_not_see_the_match(match, people):
    with pytest.raises(services.NotAllowed):
        services.deal_create(match=match, data=SIDES, expected_number=1, user=people.member)
    with pytest.raises(services.NoSuchMatch):
        services.deal_create(match=match, data=SIDES, expected_number=1, user=people.stranger)


def test_correction_is_a_new_version_and_rederives_the_totals(match, people):
    scorer = people.scorer
    first = services.deal_create(match=match, data=SIDES, expected_number=1, user=scorer)
    services.deal_create(match=match, data=SIDES, expected_number=2, user=scorer)
    new = services.deal_correct(
        deal=first, data=SMALL, reason="wrong side", user=scorer, expected_version=1
    )
    assert (new.version, new.supersedes, new.reason) == (2, first, "wrong side")
    first.refresh_from_db()
    assert first.is_current is False
    assert first.input == SIDES  # the old version stays readable
    match.refresh_from_db()
    assert match.state["totals"] == {"A": 4 + 7, "B": 7 + 4}


def test_stale_correction_is_refused(match, people):
    scorer = people.scorer
    first = services.deal_create(match=match, data=SIDES, expected_number=1, user=scorer)
    services.deal_correct(deal=first, data=SMALL, reason="x", user=scorer, expected_version=1)
    with pytest.raises(services.StaleVersion) as caught:
        services.deal_correct(deal=first, data=SIDES, reason="y", user=scorer, expected_version=1)
    assert caught.value.current.version == 2


def test_correction_that_ends_the_match_earlier_is_refused_whole(match, people):
    scorer = people.scorer
    first = services.deal_create(match=match, data=SIDES, expected_number=1, user=scorer)
    services.deal_create(match=match, data=SIDES, expected_number=2, user=scorer)
    cappotto = {
        "sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}},
        "last_trick": "A",
    }
    with pytest.raises(services.RulesRejected) as caught:
        services.deal_correct(
            deal=first, data=cappotto, reason="z", user=scorer, expected_version=1
        )
    assert caught.value.rejection.problems[0].code == "match.finished"
    assert Deal.objects.filter(match=match).count() == 2


def test_finished_match_refuses_deals_and_only_directors_correct(match, people):
    scorer, director = people.scorer, people.director
    deals = [
        services.deal_create(match=match, data=SIDES, expected_number=i, user=scorer)
        for i in (1, 2, 3)
    ]
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winners"] == ["N", "S"]
    with pytest.raises(services.RulesRejected):
        services.deal_create(match=match, data=SIDES, expected_number=4, user=scorer)
    with pytest.raises(services.NotAllowed):
        services.deal_correct(
            deal=deals[0], data=SMALL, reason="x", user=scorer, expected_version=1
        )
    services.deal_correct(deal=deals[2], data=SMALL, reason="x", user=director, expected_version=1)
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN


def test_confirmation_by_a_seated_player_or_a_director_override(match, people):
    deal = services.deal_create(match=match, data=SIDES, expected_number=1, user=people.scorer)
    confirmation = services.deal_confirm(deal=deal, user=people.member)  # Nino sits N
    assert confirmation.seat == "N"
    with pytest.raises(OwnEntry):  # the scorer entered it: never his to confirm
        services.deal_confirm(deal=deal, user=people.scorer)
    with pytest.raises(services.NotAllowed):  # the director sits at no seat
        services.deal_confirm(deal=deal, user=people.director)
    override = services.deal_confirm(deal=deal, user=people.director, override_reason="ok")
    assert override.override


def test_closed_night_refuses_new_deals(match, people):
    services.night_close(night=match.night, user=people.director, end_open=[match.pk])
    with pytest.raises(services.ClosedNight):
        services.deal_create(match=match, data=SIDES, expected_number=1, user=people.scorer)
