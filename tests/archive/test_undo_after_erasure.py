"""Every undo and every removal survives an erasure (issue 31 item 2): a league forfeit
undone, a match unlinked from its fixture, a league entry withdrawn, a tournament's pair
or single withdrawn, a tournament cancelled with its fees given back, a deal corrected, a
night closed, each after one of its players was erased: they complete, with the
pseudonym, and the numbers stay whole. A tournament's next round that would seat the
erased player is refused in words (``player.erased``) until the pair withdraws."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorebook.archive import services as archive
from scorebook.clubs.models import Player
from scorebook.clubs.services import PlayerErased
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.matches import services as record
from scorebook.matches.models import Deal, Night
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import Fixture, FixtureForfeit, FixtureMatch, LeagueEntry
from scorebook.tournaments.models import Entry, Single, Tournament
from scorebook.tournaments.services import registration, results, rounds
from tests import builders as build

pytestmark = pytest.mark.django_db


def erase(people, player):
    archive.player_erase(player=player, user=people.director, confirm=player.name)
    player.refresh_from_db()
    assert player.erased
    return player


def test_league_forfeit_undo_unlink_and_withdraw_after_an_erasure(people):
    league = build.league(people, game=build.GAME, legs=2)  # Nino & Salvo against Ettore & Walter
    first, second = Fixture.objects.filter(league=league).order_by("round", "pk")[:2]
    home = LeagueEntry.objects.get(league=league, name="Nino & Salvo")
    leagues.fixture_forfeit(
        fixture=first, entry=home, reason="Walter assente", user=people.director
    )
    night = build.night(people)
    match = build.match(people, night)
    build.finish(people, match)
    leagues.fixture_match_link(fixture=second, match=match, user=people.director)
    walter = erase(people, people.seated[3])
    leagues.fixture_forfeit_undo(fixture=first, reason="errore", user=people.director)
    assert not FixtureForfeit.objects.filter(fixture=first).exists()
    leagues.fixture_match_unlink(fixture=second, match=match, user=people.director)
    assert not FixtureMatch.objects.exists()
    theirs = LeagueEntry.objects.get(league=league, players=walter)
    leagues.entry_withdraw(entry=theirs, user=people.director, reason="cancellato")
    assert LeagueEntry.objects.get(pk=theirs.pk).withdrawn_at is not None


def test_a_tournament_after_an_erasure_withdraws_cancels_and_refunds(people):
    night = build.night(people)
    cup = build.tournament(people, night, pairs=3, entry_fee=Decimal("5"), currency="EUR")
    nino, ettore, salvo, walter = people.seated
    theirs = registration.entry_add(
        tournament=cup, players=[walter.pk, salvo.pk], user=people.director
    )
    lone = registration.single_add(tournament=cup, player=ettore.pk, user=people.director)
    erase(people, walter)
    erase(people, ettore)
    registration.single_withdraw(single=lone, reason="cancellato", user=people.director)
    assert not Single.objects.filter(pk=lone.pk).exists()
    # the next round would seat the erased player: refused in words, nothing stored
    with pytest.raises(PlayerErased) as refused:
        rounds.round_start(tournament=cup, user=people.director)
    assert "Erased player #1 was erased" in refused.value.text()
    assert not cup.round_set.filter(started_at__isnull=False).exists()
    registration.entry_withdraw(entry=theirs, reason="cancellato", user=people.director)
    assert Entry.objects.get(pk=theirs.pk).withdrawn_at is not None
    results.tournament_cancel(tournament=cup, reason="pioggia", user=people.director)
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.CANCELLED
    # every fee went back: the night's ledger sums to zero per player
    per_player: dict[int, Decimal] = {}
    for payer, payee, amount in LedgerEntry.objects.filter(night=night).values_list(
        "payer__player", "payee__player", "amount"
    ):
        if payer:
            per_player[payer] = per_player.get(payer, Decimal(0)) - amount
        if payee:
            per_player[payee] = per_player.get(payee, Decimal(0)) + amount
    assert set(per_player.values()) <= {Decimal(0)}
    record.night_close(night=night, user=people.director)
    assert Night.objects.get(pk=night.pk).status == Night.Status.CLOSED


def test_a_correction_and_the_close_after_an_erasure(people):
    night = build.night(people)
    match = build.match(people, night)
    (deal,) = build.deals(people, match, build.A_WINS)
    erase(people, people.seated[3])
    corrected = record.deal_correct(
        deal=deal, data=build.B_WINS, reason="contato male", user=people.director,
        expected_version=deal.version,
    )  # fmt: skip
    assert Deal.objects.get(pk=corrected.pk).is_current
    build.finish(people, match)
    record.night_close(night=night, user=people.director)
    assert Player.objects.get(pk=people.seated[3].pk).name == "Erased player #1"
