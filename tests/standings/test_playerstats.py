"""Player statistics from finished matches: records, head-to-head, synergy, streaks."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scorebook.standings.playerstats import (
    MatchRecord,
    best_partner,
    head_to_head,
    longest_streak,
    nemesis,
    record_by_game,
    rival,
    synergies,
)

NINO, ETTORE, SALVO, WALTER, ZINA = 1, 2, 3, 4, 5


def pairs(match, winners, losers, game="tressette4"):
    return MatchRecord(
        match, game, (frozenset(winners), frozenset(losers)), frozenset(winners), frozenset(losers)
    )


def single(match, winner, *others, game="tressette2"):
    return MatchRecord(
        match,
        game,
        tuple(frozenset({p}) for p in (winner, *others)),
        frozenset({winner}),
        frozenset(others),
    )


SEASON = [
    pairs(1, {NINO, ETTORE}, {SALVO, WALTER}),
    pairs(2, {NINO, ETTORE}, {SALVO, WALTER}),
    pairs(3, {SALVO, WALTER}, {NINO, ETTORE}),
    pairs(4, {SALVO, NINO}, {ETTORE, WALTER}),
    pairs(5, {ETTORE, WALTER}, {SALVO, NINO}),
    single(6, SALVO, NINO),
    single(7, SALVO, NINO),
    single(8, NINO, ZINA),
]


def test_record_by_game_and_head_to_head():
    assert {g: (r.played, r.won, r.lost) for g, r in record_by_game(NINO, SEASON).items()} == {
        "tressette2": (3, 1, 2),
        "tressette4": (5, 3, 2),
    }
    h2h = {o: (r.played, r.won, r.lost) for o, r in head_to_head(NINO, SEASON).items()}
    assert h2h == {ETTORE: (2, 1, 1), SALVO: (5, 2, 3), WALTER: (5, 3, 2), ZINA: (1, 1, 0)}


def test_synergy_is_the_pair_against_each_partners_baseline():
    """Nino won 3 of 5 with a partner, Ettore 3 of 5, Salvo 2 of 5. Together Nino and
    Ettore won 2 of 3: 2/3 - 3/5 = +1/15. Nino and Salvo won 1 of 2: 1/2 - 1/2 = 0."""
    found = {s.partner: s.value for s in synergies(NINO, SEASON)}
    assert found == {ETTORE: Fraction(1, 15), SALVO: Fraction(0)}
    assert best_partner(NINO, SEASON, min_shared=3) == ETTORE
    assert best_partner(NINO, SEASON, min_shared=4) is None


def test_rival_and_nemesis_need_enough_shared_matches():
    # five matches against Salvo (2-3) and Walter (3-2): equally close, the lower id
    assert rival(NINO, SEASON, min_shared=3)[0] == SALVO
    assert rival(NINO, SEASON, min_shared=6) is None
    opponent, record = nemesis(NINO, SEASON, min_shared=3)
    assert (opponent, record.won, record.lost) == (SALVO, 2, 3)
    assert nemesis(NINO, SEASON, min_shared=6) is None
    assert nemesis(ZINA, SEASON, min_shared=1)[0] == NINO
    assert nemesis(NINO, SEASON[:2], min_shared=1) is None  # never lost: no nemesis


def test_longest_streak_is_the_earliest_longest_run():
    streak = longest_streak(NINO, SEASON)
    assert (streak.length, streak.first_match, streak.last_match) == (2, 1, 2)
    assert longest_streak(ZINA, SEASON).length == 0


@given(st.lists(st.booleans(), max_size=40))
def test_streak_matches_the_longest_run_of_wins(outcomes):
    matches = [
        single(i, NINO, SALVO) if won else single(i, SALVO, NINO)
        for i, won in enumerate(outcomes, start=1)
    ]
    text = "".join("W" if w else "L" for w in outcomes)
    longest = max((len(run) for run in text.split("L")), default=0)
    streak = longest_streak(NINO, matches)
    assert streak.length == longest
    if longest:
        assert text[streak.first_match - 1 : streak.last_match] == "W" * longest


@given(st.lists(st.tuples(st.permutations([1, 2, 3, 4]), st.booleans()), max_size=20))
def test_head_to_head_is_symmetric(seatings):
    matches = [
        pairs(i, set(p[:2]), set(p[2:])) if first else pairs(i, set(p[2:]), set(p[:2]))
        for i, (p, first) in enumerate(seatings)
    ]
    for a in range(1, 5):
        for b, rec in head_to_head(a, matches).items():
            back = head_to_head(b, matches)[a]
            assert (rec.played, rec.won, rec.lost) == (back.played, back.lost, back.won)
