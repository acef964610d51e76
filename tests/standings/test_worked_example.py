"""A small season worked by hand: three matches of Tressette in 4 at 0.50 EUR a match."""

from decimal import Decimal

from scorebook.standings import refresh
from scorebook.standings.models import ALL_GAMES, Freshness, LeaderboardRow, Rating, StaleMark

from .conftest import A_WINS_DEAL, B_WINS_DEAL, play_pairs


def test_a_season_by_hand(people, season, night, django_capture_on_commit_callbacks):
    nino, ettore, salvo, walter = people.seated
    with django_capture_on_commit_callbacks(execute=True):
        first = play_pairs(people, night, [A_WINS_DEAL] * 3)  # N-S 21 to 12
        play_pairs(people, night, [B_WINS_DEAL] * 3)  # E-W 21 to 12
        play_pairs(people, night, [A_WINS_DEAL] * 3)  # N-S 21 to 12
    assert first.result["winners"] == ["N", "S"]
    assert not StaleMark.objects.exists()  # every mark handled by the eager refresh
    assert Freshness.objects.get(club=people.club).built_at is not None
    rows = {(r.game, r.player_id): r for r in LeaderboardRow.objects.filter(season=season)}
    for game in ("tressette4", ALL_GAMES):
        row = rows[(game, nino.pk)]
        assert (row.matches, row.won, row.lost) == (3, 2, 1)
        assert row.win_rate == 66.67
        assert (row.points_for, row.points_against) == (21 + 12 + 21, 12 + 21 + 12)
        assert row.deals == 9
        assert row.money == {"EUR": "0.50"}  # +0.50 -0.50 +0.50
        row = rows[(game, walter.pk)]
        assert (row.matches, row.won, row.lost, row.money) == (3, 1, 2, {"EUR": "-0.50"})
    # Ratings: the pair that won two of three is rated above the pair that won one.
    ratings = {r.player_id: r for r in Rating.objects.filter(club=people.club, game="tressette4")}
    assert ratings[nino.pk].display == ratings[salvo.pk].display
    assert ratings[nino.pk].display > ratings[ettore.pk].display
    assert ratings[nino.pk].mu > 25 > ratings[walter.pk].mu
    assert ratings[nino.pk].matches == 3


def test_rebuild_gives_the_same_tables(people, season, night, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play_pairs(people, night, [A_WINS_DEAL] * 3)
        play_pairs(people, night, [B_WINS_DEAL, A_WINS_DEAL, B_WINS_DEAL, B_WINS_DEAL])
    before = list(LeaderboardRow.objects.values_list("game", "player_id", "won", "money"))
    ratings = list(Rating.objects.values_list("player_id", "mu", "sigma"))
    refresh.rebuild(club_id=people.club.pk)
    assert sorted(before) == sorted(
        LeaderboardRow.objects.values_list("game", "player_id", "won", "money")
    )
    assert sorted(ratings) == sorted(Rating.objects.values_list("player_id", "mu", "sigma"))
    assert Decimal(0) == sum(
        (Decimal(r.money.get("EUR", 0)) for r in LeaderboardRow.objects.filter(game=ALL_GAMES)),
        Decimal(0),
    )
