"""Hypothesis properties of whole tournaments run through the services and the database
(real matches, real ledger): random formats, sizes, results and withdrawals. Kept small
(4-10 pairs, a few examples) so the suite stays quick; the pure pairing is checked on
4-128 entries in test_pairing.py."""

import datetime
import random
from decimal import Decimal
from itertools import count

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.ledger.selectors import balances
from scorebook.matches import services as matches
from scorebook.matches.models import Match
from scorebook.standings.leagues.selectors import match_score
from scorebook.tournaments import selectors
from scorebook.tournaments.models import Pairing, Round
from scorebook.tournaments.services.registration import entry_add, entry_withdraw
from scorebook.tournaments.services.results import tournament_finish
from scorebook.tournaments.services.rounds import round_start
from scorebook.tournaments.services.setup import tournament_create

from .helpers import GAME, RULES, finish_match, players

RUNS = count()


def run(people, fmt, pairs, rounds, seed, withdraw_after):
    """A whole tournament with random results; returns it and its rounds."""
    n = next(RUNS)
    night = matches.night_open(
        club_id=people.club.pk,
        date=datetime.date(2026, 1, 1) + datetime.timedelta(days=n),
        venue="",
        user=people.director,
    )
    t = tournament_create(
        night=night,
        name=f"T{n}",
        game=GAME,
        rules=RULES,
        user=people.director,
        format=fmt,
        rounds=rounds,
        group_size=3,
        entry_fee="7.50",
        currency="EUR",
        prizes=["45", "25", "10"],
        club_share="15",
        seed=seed,
    )
    ps = players(people.club, 2 * pairs, prefix=f"R{n}-")
    for i in range(pairs):
        entry_add(tournament=t, players=[ps[2 * i].pk, ps[2 * i + 1].pk], user=people.director)
    rng = random.Random(seed)
    played = []
    while True:
        last = t.round_set.order_by("-number").first()
        if last is not None and last.number >= selectors.total_rounds(t):
            break
        round_ = round_start(tournament=t, user=people.director)
        played.append(round_)
        for pairing in round_.pairings.all():
            for game in pairing.games.select_related("match"):
                finish_match(people, game.match, rng.random() < 0.5)
        if withdraw_after == round_.number and fmt == "swiss":
            out = t.entries.filter(withdrawn_at=None).order_by("?").first()
            entry_withdraw(entry=out, reason="stanco", user=people.director)
    tournament_finish(tournament=t, user=people.director)
    return t, played


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    fmt=st.sampled_from(["swiss", "knockout", "groups"]),
    pairs=st.integers(4, 9),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    withdraw_after=st.integers(0, 3),
)
def test_a_random_tournament_keeps_its_invariants(people, fmt, pairs, rounds, seed, withdraw_after):
    if fmt == "groups":
        pairs = max(pairs, 6)  # two groups of three at least
    t, played = run(people, fmt, pairs, rounds, seed, withdraw_after)
    entries = {e.pk: e for e in selectors.entries_of(t)}
    entry_of = {p: e.pk for e in entries.values() for p in (e.first_id, e.second_id)}
    byes = {}
    for round_ in played:
        pairings = list(round_.pairings.all())
        # every entry in the round plays or rests, once
        seen = [e for p in pairings for e in (p.home_id, p.away_id) if e is not None]
        assert len(seen) == len(set(seen))
        if round_.stage == Round.Stage.SWISS:
            active = {
                e.pk
                for e in entries.values()
                if e.withdrawn_after is None or e.withdrawn_after >= round_.number
            }
            assert set(seen) == active
            # at most one bye per entry: a second only once everyone playing has had one
            for p in pairings:
                if p.away_id is None and p.home_id in byes:
                    assert all(e in byes for e in active), (round_.number, p.home_id)
            for p in pairings:
                if p.away_id is None:
                    byes[p.home_id] = byes.get(p.home_id, 0) + 1
    # standings sum what the matches say
    rows = selectors.standings(t)
    wins = 0
    points = 0
    for pairing in Pairing.objects.filter(round__tournament=t, away__isnull=False):
        for game in pairing.games.select_related("match"):
            scored = match_score(game.match, entry_of)
            points += sum(p for _, p in scored.values())
        wins += 1
    byes_total = Pairing.objects.filter(round__tournament=t, away__isnull=True).count()
    assert sum(r.row.match_points for r in rows) == 2 * (wins + byes_total)
    assert sum(r.row.scored for r in rows) == points
    # fees and prizes sum to zero: the pot is empty, every balance of the night nets out
    assert selectors.pot_balance(t) == 0
    for group in balances(LedgerEntry.objects.filter(night=t.night)).values():
        assert sum(group.values(), Decimal(0)) == 0
    fees = sum(e.amount for e in LedgerEntry.objects.filter(night=t.night, kind="fee"))
    assert fees == Decimal("7.50") * 2 * len(entries)
    # the knockout's winners are the next round's entries
    knockout_rounds = [r for r in played if r.stage == Round.Stage.KNOCKOUT]
    scores = selectors.pairing_scores(t)
    for this, following in zip(knockout_rounds, knockout_rounds[1:], strict=False):
        winners = {scores[p.pk].winner for p in this.pairings.all()}
        going = {e for p in following.pairings.all() for e in (p.home_id, p.away_id) if e}
        assert going == winners
    assert not Match.objects.filter(night=t.night, status="open").exists()
