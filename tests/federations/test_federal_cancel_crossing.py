"""A federal tournament's host tournament called off after it was opened (issue 34 item 6,
the crossing of a federal tournament with a cancel): the fees in the tournament's pot go
back (the tournament's own rule), and so does the federation's share booked on the host's
night, so that the night owes the federation nothing for a tournament never played; the
federal tournament is called off with the reason, gives no points, and the night closes."""

from decimal import Decimal

import pytest
from django.db.models import Sum

from scorebook.federations import ranking
from scorebook.federations.models import FederalTournament
from scorebook.federations.services import federal_tournaments as federal
from scorebook.ledger.models import Account
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.tournaments.services.results import tournament_cancel
from scorebook.tournaments.services.rounds import round_start
from tests import builders as build
from tests.federations.federal import announce, register_all, world

pytestmark = pytest.mark.django_db


def balance(account: Account) -> Decimal:
    """What the account holds: paid in less paid out (reversals included)."""
    paid_in = LedgerEntry.objects.filter(payee=account).aggregate(s=Sum("amount"))["s"] or 0
    paid_out = LedgerEntry.objects.filter(payer=account).aggregate(s=Sum("amount"))["s"] or 0
    return Decimal(paid_in) - Decimal(paid_out)


@pytest.mark.parametrize("started", [False, True], ids=["before round 1", "mid round 1"])
def test_cancelling_the_host_tournament_gives_the_federation_share_back(people, started):
    w = world(people)
    t = announce(w, fee="10", federation_share="2", currency="EUR", rounds=1)
    register_all(w, t)
    night = build.night(people, date=t.date)
    made = federal.federal_tournament_open(federal_tournament=t, night=night, user=people.director)
    share = Account.objects.get(night=night, pot=federal.share_pot(w.fed.pk))
    assert balance(share) == Decimal("16.00")  # 2 EUR from each of the 8 players
    if started:
        round_start(tournament=made, user=people.director)
    tournament_cancel(tournament=made, reason="manca la luce", user=people.director)
    assert balance(share) == Decimal("0.00")
    for account in Account.objects.filter(night=night):
        assert balance(account) == 0, account  # every fee back, the pots empty
    players = Account.objects.filter(player__isnull=False, club=w.host)
    assert all(balance(a) == 0 for a in players)
    t.refresh_from_db()
    assert (t.status, t.cancel_reason) == (FederalTournament.Status.CANCELLED, "manca la luce")
    assert ranking.results(w.fed) == {}
    closed = build.close(people, night)
    assert closed.status == "closed"


def test_cancelling_another_tournament_of_the_night_leaves_the_share(people):
    """Only the federal tournament's own share goes back: a tournament of the club's own
    on the same night, called off, leaves the federation's share where it is."""
    w = world(people)
    t = announce(w, fee="10", federation_share="2", currency="EUR", rounds=1)
    register_all(w, t)
    night = build.night(people, date=t.date)
    federal.federal_tournament_open(federal_tournament=t, night=night, user=people.director)
    own = build.tournament(people, night, pairs=2, name="Torneo del bar")
    tournament_cancel(tournament=own, reason="pochi", user=people.director)
    share = Account.objects.get(night=night, pot=federal.share_pot(w.fed.pk))
    assert balance(share) == Decimal("16.00")
    t.refresh_from_db()
    assert t.status == FederalTournament.Status.OPENED
