"""The tournament's services through the database: registration, the draw, rounds that
start themselves, forfeits, standings, money, and the refusals that store nothing."""

from decimal import Decimal

import pytest

from scorebook.core.models import AuditEvent
from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.ledger.selectors import balances
from scorebook.matches import services as matches
from scorebook.matches.models import Match, Table
from scorebook.tournaments import refusals, selectors
from scorebook.tournaments.models import Entry, Pairing, Round, Single
from scorebook.tournaments.pairing import draw_pairs
from scorebook.tournaments.services.registration import (
    entry_add,
    entry_withdraw,
    single_add,
    single_withdraw,
    singles_draw,
)
from scorebook.tournaments.services.results import (
    pairing_forfeit,
    pairing_next_match,
    tournament_finish,
)
from scorebook.tournaments.services.rounds import pairing_bye, pairing_swap, round_pair, round_start
from scorebook.tournaments.services.setup import tournament_create, tournament_update

from .helpers import finish_match, play_round, players, tournament, with_pairs


def test_a_pair_of_a_member_and_a_new_guest_in_one_step(people, night):
    t = tournament(people, night)
    nino = people.seated[0]
    entry = entry_add(tournament=t, players=[nino.pk, "Zio Tano"], user=people.director)
    assert entry.first == nino
    assert entry.second.guest and entry.second.name == "Zio Tano"
    assert entry.name == "Nino & Zio Tano"


def test_a_player_cannot_enter_twice(people, night):
    t = tournament(people, night)
    nino, ettore, salvo, _ = people.seated
    entry_add(tournament=t, players=[nino.pk, ettore.pk], user=people.director)
    with pytest.raises(refusals.PlayerAlreadyIn):
        entry_add(tournament=t, players=[salvo.pk, nino.pk], user=people.director)
    with pytest.raises(refusals.PlayerAlreadyIn):
        single_add(tournament=t, player=ettore.pk, user=people.director)
    assert t.entries.count() == 1


def test_only_a_director_runs_a_tournament(people, night):
    from scorebook.clubs.services import NotAllowed

    with pytest.raises(NotAllowed):
        tournament_create(night=night, name="X", game="tressette4", rules={}, user=people.scorer)


def test_a_game_not_in_fixed_pairs_is_refused(people, night):
    with pytest.raises(refusals.NotAPairsGame):
        tournament(people, night, game="no such game")


def test_a_prize_split_over_100_percent_is_refused_and_nothing_stored(people, night):
    with pytest.raises(refusals.PrizeSplitOver) as refused:
        tournament(
            people, night, entry_fee="10", currency="EUR", prizes=["60", "30"], club_share="20"
        )
    assert "110%" in refused.value.text()
    assert not night.tournaments.exists()


def test_the_draw_pairs_singles_by_a_stored_seed_once(people, night):
    t = tournament(people, night)
    ps = players(people.club, 6)
    for p in ps:
        single_add(tournament=t, player=p.pk, user=people.director)
    draw = singles_draw(tournament=t, user=people.director)
    assert draw.pairs == [list(p) for p in draw_pairs([p.pk for p in ps], draw.seed)]
    assert t.entries.filter(drawn=True).count() == 3
    assert AuditEvent.objects.filter(verb="tournament_pairs_drawn", object_id=str(draw.pk)).exists()
    with pytest.raises(refusals.NothingToDraw):  # never drawn again
        singles_draw(tournament=t, user=people.director)
    assert set(Single.objects.values_list("entry", flat=True)) == set(
        t.entries.values_list("pk", flat=True)
    )


def test_an_odd_number_of_singles_is_not_drawn(people, night):
    t = tournament(people, night)
    for p in players(people.club, 3):
        single_add(tournament=t, player=p.pk, user=people.director)
    with pytest.raises(refusals.SinglesOdd):
        singles_draw(tournament=t, user=people.director)
    assert not t.entries.exists() and not t.draws.exists()


def test_starting_a_round_seats_every_pair_at_a_table_with_its_match(people, night):
    t = with_pairs(people, night, 5)
    round_ = round_start(tournament=t, user=people.director)
    assert round_.number == 1 and round_.started
    pairings = list(round_.pairings.order_by("board"))
    assert len(pairings) == 3 and pairings[-1].away is None  # five pairs: one rests
    assert sorted(Table.objects.filter(night=night).values_list("number", flat=True)) == [1, 2]
    for pairing in pairings[:2]:
        match = pairing.games.get().match
        assert match.table == pairing.table
        home = {pairing.home.first_id, pairing.home.second_id}
        away = {pairing.away.first_id, pairing.away.second_id}
        assert set(match.seats.values()) == home | away
        assert {match.seats["N"], match.seats["S"]} == home  # the home pair: one side
    assert t.entries.exclude(lot=None).count() == 5


def test_a_round_cannot_start_while_a_match_is_open_and_nothing_is_stored(people, night):
    t = with_pairs(people, night, 4)
    first = round_start(tournament=t, user=people.director)
    open_one = first.pairings.order_by("board").first().games.get().match
    with pytest.raises(refusals.MatchStillOpen) as refused:
        round_start(tournament=t, user=people.director)
    assert "table 1" in refused.value.text()
    assert Round.objects.filter(tournament=t).count() == 1
    assert Match.objects.filter(night=night).count() == 2
    finish_match(people, open_one)


def test_a_three_round_swiss_night_with_a_withdrawal_and_prizes(people, night):
    t = with_pairs(
        people,
        night,
        6,
        rounds=3,
        entry_fee="10",
        currency="EUR",
        prizes=["50", "30"],
        club_share="20",
    )
    assert selectors.pot_balance(t) == Decimal("120.00")
    r1 = round_start(tournament=t, user=people.director)
    play_round(people, r1)
    last = Entry.objects.filter(tournament=t).order_by("-seed").first()
    entry_withdraw(entry=last, reason="Ha da prendere il treno", user=people.director)
    r2 = round_start(tournament=t, user=people.director)
    assert not r2.pairings.filter(home=last).exists() and not r2.pairings.filter(away=last).exists()
    assert r2.pairings.filter(away=None).count() == 1  # five left: one rests
    play_round(people, r2, home_wins=lambda p: False)
    r3 = round_start(tournament=t, user=people.director)
    play_round(people, r3)
    met, byes = selectors.history(t)
    assert len(met) == sum(1 for p in Pairing.objects.filter(round__tournament=t) if p.away_id)
    rows = selectors.standings(t)
    assert rows[0].row.position == 1
    assert rows[0].row.decided_by in (
        None,
        "match_points",
        "buchholz",
        "point_difference",
        "head_to_head",
        "lot",
    )
    tournament_finish(tournament=t, user=people.director)
    t.refresh_from_db()
    assert t.status == "finished"
    assert (
        selectors.pot_balance(t) == 0
    )  # everything paid out: 60 + 36 to the pairs, 24 to the club
    entries = LedgerEntry.objects.filter(night=night)
    for group in balances(entries).values():
        assert sum(group.values()) == 0
    winner = rows[0].entry
    prizes = LedgerEntry.objects.filter(
        kind="prize", payee__player_id__in=[winner.first_id, winner.second_id]
    )
    assert sum(e.amount for e in prizes) == Decimal("60.00")
    matches.night_close(night=night, user=people.director)


def test_withdrawing_before_round_one_gives_the_fees_back(people, night):
    t = with_pairs(people, night, 3, entry_fee="5", currency="EUR")
    entry = t.entries.first()
    entry_withdraw(entry=entry, reason="Malato", user=people.director)
    assert selectors.pot_balance(t) == Decimal("20.00")
    assert LedgerEntry.objects.filter(kind="reversal").count() == 2


def test_a_no_money_tournament_says_so_and_books_nothing(people, night):
    t = with_pairs(people, night, 2)
    assert selectors.money(t) == {"plays_for_money": False}
    assert not LedgerEntry.objects.exists()


def test_a_forfeit_gives_the_pairing_to_the_other_pair(people, night):
    t = with_pairs(people, night, 2, rounds=1)
    r1 = round_start(tournament=t, user=people.director)
    pairing = r1.pairings.get()
    pairing_forfeit(
        pairing=pairing, entry=pairing.home, reason="Non si è presentata", user=people.director
    )
    score = selectors.pairing_scores(t)[pairing.pk]
    assert score.decided and score.winner == pairing.away_id and score.status == "forfeit"
    assert score.away_points == 21
    tournament_finish(tournament=t, user=people.director)


def test_pairing_a_withdrawn_entry_is_refused(people, night):
    t = with_pairs(people, night, 4, rounds=2)
    r1 = round_start(tournament=t, user=people.director)
    play_round(people, r1)
    out = t.entries.order_by("seed").first()
    entry_withdraw(entry=out, reason="Via", user=people.director)
    round_pair(tournament=t, user=people.director)
    other = t.entries.order_by("seed").last()
    with pytest.raises(refusals.EntryWithdrawn):
        pairing_swap(tournament=t, first=out, second=other, user=people.director)


def test_a_swap_and_a_bye_before_the_round_starts(people, night):
    t = with_pairs(people, night, 4)
    r1 = round_pair(tournament=t, user=people.director)
    a, b = (p.home for p in r1.pairings.order_by("board"))
    pairing_swap(tournament=t, first=a, second=b, user=people.director)
    assert r1.pairings.get(board=1).home == b
    pairing_bye(tournament=t, entry=a, user=people.director)
    assert r1.pairings.filter(away=None).count() == 2
    round_start(tournament=t, user=people.director)
    assert Match.objects.filter(night=night).count() == 1
    with pytest.raises(refusals.RoundStarted):
        pairing_swap(tournament=t, first=a, second=b, user=people.director)


def test_a_straight_knockout_sends_its_winners_on(people, night):
    t = with_pairs(people, night, 5, format="knockout")
    r1 = round_start(tournament=t, user=people.director)
    assert r1.pairings.filter(away=None).count() == 3  # 8 places: the top three seeds rest
    play_round(people, r1)
    winners = {selectors.pairing_scores(t)[p.pk].winner for p in r1.pairings.all()}
    r2 = round_start(tournament=t, user=people.director)
    assert {e for p in r2.pairings.all() for e in (p.home_id, p.away_id)} == winners
    play_round(people, r2)
    r3 = round_start(tournament=t, user=people.director)
    play_round(people, r3)
    tournament_finish(tournament=t, user=people.director)
    places = selectors.final_places(t)
    assert places[0][0] == 1 and len(places[0][1]) == 1


def test_groups_then_a_knockout(people, night):
    t = with_pairs(people, night, 8, format="groups", group_size=4, qualifiers=2)
    groups = selectors.groups_of(t)
    assert groups == {}
    r1 = round_start(tournament=t, user=people.director)
    groups = selectors.groups_of(t)
    assert [len(g) for g in groups.values()] == [4, 4]
    assert r1.stage == "group"
    for _ in range(2):
        play_round(people, r1)
        r1 = round_start(tournament=t, user=people.director)
    assert r1.stage == "group" and r1.number == 3
    play_round(people, r1)
    ko = round_start(tournament=t, user=people.director)
    assert ko.stage == "knockout" and ko.pairings.count() == 2
    tops = {rows[0].entry.pk for rows in selectors.group_standings(t).values()}
    assert tops <= {e for p in ko.pairings.all() for e in (p.home_id, p.away_id)}
    play_round(people, ko)
    final = round_start(tournament=t, user=people.director)
    play_round(people, final)
    tournament_finish(tournament=t, user=people.director)


def test_a_refused_pair_leaves_no_guest_behind(people, night):
    from scorebook.clubs.models import Player

    t = tournament(people, night)
    nino, ettore, _, _ = people.seated
    entry_add(tournament=t, players=[nino.pk, ettore.pk], user=people.director)
    with pytest.raises(refusals.PlayerAlreadyIn):
        entry_add(tournament=t, players=["Zia Rosa", nino.pk], user=people.director)
    assert not Player.objects.filter(name="Zia Rosa").exists()
    assert t.entries.count() == 1


@pytest.mark.parametrize(
    "settings, path",
    [
        ({"rounds": 0}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"group_size": 6}, "group_size"),
        ({"format": "ladder"}, "format"),
        ({"tiebreaks": ["lot", "match_points"]}, "tiebreaks"),
        ({"tiebreaks": "match_points"}, "tiebreaks"),
        ({"entry_fee": "NaN", "currency": "EUR"}, "entry_fee"),
        ({"entry_fee": "-1", "currency": "EUR"}, "entry_fee"),
        ({"entry_fee": "5"}, "currency"),
        ({"entry_fee": "5", "currency": "euro"}, "currency"),
        ({"entry_fee": "5", "currency": "EUR", "prizes": "50"}, "prizes"),
        ({"entry_fee": "5", "currency": "EUR", "prizes": [{"a": 1}]}, "prizes[0]"),
        ({"series": "best_of", "series_games": 0}, "series_games"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**60}, "seed"),
        ({"colour": "red"}, "colour"),
        ({"name": ""}, "name"),
    ],
)
def test_bad_settings_are_refused_in_words(people, night, settings, path):
    with pytest.raises(refusals.TournamentSettings) as refused:
        tournament(people, night, **settings)
    assert refused.value.path == path and refused.value.text()
    assert not night.tournaments.exists()


def test_settings_change_before_round_one_and_only_some_after(people, night):
    t = with_pairs(people, night, 4, entry_fee="5", currency="EUR", prizes=["70"])
    tournament_update(
        tournament=t, changes={"rounds": 2, "format": "knockout"}, user=people.director
    )
    t.refresh_from_db()
    assert (t.rounds, t.format) == (2, "knockout")
    with pytest.raises(refusals.TournamentSettings):  # fees are paid
        tournament_update(tournament=t, changes={"entry_fee": "6"}, user=people.director)
    round_pair(tournament=t, user=people.director)
    with pytest.raises(refusals.TournamentSettings):
        tournament_update(tournament=t, changes={"rounds": 4}, user=people.director)
    tournament_update(
        tournament=t, changes={"tiebreaks": ["match_points", "lot"]}, user=people.director
    )
    t.refresh_from_db()
    assert t.tiebreaks == ["match_points", "lot"]
    assert AuditEvent.objects.filter(verb="tournament_changed").count() == 2


def test_a_single_leaving_before_the_draw_gets_the_fee_back(people, night):
    t = tournament(people, night, entry_fee="5", currency="EUR")
    a, b, c = players(people.club, 3)
    single = single_add(tournament=t, player=a.pk, user=people.director)
    single_add(tournament=t, player=b.pk, user=people.director)
    single_add(tournament=t, player=c.pk, user=people.director)
    single_withdraw(single=single, reason="Telefonata", user=people.director)
    assert selectors.pot_balance(t) == Decimal("10.00")
    singles_draw(tournament=t, user=people.director)
    drawn = t.singles.first()
    with pytest.raises(refusals.SingleDrawn):
        single_withdraw(single=drawn, reason="x", user=people.director)


def test_a_knockout_best_of_three_plays_its_next_match_at_the_same_table(people, night):
    t = with_pairs(people, night, 2, format="knockout", series="best_of", series_games=3)
    final = round_start(tournament=t, user=people.director)
    pairing = final.pairings.get()
    play_round(people, final)  # home wins the first game
    score = selectors.pairing_scores(t)[pairing.pk]
    assert score.needs_match and not score.decided and score.home_wins == 1
    with pytest.raises(refusals.PairingUndecided):
        tournament_finish(tournament=t, user=people.director)
    second = pairing_next_match(pairing=pairing, user=people.director)
    assert second.table == pairing.table
    with pytest.raises(refusals.NoBellaNeeded):  # one is being played
        pairing_next_match(pairing=pairing, user=people.director)
    finish_match(people, second)
    score = selectors.pairing_scores(t)[pairing.pk]
    assert score.decided and score.winner == pairing.home_id
    tournament_finish(tournament=t, user=people.director)


def test_a_tournament_is_not_finished_before_its_last_round(people, night):
    t = with_pairs(people, night, 4, rounds=2)
    r1 = round_start(tournament=t, user=people.director)
    play_round(people, r1)
    with pytest.raises(refusals.NotFinishedYet) as refused:
        tournament_finish(tournament=t, user=people.director)
    assert "1" in refused.value.text() and "2" in refused.value.text()
    round_start(tournament=t, user=people.director)
    with pytest.raises(refusals.MatchStillOpen):
        tournament_finish(tournament=t, user=people.director)
    t.refresh_from_db()
    assert t.status == "running"


def test_refusals_speak_italian(people, night):
    from django.utils import translation

    with pytest.raises(refusals.PrizeSplitOver) as refused:
        tournament(people, night, entry_fee="5", currency="EUR", prizes=["80"], club_share="30")
    with translation.override("it"):
        assert refused.value.text() == (
            "I premi e la quota del circolo fanno 110%: al massimo 100%."
        )
    t = with_pairs(people, night, 2)
    round_start(tournament=t, user=people.director)
    with pytest.raises(refusals.MatchStillOpen) as refused:
        round_start(tournament=t, user=people.director)
    with translation.override("it"):
        assert refused.value.text().startswith("La partita al tavolo 1 (")
    assert list(selectors.tournaments_of_night(night.pk)) == [t]


def test_no_withdrawal_in_the_middle_of_a_round(people, night):
    from django.utils import translation

    t = with_pairs(people, night, 2)
    round_start(tournament=t, user=people.director)
    with pytest.raises(refusals.RoundInProgress) as refused:
        entry_withdraw(entry=t.entries.first(), reason="Via", user=people.director)
    with translation.override("it"):
        assert refused.value.text() == (
            "Il turno 1 è ancora in corso: le sue partite non sono tutte finite."
        )
    assert not t.entries.exclude(withdrawn_at=None).exists()


def test_withdrawing_from_a_paired_swiss_round_repairs_it(people, night):
    t = with_pairs(people, night, 5, entry_fee="5", currency="EUR")
    r1 = round_pair(tournament=t, user=people.director)
    resting = r1.pairings.get(away=None).home
    leaving = r1.pairings.get(board=1).home
    opponent = r1.pairings.get(board=1).away
    entry_withdraw(entry=leaving, reason="Riparte", user=people.director)
    assert not r1.pairings.filter(away=None).exists()  # the one resting now plays
    assert r1.pairings.filter(home=resting, away=opponent).exists()
    assert selectors.pot_balance(t) == Decimal("40.00")  # nothing played yet: fees back
    round_start(tournament=t, user=people.director)
    assert Match.objects.filter(night=night).count() == 2
    with pytest.raises(refusals.ReasonNeeded):
        entry_withdraw(entry=opponent, reason="   ", user=people.director)
    with pytest.raises(refusals.ReasonNeeded):
        entry_withdraw(entry=opponent, reason=None, user=people.director)


def test_withdrawing_from_a_paired_knockout_round_forfeits_it(people, night):
    t = with_pairs(people, night, 4, format="knockout", entry_fee="5", currency="EUR")
    r1 = round_pair(tournament=t, user=people.director)
    first = r1.pairings.get(board=1)
    entry_withdraw(entry=first.home, reason="Malore", user=people.director)
    first.refresh_from_db()
    assert first.forfeited_by_id == first.home_id
    # the bracket stands (the pairing is forfeited) but round 1 has not started: the
    # pair has not played, so its fees come back, as in every format
    assert selectors.pot_balance(t) == Decimal("30.00")
    r1 = round_start(tournament=t, user=people.director)
    assert Match.objects.filter(night=night).count() == 1
    play_round(people, r1)
    final = round_start(tournament=t, user=people.director)
    assert first.away_id in {final.pairings.get().home_id, final.pairings.get().away_id}


def test_a_late_pair_joins_a_swiss_tournament_from_the_next_round(people, night):
    t = with_pairs(people, night, 3, rounds=3, entry_fee="5", currency="EUR")
    r1 = round_start(tournament=t, user=people.director)
    a, b = players(people.club, 2, prefix="Late")
    with pytest.raises(refusals.RoundInProgress):  # not while round 1 is played
        entry_add(tournament=t, players=[a.pk, b.pk], user=people.director)
    play_round(people, r1)
    late = entry_add(tournament=t, players=[a.pk, b.pk], user=people.director)
    assert late.first_round == 2 and late.lot == 4
    assert selectors.pot_balance(t) == Decimal("40.00")
    r2 = round_pair(tournament=t, user=people.director)
    playing = {e for p in r2.pairings.all() for e in (p.home_id, p.away_id) if e}
    assert late.pk in playing and len(playing) == 4
    row = next(r for r in selectors.standings(t) if r.entry.pk == late.pk)
    assert row.row.match_points == 0 and row.row.played == 0


def test_a_knockout_takes_no_late_pairs(people, night):
    t = with_pairs(people, night, 4, format="knockout")
    round_pair(tournament=t, user=people.director)
    a, b = players(people.club, 2, prefix="Late")
    with pytest.raises(refusals.RegistrationClosed):
        entry_add(tournament=t, players=[a.pk, b.pk], user=people.director)
    assert t.entries.count() == 4


@pytest.mark.parametrize("fmt", ["groups", "knockout"])
def test_fees_come_back_until_round_one_starts_and_stay_after(people, night, fmt):
    """The refund rule in every format: a pair that withdraws before round 1 starts (the
    groups or the bracket already drawn) gets its fees back; one that withdraws after it
    played round 1 does not; the night stays zero-sum."""
    t = with_pairs(people, night, 6, format=fmt, group_size=3, entry_fee="5", currency="EUR")
    r1 = round_pair(tournament=t, user=people.director)
    early = r1.pairings.exclude(away=None).order_by("board").first().home
    entry_withdraw(entry=early, reason="Malore", user=people.director)
    assert selectors.pot_balance(t) == Decimal("50.00")
    r1 = round_start(tournament=t, user=people.director)
    play_round(people, r1)
    late = next(
        e for p in r1.pairings.exclude(away=None) for e in (p.home, p.away) if e.pk != early.pk
    )
    if fmt == "groups":  # between group rounds
        entry_withdraw(entry=late, reason="Stanchi", user=people.director)
        assert selectors.pot_balance(t) == Decimal("50.00")
    for group in balances(LedgerEntry.objects.filter(night=night)).values():
        assert sum(group.values(), Decimal(0)) == 0


def test_a_late_pair_that_leaves_before_its_first_round_gets_its_fees_back(people, night):
    t = with_pairs(people, night, 4, rounds=3, entry_fee="5", currency="EUR")
    r1 = round_start(tournament=t, user=people.director)
    play_round(people, r1)
    a, b = players(people.club, 2, prefix="Late")
    late = entry_add(tournament=t, players=[a.pk, b.pk], user=people.director)
    assert selectors.pot_balance(t) == Decimal("50.00")
    entry_withdraw(entry=late, reason="Ripensamento", user=people.director)
    assert selectors.pot_balance(t) == Decimal("40.00")
    r2 = round_start(tournament=t, user=people.director)
    play_round(people, r2)
    out = r2.pairings.exclude(away=None).first().home
    entry_withdraw(entry=out, reason="Stanchi", user=people.director)
    assert selectors.pot_balance(t) == Decimal("40.00")  # it played: the fees stay
