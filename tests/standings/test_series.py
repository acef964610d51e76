"""Series, knockouts, la bella and forfeits through the league services (issue 16,
"Tournaments above the match"): worked examples played with real matches."""

import pytest

from scorebook.clubs.services import NotAllowed
from scorebook.core.models import AuditEvent
from scorebook.standings.leagues import services as leagues
from scorebook.standings.leagues.selectors import league_table
from scorebook.standings.models import Fixture, FixtureForfeit
from tests.standings.league_helpers import night, pair_match, players

PAIRS = ("Nino-Ettore", "Salvo-Walter", "Zina-Rosa", "Ada-Bice", "Ciro-Dario")


def make_league(people, count=3, **settings):
    """``count`` pairs (seeded in the order of PAIRS) in a league with ``settings``."""
    director = people.director
    league = leagues.league_create(club=people.club, name="Coppa", user=director, **settings)
    names = [n for pair in PAIRS[:count] for n in pair.split("-")]
    found = players(people.club, *names)
    league.pairs = {}
    for i, name in enumerate(PAIRS[:count]):
        pair = found[2 * i : 2 * i + 2]
        leagues.entry_add(league=league, name=name, player_ids=[p.pk for p in pair], user=director)
        league.pairs[name] = pair
    return league


def start(people, league):
    started = leagues.league_start(league=league, user=people.director)
    started.pairs = league.pairs
    return started


def fixture_of(league, a, b):
    return Fixture.objects.get(league=league, home__name__in=[a, b], away__name__in=[a, b])


def score_of(league, fixture):
    table = league_table(league)
    return next(s for r in table.rounds for s in r.fixtures if s.fixture.pk == fixture.pk)


def play(people, league, fixture, winner, on=None):
    """A match between the fixture's two entries won by ``winner`` (an entry name),
    linked to it."""
    score = score_of(league, fixture)
    home, away = score.fixture.home.name, score.fixture.away.name
    match = pair_match(
        people,
        on or night(people),
        league.pairs[home],
        league.pairs[away],
        "NS" if winner == home else "EW",
    )
    leagues.fixture_match_link(fixture=fixture, match=match, user=people.scorer)
    return match


def test_best_of_three_decided_two_nil_and_two_one(people):
    league = make_league(people, series="best_of", series_games=3)
    league = start(people, league)
    on = night(people)
    two_nil = fixture_of(league, "Nino-Ettore", "Salvo-Walter")
    play(people, league, two_nil, "Nino-Ettore", on)
    assert score_of(league, two_nil).status == "playing"  # 1-0 of a best of 3 counts nothing
    assert {e.name: r.played for r, e in league_table(league).rows}["Nino-Ettore"] == 0
    play(people, league, two_nil, "Nino-Ettore", on)
    score = score_of(league, two_nil)
    assert (score.status, score.finished, score.winner.name) == ("played", 2, "Nino-Ettore")
    with pytest.raises(leagues.SeriesDecided):  # a third game is not played
        play(people, league, two_nil, "Salvo-Walter", on)

    two_one = fixture_of(league, "Salvo-Walter", "Zina-Rosa")
    for winner in ("Zina-Rosa", "Salvo-Walter", "Zina-Rosa"):
        play(people, league, two_one, winner, on)
    score = score_of(league, two_one)
    assert (score.finished, score.winner.name) == (3, "Zina-Rosa")
    assert sorted((score.home_wins, score.away_wins)) == [1, 2]
    rows = {e.name: (r.played, r.won, r.lost, r.points) for r, e in league_table(league).rows}
    assert rows == {
        "Nino-Ettore": (1, 1, 0, 2),
        "Zina-Rosa": (1, 1, 0, 2),
        "Salvo-Walter": (2, 0, 2, 0),
    }


def test_a_fixed_series_scores_points_per_game_won(people):
    league = make_league(people, count=2, series="games", series_games=2, points_per_game=3)
    league = start(people, league)
    fixture = league.fixtures.get()
    on = night(people)
    play(people, league, fixture, "Nino-Ettore", on)
    play(people, league, fixture, "Salvo-Walter", on)
    rows = {e.name: (r.points, r.drawn) for r, e in league_table(league).rows}
    assert rows == {"Nino-Ettore": (3, 1), "Salvo-Walter": (3, 1)}  # 1-1: a draw, 3 each
    with pytest.raises(leagues.SeriesDecided):
        play(people, league, fixture, "Nino-Ettore", on)


def test_a_best_of_three_counted_by_games_won(people):
    """Issue 25: a best of N counted with points per game won (the code's club sheets)
    could not be set: best_of gave win/draw/loss points and games always played all N.
    With count_games_won a best of three is still decided at two games, and each entry
    scores points_per_game for each game it won."""
    league = make_league(
        people, series="best_of", series_games=3, points_per_game=1, count_games_won=True
    )
    league = start(people, league)
    on = night(people)
    two_one = fixture_of(league, "Salvo-Walter", "Zina-Rosa")
    for winner in ("Zina-Rosa", "Salvo-Walter", "Zina-Rosa"):
        play(people, league, two_one, winner, on)
    two_nil = fixture_of(league, "Nino-Ettore", "Salvo-Walter")
    play(people, league, two_nil, "Nino-Ettore", on)
    play(people, league, two_nil, "Nino-Ettore", on)
    with pytest.raises(leagues.SeriesDecided):  # still decided at two games won
        play(people, league, two_nil, "Salvo-Walter", on)
    points = {e.name: r.points for r, e in league_table(league).rows}
    assert points == {"Nino-Ettore": 2, "Zina-Rosa": 2, "Salvo-Walter": 1}
    # The same results counted by the fixtures' result: 2 points a fixture won.
    league = leagues.league_update(
        league=league, changes={"count_games_won": False}, user=people.director
    )
    points = {e.name: r.points for r, e in league_table(league).rows}
    assert points == {"Nino-Ettore": 2, "Zina-Rosa": 2, "Salvo-Walter": 0}


def test_a_knockout_of_five_entries_with_byes_to_the_final(people):
    league = make_league(people, count=5, format="knockout")
    league = start(people, league)
    # 8 places: seeds 1-3 have byes, 4 (Ada-Bice) meets 5 (Ciro-Dario); 3 rounds
    assert sorted(league.fixtures.values_list("round", flat=True)) == [1, 2, 2, 3]
    table = league_table(league)
    first = [
        (s.home.name if s.home else None, s.away.name if s.away else None) for s in table.bracket[0]
    ]
    assert first == [
        ("Nino-Ettore", None),
        ("Ada-Bice", "Ciro-Dario"),
        ("Salvo-Walter", None),
        ("Zina-Rosa", None),
    ]
    semi_b = Fixture.objects.get(league=league, round=2, slot=1)
    assert score_of(league, semi_b).fixture.home.name == "Salvo-Walter"  # both byes
    semi_a = Fixture.objects.get(league=league, round=2, slot=0)
    with pytest.raises(leagues.FixtureNotReady):  # waits for Ada-Bice v Ciro-Dario
        leagues.fixture_match_link(
            fixture=semi_a,
            match=pair_match(
                people, night(people), league.pairs["Nino-Ettore"], league.pairs["Ada-Bice"]
            ),
            user=people.scorer,
        )
    on = night(people)
    play(people, league, Fixture.objects.get(league=league, round=1), "Ciro-Dario", on)
    assert score_of(league, semi_a).fixture.away.name == "Ciro-Dario"  # went on by itself
    play(people, league, semi_a, "Nino-Ettore", on)
    play(people, league, semi_b, "Zina-Rosa", on)
    final = Fixture.objects.get(league=league, round=3)
    finalists = score_of(league, final).fixture
    assert {finalists.home.name, finalists.away.name} == {"Nino-Ettore", "Zina-Rosa"}
    play(people, league, final, "Zina-Rosa", on)
    table = league_table(league)
    assert table.bracket[-1][0].winner.name == "Zina-Rosa"
    places = {e.name: (r.position, r.shared) for r, e in table.rows}
    assert places == {
        "Zina-Rosa": (1, False),
        "Nino-Ettore": (2, False),
        "Salvo-Walter": (3, True),
        "Ciro-Dario": (3, True),
        "Ada-Bice": (5, True),
    }
    assert [r.name for r in table.rounds] == ["quarter_final", "semi_final", "final"]


def test_la_bella_after_one_all(people):
    """A knockout round of two games ends 1-1: the fixture requires a deciding game."""
    league = make_league(people, count=2, format="knockout", series="games", series_games=2)
    league = start(people, league)
    final = league.fixtures.get()
    on = night(people)
    play(people, league, final, "Nino-Ettore", on)
    play(people, league, final, "Salvo-Walter", on)
    score = score_of(league, final)
    assert (score.status, score.outcome.bella, score.winner) == ("bella", True, None)
    assert league_table(league).bracket[0][0].decided is False
    play(people, league, final, "Salvo-Walter", on)  # la bella
    score = score_of(league, final)
    assert (score.status, score.winner.name) == ("played", "Salvo-Walter")
    assert score.outcome.bella  # decided by la bella
    with pytest.raises(leagues.SeriesDecided):
        play(people, league, final, "Nino-Ettore", on)


def test_a_forfeit_counts_and_is_undone_by_a_director_with_a_reason(people):
    league = make_league(people, series="best_of", series_games=3)
    league = start(people, league)
    fixture = fixture_of(league, "Nino-Ettore", "Zina-Rosa")
    zina = league.entries.get(name="Zina-Rosa")
    with pytest.raises(NotAllowed):
        leagues.fixture_forfeit(fixture=fixture, entry=zina, reason="absent", user=people.scorer)
    with pytest.raises(leagues.ReasonRequired):
        leagues.fixture_forfeit(fixture=fixture, entry=zina, reason=" ", user=people.director)
    walter = league.entries.get(name="Salvo-Walter")
    with pytest.raises(leagues.EntryNotInFixture):
        leagues.fixture_forfeit(fixture=fixture, entry=walter, reason="x", user=people.director)
    score = leagues.fixture_forfeit(
        fixture=fixture, entry=zina, reason="did not turn up", user=people.director
    )
    nino_home = score.fixture.home.name == "Nino-Ettore"
    assert score.status == "forfeit" and score.winner.name == "Nino-Ettore"
    # the winner takes the games a best of 3 needs, 21 points each (the game's target)
    wins = (score.home_wins, score.away_wins) if nino_home else (score.away_wins, score.home_wins)
    points = (
        (score.home_points, score.away_points)
        if nino_home
        else (score.away_points, score.home_points)
    )
    assert (wins, points) == ((2, 0), (42, 0))
    rows = {e.name: (r.points, r.won, r.lost) for r, e in league_table(league).rows}
    assert rows["Nino-Ettore"] == (2, 1, 0) and rows["Zina-Rosa"] == (0, 0, 1)
    with pytest.raises(leagues.FixtureForfeited):
        play(people, league, fixture, "Zina-Rosa")
    event = AuditEvent.objects.get(verb="fixture_forfeited")
    assert (event.reason, event.after["by_name"]) == ("did not turn up", "Zina-Rosa")

    with pytest.raises(NotAllowed):
        leagues.fixture_forfeit_undo(fixture=fixture, reason="mistake", user=people.scorer)
    with pytest.raises(leagues.ReasonRequired):
        leagues.fixture_forfeit_undo(fixture=fixture, reason="", user=people.director)
    leagues.fixture_forfeit_undo(
        fixture=fixture, reason="they had called ahead", user=people.director
    )
    assert not FixtureForfeit.objects.exists()
    assert score_of(league, fixture).status == "scheduled"
    assert {e.name: r.points for r, e in league_table(league).rows}["Nino-Ettore"] == 0
    undone = AuditEvent.objects.get(verb="fixture_forfeit_undone")
    assert (undone.reason, undone.before["reason"]) == ("they had called ahead", "did not turn up")
    with pytest.raises(leagues.NotForfeited):
        leagues.fixture_forfeit_undo(fixture=fixture, reason="again", user=people.director)


def test_a_knockout_forfeit_sends_the_other_entry_on_and_locks_once_it_plays(people):
    league = make_league(people, count=4, format="knockout")
    league = start(people, league)
    # 1 v 4 and 2 v 3
    semi = Fixture.objects.get(league=league, round=1, slot=0)
    ada = league.entries.get(name="Ada-Bice")
    leagues.fixture_forfeit(fixture=semi, entry=ada, reason="absent", user=people.director)
    final = Fixture.objects.get(league=league, round=2)
    assert score_of(league, final).fixture.home.name == "Nino-Ettore"
    other = Fixture.objects.get(league=league, round=1, slot=1)
    play(people, league, other, "Zina-Rosa")
    play(people, league, final, "Nino-Ettore")
    with pytest.raises(leagues.LaterRoundPlayed):
        leagues.fixture_forfeit_undo(fixture=semi, reason="oops", user=people.director)
    assert league_table(league).rows[0][1].name == "Nino-Ettore"


def test_the_lots_seed_a_knockout_once(people):
    league = make_league(people, count=4, format="knockout", seeding="lots")
    league = start(people, league)
    by_lot = list(league.entries.order_by("lot").values_list("name", flat=True))
    first = Fixture.objects.get(league=league, round=1, slot=0)
    assert (first.home.name, first.away.name) == (by_lot[0], by_lot[3])
    started = AuditEvent.objects.get(verb="league_started")
    assert started.after["seeds"] == by_lot


def test_a_knockout_is_played_once_through(people):
    with pytest.raises(leagues.KnockoutLegs):
        leagues.league_create(
            club=people.club, name="x", format="knockout", legs=2, user=people.director
        )
    with pytest.raises(leagues.BadSeries):
        leagues.league_create(
            club=people.club, name="y", series="best_of", series_games=0, user=people.director
        )
    league = make_league(people, count=2, format="knockout")
    leagues.league_start(league=league, user=people.director)
    with pytest.raises(leagues.LeagueStarted):
        leagues.league_update(league=league, changes={"series": "best_of"}, user=people.director)


def test_a_knockout_stage_from_the_top_of_a_round_robin(people):
    league = start(people, make_league(people, count=3))
    on = night(people)
    play(people, league, fixture_of(league, "Nino-Ettore", "Salvo-Walter"), "Nino-Ettore", on)
    play(people, league, fixture_of(league, "Zina-Rosa", "Salvo-Walter"), "Zina-Rosa", on)
    play(people, league, fixture_of(league, "Nino-Ettore", "Zina-Rosa"), "Zina-Rosa", on)
    with pytest.raises(NotAllowed):
        leagues.knockout_stage(league=league, name="Finale", top=2, user=people.scorer)
    with pytest.raises(leagues.TooFewEntries):
        leagues.knockout_stage(league=league, name="Finale", top=4, user=people.director)
    with pytest.raises(leagues.LeagueNameTaken):
        leagues.knockout_stage(league=league, name="Coppa", top=2, user=people.director)
    stage = leagues.knockout_stage(
        league=league, name="Finale", top=2, series="best_of", series_games=3, user=people.director
    )
    assert (stage.format, stage.series, stage.series_games, stage.started_at) == (
        "knockout",
        "best_of",
        3,
        None,
    )
    seeded = list(stage.entries.order_by("seed").values_list("name", flat=True))
    assert seeded == ["Zina-Rosa", "Nino-Ettore"]  # 4 points, then 2
    assert set(stage.entries.get(name="Zina-Rosa").players.all()) == set(league.pairs["Zina-Rosa"])
    with pytest.raises(leagues.NotARoundRobin):
        leagues.knockout_stage(league=stage, name="x", top=2, user=people.director)
    started = leagues.league_start(league=stage, user=people.director)
    final = started.fixtures.get()
    assert (final.home.name, final.away.name) == ("Zina-Rosa", "Nino-Ettore")
