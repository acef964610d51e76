"""Quick entry at the table (issue 22, step 1): the next deal's form is the default, built
from the engine's description; card points as the table says them ("6 e 2"), the other
side computed, no trick counts where the rules need none, one tap per choice, the usual
declarations as chips, and after a save the next deal's form with the deal in a line."""

import random
import re
import uuid

import pytest
from django.utils import translation

from scorebook.matches.models import Deal
from scorebook.rules import start_match
from scorebook.rules.errors import Rejection
from scorebook.web import deal_forms as forms
from tests.web.test_deal_pages import as_
from tests.web.test_deal_words import _match

NAMES = {"N": "Nino", "E": "Ettore", "S": "Salvo", "W": "Walter"}


def table(game, rules=None, players=None, dealer=None):
    _, resolved, state = start_match(game, rules, players, dealer)
    return forms.Table(game, resolved.as_dict()["values"], state, NAMES)


def score(t, deal):
    game, rules, state = start_match(t.game, t.rules, len(t.state.seats), t.state.dealer)
    return game.add_deal(state, deal, rules)


@pytest.mark.parametrize(
    "typed,figures,thirds",
    [("6", "2", 20), ("6 e 2", "", 20), ("6e2", "0", 20), ("6", "", 18), ("10", "2", 32)],
)
def test_points_and_figures_are_thirds(typed, figures, thirds):
    t = table("tressette4")
    form, deal = forms.read(
        t, "quick", {"sides.A.thirds": typed, "sides.A.thirds~figures": figures, "last_trick": "A"}
    )
    assert deal["sides"] == {"A": {"thirds": thirds}, "B": {"thirds": 32 - thirds}}
    (shown,) = [i for i in form.inputs() if i.kind == "shown"]
    assert shown.name == "sides.B.thirds" and shown.rest == 32 - thirds
    with translation.override("it"):
        assert shown.rest_text == f"{(32 - thirds) // 3} e {(32 - thirds) % 3}"


def test_an_ordinary_tressette_deal_needs_no_trick_counts():
    t = table("tressette4", {"profile": "accuso_41"})
    form = forms.build(t, "quick")
    assert not any(i.name.endswith(".tricks") for i in form.inputs())
    _, deal = forms.read(
        t,
        "quick",
        {
            "sides.A.thirds": "6",
            "sides.A.thirds~figures": "2",
            "last_trick": "B",
            "accusi.N": ["napoletana:c"],
        },
    )
    assert deal == {
        "sides": {"A": {"thirds": 20}, "B": {"thirds": 12}},
        "last_trick": "B",
        "declarations": [{"player": "N", "type": "napoletana", "suit": "c"}],
    }
    assert score(t, deal).points == {"A": 6 + 3, "B": 5}


def test_all_the_tricks_is_one_choice():
    t = table("tressette4")
    _, deal = forms.read(
        t, "quick", {"sides.A.thirds": "10", "sides.A.thirds~figures": "2", "last_trick": "A",
                     "all_tricks": "A"}
    )  # fmt: skip
    assert deal["all_tricks"] == "A" and score(t, deal).event == "cappotto"


def test_all_the_tricks_by_one_player_is_one_choice_the_cappottone():
    """A cappottone (one player took every trick) needed the Totals form with every
    player's counts; the one choice "all the tricks" now names a player alone too."""
    t = table("tressette4", {"profile": "pe"})
    with translation.override("it"):
        (choice,) = [i for i in forms.build(t, "quick").inputs() if i.name == "all_tricks"]
        assert ("S", "S · Salvo da solo") in [(v, str(text)) for v, text in choice.choices]
    _, deal = forms.read(
        t, "quick", {"sides.A.thirds": "10", "sides.A.thirds~figures": "2", "last_trick": "A",
                     "all_tricks": "S"}
    )  # fmt: skip
    assert deal["all_tricks"] == "S" and score(t, deal).event == "cappottone"
    terziglio = forms.build(table("terziglio", None, 3), "quick")
    (sides_only,) = [i for i in terziglio.inputs() if i.name == "all_tricks"]
    assert [v for v, _text in sides_only.choices] == ["", "soloist", "coalition"]


def test_all_the_points_by_one_player_is_one_choice_the_stramazzone():
    """A stramazzone (one player alone took all his side's points, the opponents a trick)
    needed the Totals form with every player's counts; one choice now names him, on the
    quick and the totals form, where the house rules play a stramazzo."""
    t = table("tressette4", {"profile": "pe"})
    with translation.override("it"):
        (choice,) = [i for i in forms.build(t, "quick").inputs() if i.name == "counters_alone"]
        assert str(choice.label) == "Tutti i punti da solo (stramazzone)"
        assert {v: str(text) for v, text in choice.choices} == {
            "": "nessuno", "N": "N · Nino", "E": "E · Ettore", "S": "S · Salvo",
            "W": "O · Walter",  # Italian seat letters (issue 32 item 5)
        }  # fmt: skip
        assert [v for v, _text in choice.choices][1:] == list(t.state.seats)  # table order
    _, deal = forms.read(
        t, "quick", {"sides.A.thirds": "10", "sides.A.thirds~figures": "2", "last_trick": "B",
                     "counters_alone": "S"}
    )  # fmt: skip
    assert deal == {
        "sides": {"A": {"thirds": 32}, "B": {"thirds": 0}},
        "last_trick": "B",
        "counters_alone": "S",
    }
    result = score(t, deal)
    assert (result.event, result.multiplier, result.points) == ("stramazzone", 6, {"A": 10, "B": 0})
    totals = [i.name for i in forms.build(t, "totals").inputs()]
    assert "counters_alone" in totals
    without = forms.build(table("tressette4", {"t4.stramazzo_def": "off"}), "quick")
    assert "counters_alone" not in [i.name for i in without.inputs()]
    terziglio = forms.build(table("terziglio", None, 3), "quick")
    assert "counters_alone" not in [i.name for i in terziglio.inputs()]


def test_declaration_chips_become_the_engines_declarations():
    t = table("tressette4", {"profile": "accuso_41"})
    _, deal = forms.read(
        t, "quick", {"accusi.E": ["three:3:d", "four:A"], "sides.A.thirds": "5",
                     "last_trick": "A"}
    )  # fmt: skip
    assert deal["declarations"] == [
        {"player": "E", "type": "three", "rank": "3", "missing": "d"},
        {"player": "E", "type": "four", "rank": "A"},
    ]


def test_a_decima_is_a_chip_and_makes_the_collatondrione():
    """The collatondrione (a decima shown) needed the detailed form: the chips had no
    decima. Two taps and the save now, the hand unplayed."""
    t = table("tressette4", {"profile": "pe"})
    with translation.override("it"):
        (chips,) = [i.choices for i in forms.build(t, "quick").inputs() if i.name == "accusi.E"]
        assert ("decima:d", "decima di Denari") in [(v, str(text)) for v, text in chips]
    _, deal = forms.read(t, "quick", {"accusi.E": ["decima:d"]})
    assert deal == {"declarations": [{"player": "E", "type": "decima", "suit": "d"}]}
    result = score(t, deal)
    assert result.event == "collatondrione" and result.points == {"A": 11, "B": 0}


def test_declaration_chips_say_what_the_deal_page_says():
    """The chips and the deal page name a declaration alike: "tris di 3, senza denari",
    "poker di assi". The quick form's words had turned the shared "3s" into "tre", so the
    deal page read "tris di tre" and the chips "tre tre, manca Denari"."""
    t = table("tressette4", {"profile": "accuso_41"})
    with translation.override("it"):
        form = forms.build(t, "quick")
        chips = {
            value: str(label)
            for inp in form.inputs()
            if inp.name == "accusi.E"
            for value, label in inp.choices
        }
    assert chips["three:3:d"].lower() == "tris di 3, senza denari"
    assert chips["four:A"] == "poker di assi"
    assert chips["four:2"] == "poker di 2"


def test_terziglio_contract_and_winner_are_chips():
    t = table("terziglio", None, 3, "P3")
    form = forms.build(t, "quick")
    kinds = {i.name: i.kind for i in form.inputs()}
    assert kinds["auction.winner"] == kinds["auction.bid"] == "chips"
    assert not any(i.name.endswith(".tricks") for i in form.inputs())  # nobody counts them
    _, deal = forms.read(
        t, "quick", {"auction.winner": "P1", "auction.bid": "solo", "sides.soloist.thirds": "7",
                     "sides.soloist.thirds~figures": "1", "last_trick": "soloist"}
    )  # fmt: skip
    assert deal["sides"] == {"soloist": {"thirds": 22}, "coalition": {"thirds": 10}}
    assert score(t, deal).facts["soloist"] == "P1"


def test_terziglio_a_call_is_one_tap_and_says_the_contract():
    """A chiamo took the contract, the card and who held it: three taps. One cell of the
    call's grid names the card and who held it, and a card called says the contract (the
    engine's description: ``call_contract``), so the winner and the cell are enough."""
    t = table("terziglio", None, 3, "P3")
    (call,) = [i for i in forms.build(t, "quick").inputs() if i.name == "call"]
    assert not any(i.name in ("called", "called_from") for i in forms.build(t, "quick").inputs())
    assert [c for c, _text in call.rows] == ["3c", "3d", "3b", "3s", "2c", "2d", "2b", "2s"]
    assert [w for w, _text in call.cols] == ["P1", "P2", "P3", "monte"]
    points = {"sides.soloist.thirds": "7", "sides.soloist.thirds~figures": "1",
              "last_trick": "soloist"}  # fmt: skip
    _, deal = forms.read(t, "quick", {"auction.winner": "P1", "call": "3c@P2", **points})
    assert (deal["called"], deal["called_from"]) == ("3c", "P2")
    assert deal["bids"][0] == {"player": "P1", "bid": "chiamo"}
    assert score(t, deal).facts["bid"] == "chiamo"
    # the soloist's own column: the card was in his own hand
    _, deal = forms.read(t, "quick", {"auction.winner": "P1", "call": "2s@P1", **points})
    assert (deal["called"], deal["called_from"]) == ("2s", "own_hand")
    assert score(t, deal).facts["soloist"] == "P1"
    # a contract tapped stays the one said: a solo with a card called is the engine's refusal
    _, deal = forms.read(
        t, "quick", {"auction.winner": "P1", "auction.bid": "solo", "call": "3c@P2", **points}
    )
    assert deal["bids"][0]["bid"] == "solo"
    with pytest.raises(Rejection) as refused:
        score(t, deal)
    assert "terz.called_without_chiamo" in {p.code for p in refused.value.problems}


def test_terziglio_contracts_on_one_row_the_rarer_a_tap_away():
    """At 360 px six contracts made three rows of chips above the call's grid (issue 32
    item 3): "all passed" is said where the winner is (nobody won the auction), chiamo,
    solo and solissimo make one row, and the aggravated solissimo (the description's
    ``rare_contracts``) sits on a row "more…" shows, open by itself when it holds the
    value. The totals form keeps every contract in its select."""
    from django.template.loader import render_to_string

    t = table("terziglio", None, 3, "P3")
    inputs = {i.name: i for i in forms.build(t, "quick").inputs()}
    winner, bid = inputs["auction.winner"], inputs["auction.bid"]
    assert [c for c, _text in winner.choices] == ["P1", "P2", "P3", "pass"]
    assert [c for c, _text in bid.usual] == ["chiamo", "solo", "solissimo"]
    assert [c for c, _text in bid.unusual] == ["solissimo_dividete", "solissimo_scegliete"]
    assert str(dict(bid.choices)["chiamo"]) == "chiamo"  # the grid beside says it calls a card
    totals = {i.name: i for i in forms.build(t, "totals").inputs()}
    assert "pass" in dict(totals["auction.bid"].choices)
    assert "pass" not in dict(totals["auction.winner"].choices)
    _, deal = forms.read(t, "quick", {"auction.winner": "pass"})
    assert deal["bids"] == [{"player": p, "bid": "pass"} for p in ("P1", "P2", "P3")]
    assert score(t, deal).as_dict()["points"] == {"P1": 0, "P2": 0, "P3": 0}
    assert forms.prefill(t, "quick", deal) == {"auction.winner": "pass"}
    assert forms.prefill(t, "totals", deal) == {"auction.bid": "pass"}
    points = {"sides.soloist.thirds": "7", "last_trick": "soloist"}
    fields = {"auction.winner": "P2", "auction.bid": "solissimo_dividete", **points}
    _, deal = forms.read(t, "quick", fields)
    assert deal["bids"][1] == {"player": "P2", "bid": "solissimo_dividete"}
    assert forms.prefill(t, "quick", deal)["auction.bid"] == "solissimo_dividete"
    with translation.override("it"):
        closed = render_to_string("web/deals/_input.html", {"inp": bid})
        bid.value = "solissimo_dividete"
        opened = render_to_string("web/deals/_input.html", {"inp": bid})
    assert '<input type="checkbox" aria-controls="f-auction-bid-more">' in closed
    assert "<span>altri…</span>" in closed
    assert '<input type="checkbox" aria-controls="f-auction-bid-more" checked>' in opened
    row = opened.split('id="f-auction-bid-more"', 1)[1]
    assert 'value="solissimo_dividete" checked' in row and 'value="solo"' not in row


def test_calabrasella_the_card_asked_for_is_one_tap():
    t = table("calabrasella", None, 3, "P3")
    (call,) = [i for i in forms.build(t, "quick").inputs() if i.name == "call"]
    assert [w for w, _text in call.cols] == ["P1", "P2", "P3", "stock"]
    _, deal = forms.read(t, "quick", {"auction.winner": "P2", "call": "3d@stock"})
    assert (deal["called"], deal["called_from"]) == ("3d", "stock")
    assert deal["bids"][-1] == {"player": "P2", "bid": "stand"}


def test_calabrasella_all_passed_is_said_where_the_winner_is():
    """With one contract there was no way to say that nobody stood: the form could not
    enter a Calabrasella pass-out."""
    t = table("calabrasella", None, 3, "P3")
    _, deal = forms.read(t, "quick", {"auction.winner": "pass"})
    assert deal["bids"] == [{"player": p, "bid": "pass"} for p in ("P1", "P2", "P3")]
    assert score(t, deal).as_dict()["annulled"] in (True, False)


def _tables():
    from scorebook.rules import games

    for key, game in sorted(games().items()):
        for players in game.player_counts[:2]:
            yield pytest.param(key, players, id=f"{key}-{players}p")


@pytest.mark.parametrize("game,players", list(_tables()))
def test_every_game_has_a_quick_form(game, players):
    """Every game of the registry: the quick form builds, asks at least one thing in one
    tap, and its first typed field is where the cursor starts."""
    form = forms.build(table(game, None, players), "quick")
    inputs = list(form.inputs())
    assert any(i.kind in ("chips", "choice") for i in inputs)
    assert sum(i.first for i in inputs) <= 1


@pytest.fixture
def t4(people):
    return _match(people, "tressette4", 4, {"profile": "accuso_41"})


def test_after_a_save_the_next_deals_form_says_what_was_saved(people, t4):
    client = as_(people, "scorer")
    page = client.get(f"/m/{t4.pk}/deals/new", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="level" value="quick"' in page and "data-first" in page
    data = {"level": "quick", "expected_number": "1", "idempotency_key": str(uuid.uuid4()),
            "sides.A.thirds": "6", "sides.A.thirds~figures": "2", "last_trick": "A"}  # fmt: skip
    answer = client.post(f"/m/{t4.pk}/deals/new?level=quick", data)
    assert answer.status_code == 303
    deal = Deal.objects.get()
    assert deal.input == {"sides": {"A": {"thirds": 20}, "B": {"thirds": 12}}, "last_trick": "A"}
    assert answer["Location"] == f"/m/{t4.pk}/deals/new?level=quick&saved={deal.pk}"
    after = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    line = re.search(r'class="saved"[^>]*>(.*?)</p>', after, re.S).group(1)
    assert "Deal 1 saved" in line and "+7" in line and "7 – 4" in line
    assert "+4" in line  # both sides' points, not only the winner's (issue 32 item 5)
    assert "Deal 2" in after and 'name="expected_number" value="2"' in after


def test_the_saved_line_writes_a_minus_sign(people):
    """Below zero the saved line writes a minus sign with the dashes spaced: Terziglio's
    "Salvo -24 · 12–12–-24" read as a range; now "Salvo −24 · 12 – 12 – −24"."""
    match = _match(people, "terziglio", 3, {"profile": "chips_1_2_4_8_16"})
    from scorebook.matches import services

    rng = random.Random(5)
    for _ in range(50):
        game, rules, state = start_match(match.game, match.rules["values"], 3, match.first_dealer)
        data = game.random_deal(rng, rules, state, "totals")
        points = game.add_deal(state, data, rules).as_dict()["points"]
        if any(v < 0 for v in points.values()):
            break
    deal = services.deal_create(match=match, data=data, expected_number=1, user=people.director)
    page = as_(people, "scorer").get(f"/m/{match.pk}/deals/new?saved={deal.pk}").content.decode()
    line = re.search(r'class="saved"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "\u2212" in line and " – " in line, line
    assert not re.search(r"[\s–]-\d", line), line


def test_a_quick_cappotto_is_corrected_on_the_totals_form(people, t4):
    """A deal entered without counts, all the tricks to one side, opens for correction
    on the totals form (it was shown as JSON: the form had no field for all_tricks)."""
    from scorebook.matches import services

    deal = services.deal_create(
        match=t4,
        data={"sides": {"A": {"thirds": 32}, "B": {"thirds": 0}}, "last_trick": "A",
              "all_tricks": "A"},
        expected_number=1,
        user=people.director,
    )  # fmt: skip
    page = as_(people, "director").get(f"/d/{deal.pk}/correct").content.decode()
    assert 'name="record"' not in page
    assert re.search(r'name="all_tricks".*?<option value="A" selected', page, re.S)


def test_after_a_save_the_other_side_confirms_on_the_same_phone(people, t4):
    """The next deal's form carries the other side's one-tap confirmation of the deal just
    saved (helper confirm's partial), which returns to the next deal's form."""
    from scorebook.web import confirming

    client = as_(people, "scorer")  # seated nowhere: the phone says who is entering
    data = {"level": "quick", "expected_number": "1", "idempotency_key": str(uuid.uuid4()),
            "sides.A.thirds": "6", "sides.A.thirds~figures": "2", "last_trick": "A",
            "entered_side": "A"}  # fmt: skip
    answer = client.post(f"/m/{t4.pk}/deals/new?level=quick", data)
    deal = Deal.objects.get()
    offered = confirming.confirm_here(t4, people.scorer, deal, back="new")
    assert offered and offered["seats"]
    page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for seat in offered["seats"]:
        assert f'data-seat="{seat["seat"]}"' in page
    assert 'name="back" value="new"' in page


def test_a_quick_stramazzone_is_saved_refused_in_words_and_corrected(people, t4):
    """On the page: one player alone named beside the points is saved as the stramazzone;
    where the opponents took a point it is refused next to the choice, in Italian; the
    deal opens for correction on the totals form with the player chosen."""
    client = as_(people, "scorer")
    page = client.get(f"/m/{t4.pk}/deals/new", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'name="counters_alone"' in page and "Tutti i punti da solo (stramazzone)" in page
    data = {"level": "quick", "expected_number": "1", "idempotency_key": str(uuid.uuid4()),
            "sides.A.thirds": "9", "sides.A.thirds~figures": "2", "last_trick": "A",
            "counters_alone": "N"}  # fmt: skip
    refused = client.post(f"/m/{t4.pk}/deals/new?level=quick", data, HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code != 303 and not Deal.objects.exists()
    words = refused.content.decode()
    assert (
        "«Tutti i punti da solo (stramazzone)» indica chi ha fatto da solo uno stramazzone" in words
    )
    assert "non prendere nessuna carta di punto" in words
    data.update({"sides.A.thirds": "10", "idempotency_key": str(uuid.uuid4())})
    answer = client.post(f"/m/{t4.pk}/deals/new?level=quick", data)
    assert answer.status_code == 303
    deal = Deal.objects.get()
    assert deal.input == {"sides": {"A": {"thirds": 32}, "B": {"thirds": 0}}, "last_trick": "A",
                          "counters_alone": "N"}  # fmt: skip
    assert deal.result["event"] == "stramazzone"
    page = as_(people, "director").get(f"/d/{deal.pk}/correct").content.decode()
    assert 'name="record"' not in page
    assert re.search(r'name="counters_alone".*?<option value="N" selected', page, re.S)
