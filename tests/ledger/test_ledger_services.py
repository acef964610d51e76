"""Worked examples of the ledger (reference 2.1.7, 2.7.5, 2.8, 2.9): what each deal and
match books, corrections as reversals, and the night's settlement."""

from decimal import Decimal

import pytest

from scorebook.ledger import selectors as reads
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Entry, Settlement
from scorebook.matches import services
from scorebook.matches.refusals import CorrectionLeavesOpen
from scorebook.rules.games.calabrasella import session_balance
from tests.builders import A_WINS, B_WINS

SCEGLIETE_CAPPOTTO = {
    "dealer": "P3",
    "bids": [
        {"player": "P1", "bid": "solissimo_scegliete"},
        {"player": "P2", "bid": "pass"},
        {"player": "P3", "bid": "pass"},
    ],
    "monte_shares": {"P2": 3, "P3": 1},
    "sides": {"soloist": {"thirds": 32, "tricks": 12}, "coalition": {"thirds": 0, "tricks": 0}},
    "last_trick": "soloist",
}
CHIAMO_LOST = {
    "dealer": "P1",
    "bids": [{"player": "P2", "bid": "chiamo"}, {"player": "P3", "bid": "pass"},
             {"player": "P1", "bid": "pass"}],
    "called": "3b", "called_from": "P3",
    "sides": {"soloist": {"thirds": 14, "tricks": 5}, "coalition": {"thirds": 18, "tricks": 7}},
    "last_trick": "coalition",
}  # fmt: skip
CHIAMO_LOST_P3 = {**CHIAMO_LOST, "dealer": "P3", "called_from": "P2",
                  "bids": [{"player": "P1", "bid": "chiamo"}, {"player": "P2", "bid": "pass"},
                           {"player": "P3", "bid": "pass"}]}  # fmt: skip
TV37 = {
    "dealer": "P3",
    "bids": [{"player": "P1", "bid": "stand"}],
    "called": "3s",
    "called_from": "P2",
    "discards": 2,
    "sides": {"bidder": {"points": 23, "tricks": 7}, "opponents": {"points": 12, "tricks": 5}},
    "last_trick": "bidder",
}


def start(people, night, game, players, rules=None, amount="0", currency="", dealer=None):
    names = ("N", "E", "S", "W") if game == "tressette4" else ("P1", "P2", "P3", "P4")
    return services.match_create(
        night=night,
        game=game,
        rules=rules,
        seats={seat: p.pk for seat, p in zip(names[:players], people.seated, strict=False)},
        user=people.scorer,
        first_dealer=dealer,
        stake_amount=Decimal(amount),
        stake_currency=currency,
    )


def nets(queryset):
    """Player name -> balance, for one unit/currency group."""
    (group,) = reads.balances(queryset).values()
    names = {}
    from scorebook.ledger.models import Account

    for account in Account.objects.filter(pk__in=group).select_related("player"):
        names[account.pk] = account.player.name if account.player_id else f"pot {account.pot}"
    return {names[a]: v for a, v in group.items()}


def enter(match, deal, people, who="scorer"):
    return services.deal_create(match=match, data=deal, expected_number=None, user=people[who])


def test_vision_6_scegliete_cappotto_is_16_x_2_chips_from_each_opponent(people, night):
    match = start(
        people, night, "terziglio", 3, {"profile": "chips_1_2_4_8_16"}, "0.10", "EUR", "P3"
    )
    enter(match, SCEGLIETE_CAPPOTTO, people)
    assert nets(Entry.objects.filter(match=match)) == {
        "Nino": Decimal("6.40"),  # 2 opponents x 16 x 2 chips x 0.10
        "Ettore": Decimal("-3.20"),
        "Salvo": Decimal("-3.20"),
    }
    assert Entry.objects.filter(match=match, kind="deal").count() == 2


def test_chiamata_with_wb_scoring_books_every_deal(people, night):
    """Reference 2.5 (WB) and 4.7 G1: a sola won is 2 x 3 units to the caller, 2 from each
    of the three, booked with the deal and summing to zero."""
    match = start(
        people,
        night,
        "chiamata",
        4,
        {"profile": "gg_torneo", "cdt.scoring": "wb_plus_minus"},
        "0.50",
        "EUR",
        "P1",
    )
    sola = {
        "dealer": "P1",
        "called": "Rs",
        "partner": "P2",
        "sides": {"callers": {"thirds": 20, "tricks": 6}, "others": {"thirds": 12, "tricks": 4}},
        "last_trick": "callers",
    }
    enter(match, sola, people)
    balances = nets(Entry.objects.filter(match=match))
    assert sorted(balances.values()) == [Decimal("-1.00")] * 3 + [Decimal("3.00")]
    assert sum(balances.values()) == 0
    assert Entry.objects.filter(match=match, kind="deal").count() == 3  # one per payer


def test_a_per_match_game_books_only_at_the_end_with_the_stake(people, night):
    match = start(people, night, "tressette4", 4, {"profile": "classic_21"}, "0.50", "EUR")
    enter(match, A_WINS, people)
    enter(match, A_WINS, people)
    assert not Entry.objects.filter(match=match).exists()
    enter(match, A_WINS, people)  # A reaches 21: N and S (side A) win
    assert nets(Entry.objects.filter(match=match)) == {
        "Nino": Decimal("0.50"),
        "Salvo": Decimal("0.50"),
        "Ettore": Decimal("-0.50"),
        "Walter": Decimal("-0.50"),
    }


def test_a_correction_that_changes_the_winner_reverses_and_rebooks(people, night):
    match = start(people, night, "tressette4", 4, {"profile": "classic_21"}, "0.50", "EUR")
    deals = [enter(match, A_WINS, people) for _ in range(3)]
    booked = set(Entry.objects.values_list("pk", flat=True))
    # Deal 3 was really B's: no one has 21 yet, so the match result is withdrawn.
    services.deal_correct(
        deal=deals[2],
        data=B_WINS,
        reason="wrong side",
        user=people.director,
        expected_version=1,
    )
    assert reads.balances(Entry.objects.filter(match=match)) == {}
    assert Entry.objects.filter(kind="reversal").count() == len(booked)
    assert set(Entry.objects.values_list("pk", flat=True)) >= booked  # nothing deleted
    # Then B wins the match: the stake goes the other way.
    enter(match, B_WINS, people)
    enter(match, B_WINS, people)
    assert nets(Entry.objects.filter(match=match))["Ettore"] == Decimal("0.50")


def test_calabrasella_ledger_agrees_with_the_skat_method(people, night):
    match = start(people, night, "calabrasella", 3, dealer="P3")
    enter(match, TV37, people)  # P1 bids, makes 23: +11 from each opponent
    second = {**TV37, "dealer": "P1", "bids": [{"player": "P2", "bid": "stand"}],
              "called_from": "P3",
              "sides": {"bidder": {"points": 16, "tricks": 5},
                        "opponents": {"points": 19, "tricks": 7}},
              "last_trick": "opponents"}  # fmt: skip
    enter(match, second, people)  # P2 makes 16: -3 to each opponent
    state = services.fold(match, [d.input for d in services.current_deals(match)]).state
    seats = {"P1": "Nino", "P2": "Ettore", "P3": "Salvo"}
    skat = session_balance(state.totals, 3)
    ledger_nets = nets(Entry.objects.filter(match=match))
    assert {seats[p]: Decimal(v) for p, v in skat.items()} == ledger_nets
    assert ledger_nets == {"Nino": Decimal(25), "Ettore": Decimal(-17), "Salvo": Decimal(-8)}


def test_tv53_spinado_pots_are_accounts_and_everything_sums_to_zero(people, night):
    match = start(people, night, "spinado", 4, dealer="P4")
    tv53 = {
        "dealer": "P4", "matrimony_by": "P2", "kings_played": {"Kd": "P2"}, "out_first": "P3",
        "cards_left": {"P1": 3, "P2": 2, "P3": 0, "P4": 4}, "spinado_held_by": "P1",
    }  # fmt: skip
    enter(match, tv53, people)
    # Reference TV53: P1 -9, P2 +1, P3 +7, P4 -3; the Intrigue pot keeps 4 (sum 0).
    assert nets(Entry.objects.filter(match=match)) == {
        "Nino": -9,
        "Ettore": 1,
        "Salvo": 7,
        "Walter": -3,
        "pot intrigue": 4,
    }


def test_closing_the_night_settles_it_and_a_late_correction_makes_a_new_version(people, night):
    t4 = start(people, night, "tressette4", 4, {"profile": "classic_21"}, "0.50", "EUR")
    deals = [enter(t4, A_WINS, people) for _ in range(3)]
    chips = start(
        people, night, "terziglio", 3, {"profile": "chips_1_2_4_8_16"}, "0.10", "EUR", "P3"
    )
    played = enter(chips, SCEGLIETE_CAPPOTTO, people)
    # the chips session, still open, is finished at the close: its deals were booked as
    # they came, so the nets are what they were (booked once)
    services.night_close(night=night, user=people.director, end_open=[chips.pk])
    chips.refresh_from_db()
    assert (chips.status, chips.stopped) == ("finished", True)
    first = reads.current_settlement(night)
    assert first.version == 1
    # Nino +0.50 +6.40, Salvo +0.50 -3.20, Ettore -0.50 -3.20, Walter -0.50
    assert nets(Entry.objects.filter(night=night)) == {
        "Nino": Decimal("6.90"),
        "Salvo": Decimal("-2.70"),
        "Ettore": Decimal("-3.70"),
        "Walter": Decimal("-0.50"),
    }
    got = {t.payer.player.name: (t.payee.player.name, t.amount) for t in first.transfers.all()}
    assert got == {
        "Ettore": ("Nino", Decimal("3.70")),
        "Salvo": ("Nino", Decimal("2.70")),
        "Walter": ("Nino", Decimal("0.50")),
    }
    transfer = first.transfers.first()
    ledger.transfer_mark_paid(transfer=transfer, user=people.director)
    # A director corrects the chips session after the close: Nino called and lost. (The
    # Tressette's deal 3 cannot be B's after the close: no side would reach 21, and the
    # match would be left open on the closed night; docs/night-close.md.)
    with pytest.raises(CorrectionLeavesOpen):
        services.deal_correct(
            deal=deals[2], data=B_WINS, reason="sheet", user=people.director, expected_version=1
        )
    services.deal_correct(
        deal=played,
        data=CHIAMO_LOST_P3,
        reason="sheet checked",
        user=people.director,
        expected_version=1,
    )
    second = reads.current_settlement(night)
    assert second.version == 2
    assert Settlement.objects.filter(night=night).count() == 2
    # What was already paid is not asked again; what is left settles the new nets.
    left = reads.remaining(night)
    planned = {(t.payer_id, t.payee_id, t.amount) for t in second.transfers.all()}
    replay = {}
    for payer, payee, amount in planned:
        replay[payer] = replay.get(payer, 0) - amount
        replay[payee] = replay.get(payee, 0) + amount
    assert {k: v for k, v in replay.items() if v} == left[("money", "EUR")]
    with pytest.raises(ledger.Superseded):
        ledger.transfer_mark_paid(transfer=first.transfers.last(), user=people.director)


def test_only_directors_settle_and_mark_paid(people, night):
    with pytest.raises(services.NotAllowed):
        ledger.night_settle(night=night, user=people.scorer)


@pytest.mark.parametrize("how", ["service", "api"])
def test_a_correction_that_ends_an_abandoned_match_books_no_result(people, night, how):
    """An abandoned match counts for nothing: a correction of its deals that reaches the
    target (the stateful test's find, tests/crossings) is stored, the match stays
    abandoned and its result books nothing, as its abandonment did."""
    match = start(people, night, "tressette4", 4, {"profile": "classic_21"}, "0.50", "EUR")
    deals = [enter(match, deal, people) for deal in (A_WINS, A_WINS, B_WINS)]
    services.match_abandon(match=match, reason="Walter went home", user=people.director)
    # deal 3 was A's after all: A's three deals reach 21
    if how == "service":
        services.deal_correct(
            deal=deals[2], data=A_WINS, reason="sheet", user=people.director, expected_version=1
        )
    else:
        from tests.api.common import api

        answer = api(people, "director").post(
            f"/api/v1/deals/{deals[2].pk}/correct",
            {"deal": A_WINS, "reason": "sheet"},
            format="json",
            HTTP_IF_MATCH=deals[2].etag,
        )
        assert answer.status_code == 201, answer.content
    match.refresh_from_db()
    assert match.status == "abandoned" and match.result is not None  # the deals end it
    assert services.current_deals(match)[2].version == 2  # the correction is stored
    assert not Entry.objects.filter(match=match).exists()  # and books nothing
