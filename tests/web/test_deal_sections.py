"""A folded section of the deal form opens when it holds something: correcting a deal
with declarations showed "Declarations" folded, as if there were none, and a form sent
back refused hid its note in red inside a folded section."""

import re

from scorebook.clubs.models import Player
from scorebook.matches import services
from tests.web.test_deal_pages import as_, save
from tests.web.test_deal_words import _match

DEAL = {
    "level": "totals",
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
    "declarations": [{"player": "N", "type": "napoletana", "suit": "d"}],
}


def _open(body, title):
    """Whether the section titled ``title`` is rendered open."""
    tag = re.search(r"<details class=\"section\"( open)?>\s*<summary>" + title, body)
    assert tag, title
    return bool(tag.group(1))


def test_a_correction_opens_the_sections_it_fills(people):
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    deal = services.deal_create(match=match, data=DEAL, expected_number=1, user=people.director)
    client = as_(people, "director")
    body = client.get(f"/d/{deal.pk}/correct", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _open(body, "Declarations") and not _open(body, "Deal annulled")
    fresh = client.get(f"/m/{match.pk}/deals/new?level=totals", HTTP_ACCEPT_LANGUAGE="en")
    fresh = fresh.content.decode()
    assert not _open(fresh, "Declarations") and _open(fresh, "Points and tricks")


def test_a_refused_declaration_is_shown_open(people):
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    answer = save(
        as_(people, "director"),
        match,
        **{"declarations[0].player": "N", "declarations[0].type": "napoletana"},  # no suit
    )
    assert answer.status_code == 400
    assert _open(answer.content.decode(), "Declarations")


def test_the_checks_say_what_to_fill_in_not_the_deal_formats_keys(people):
    """A Terziglio solissimo aggravato scegliete, bid chosen and nothing else yet: the notes
    said "'sides' è obbligatorio" and "('monte_shares', es. {"P1": 3, "P3": 1})"."""
    match = _match(people, "terziglio", 3, {"profile": "chips_1_2_4_8_16"})
    client = as_(people, "scorer")
    fields = {"level": "totals", "auction.winner": "P2", "auction.bid": "solissimo_scegliete"}
    italian = client.post(
        f"/m/{match.pk}/deals/check", fields, HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert "Compila «Punti e prese»." in italian
    assert "quante carte del monte ha scelto ciascun avversario" in italian
    assert "&#x27;sides&#x27;" not in italian and "&quot;P1&quot;" not in italian
    english = client.post(
        f"/m/{match.pk}/deals/check", fields, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Fill in «Points and tricks»." in english and "monte_shares" not in english


def test_every_piece_the_check_sends_has_its_place_on_the_page(people):
    """The check sent a "rest" for every select and tick box too, which the page does not
    have: htmx logged an error for each (htmx:oobErrorNoTarget) on every keystroke."""
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    client = as_(people, "scorer")
    page = client.get(f"/m/{match.pk}/deals/new?level=totals").content.decode()
    check = client.post(
        f"/m/{match.pk}/deals/check", {"level": "totals", "sides.A.thirds": "20"}
    ).content.decode()
    sent = re.findall(r'id="([^"]+)"[^>]*hx-swap-oob', check)
    assert "f-sides-B-thirds-rest" in sent
    missing = [i for i in sent if f'id="{i}"' not in page]
    assert not missing, missing


def test_the_totals_say_what_a_third_is(people):
    """The form asked for "terzi" without a word on what a third is worth."""
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    client = as_(people, "scorer")
    italian = client.get(
        f"/m/{match.pk}/deals/new?level=totals", HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    assert "Terzi: l&#x27;asso vale 3; il 3, il 2 e ogni figura valgono 1" in italian
    cards = client.get(f"/m/{match.pk}/deals/new?level=cards", HTTP_ACCEPT_LANGUAGE="en")
    assert "an ace is 3" not in cards.content.decode()  # the grid counts for itself


def test_a_rejection_names_the_players_not_only_their_seats(people):
    """VISION's example: E cannot declare three 3s that N's napoletana already holds. The
    note said "N ha accusato napoletana di denari e E ha accusato ...", E read as "e"."""
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    name = {seat: Player.objects.get(pk=pk).name for seat, pk in match.seats.items()}
    fields = {
        "level": "totals", "sides.A.thirds": "20", "sides.A.tricks": "6", "last_trick": "A",
        "declarations[0].player": "N", "declarations[0].type": "napoletana",
        "declarations[0].suit": "d",
        "declarations[1].player": "E", "declarations[1].type": "three",
        "declarations[1].rank": "3", "declarations[1].missing": "c",
    }  # fmt: skip
    body = as_(people, "scorer").post(
        f"/m/{match.pk}/deals/check", fields, HTTP_ACCEPT_LANGUAGE="it"
    )
    text = body.content.decode()
    assert f"{name['N']} (N) ha accusato napoletana di denari e {name['E']} (E) ha accusato" in (
        text
    )


def test_the_verdict_beside_the_save_button_repeats_the_notes(people):
    """ "Not accepted yet: see the notes in red" sat under a long form whose notes were a
    scroll above, out of sight."""
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    body = (
        as_(people, "scorer")
        .post(
            f"/m/{match.pk}/deals/check",
            {"level": "totals", "sides.A.thirds": "40", "sides.B.thirds": "1"},
            HTTP_ACCEPT_LANGUAGE="it",
        )
        .content.decode()
    )
    verdict = body.split('<div class="verdict" role="status">', 1)[1].split("</div>", 1)[0]
    assert '<ul class="notes"><li>' in verdict and "deve essere tra" in verdict
