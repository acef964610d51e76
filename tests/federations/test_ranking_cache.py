"""The ranking kept in the cache (``ranking.board``, issue 35 item 5) is never read past a
change: one test per writer of its inputs. Each reads the board (filling the cache), makes
the write, and reads it again as a new request does (the federation's row read afresh):
the board must equal the ranking and the rating's table computed from the database, and
differ from the one before (the write moved it). Without the writer's bump of
``Federation.ranking_version`` (``federations.ranked``), or with a key that misses the
hosts' tournaments, the rating's row or the day, the second read is the cached one."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from scorebook.clubs.models import Player
from scorebook.federations import erasure, ranking, ratings
from scorebook.federations.models import Federation, FederationNumber, PersonLink
from scorebook.federations.services import federal_tournaments as federal
from scorebook.federations.services import links, membership, numbers
from scorebook.matches import services as matches
from scorebook.matches.models import Deal
from scorebook.tournaments.models import PairingMatch
from scorebook.tournaments.services.registration import entry_add
from tests import builders as build
from tests.federations.federal import announce, play_through, register_all, world

pytestmark = pytest.mark.django_db


def shown(fed: Federation):
    """The board as a new request reads it (the federation's row read afresh)."""
    board = ranking.board(Federation.objects.get(pk=fed.pk))
    return _plain(board.rows, board.rating_rows)


def truth(fed: Federation):
    """The ranking and the rating's table computed now, without the cache."""
    return _plain(ranking.ranking(fed), ratings.table(fed))


def _plain(rows, rated):
    return (
        [(r.position, r.user.pk, r.user.get_username(), r.number, r.points) for r in rows],
        [(r.game, r.user.pk, r.position, r.rating, r.matches) for r in rated],
    )


def top(fed: Federation):
    """The person first in the ranking (one of the pair that scored most)."""
    return ranking.ranking(fed)[0].user


def moved(fed: Federation, before) -> None:
    after = shown(fed)
    assert after == truth(fed)
    assert after != before, "the write did not move the ranking: the test proves nothing"


@pytest.fixture
def w(people, eager_tasks):
    """The federal world, its rating replayed there and then (eager_tasks: the PostgreSQL
    pass sets a real broker, where a replay sent on commit would never run)."""
    return world(people)


@pytest.fixture
def door(people, w, django_capture_on_commit_callbacks):
    """A tournament of the four registered pairs and a pair of the host's players entered
    at the door (Porta 1 and Porta 2, not linked), which wins every match: first, with
    federal points that go to no one while its players name no person. Finished."""
    t = announce(w, rounds=2)
    register_all(w, t)
    night = build.night(people, date=timezone.localdate())
    with django_capture_on_commit_callbacks(execute=True):
        made = federal.federal_tournament_open(
            federal_tournament=t, night=night, user=people.director
        )
        first, second = build.named(people.club, "Porta 1", "Porta 2")
        entry = entry_add(tournament=made, players=[first.pk, second.pk], user=people.director)
        play_through(people, made, winners={entry.pk})
    return first, second


@pytest.fixture
def left(people, w, door, django_capture_on_commit_callbacks):
    """``door``, then the host leaves the federation (its rating replayed without it): a
    change of its links no longer asks for a replay of the federation's rating, so only
    the ranking's own version (the club hosted its tournament) says the ranking moved."""
    with django_capture_on_commit_callbacks(execute=True):
        membership.club_leave(affiliation=w.fed.affiliations.get(club=w.host), user=people.owner)
    return door


def test_a_host_tournament_finished_enters_the_ranking(people, w):
    t = announce(w)
    register_all(w, t)
    night = build.night(people, date=timezone.localdate())
    made = federal.federal_tournament_open(federal_tournament=t, night=night, user=people.director)
    before = shown(w.fed)
    assert before[0] == []
    play_through(people, made)
    moved(w.fed, before)


def test_a_correction_in_a_finished_tournament_moves_the_ranking(people, w):
    t = announce(w)
    register_all(w, t)
    night = build.night(people, date=timezone.localdate())
    made = federal.federal_tournament_open(federal_tournament=t, night=night, user=people.director)
    play_through(people, made)
    before = shown(w.fed)
    game = PairingMatch.objects.filter(pairing__round__tournament=made).order_by("pk").first()
    deal = Deal.objects.filter(match_id=game.match_id, is_current=True).order_by("number").first()
    matches.deal_correct(
        deal=deal,
        data=build.B_WINS,
        reason="Carte sbagliate",
        user=people.director,
        expected_version=deal.version,
    )
    moved(w.fed, before)


def test_a_link_accepted_names_the_door_pairs_person(people, w, left):
    before = shown(w.fed)
    build.linked(left[0], get_user_model().objects.create_user("porta", password="pw-porta"))
    moved(w.fed, before)


def test_a_link_removed_takes_the_person_out(people, w, left):
    account = get_user_model().objects.create_user("porta", password="pw-porta")
    link = build.linked(left[0], account)
    before = shown(w.fed)
    links.person_link_remove(link=link, user=account)
    moved(w.fed, before)


def test_a_player_erased_takes_the_person_out(people, w, left):
    build.linked(left[0], get_user_model().objects.create_user("porta", password="pw-porta"))
    before = shown(w.fed)
    erasure.player_forget(left[0].pk)
    moved(w.fed, before)


def test_an_account_erased_leaves_the_ranking(people, w, left, django_capture_on_commit_callbacks):
    """Belmonte leaves too: the person's links ask no replay of the rating, and they have
    no rating rows left; only the ranking's version says they are gone."""
    belmonte = w.fed.affiliations.get(club=w.belmonte)
    with django_capture_on_commit_callbacks(execute=True):
        membership.club_leave(
            affiliation=belmonte, user=belmonte.club.memberships.get(role="owner").user
        )
    before = shown(w.fed)
    assert before[1] == []
    erasure.account_forget(top(w.fed).pk)
    moved(w.fed, before)


def test_a_number_set_by_the_secretary_shows(people, w, door):
    before = shown(w.fed)
    row = FederationNumber.objects.get(federation=w.fed, user=top(w.fed))
    numbers.number_set(row=row, number=4242, user=w.president)
    moved(w.fed, before)


def test_a_number_given_shows(people, w, door):
    """A person of the ranking without a number (theirs was given before the numbers
    were, say) gets one when a link of theirs at a member club is accepted."""
    person = top(w.fed)
    FederationNumber.objects.filter(federation=w.fed, user=person).delete()
    third, _owner = build.club("Circolo Terzo", "terzo")
    build.joined(w.fed, third)
    before = shown(w.fed)
    build.linked(build.named(third, "Al Terzo")[0], person)
    moved(w.fed, before)


def test_the_rating_replayed_shows(people, w, door, django_capture_on_commit_callbacks):
    """The host leaves: its matches leave the rating (the replay's rows and built_at)."""
    before = shown(w.fed)
    assert before[1]
    with django_capture_on_commit_callbacks(execute=True):
        membership.club_leave(affiliation=w.fed.affiliations.get(club=w.host), user=people.owner)
    moved(w.fed, before)


def test_a_replay_asked_shows_as_pending(people, w, door, django_capture_on_commit_callbacks):
    """A change asks for a replay (its queue is down: not yet done): the page says so."""
    from scorebook.federations import rating_outbox

    before = ranking.board(w.fed).freshness
    assert before is not None and not before.pending
    rating_outbox.request_refresh([w.fed.pk])  # its on-commit send never runs here
    assert ranking.board(Federation.objects.get(pk=w.fed.pk)).freshness.pending


def test_the_next_day_a_year_on_drops_the_tournament(people, w, door, monkeypatch):
    before = shown(w.fed)
    later = timezone.localdate() + datetime.timedelta(days=ranking.WINDOW_DAYS)
    monkeypatch.setattr(ranking.dates, "today", lambda: later)
    after = shown(w.fed)
    assert after[0] == [] != before[0]


def test_the_public_page_shows_the_new_ranking(people, w, door):
    Federation.objects.filter(pk=w.fed.pk).update(publishes=True)
    url = f"/public/f/{w.fed.slug}/ranking/"
    account = get_user_model().objects.create_user("porta", password="pw-porta")
    assert "porta" not in Client().get(url).content.decode()
    build.linked(door[0], account)
    assert "porta" in Client().get(url).content.decode()
    assert PersonLink.objects.filter(user=account, status="accepted").exists()
    assert Player.objects.filter(pk=door[0].pk).exists()


def test_the_public_page_read_from_the_cache_is_four_queries(
    people, w, door, django_assert_num_queries
):
    """The federation, the rating's row, the key's one aggregate, the cache."""
    Federation.objects.filter(pk=w.fed.pk).update(publishes=True)
    url = f"/public/f/{w.fed.slug}/ranking/"
    Client().get(url)
    with django_assert_num_queries(4):
        assert Client().get(url).status_code == 200


def test_a_deploy_with_another_points_table_or_build_does_not_read_the_old_boards(
    monkeypatch, settings
):
    """The cache outlives a deploy (a shared cache): the key names the points table and
    the deploy, so a new table is not served from boards computed with the old one."""
    federation = Federation(pk=1, ranking_version=1)
    day = datetime.date(2026, 11, 29)
    before = ranking.board_key(federation, None, day, day)
    monkeypatch.setattr(ranking, "POINTS_TABLE", "changed")
    assert ranking.board_key(federation, None, day, day) != before
    settings.BUILD_ID = "abc123"
    assert "abc123" in ranking.board_key(federation, None, day, day)
