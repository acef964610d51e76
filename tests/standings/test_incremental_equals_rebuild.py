"""Property: after any sequence of deals, corrections, match ends and night closes, the
tables the incremental refreshes left equal a full rebuild from the deal log; and a
correction re-rates only from the match it touches."""

import datetime
import random
from itertools import count

from django.contrib.auth import get_user_model
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches import services as matches
from scorebook.matches.models import Match
from scorebook.rules import get_game
from scorebook.standings import refresh, services
from scorebook.standings.models import (
    LeaderboardRow,
    MatchStanding,
    Rating,
    RatingChange,
    Season,
    StaleMark,
)

GAMES = {  # name -> (game, house rules, seat names)
    "tressette4": ("tressette4", {"profile": "classic_21"}, ("N", "E", "S", "W")),
    # marcio e batuffa plays for a pot: a change to one match rebooks the pot entries of
    # the later matches of its night and table (the ledger), so they change too
    "piatto": (
        "tressette4",
        {"profile": "classic_21", "t4.stake": "marcio_e_batuffa"},
        ("N", "E", "S", "W"),
    ),
    "terziglio": ("terziglio", None, ("P1", "P2", "P3")),
    "tressette2": ("tressette2", None, ("P1", "P2")),
    "chiamata": ("chiamata", None, ("P1", "P2", "P3", "P4")),
}
CLUBS = count()

ops = st.lists(
    st.one_of(
        st.tuples(st.just("match"), st.sampled_from(sorted(GAMES)), st.integers(0, 3)),
        st.tuples(st.just("deal"), st.integers(0, 9), st.integers(0, 2**16)),
        st.tuples(st.just("correct"), st.integers(0, 9), st.integers(0, 2**16)),
        st.tuples(st.just("close"), st.integers(0, 9), st.integers(0, 9)),
        st.tuples(st.just("season"), st.integers(0, 20), st.integers(0, 1)),
    ),
    min_size=1,
    max_size=12,
)


def _world():
    n = next(CLUBS)
    user = get_user_model().objects.create_user(f"dir{n}")
    club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
    Membership.objects.create(club=club, user=user, role="owner")
    players = [Player.objects.create(club=club, name=f"P{i}") for i in range(5)]
    Season.objects.create(club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1))
    Season.objects.create(
        club=club,
        name="Winter",
        starts_on=datetime.date(2026, 12, 1),
        ends_on=datetime.date(2027, 2, 28),
    )
    nights = [
        matches.night_open(club_id=club.pk, date=day, venue="", user=user)
        for day in (datetime.date(2026, 11, 20), datetime.date(2026, 12, 4))
    ]
    return club, user, players, nights


def _random_deal(match, inputs, seed):
    game = get_game(match.game)
    state = matches.fold(match, inputs).state
    rules = game.rules(match.rules["values"])
    return game.random_deal(random.Random(seed), rules, state, "totals")


def _apply(op, club, user, players, nights, played):
    kind, a, b = op
    if kind == "season":  # move the winter season's first day: its rows are rebuilt
        winter = Season.objects.get(club=club, name="Winter")
        day = datetime.date(2026, 11, 10) + datetime.timedelta(days=a)
        services.season_update(season=winter, changes={"starts_on": day}, user=user)
        return
    if kind == "match":
        game, rules, seats = GAMES[a]
        night = nights[b % 2]
        if night.status == "closed":
            return
        order = players[b:] + players[:b]
        played.append(
            matches.match_create(
                night=night,
                game=game,
                rules=rules,
                seats={seat: order[i].pk for i, seat in enumerate(seats)},
                user=user,
                stake_amount=1,
                stake_currency="EUR" if b % 2 else "",
            )
        )
        return
    if not played:
        return
    match = Match.objects.get(pk=played[a % len(played)].pk)
    deals = matches.current_deals(match)
    try:
        if kind == "deal" and match.status == "open" and match.night.status == "open":
            data = _random_deal(match, [d.input for d in deals], b)
            matches.deal_create(match=match, data=data, expected_number=None, user=user)
        elif kind == "correct" and deals:
            target = deals[b % len(deals)]
            data = _random_deal(match, [d.input for d in deals[: target.number - 1]], b)
            matches.deal_correct(
                deal=target, data=data, reason="checked", user=user, expected_version=None
            )
        elif kind == "close":
            still = match.night.matches.filter(status="open").values_list("pk", flat=True)
            matches.night_close(night=match.night, user=user, end_open=list(still))
    except matches.RulesRejected:
        pass  # a correction that a later deal no longer fits is refused whole


def tables(club):
    board = sorted(
        LeaderboardRow.objects.filter(club=club).values_list(
            "season_id",
            "game",
            "player_id",
            "matches",
            "won",
            "lost",
            "win_rate",
            "points_for",
            "points_against",
            "deals",
            "units",
            "money",
            "events",
            "bids",
        )
    )
    ratings = sorted(
        Rating.objects.filter(club=club).values_list(
            "game", "player_id", "mu", "sigma", "display", "matches"
        )
    )
    history = sorted(
        RatingChange.objects.filter(club=club).values_list(
            "game", "player_id", "match_id", "seq", "mu_before", "mu_after", "sigma_after"
        )
    )
    standings = sorted(
        MatchStanding.objects.filter(club=club).values_list("match_id", "game", "day", "players")
    )
    return board, ratings, history, standings


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ops=ops)
def test_incremental_tables_equal_a_rebuild(db, eager, ops, monkeypatch):
    """Deals and corrections are refreshed per match (a whole-club rebuild on the way
    fails the test); season edits rebuild the season from the stored contributions."""
    club, user, players, nights = _world()
    played = []
    whole = refresh._rebuild_clubs

    def refused(*args, **kwargs):
        raise AssertionError("the incremental path rebuilt the club")

    monkeypatch.setattr(refresh, "_rebuild_clubs", refused)
    for op in ops:
        with TestCase.captureOnCommitCallbacks(execute=True):
            _apply(op, club, user, players, nights, played)
        assert not StaleMark.objects.filter(club=club).exists()
    incremental = tables(club)
    monkeypatch.setattr(refresh, "_rebuild_clubs", whole)
    refresh.rebuild(club_id=club.pk)
    assert tables(club) == incremental


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seeds=st.lists(st.integers(0, 2**16), min_size=3, max_size=3), which=st.integers(0, 2))
def test_a_correction_rerates_only_from_its_match(db, eager, seeds, which):
    from tests.standings.conftest import A_WINS_DEAL, B_WINS_DEAL

    club, user, players, nights = _world()
    seats = {"N": players[0].pk, "E": players[1].pk, "S": players[2].pk, "W": players[3].pk}
    played = []
    for seed in seeds:
        with TestCase.captureOnCommitCallbacks(execute=True):
            match = matches.match_create(
                night=nights[0],
                game="tressette4",
                rules={"profile": "classic_21"},
                seats=seats,
                user=user,
            )
            deal = A_WINS_DEAL if seed % 2 else B_WINS_DEAL
            for _ in range(3):
                matches.deal_create(match=match, data=deal, expected_number=None, user=user)
        played.append(match)
    before = {c.pk: c for c in RatingChange.objects.filter(club=club)}
    touched = played[which]
    first = matches.current_deals(touched)[0]
    flipped = B_WINS_DEAL if first.input == A_WINS_DEAL else A_WINS_DEAL
    with TestCase.captureOnCommitCallbacks(execute=True):
        # All three deals flipped: the match's winner changes.
        for deal in matches.current_deals(touched):
            matches.deal_correct(
                deal=deal, data=flipped, reason="sheet", user=user, expected_version=None
            )
    after = {c.pk: c for c in RatingChange.objects.filter(club=club)}
    for pk, change in before.items():
        if change.seq < which:
            assert after[pk].mu_after == change.mu_after  # untouched rows, same ids
        else:
            assert pk not in after  # re-rated: new rows
    gained = {c.player_id: c.mu_after > c.mu_before for c in after.values() if c.seq == which}
    gained_before = {
        c.player_id: c.mu_after > c.mu_before for c in before.values() if c.seq == which
    }
    assert all(gained[p] != gained_before[p] for p in gained_before)  # winners now lost


def test_a_deal_marks_and_refreshes_only_its_match(db, eager, monkeypatch):
    """The mark names the match and the deal; the refresh changes the rows of that
    match's players only (and of its table mates of the night, whom a pot links; none
    here), without rebuilding a season."""
    from tests.standings.conftest import A_WINS_DEAL

    club, user, players, nights = _world()
    seats = {"N": players[0].pk, "E": players[1].pk, "S": players[2].pk, "W": players[3].pk}
    with TestCase.captureOnCommitCallbacks(execute=True):
        other = matches.match_create(  # another night: not a table mate (see below)
            night=nights[1],
            game="tressette2",
            rules=None,
            seats={"P1": players[4].pk, "P2": players[0].pk},
            user=user,
        )
        matches.deal_create(
            match=other, data=_random_deal(other, [], 1), expected_number=None, user=user
        )
        match = matches.match_create(
            night=nights[0],
            game="tressette4",
            rules={"profile": "classic_21"},
            seats=seats,
            user=user,
        )
    before = {r.pk: (r.player_id, r.deals) for r in LeaderboardRow.objects.filter(club=club)}
    seen = []
    monkeypatch.setattr(refresh, "season_rebuild", lambda season: seen.append(season))
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        deal = matches.deal_create(match=match, data=A_WINS_DEAL, expected_number=None, user=user)
    mark = StaleMark.objects.get(club=club)
    assert (mark.match_id, mark.deal_id, mark.night_id) == (match.pk, deal.pk, nights[0].pk)
    for callback in callbacks:
        callback()
    assert seen == [] and not StaleMark.objects.filter(club=club).exists()
    after = {r.pk: (r.player_id, r.deals) for r in LeaderboardRow.objects.filter(club=club)}
    p4 = players[4].pk
    assert {k: v for k, v in after.items() if v[0] == p4} == {
        k: v for k, v in before.items() if v[0] == p4
    }  # the other match's player: the same rows, untouched
    assert {v for v in after.values() if v[0] == players[1].pk} == {(players[1].pk, 1)}


def test_a_correction_that_moves_the_pot_refreshes_the_tables_later_matches(db, eager):
    """Marcio e batuffa's pot links the matches of a night's table: a correction of the
    first match rebooks the pot entries of the second. The refresh takes the table's
    matches along, so the money columns equal a rebuild's."""
    club, user, players, nights = _world()
    seats = {s: players[i].pk for i, s in enumerate("NESW")}
    win = {"sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
           "last_trick": "A"}  # fmt: skip
    cappotto = {"sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}},
                "last_trick": "A"}  # fmt: skip
    played = []
    with TestCase.captureOnCommitCallbacks(execute=True):
        for deals in ([win] * 3, [cappotto]):
            match = matches.match_create(
                night=nights[0],
                game="tressette4",
                seats=seats,
                user=user,
                stake_amount=1,
                stake_currency="EUR",
                rules={"profile": "classic_21", **GAMES["piatto"][1]},
            )
            for deal in deals:
                matches.deal_create(match=match, data=deal, expected_number=None, user=user)
            played.append(match)
    first = matches.current_deals(played[0])[-1]
    with TestCase.captureOnCommitCallbacks(execute=True):
        matches.deal_correct(
            deal=first, data=cappotto, reason="sheet", user=user, expected_version=None
        )
    incremental = tables(club)
    refresh.rebuild(club_id=club.pk)
    assert tables(club) == incremental
