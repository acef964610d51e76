"""The federation's rating across its member clubs (issue 34 item 5): openskill's
Plackett-Luce over every rated match of linked persons, in the order the matches
finished, an unlinked player an anonymous entity of their club; each club's own ratings
unchanged; refreshed after a match, a link, a club leaving; an erased person gone."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorebook.archive import services as archive
from scorebook.federations import ratings
from scorebook.federations.championship_models import Visitor
from scorebook.federations.models import FederationRating, PersonLink, RatingFreshness
from scorebook.federations.services import links, membership
from scorebook.matches import services as matches
from scorebook.standings import ratings as rt
from scorebook.standings.models import Rating
from tests import builders as build

A, B = build.A_WINS, build.B_WINS


@pytest.fixture
def eager(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def world(people, eager, django_capture_on_commit_callbacks):
    """San Rocco and Altrove in the Comitato; mario is Ettore at San Rocco and Alt 0 at
    Altrove, lucia is Salvo at San Rocco; Nino, Walter and Alt 1-3 are linked to nobody.
    Match 1 at San Rocco: Nino and Salvo (A) beat Ettore and Walter; match 2 at Altrove:
    Alt 1 and Alt 3 (B) beat Alt 0 and Alt 2."""
    users = get_user_model().objects
    with django_capture_on_commit_callbacks(execute=True):
        fed = build.federation(people.club, people.other)
        mario, lucia = users.create_user("mario"), users.create_user("lucia")
        nino, ettore, salvo, walter = people.seated
        alt = build.players(people.other, 4, "Alt ")
        build.linked(ettore, mario)
        build.linked(salvo, lucia)
        build.linked(alt[0], mario)
        first = build.match(people, build.night(people))
        build.finish(people, first, A)
        night = matches.night_open(
            club_id=people.other.pk, date=build.DAY, venue="", user=people.stranger
        )
        seats = dict(zip("NESW", (p.pk for p in alt), strict=True))
        second = build.match(people, night, seats=seats, user=people.stranger)
        build.finish(people, second, B, user=people.stranger)
    return fed, mario, lucia, alt


def by_hand():
    """The two matches rated with openskill itself, entity by entity."""
    model = PlackettLuce()
    r = {name: model.rating(name=name) for name in ("mario", "lucia", "nino", "walter")}
    r |= {f"alt{i}": model.rating(name=f"alt{i}") for i in (1, 2, 3)}
    # match 1: [Nino, lucia] first, [mario, Walter] second
    (r["nino"], r["lucia"]), (r["mario"], r["walter"]) = model.rate(
        [[r["nino"], r["lucia"]], [r["mario"], r["walter"]]], ranks=[0, 1]
    )
    # match 2 at Altrove: [mario (Alt 0), Alt 2] lost to [Alt 1, Alt 3]
    (r["mario"], r["alt2"]), (r["alt1"], r["alt3"]) = model.rate(
        [[r["mario"], r["alt2"]], [r["alt1"], r["alt3"]]], ranks=[1, 0]
    )
    return r


def test_the_rating_equals_openskill_by_hand(people, world):
    fed, mario, lucia, _alt = world
    stored = {
        r.user.username: r
        for r in FederationRating.objects.filter(federation=fed).select_related("user")
    }
    assert set(stored) == {"mario", "lucia"}  # persons only: no anonymous entity is stored
    hand = by_hand()
    for name in ("mario", "lucia"):
        assert (stored[name].mu, stored[name].sigma) == pytest.approx(
            (hand[name].mu, hand[name].sigma), abs=1e-12
        )
        assert stored[name].display == pytest.approx(hand[name].ordinal(), abs=1e-12)
        assert stored[name].game == build.GAME
    assert (stored["mario"].matches, stored["mario"].clubs) == (2, 2)
    assert (stored["lucia"].matches, stored["lucia"].clubs) == (1, 1)
    fresh = RatingFreshness.objects.get(federation=fed)
    assert not fresh.pending and fresh.matches == 2


def test_each_clubs_own_ratings_are_unchanged(people, world):
    """San Rocco's Ettore is rated on San Rocco's match alone, as if there were no
    federation; mario's federation rating is not Ettore's."""
    _fed, mario, _lucia, _alt = world
    model = PlackettLuce()
    n, e, s, w = (model.rating() for _ in range(4))
    (n, s), (e, w) = model.rate([[n, s], [e, w]], ranks=[0, 1])
    ettore = Rating.objects.get(club=people.club, player=people.seated[1])
    assert (ettore.mu, ettore.sigma) == pytest.approx((e.mu, e.sigma), abs=1e-12)
    assert FederationRating.objects.get(user=mario).mu != pytest.approx(ettore.mu)


def test_scribbling_on_the_clubs_ratings_changes_nothing(people, world):
    fed, *_ = world
    before, count = ratings.compute(fed)
    Rating.objects.update(mu=60.0, sigma=1.0, display=57.0)
    after, again = ratings.compute(fed)
    assert (after, again) == (before, count)


def test_reading_the_clubs_in_another_order_gives_the_same(people, world):
    fed, *_ = world
    clubs = ratings.rated_clubs(fed)
    persons = ratings.persons_of(clubs)
    forward = ratings.replay(ratings.read(clubs, persons))
    backward = ratings.replay(ratings.read(list(reversed(clubs)), persons))
    assert forward == backward


def test_a_link_removed_replays_without_the_person(
    people, world, django_capture_on_commit_callbacks
):
    fed, mario, lucia, alt = world
    link = PersonLink.objects.get(player=alt[0], status="accepted")
    with django_capture_on_commit_callbacks(execute=True):
        links.person_link_remove(link=link, user=mario)
    row = FederationRating.objects.get(federation=fed, user=mario)
    assert (row.matches, row.clubs) == (1, 1)  # Altrove's match: Alt 0 is anonymous now
    with django_capture_on_commit_callbacks(execute=True):
        build.linked(alt[0], mario)
    assert FederationRating.objects.get(federation=fed, user=mario).matches == 2


def test_a_club_that_leaves_takes_its_matches_out(
    people, world, django_capture_on_commit_callbacks
):
    fed, mario, _lucia, _alt = world
    with django_capture_on_commit_callbacks(execute=True):
        membership.club_leave(
            affiliation=fed.affiliations.get(club=people.other), user=people.stranger
        )
    assert FederationRating.objects.get(federation=fed, user=mario).matches == 1


def test_a_match_of_unlinked_players_only_asks_nothing(
    people, world, django_capture_on_commit_callbacks
):
    fed, *_ = world
    built = RatingFreshness.objects.get(federation=fed).built_at
    others = build.players(people.club, 4, "Ospite ")
    night = build.night(people, day=21)
    with django_capture_on_commit_callbacks(execute=True):
        match = build.match(
            people, night, seats=dict(zip("NESW", (p.pk for p in others), strict=True))
        )
        build.finish(people, match, A)
    assert RatingFreshness.objects.get(federation=fed).built_at == built


def test_an_erased_person_leaves_the_rating(people, world, django_capture_on_commit_callbacks):
    fed, mario, lucia, _alt = world
    with django_capture_on_commit_callbacks(execute=True):
        archive.account_erase(user=mario, confirm="mario")
    assert not FederationRating.objects.filter(user_id=mario.pk).exists()
    assert set(
        FederationRating.objects.filter(federation=fed).values_list("user__username", flat=True)
    ) == {"lucia"}


# -- the replay alone, on random matches -----------------------------------------------------

ENTITIES = st.integers(min_value=-6, max_value=6).filter(bool)


@st.composite
def federations(draw):
    """Random pairs matches at three clubs: (club, finished at, match id, teams, winner)."""
    count = draw(st.integers(min_value=1, max_value=12))
    made = []
    for match_id in range(1, count + 1):
        four = draw(st.lists(ENTITIES, min_size=4, max_size=4, unique=True))
        club = draw(st.integers(min_value=1, max_value=3))
        minute = draw(st.integers(min_value=0, max_value=5))  # ties: the match id decides
        ranks = draw(st.sampled_from([(0, 1), (1, 0), (0, 0)]))
        contest = rt.Contest((tuple(four[:2]), tuple(four[2:])), ranks)
        at = datetime.datetime(2026, 11, 20, 21, minute, tzinfo=datetime.UTC)
        made.append(ratings.Rated(at, match_id, club, build.GAME, (contest,)))
    return made


@settings(max_examples=60, deadline=None)
@given(federations(), st.permutations([1, 2, 3]))
def test_the_replay_is_the_same_whichever_club_is_read_first(matches_, order):
    by_club = [m for club in order for m in matches_ if m.club_id == club]
    assert ratings.replay(by_club) == ratings.replay(matches_)


@settings(max_examples=60, deadline=None)
@given(federations())
def test_the_replay_is_openskill_in_the_order_matches_finished(matches_):
    model = PlackettLuce()
    state: dict[int, object] = {}
    for m in sorted(matches_, key=lambda m: (m.finished_at, m.match_id)):
        (contest,) = m.contests
        if all(e < 0 for team in contest.teams for e in team):
            continue  # no person at the table: not a match of the federation's rating
        teams = [[state.setdefault(e, model.rating()) for e in team] for team in contest.teams]
        new = model.rate(teams, ranks=list(contest.ranks))
        for team, rated in zip(contest.teams, new, strict=True):
            for e, r in zip(team, rated, strict=True):
                state[e] = r
    found = ratings.replay(matches_).get(build.GAME, {})
    persons = {e for m in matches_ for t in m.contests[0].teams for e in t if e > 0}
    assert set(found) == persons
    for person, rating in found.items():
        assert (rating.mu, rating.sigma) == pytest.approx(
            (state[person].mu, state[person].sigma), abs=1e-9
        )


# -- the API ---------------------------------------------------------------------------------


def test_the_api_gives_the_persons_ratings(people, world, django_assert_max_num_queries):
    from rest_framework.test import APIClient

    fed, mario, lucia, _alt = world
    client = APIClient()
    client.force_authenticate(people.member)
    with django_assert_max_num_queries(8):
        answer = client.get(f"/api/v1/federations/{fed.pk}/ratings").json()
    assert answer["pending"] is False and answer["updated_at"]
    got = [(r["position"], r["username"], r["game"], r["matches"]) for r in answer["results"]]
    hand = by_hand()
    best = sorted(("lucia", "mario"), key=lambda n: -hand[n].ordinal())
    assert got == [
        (1, best[0], build.GAME, 1 if best[0] == "lucia" else 2),
        (2, best[1], build.GAME, 1 if best[1] == "lucia" else 2),
    ]
    assert {r["username"]: r["number"] for r in answer["results"]} == {
        "mario": fed.numbers.get(user=mario).number,
        "lucia": fed.numbers.get(user=lucia).number,
    }
    mine = client.get(f"/api/v1/federations/{fed.pk}/ratings/{mario.pk}").json()
    assert [(r["username"], r["clubs"]) for r in mine] == [("mario", 2)]
    assert mine[0]["rating"] == pytest.approx(hand["mario"].ordinal(), abs=1e-9)


def test_the_public_ratings_only_when_the_federation_publishes(people, world):
    from rest_framework.test import APIClient

    fed, *_ = world
    url = f"/api/v1/public/federations/{fed.slug}/ratings"
    assert APIClient().get(url).status_code == 404
    fed.publishes = True
    fed.save(update_fields=["publishes"])
    answer = APIClient().get(url).json()
    assert {r["username"] for r in answer["results"]} == {"mario", "lucia"}
    outsider = get_user_model().objects.create_user("outsider")
    client = APIClient()
    client.force_authenticate(outsider)
    fed.publishes = False
    fed.save(update_fields=["publishes"])
    assert client.get(f"/api/v1/federations/{fed.pk}/ratings").status_code == 404


# -- the pages, the CSV and the PDF ----------------------------------------------------------


def test_the_pages_and_the_sheets_show_the_rating(people, world, django_assert_max_num_queries):
    from django.test import Client

    fed, mario, lucia, _alt = world
    client = Client()
    client.force_login(people.member)
    hand = by_hand()
    with django_assert_max_num_queries(30):
        page = client.get(f"/f/{fed.slug}/ranking/", HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert page.status_code == 200 and 'id="ratings"' in text
    assert f"{hand['mario'].ordinal():.1f}" in text and "lucia" in text
    person = client.get(f"/f/{fed.slug}/ranking/{mario.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'id="person-ratings"' in person.content.decode()
    assert f"{hand['mario'].ordinal():.1f}" in person.content.decode()
    csv = client.get(f"/f/{fed.slug}/ranking.csv", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rating across the clubs" in csv
    assert f",mario,{hand['mario'].ordinal():.1f},2,2" in csv
    pdf = client.get(f"/f/{fed.slug}/ranking.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert Client().get(f"/public/f/{fed.slug}/ranking/").status_code == 404
    fed.publishes = True
    fed.save(update_fields=["publishes"])
    public = Client().get(f"/public/f/{fed.slug}/ranking/").content.decode()
    assert 'id="ratings"' in public and "mario" in public


def test_a_hostile_username_is_text_in_the_sheet(people, world):
    from scorebook.sharing import federal_board

    fed, mario, *_ = world
    mario.username = "=HYPERLINK(1)"
    mario.save(update_fields=["username"])
    rated = ratings.by_game(ratings.table(fed))
    csv = federal_board.ranking_csv(fed.name, datetime.date(2026, 11, 20), [], rating_games=rated)
    assert ",=HYPERLINK" not in csv and "HYPERLINK" in csv


def test_a_refresh_lost_with_the_broker_is_sent_again_by_the_sweeper(
    people, settings, django_capture_on_commit_callbacks, monkeypatch
):
    """With a broker (CI's PostgreSQL pass) the refresh is queued, not run; a broker that
    is down must neither fail the change that asked for it (committed already) nor lose
    it: the federation stays marked stale and the beat's sweeper sends it again."""
    from scorebook.federations import rating_outbox, tasks
    from scorebook.federations.ratings import stale_federations

    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.refresh_federation_ratings, "apply_async", down)
    fed = build.federation(people.club)
    with django_capture_on_commit_callbacks(execute=True):
        rating_outbox.request_refresh([fed.pk])
    assert stale_federations() == [fed.pk]
    monkeypatch.setattr(tasks.refresh_federation_ratings, "delay", sent.append)
    assert tasks.sweep_stale_federation_ratings() == [fed.pk] and sent == [fed.pk]
    settings.CELERY_TASK_ALWAYS_EAGER = True
    tasks.refresh_federation_ratings.apply((fed.pk,), throw=True)
    assert stale_federations() == []


def test_a_link_at_a_club_outside_moves_the_rating_where_its_player_was_a_guest(
    people, world, django_capture_on_commit_callbacks
):
    """A player of a club outside the federation (or one that left it) seated as a
    championship guest at a member club counts as the person through their link, so
    accepting or removing that link moves the federation's rating. It asked only the
    link's own club's federations (none): the stored rating kept a row a replay no
    longer made (found by tests/crossings/federation.py)."""
    fed, *_ = world
    third, _owner = build.club("Terzo", "terzo")
    visiting = build.players(third, 1, "T")[0]
    Visitor.objects.create(club=people.club, player=visiting, guest=people.seated[0])
    carla = get_user_model().objects.create_user("carla")

    def stored() -> set[int]:
        return set(FederationRating.objects.filter(federation=fed).values_list("user", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        link = build.linked(visiting, carla)
    assert carla.pk in stored()
    with django_capture_on_commit_callbacks(execute=True):
        links.person_link_remove(link=link, user=carla)
    assert carla.pk not in stored()
    with django_capture_on_commit_callbacks(execute=True):
        build.linked(visiting, carla)
        archive.player_erase(player=visiting, user=_owner, confirm=visiting.name)
    assert carla.pk not in stored()
