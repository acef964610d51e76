"""A forfeit "a tavolino" ends the pairing's match: abandoned with the forfeit's reason,
no deal added afterwards, the round closes, and the night's room and close page do not
list it as still being played."""

import pytest
from django.test import Client
from django.urls import reverse

from scorebook.matches import refusals as match_refusals
from scorebook.matches import services as matches
from scorebook.matches.models import Match
from scorebook.tournaments import selectors
from scorebook.tournaments.services.results import pairing_forfeit
from scorebook.tournaments.services.rounds import round_start

from .helpers import FIRST_SIDE_WINS, finish_match, with_pairs


def test_a_forfeit_abandons_the_open_match_with_its_reason(people, night):
    t = with_pairs(people, night, 4, rounds=2)
    r1 = round_start(tournament=t, user=people.director)
    first, second = r1.pairings.order_by("board")
    left = first.games.get().match
    # a deal was played before the pair left the table: it stays
    matches.deal_create(match=left, data=FIRST_SIDE_WINS, expected_number=1, user=people.scorer)
    finish_match(people, second.games.get().match)
    pairing_forfeit(
        pairing=first, entry=first.away, reason="Se ne sono andati", user=people.director
    )
    left.refresh_from_db()
    assert left.status == Match.Status.ABANDONED
    assert left.ended_reason == "Se ne sono andati"
    assert left.deals.count() == 1
    with pytest.raises(match_refusals.MatchAbandoned):
        matches.deal_create(match=left, data=FIRST_SIDE_WINS, expected_number=2, user=people.scorer)
    state = selectors.round_state(t, r1)
    assert state.status == "closed" and not state.open_matches
    score = selectors.pairing_scores(t)[first.pk]
    assert score.status == "forfeit" and score.winner == first.home_id
    assert not Match.objects.filter(night=night, status=Match.Status.OPEN).exists()
    round_start(tournament=t, user=people.director)  # round 2 goes on


def test_the_room_and_the_close_page_do_not_list_it_as_unfinished(people, night):
    t = with_pairs(people, night, 2, rounds=1)
    r1 = round_start(tournament=t, user=people.director)
    pairing = r1.pairings.get()
    match = pairing.games.get().match
    pairing_forfeit(
        pairing=pairing, entry=pairing.home, reason="Non si sono presentati", user=people.director
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.director)
    closing = client.get(reverse("web:night_close", args=[night.pk]))
    assert closing.status_code == 200
    assert closing.context["to_stop"] == [] and closing.context["to_abandon"] == []
    room = client.get(reverse("web:night_room", args=[night.pk]))
    row = next(r for r in room.context["rows"] if r["match"].pk == match.pk)
    assert not row["behind"]
    assert "abandoned" in room.content.decode()
    page = client.get(reverse("web:match", args=[match.pk]))
    assert "The match was abandoned: Non si sono presentati" in page.content.decode()


def test_a_finished_match_is_not_abandoned_and_a_correction_keeps_it_abandoned(people, night):
    t = with_pairs(people, night, 4, rounds=1)
    r1 = round_start(tournament=t, user=people.director)
    first, second = (p.games.get().match for p in r1.pairings.order_by("board"))
    deal = matches.deal_create(
        match=first, data=FIRST_SIDE_WINS, expected_number=1, user=people.scorer
    )
    matches.match_abandon(match=first, reason="Malore", user=people.director)
    matches.deal_correct(
        deal=deal, data=FIRST_SIDE_WINS, reason="svista", user=people.director, expected_version=1
    )
    first.refresh_from_db()
    assert first.status == Match.Status.ABANDONED
    finish_match(people, second)
    with pytest.raises(match_refusals.MatchFinished):
        matches.match_abandon(match=second, reason="no", user=people.director)
