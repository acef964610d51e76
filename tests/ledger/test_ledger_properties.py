"""Property: random deals, corrections and matches keep every balance at zero, the live
entries always equal what the engine says is due, and the settlement's transfers
reproduce every net exactly."""

import datetime
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.ledger import selectors as reads
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Account, Entry
from scorebook.matches import services
from scorebook.rules import get_game

GAMES = [
    ("tressette4", {"profile": "classic_21"}, ("N", "E", "S", "W")),
    ("terziglio", {"profile": "chips_1_2_4_8_16"}, ("P1", "P2", "P3")),
    ("terziglio", {"profile": "race_21"}, ("P1", "P2", "P3")),
    ("calabrasella", None, ("P1", "P2", "P3")),
    ("spinado", None, ("P1", "P2", "P3", "P4")),
    ("rovescino", None, ("P1", "P2", "P3")),
    ("chiamata", {"cdt.scoring": "wb_plus_minus"}, ("P1", "P2", "P3", "P4")),
]


def due(match):
    """Account id -> what the engine says the match moves, in money or points."""
    game = get_game(match.game)
    rules = game.rules(match.rules["values"])
    deals = services.current_deals(match)
    folded = services.fold(match, [d.input for d in deals])
    unit, _, value = ledger.unit_of(match)
    units = {}
    if game.settles_per_deal(rules):
        for result in folded.results:
            for seat, n in result.units.items():
                units[seat] = units.get(seat, 0) + n
            for pot, n in result.pots.items():
                units[f"pot:{pot}"] = units.get(f"pot:{pot}", 0) + n
    elif folded.state.outcome is not None:
        units = dict(folded.state.outcome.units)
    accounts = {}
    for seat, pid in match.seats.items():
        account = Account.objects.filter(player_id=pid, pot="").first()
        accounts[seat] = account.pk if account else None
    for account in Account.objects.filter(match=match):
        accounts[f"pot:{account.pot}"] = account.pk
    return {accounts[k]: value * n for k, n in units.items() if n}


def live_nets(match):
    live = (
        Entry.objects.filter(match=match).exclude(kind="reversal").filter(reversed_by__isnull=True)
    )
    groups = reads.balances(live)
    return next(iter(groups.values()), {})


@pytest.mark.django_db
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_nights_keep_every_balance_at_zero(people, data):
    director = people.director
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 20), venue="", user=director
    )
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    matches = []
    for game_key, rules, seats in data.draw(
        st.lists(st.sampled_from(GAMES), min_size=1, max_size=3), label="games"
    ):
        amount, currency = data.draw(
            st.sampled_from([(Decimal("0.50"), "EUR"), (Decimal("0.10"), "EUR"), (0, "")]),
            label="stake",
        )
        matches.append(
            services.match_create(
                night=night,
                game=game_key,
                rules=rules,
                seats={s: p.pk for s, p in zip(seats, people.seated, strict=False)},
                user=director,
                stake_amount=amount,
                stake_currency=currency,
            )
        )
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        match = data.draw(st.sampled_from(matches), label="match")
        match.refresh_from_db()
        game = get_game(match.game)
        rules = game.rules(match.rules["values"])
        deals = services.current_deals(match)
        if deals and data.draw(st.booleans(), label="correct"):
            k = data.draw(st.integers(0, len(deals) - 1), label="which")
            before = services.fold(match, [d.input for d in deals[:k]]).state
            replacement = game.random_deal(rng, rules, before, "totals")
            try:
                services.deal_correct(
                    deal=deals[k],
                    data=replacement,
                    reason="property",
                    user=director,
                    expected_version=deals[k].version,
                )
            except services.RulesRejected:
                pass  # a later deal no longer fits: refused whole, nothing changed
        elif match.status != "finished":
            state = services.fold(match, [d.input for d in deals]).state
            services.deal_create(
                match=match,
                data=game.random_deal(rng, rules, state, "totals"),
                expected_number=len(deals) + 1,
                user=director,
            )
        ledger.zero_sum_check(Entry.objects.filter(match=match))
        ledger.zero_sum_check(Entry.objects.filter(night=night))
        ledger.zero_sum_check(Entry.objects.filter(club=people.club))
        assert live_nets(match) == due(match)
    still = night.matches.filter(status="open").values_list("pk", flat=True)
    services.night_close(night=night, user=director, end_open=list(still))
    settlement = reads.current_settlement(night)
    left = reads.remaining(night)
    replay = {}
    for t in settlement.transfers.all():
        group = replay.setdefault((t.unit, t.currency), {})
        group[t.payer_id] = group.get(t.payer_id, 0) - t.amount
        group[t.payee_id] = group.get(t.payee_id, 0) + t.amount
    assert {k: {a: v for a, v in g.items() if v} for k, g in replay.items()} == left
