"""The same pair order on the deal form and the match page (issue 32 item 5): both write a
side's players in the order the engine's description of the table gives its members. The
match page followed the seats' playing order (N, W, S, E) and wrote "Walter & Ettore"
under the form's "Ettore & Walter"."""

import html
import re

from django.test import Client

from scorebook.matches import services
from scorebook.rules import get_game
from tests.api.common import SIDES


def _sides(text: str, block: str, item: str) -> list[str]:
    part = re.search(block, text, re.S)
    assert part, block
    return [
        html.unescape(re.sub(r"\s+", " ", who)).strip()
        for who in re.findall(item, part.group(0), re.S)
    ]


def test_form_and_match_page_name_each_pair_in_one_order(people):
    night = services.night_open(
        club_id=people.club.pk, date="2026-11-20", venue="", user=people.director
    )
    seats = dict(zip("NESW", (p.pk for p in people.seated), strict=True))
    match = services.match_create(
        night=night, game="tressette4", rules={}, seats=seats, user=people.director
    )
    services.deal_create(match=match.pk, data=SIDES, expected_number=1, user=people.director)
    client = Client()
    client.force_login(people.director)

    form = client.get(f"/m/{match.pk}/deals/new", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    page = client.get(f"/m/{match.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    on_form = _sides(form, r'<p class="scoreline".*?</p>', r"<span[^>]*>([^<]*)<strong")
    on_page = _sides(page, r'<div class="scoreboard"[^>]*>.*', r'<div class="who">([^<]*)</div>')

    names = {seat: p.name for seat, p in zip("NESW", people.seated, strict=True)}
    shape = get_game(match.game).table_shape(match.rules["values"], tuple(match.seat_order()))
    engine = [" & ".join(names[s] for s in members) for members in shape.members.values()]
    assert on_form == engine
    assert on_page == engine  # was ["Nino & Salvo", "Walter & Ettore"]
