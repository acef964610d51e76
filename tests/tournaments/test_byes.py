"""At most one bye per entry in Swiss rounds, on every path that makes an entry rest: the
pairing, a bye given by hand, a withdrawal mending a paired round; with late arrivals and
withdrawals between rounds (a hypothesis property over whole tournaments)."""

import random
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.tournaments import refusals
from scorebook.tournaments.models import Entry, Pairing
from scorebook.tournaments.services.registration import entry_add, entry_withdraw
from scorebook.tournaments.services.results import pairing_forfeit
from scorebook.tournaments.services.rounds import pairing_bye, round_pair, round_start

from .helpers import open_night, players, tournament, with_pairs

RUNS = count()


def decide(people, round_, rng):
    """Decide every pairing of a started round by a forfeit of a random side (quick: no
    deals)."""
    for pairing in round_.pairings.exclude(away=None).filter(forfeited_by=None):
        loser = pairing.home if rng.random() < 0.5 else pairing.away
        pairing_forfeit(pairing=pairing, entry=loser, reason="x", user=people.director)


def resting(round_):
    return set(round_.pairings.filter(away=None).values_list("home_id", flat=True))


def test_a_bye_by_hand_to_an_entry_that_had_one_is_refused(people, night):
    t = with_pairs(people, night, 3, rounds=3)
    r1 = round_start(tournament=t, user=people.director)
    (had,) = resting(r1)
    decide(people, r1, random.Random(1))
    r2 = round_pair(tournament=t, user=people.director)
    before = list(r2.pairings.values_list("home_id", "away_id"))
    with pytest.raises(refusals.SecondBye) as refused:
        pairing_bye(tournament=t, entry=Entry.objects.get(pk=had), user=people.director)
    assert refused.value.params["round"] == 1
    assert list(r2.pairings.values_list("home_id", "away_id")) == before


def test_a_bye_by_hand_that_would_rest_the_opponent_again_is_refused(people, night):
    t = with_pairs(people, night, 4, rounds=3)
    r1 = round_pair(tournament=t, user=people.director)
    first = r1.pairings.get(board=1)
    pairing_bye(tournament=t, entry=first.home, user=people.director)
    assert resting(r1) == {first.home_id, first.away_id}  # no one rested: both rest
    round_start(tournament=t, user=people.director)
    decide(people, r1, random.Random(2))
    r2 = round_pair(tournament=t, user=people.director)
    assert not resting(r2)
    a = first.home_id
    mine = Pairing.objects.filter(round=r2, home_id=a).first() or Pairing.objects.get(
        round=r2, away_id=a
    )
    other = mine.away if mine.home_id == a else mine.home
    with pytest.raises(refusals.SecondBye) as refused:  # A would rest again
        pairing_bye(tournament=t, entry=other, user=people.director)
    assert refused.value.params["entry"] == Entry.objects.get(pk=a).name
    assert not resting(r2)


def test_a_withdrawal_never_rests_its_opponent_a_second_time(people, night):
    """Round 1: A given a bye by hand, its opponent B rests too. Round 2: whoever meets
    A withdraws before the start, with nobody resting: A must not rest again (it did:
    the round is now paired again without the leaving pair)."""
    t = with_pairs(people, night, 4, rounds=3)
    r1 = round_pair(tournament=t, user=people.director)
    first = r1.pairings.get(board=1)
    pairing_bye(tournament=t, entry=first.home, user=people.director)
    rested = {first.home_id, first.away_id}
    round_start(tournament=t, user=people.director)
    decide(people, r1, random.Random(3))
    r2 = round_pair(tournament=t, user=people.director)
    assert not resting(r2)
    a = first.home_id
    mine = Pairing.objects.filter(round=r2, home_id=a).first() or Pairing.objects.get(
        round=r2, away_id=a
    )
    leaving = mine.away if mine.home_id == a else mine.home
    entry_withdraw(entry=leaving, reason="Riparte", user=people.director)
    now = resting(r2)
    assert len(now) == 1 and not now & rested
    playing = {e for p in r2.pairings.all() for e in (p.home_id, p.away_id) if e}
    assert leaving.pk not in playing and len(playing) == 3


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    pairs=st.integers(2, 7),
    rounds=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    plan=st.lists(
        st.sampled_from(["late", "withdraw", "withdraw_paired", "bye", "nothing"]),
        min_size=6,
        max_size=6,
    ),
)
def test_no_entry_rests_twice_while_another_playing_has_not(people, pairs, rounds, seed, plan):
    """Random Swiss tournaments with late arrivals, withdrawals between rounds and from a
    paired round, and byes given by hand (a refusal is fine: nothing changes). In every
    round an entry rests a second time only if every entry playing that round has rested
    already (an odd count and nobody left without a bye: someone must)."""
    n = next(RUNS)
    rng = random.Random(seed)
    night = open_night(people, day=1 + n % 28)
    t = tournament(people, night, rounds=rounds, name=f"Byes {n}")
    ps = players(people.club, 2 * pairs, prefix=f"B{n}-")
    for i in range(pairs):
        entry_add(tournament=t, players=[ps[2 * i].pk, ps[2 * i + 1].pk], user=people.director)
    for number in range(1, rounds + 1):
        step = plan[(number - 1) % len(plan)]
        if step == "late":
            a, b = players(people.club, 2, prefix=f"L{n}-{number}-")
            entry_add(tournament=t, players=[a.pk, b.pk], user=people.director)
        if step == "withdraw":
            still = list(t.entries.filter(withdrawn_at=None))
            if len(still) > 2:
                leaving = rng.choice(still)
                entry_withdraw(entry=leaving, reason="via", user=people.director)
        round_ = round_pair(tournament=t, user=people.director)
        if step == "withdraw_paired":
            still = list(t.entries.filter(withdrawn_at=None))
            if len(still) > 2:
                leaving = rng.choice(still)
                entry_withdraw(entry=leaving, reason="via", user=people.director)
        if step == "bye":
            pick = rng.choice(list(t.entries.filter(withdrawn_at=None)))
            try:
                pairing_bye(tournament=t, entry=pick, user=people.director)
            except refusals.SecondBye:
                pass
        round_ = round_start(tournament=t, user=people.director)
        decide(people, round_, rng)
    rested: dict[int, int] = {}
    for round_ in t.round_set.order_by("number"):
        playing = {e for p in round_.pairings.all() for e in (p.home_id, p.away_id) if e}
        for entry in resting(round_):
            if entry in rested:
                assert all(e in rested for e in playing), (round_.number, entry, rested)
        for entry in resting(round_):
            rested[entry] = round_.number
