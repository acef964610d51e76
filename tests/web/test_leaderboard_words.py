"""The leaderboard's contract columns in words: a column said "solissimo_scegliete (bid)"."""

import datetime

from scorebook.matches import services
from scorebook.standings import refresh
from scorebook.standings import services as standings
from tests.web.test_deal_pages import as_
from tests.web.test_deal_words import _match

SCEGLIETE = {
    "monte_shares": {"P3": 2, "P1": 2},
    "sides": {"soloist": {"thirds": 32, "tricks": 12}, "coalition": {"thirds": 0, "tricks": 0}},
    "last_trick": "soloist",
    "bids": [
        {"player": "P2", "bid": "solissimo_scegliete"},
        {"player": "P3", "bid": "pass"},
        {"player": "P1", "bid": "pass"},
    ],
}


def test_the_contract_columns_are_named_in_words(people):
    match = _match(people, "terziglio", 3, {"profile": "chips_1_2_4_8_16"})
    services.deal_create(match=match, data=SCEGLIETE, expected_number=1, user=people.director)
    standings.season_create(
        club_id=people.club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people.director,
    )
    refresh.rebuild(club_id=people.club.pk)
    client = as_(people, "member")
    url = f"/c/{people.club.slug}/standings/"
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "solissimo aggravato, scegliete (dichiarati)" in italian
    assert "solissimo_scegliete (" not in italian
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "solissimo aggravato, scegliete (bid)" in english
