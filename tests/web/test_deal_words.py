"""A deal's page in words: the number column says chips where the match is played for
chips (Spinado; Terziglio settled in chips), and the trick-by-trick list names the players,
not only their seats."""

import random
import re

import pytest

from scorebook.clubs.models import Player
from scorebook.matches import services
from scorebook.matches.models import Deal
from scorebook.rules import start_match
from scorebook.web.breakdown import trick_words
from scorebook.web.deal_forms import Table
from tests.web.test_deal_pages import as_


def _match(people, game, players, rules=None):
    night = services.night_open(
        club_id=people.club.pk, date="2026-11-20", venue="", user=people.director
    )
    seated = people.seated[:players]
    seats = dict(
        zip(
            start_match(game, rules or {}, players, None)[2].seats,
            (p.pk for p in seated),
            strict=True,
        )
    )
    return services.match_create(
        night=night, game=game, rules=rules or {}, seats=seats, user=people.director
    )


def _random_deal(match, level, seed=7):
    """A deal the engine accepts, as a phone would send it."""
    game, rules, state = start_match(
        match.game, match.rules["values"], match.players, match.first_dealer
    )
    data = game.random_deal(random.Random(seed), rules, state, level)
    return services.deal_create(match=match, data=data, expected_number=1, user=match.created_by)


def _heading(body):
    return re.search(r'<th scope="col" class="num">([^<]*)</th>', body).group(1)


@pytest.mark.parametrize(
    ("game", "players", "rules", "english", "italian"),
    [
        ("spinado", 3, {}, "Chips", "Fiches"),
        ("terziglio", 3, {"terz.settlement": "chips_zero_sum"}, "Chips", "Fiches"),
        ("terziglio", 3, {}, "Points", "Punti"),
        ("tressette4", 4, {}, "Points", "Punti"),
    ],
)
def test_the_deal_page_counts_in_the_matchs_unit(people, game, players, rules, english, italian):
    match = _match(people, game, players, rules)
    deal = _random_deal(match, "totals")
    client = as_(people, "member")
    assert _heading(client.get(f"/d/{deal.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()) == (
        english
    )
    assert _heading(client.get(f"/d/{deal.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()) == (
        italian
    )


def test_the_live_check_of_a_spinado_deal_counts_chips(people):
    match = _match(people, "spinado", 3)
    fields = {"level": "totals", "out_first": "P2", "cards_left.P1": "2", "cards_left.P3": "9",
              "spinado_played_by": "P2"}  # fmt: skip
    body = (
        as_(people, "scorer")
        .post(f"/m/{match.pk}/deals/check", fields, HTTP_ACCEPT_LANGUAGE="it")
        .content.decode()
    )
    assert 'class="verdict ok"' in body, body[:3000]
    assert _heading(body) == "Fiches"


def test_the_tricks_name_who_led_and_who_took_them(people):
    match = _match(people, "tressette4", 4)
    deal = _random_deal(match, "play")
    tricks = deal.result["facts"]["play"]["tricks"]
    names = {seat: Player.objects.get(pk=pk).name for seat, pk in match.seats.items()}
    client = as_(people, "member")
    for language, leads in (("en", "leads"), ("it", "è di mano")):
        body = client.get(f"/d/{deal.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        listed = body.split('<ol class="tricks">', 1)[1].split("</ol>", 1)[0]
        items = re.findall(r"<li>(.*?)</li>", listed, re.S)
        assert len(items) == len(tricks) == 10
        for item, trick in zip(items, tricks, strict=True):
            leader, winner = trick["leader"], trick["winner"]
            assert f"{names[leader]} ({leader}) {leads}:" in item
            assert f"→ <strong>{names[winner]} ({winner})</strong>" in item


def test_the_tricks_keep_the_seat_when_no_name_is_known():
    game, rules, state = start_match("tressette4", {}, 4, None)
    table = Table(game="tressette4", rules=rules.values, state=state, names={"N": "Nino"})
    result = {"facts": {"play": {"tricks": [{"leader": "N", "cards": ["3d"], "winner": "E"}]}}}
    assert trick_words(result, table) == [{"leader": "Nino (N)", "cards": ["3d"], "winner": "E"}]
    assert trick_words({}, table) == [] and trick_words(None, table) == []


def test_a_deal_stored_by_another_phone_names_the_players_in_both_versions(people):
    """The 409 page shows the stored deal with its tricks by name, in the match's unit."""
    match = _match(people, "tressette4", 4)
    _random_deal(match, "play")
    client = as_(people, "scorer")
    answer = client.post(
        f"/m/{match.pk}/deals/new",
        {
            "level": "totals",
            "sides.A.thirds": "14",
            "sides.A.tricks": "4",
            "last_trick": "B",
            "expected_number": "1",
            "idempotency_key": "8d4d6b4e-1a54-4d3f-9a43-5c0d7f0e1a11",
        },
    )
    assert answer.status_code == 409
    body = answer.content.decode()
    assert "Points" in body and re.search(r"(Nino|Ettore|Salvo|Walter) \([NESW]\) leads", body)
    assert Deal.objects.filter(match=match).count() == 1


def test_declarations_are_said_in_words_on_the_deal_and_match_pages(people):
    """The pages said "accuso (three)" and "accuso (napoletana, d)": the engine's codes."""
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    data = {
        "level": "totals",
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "declarations": [
            {"player": "N", "type": "napoletana", "suit": "d"},
            {"player": "E", "type": "three", "rank": "3", "missing": "d"},
        ],
    }
    deal = services.deal_create(match=match, data=data, expected_number=1, user=people.director)
    client = as_(people, "member")
    for url in (f"/d/{deal.pk}/", f"/m/{match.pk}/"):
        italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "napoletana di denari" in italian and "tris di 3, senza denari" in italian, url
        assert "(three" not in italian and ", d)" not in italian, url
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "napoletana of coins" in english and "three 3s, no coins" in english, url
