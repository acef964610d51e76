"""The pot ("piatto") of marcio e batuffa in the ledger (issue 16, "Stakes as the code
lists them"). Source: Codice del tressette (Enucatl/tressette), ``regolamento.tex``, "Le
Poste e il Piatto": the pot is fed before every match of a meeting (a table's matches of
one night), taken by the winners of a cappotto, and left over at the night's close it goes
back to whoever fed it. The night stays zero-sum throughout; corrections reverse and book
again."""

import datetime
from decimal import Decimal

import pytest

from scorebook.ledger import selectors as reads
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Account, Entry
from scorebook.matches import services

MARCIO = {"t4.stake": "marcio_e_batuffa"}
A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}  # 7 - 4
CAPPOTTO_A = {
    "sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}},
    "last_trick": "A",
}


@pytest.fixture
def table(people):
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, 21), venue="", user=people.director
    )
    return services.table_create(night=night, number=1, name="", user=people.director)


def start(people, table, rules=MARCIO, amount="1.00"):
    return services.match_create(
        night=table.night,
        game="tressette4",
        rules=rules,
        table=table,
        seats=dict(zip("NESW", (p.pk for p in people.seated), strict=True)),
        user=people.scorer,
        first_dealer="N",
        stake_amount=Decimal(amount),
        stake_currency="EUR",
    )


def enter(match, deal, people):
    return services.deal_create(match=match, data=deal, expected_number=None, user=people.scorer)


def nets(entries):
    (group,) = reads.balances(entries).values() or [{}]
    names = reads.account_names(group)
    return {names[a]: v for a, v in group.items()}


def pot(table):
    account = Account.objects.get(night=table.night, pot="piatto:1")
    got = reads.balances(Entry.objects.filter(night=table.night))
    return next(iter(got.values()), {}).get(account.pk, Decimal(0))


def test_a_meeting_feeds_the_pot_and_a_cappotto_takes_it(people, table):
    first = start(people, table)
    for _ in range(3):
        enter(first, A_WINS, people)  # 21 - 12: the losers have "sbatuffato", one stake
    assert pot(table) == Decimal("4.00")  # one stake from each player
    second = start(people, table)
    enter(second, CAPPOTTO_A, people)  # B on 0: triple, and the pot to N and S
    assert pot(table) == 0
    ledger.zero_sum_check(Entry.objects.filter(night=table.night))
    # N: +1 stake -1 fed +3 stakes -0.25 fed +2.50 from the pot (4 + 4 x 0.25, halved)
    assert nets(Entry.objects.filter(night=table.night)) == {
        "Nino": Decimal("5.25"),
        "Salvo": Decimal("5.25"),
        "Ettore": Decimal("-5.25"),
        "Walter": Decimal("-5.25"),
    }
    assert Entry.objects.filter(match=second, kind="pot").count() == 6  # 4 feeds, 2 shares


def test_a_correction_reverses_the_pot_entries_and_rebooks_the_later_matches(people, table):
    first = start(people, table)
    deals = [enter(first, A_WINS, people) for _ in range(3)]
    second = start(people, table)
    enter(second, CAPPOTTO_A, people)
    fed = list(Entry.objects.filter(match=second, kind="pot"))
    assert sorted(e.amount for e in fed if e.payee.pot) == [Decimal("0.25")] * 4
    # Deal 3 of the first match was B's: the first match is not over, so it fed nothing,
    # and the second is now the first of the meeting: a whole stake each.
    b_wins = {**A_WINS, "sides": {"A": A_WINS["sides"]["B"], "B": A_WINS["sides"]["A"]},
              "last_trick": "B"}  # fmt: skip
    services.deal_correct(
        deal=deals[2],
        data=b_wins,
        reason="wrong side",
        user=people.director,
        expected_version=1,
    )
    first_pot = Entry.objects.filter(match=first, kind="pot")
    assert first_pot.count() == 4 and all(e.reversed_by is not None for e in first_pot)
    reversed_second = Entry.objects.filter(reverses__in=fed)
    assert reversed_second.count() == len(fed)
    live = Entry.objects.filter(match=second, kind="pot", reversed_by__isnull=True)
    assert sorted(e.amount for e in live if e.payee.pot) == [Decimal("1.00")] * 4
    assert pot(table) == 0  # the cappotto took the 4.00
    ledger.zero_sum_check(Entry.objects.filter(night=table.night))
    assert nets(Entry.objects.filter(match=first)) == {}


def test_a_pot_left_at_the_close_goes_back_and_the_settlement_has_no_pot(people, table):
    first = start(people, table)
    for _ in range(3):
        enter(first, A_WINS, people)
    assert pot(table) == Decimal("4.00")
    services.night_close(night=table.night, user=people.director)
    assert pot(table) == 0
    ledger.zero_sum_check(Entry.objects.filter(night=table.night))
    settlement = reads.current_settlement(table.night)
    assert all(t.payer.player_id and t.payee.player_id for t in settlement.transfers.all())
    assert nets(Entry.objects.filter(night=table.night)) == {
        "Nino": Decimal("1.00"),
        "Salvo": Decimal("1.00"),
        "Ettore": Decimal("-1.00"),
        "Walter": Decimal("-1.00"),
    }


def test_other_stakes_and_the_default_feed_no_pot(people, table):
    plain = start(people, table, rules={})
    for _ in range(3):
        enter(plain, A_WINS, people)
    assert not Account.objects.filter(night=table.night).exists()
    assert not Entry.objects.filter(kind="pot").exists()


def test_a_failed_andata_per_cappotto_doubles_the_pot_in_the_ledger(people, table):
    """ "La coppia che non consegue il cappotto dopo averlo dichiarato ... raddoppia la
    somma che si trova nel piatto": A, called out at 22, went for cappotto and failed."""
    rules = {**MARCIO, "t4.claim_by": "opponents"}
    match = start(people, table, rules=rules)
    failed = {
        "sides": {"A": {"thirds": 20, "tricks": 7}, "B": {"thirds": 0, "tricks": 0}},
        "claim": {"side": "A", "by": "B", "after_trick": 7, "cappotto": "failed"},
    }
    enter(match, A_WINS, people)
    enter(match, A_WINS, people)  # A 14, B 8
    enter(match, failed, people)
    match.refresh_from_db()
    assert match.result["pot"] == "doubled"
    assert pot(table) == Decimal("8.00")  # 4 x 1.00 fed, and N and S put in 2.00 each
    doubled = Entry.objects.filter(match=match, kind="pot", amount=Decimal("2.00"))
    assert sorted(e.payer.player.name for e in doubled) == ["Nino", "Salvo"]
    ledger.zero_sum_check(Entry.objects.filter(night=table.night))


def test_the_callers_extra_stake_for_a_cappotto_laid_down_is_booked(people, table):
    """Modern norms, "Norme che regolano la chiamata fuori": B called A out too early and
    loses; A then made its cappotto by laying its cards down, so B also owes
    "un'ulteriore posta". Under marcio e batuffa with B on 0 (not "sbatuffato"): two
    stakes, and the extra one: E and W pay 3.00 each, N and S receive 3.00 each."""
    match = start(people, table, rules={**MARCIO, "t4.claim_by": "opponents"})
    enter(match, A_WINS, people)
    enter(match, A_WINS, people)  # A 14, B 8: B has not reached 11
    laid = {
        "sides": {"A": {"thirds": 8, "tricks": 3}, "B": {"thirds": 0, "tricks": 0}},
        "claim": {"side": "A", "by": "B", "after_trick": 3, "cappotto": "laid_down"},
    }
    enter(match, laid, people)
    match.refresh_from_db()
    assert match.result["reason"] == "false_claim"
    assert match.result["cappotto_laid_down"] is True
    stakes = Entry.objects.filter(match=match, kind="match")
    got = nets(stakes)
    assert got == {
        "Nino": Decimal("3.00"),
        "Salvo": Decimal("3.00"),
        "Ettore": Decimal("-3.00"),
        "Walter": Decimal("-3.00"),
    }
    ledger.zero_sum_check(Entry.objects.filter(night=table.night))
