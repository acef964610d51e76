"""The night pot ("piatto") under concurrent bookings, on PostgreSQL (issue 16).

The pot entries of a table are recomputed as a whole whenever one of its matches books
(``scorebook.ledger.services.piatto_book``). Two matches of one table finishing at the same
moment, or a correction of an earlier match racing the end of a later one, run in separate
threads with their own database connections. Afterwards the night is zero-sum, the pot
holds what the code's pot rule gives for the final matches (worked out here by hand, not by
the engine: "una posta prima di dar inizio alla prima partita ... e di un quarto di posta
prima dell'inizio di ciascuna partita successiva"), and every match's live pot entries are
exactly its feeds: none doubled, none lost.
"""

import datetime
import threading
from collections import Counter
from decimal import Decimal

import pytest
from django.db import connection

from scorebook.ledger import selectors as reads
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Account, Entry
from scorebook.matches import services
from scorebook.matches.models import Deal, Match

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

MARCIO = {"t4.stake": "marcio_e_batuffa"}
A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}  # 7 - 4: three make 21 - 12, the losers have "sbatuffato" (one stake)
B_WINS = {
    "sides": {"A": A_WINS["sides"]["B"], "B": A_WINS["sides"]["A"]},
    "last_trick": "B",
}
ROUNDS = 3  # each round a new night: a race that loses once in three is still caught


def _table(people, day):
    night = services.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 11, day), venue="", user=people.director
    )
    return services.table_create(night=night, number=1, name="", user=people.director)


def _start(people, table):
    return services.match_create(
        night=table.night,
        game="tressette4",
        rules=MARCIO,
        table=table,
        seats=dict(zip("NESW", (p.pk for p in people.seated), strict=True)),
        user=people.scorer,
        first_dealer="N",
        stake_amount=Decimal("1.00"),
        stake_currency="EUR",
    )


def _enter(people, match, deal=A_WINS):
    return services.deal_create(match=match, data=deal, expected_number=None, user=people.scorer)


def _race(*jobs):
    """Run each job in its own thread (own connection), released together; re-raise."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job):
        try:
            barrier.wait()
            job()
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a booking hung (deadlock?)"
    assert not errors, errors


def _pot_balance(night):
    account = Account.objects.get(night=night, pot="piatto:1")
    (group,) = reads.balances(Entry.objects.filter(night=night)).values()
    return group.get(account.pk, Decimal(0))


def _live_feeds(match):
    """What each player has put into the pot for ``match`` (live entries only)."""
    live = Entry.objects.filter(match=match, kind="pot", reversed_by__isnull=True)
    return Counter(
        (e.payer.player.name, e.amount) for e in live.select_related("payer__player", "payee")
    )


def _assert_ledger_sound(night):
    entries = Entry.objects.filter(night=night)
    ledger.zero_sum_check(entries)
    reversed_ = [e.reverses_id for e in entries.filter(kind="reversal")]
    assert len(reversed_) == len(set(reversed_)), "an entry was reversed twice"
    for e in entries.filter(kind="reversal").select_related("reverses"):
        assert (e.payer_id, e.payee_id, e.amount) == (
            e.reverses.payee_id,
            e.reverses.payer_id,
            e.reverses.amount,
        )
    # One pot account for the table: a racing creation made no twin.
    assert Account.objects.filter(night=night, pot="piatto:1").count() == 1


def _names(people):
    return [p.name for p in people.seated]


def test_two_matches_of_one_table_finishing_at_once(people):
    """Two matches of table 1 each need one deal to end; both deals are booked at the same
    moment. The first match (in the order they were made) fed one stake from each player,
    the second a quarter: 4 x 1.00 + 4 x 0.25 = 5.00 in the pot, whatever booked first."""
    for day in range(1, ROUNDS + 1):
        table = _table(people, day)
        first, second = _start(people, table), _start(people, table)
        for match in (first, second):
            _enter(people, match)
            _enter(people, match)
        _race(lambda m=first: _enter(people, m), lambda m=second: _enter(people, m))
        for match in (first, second):
            match.refresh_from_db()
            assert match.status == Match.Status.FINISHED
        assert _live_feeds(first) == Counter({(n, Decimal("1.00")): 1 for n in _names(people)})
        assert _live_feeds(second) == Counter({(n, Decimal("0.25")): 1 for n in _names(people)})
        assert _pot_balance(table.night) == Decimal("5.00")
        _assert_ledger_sound(table.night)
        # each player: won or lost one stake per match, and fed 1.25 into the pot
        (group,) = reads.balances(Entry.objects.filter(night=table.night)).values()
        names = reads.account_names(group)
        got = {names[a]: v for a, v in group.items()}
        n, e, s, w = _names(people)
        assert got == {
            n: Decimal("0.75"),
            s: Decimal("0.75"),
            e: Decimal("-3.25"),
            w: Decimal("-3.25"),
            names[Account.objects.get(night=table.night, pot="piatto:1").pk]: Decimal("5.00"),
        }


def test_a_correction_of_an_earlier_match_racing_a_later_match_end(people):
    """The first match is over (it fed 4 x 1.00) and the second needs one deal. At the same
    moment the first match's last deal is corrected to B's (so the first match is not over
    and has fed nothing) and the second match's last deal is booked. Whichever commits
    first, the second match ends as the first of the meeting: 4 x 1.00 in the pot, the
    first match's feeds reversed once each."""
    for day in range(10, 10 + ROUNDS):
        table = _table(people, day)
        first, second = _start(people, table), _start(people, table)
        last = [_enter(people, first) for _ in range(3)][-1]
        for _ in range(2):
            _enter(people, second)
        assert _pot_balance(table.night) == Decimal("4.00")

        def correct(last=last):
            services.deal_correct(
                deal=last,
                data=B_WINS,
                reason="wrong side",
                user=people.director,
                expected_version=1,
            )

        _race(correct, lambda second=second: _enter(people, second))
        first.refresh_from_db()
        second.refresh_from_db()
        assert first.status != Match.Status.FINISHED
        assert second.status == Match.Status.FINISHED
        assert _live_feeds(first) == Counter()
        assert _live_feeds(second) == Counter({(n, Decimal("1.00")): 1 for n in _names(people)})
        fed_first = Entry.objects.filter(match=first, kind="pot")
        assert fed_first.count() == 4 and all(x.reversed_by is not None for x in fed_first)
        assert _pot_balance(table.night) == Decimal("4.00")
        assert Deal.objects.filter(match=first, number=3).count() == 2
        _assert_ledger_sound(table.night)
