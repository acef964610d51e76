"""The quick form's dense layout (issue 32 item 3, no scroll) through HTTP: the live check
leaves the fields still to fill where they are, the rare choices are folded under one
"More", the call grid shows one rank at a time, and the figures sit beside the points."""

import re

from tests.web.test_deal_pages import as_
from tests.web.test_deal_words import _match


def _slots(body):
    """The error slots the check fills in place, with what they hold."""
    return {
        m.group(1): m.group(2).strip()
        for m in re.finditer(
            r'<div id="([^"]+-err)" class="slot" hx-swap-oob="true">(.*?)</div>', body, re.S
        )  # fmt: skip
    }


def test_the_live_check_leaves_what_is_not_filled_yet_beside_the_save_button(people):
    """Tressette for three, one player's points typed: the check put "fill in the
    deal: every player's points" in red over the next fields and "'tricks' è
    obbligatorio" over the section, pushing the fields still to fill out of the screen at
    each keystroke. Now no slot holds a note; the verdict beside the save button lists
    them."""
    match = _match(people, "tressette3", 3)
    body = (
        as_(people, "scorer")
        .post(
            f"/m/{match.pk}/deals/check",
            {"level": "quick", "seats.P1.thirds": "4"},
            HTTP_ACCEPT_LANGUAGE="it",
        )  # fmt: skip
        .content.decode()
    )
    assert not any(_slots(body).values()), _slots(body)
    verdict = body.split('<div class="verdict pending" role="status">', 1)[1].split("</div>", 1)
    assert "Non ancora accettata:" in verdict[0] and '<ul class="notes"><li>' in verdict[0]


def test_a_typed_value_out_of_range_is_still_said_by_its_field(people):
    match = _match(people, "tressette3", 3)
    body = (
        as_(people, "scorer")
        .post(
            f"/m/{match.pk}/deals/check",
            {"level": "quick", "seats.P1.thirds": "40"},
            HTTP_ACCEPT_LANGUAGE="it",
        )  # fmt: skip
        .content.decode()
    )
    assert "deve essere tra" in _slots(body)["f-seats-P1-thirds-err"]


def test_the_rare_choices_are_folded_under_one_more_at_the_foot(people):
    """Calabrasella: the revoke and "the bidder held all four 3s" sat between the call and
    the points; they are in one closed fold after every section."""
    match = _match(people, "calabrasella", 3)
    page = as_(people, "scorer").get(f"/m/{match.pk}/deals/new", HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    more = body.index("<summary>More: rare cases</summary>")
    assert body.rindex('<details class="section"', 0, more) > body.index('name="last_trick"')
    assert body.index('name="revoke"') > more and body.index('name="holds_all_threes"') > more
    assert '<details class="section" open>\n  <summary>More' not in body


def test_the_call_grid_shows_the_3s_and_switches_to_the_2s(people):
    match = _match(people, "calabrasella", 3)
    body = as_(people, "scorer").get(f"/m/{match.pk}/deals/new").content.decode()
    assert re.search(r'name="call~rank" value="3" checked', body)
    assert re.search(r'name="call~rank" value="2">', body)
    assert body.count('<tbody class="rank" data-rank="3">') == 1
    assert body.count('<tbody class="rank" data-rank="2">') == 1


def test_each_cell_of_the_call_grid_says_whose_it_is(people):
    """At 360 px a row of column titles (the rank switch in its corner, 44 px tall) sat
    between the grid's title and its cells: the switch is on the title's line now, and
    each cell says whose it is ("tallone", the stock, in a fifth of the phone)."""
    match = _match(people, "calabrasella", 3)
    page = as_(people, "scorer").get(f"/m/{match.pk}/deals/new", HTTP_ACCEPT_LANGUAGE="it")
    body = page.content.decode()
    grid = body.split('<fieldset class="chips callgrid"', 1)[1].split("</fieldset>", 1)[0]
    assert "<thead>" not in grid and 'scope="col"' not in grid
    assert grid.index('class="rank-switch"') < grid.index("<table>")
    cells = re.findall(r'<span aria-hidden="true">([^<]+)</span><small class="visually-hidden">'
                       r"([^<]+)</small>", grid)  # fmt: skip
    assert cells[3] == ("tallone", "tre di coppe: tallone")
    assert {place for place, _name in cells[:3]} == {"Ettore", "Nino", "Salvo"}


def test_the_figures_sit_beside_the_points(people):
    match = _match(people, "tressette4", 4, {"profile": "accuso_41"})
    body = as_(people, "scorer").get(f"/m/{match.pk}/deals/new").content.decode()
    row = body.split('<div class="field with-tail', 1)[1].split('<div class="field', 1)[0]
    assert 'name="sides.A.thirds"' in row and 'name="sides.A.thirds~figures"' in row
    assert body.count('name="sides.A.thirds~figures" value="0"') == 1


def test_a_long_title_stays_above_its_two_chips(people):
    """Tressette for three at 360 px: "Points lost to the figures left over" beside its
    two chips took five lines; a title of more than 16 characters stays above them, the
    last trick's beside."""
    match = _match(people, "tressette3", 3)
    body = as_(people, "scorer").get(f"/m/{match.pk}/deals/new", HTTP_ACCEPT_LANGUAGE="en")
    body = body.content.decode()
    assert re.search(r'<fieldset class="chips long-title" id="f-seats-lost"', body)
    assert '<fieldset class="chips" id="f-last-trick"' in body
