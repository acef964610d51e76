"""The quick form asks only what the rules leave open (issue 32 item 2): what the engine's
description says is forced is named or written by the form (Chiamata's first hand, a
cappotto's zero and last trick, who went out in Spinado holds no card), the choices are
chips, and the chip games' usual outcomes are one chip each. The engine still judges."""

import pytest

from scorebook.rules import get_game
from scorebook.rules.errors import Rejection
from scorebook.web import deal_forms as forms
from tests.web.test_quick_entry import score, table


def kinds(t):
    return {inp.name: inp.kind for inp in forms.build(t, "quick").inputs()}


def test_chiamata_names_the_first_hand_and_asks_the_suit_as_chips():
    t = table("chiamata", {"cdt.target": 1000})
    eldest = t.dealt_in()[0]
    form = forms.build(t, "quick")
    by_name = {inp.name: inp for inp in form.inputs()}
    assert by_name["caller"].kind == "shown" and eldest in by_name["caller"].rest_text
    assert by_name["called"].kind == "chips" and len(by_name["called"].choices) == 4
    assert not any(inp.kind == "choice" for inp in form.sections[0].inputs)
    partner = t.dealt_in()[2]
    _, deal = forms.read(
        t,
        "quick",
        {"called": "c", "partner": partner, "sides.callers.thirds": "7", "last_trick": "callers"},
    )
    assert "caller" not in deal  # the engine takes the first hand
    result = score(t, deal)
    assert result.facts["caller"] == eldest
    assert result.facts["members"]["callers"] == sorted([eldest, partner])


def test_chiamata_asks_the_caller_where_the_4_of_coins_leads():
    t = table("chiamata", {"cdt.target": 1000, "core.first_lead": "holder_of_4d"})
    assert kinds(t)["caller"] == "chips"


@pytest.mark.parametrize(
    "game,rules,post,taker",
    [
        ("tressette4", None, {}, "B"),
        ("traversone_pairs", None, {}, "A"),
        ("chiamata", {"cdt.target": 1000}, {"called": "d", "partner": "P3"}, "others"),
        ("terziglio", {"profile": "chips_1_2_4_8_16"}, {"auction.winner": "P2",
                                                        "auction.bid": "solo"}, "soloist"),
    ],
)  # fmt: skip
def test_a_cappotto_is_one_tap_the_zero_and_the_last_trick_follow(game, rules, post, taker):
    """Tapping "all the tricks" is the whole deal: the sweep's whole and the other side's
    zero, and the last trick (without it the save was refused)."""
    t = table(game, rules)
    assert t.shape.sweep
    form, deal = forms.read(t, "quick", {**post, "all_tricks": taker})
    group, who = forms.scorers(t)
    unit = t.shape.unit
    assert deal[group] == {s: {unit: t.shape.whole if s == taker else 0} for s in who}
    assert deal["last_trick"] == taker
    shown = next(i for i in form.inputs() if i.kind == "shown" and i.name.startswith(group))
    assert shown.rest == deal[group][shown.name.split(".")[1]][unit]
    score(t, deal)  # the engine accepts it


def test_a_cappotto_by_one_player_alone_is_his_side_s():
    t = table("tressette4")
    _, deal = forms.read(t, "quick", {"all_tricks": "E"})
    side = t.shape.side_of("E")
    assert deal["last_trick"] == side and deal["sides"][side]["thirds"] == 32
    assert score(t, deal).event in ("cappotto", "cappottone")


def test_a_cappotto_against_the_points_typed_is_refused_by_the_engine():
    t = table("tressette4")
    _, deal = forms.read(t, "quick", {"sides.A.thirds": "6", "all_tricks": "B"})
    assert deal["sides"]["A"] == {"thirds": 18} and deal["sides"]["B"] == {"thirds": 32}
    with pytest.raises(Rejection):
        score(t, deal)


def test_spinado_is_chips_and_asks_only_the_count_a_payment_reads():
    t = table("spinado", None, 4)
    got = kinds(t)
    assert "choice" not in got.values()
    assert got["out_first"] == "chips" and got["runs~where"] == "pick"
    assert [n for n in got if n.startswith("cards_left")] == ["cards_left~held"]
    holder = t.state.seats[1]
    _, deal = forms.read(
        t,
        "quick",
        {"out_first": t.state.seats[0], "runs~where": f"spinado_held_by{forms.PICK}{holder}",
         "cards_left~held": "3", "matrimony_by": "", "intrigue_by": ""},
    )  # fmt: skip
    assert deal == {
        "out_first": t.state.seats[0],
        "spinado_held_by": holder,
        "cards_left": {holder: 3},
    }
    paid = score(t, deal).points
    assert paid[holder] < paid[t.state.seats[2]]  # 2 a card to the winner


def test_spinado_dead_hand_is_one_chip_and_the_winner_holds_no_card():
    t = table("spinado", {"spin.first_out_extra": "one_per_card_left"}, 4)
    got = kinds(t)
    assert {f"cards_left.{s}" for s in t.state.seats} <= set(got)
    first, *others = t.state.seats
    post = {f"cards_left.{s}": "2" for s in others}
    post |= {"out_first": first, "runs~where": f"spinado_in_dead_hand{forms.PICK}on"}
    _, deal = forms.read(t, "quick", post)
    assert deal["spinado_in_dead_hand"] is True
    assert deal["cards_left"] == {first: 0, **dict.fromkeys(others, 2)}
    score(t, deal)


def test_spinado_kings_fold_away_where_no_king_is_paid():
    folded = forms.build(table("spinado", None, 4), "quick")
    paid = forms.build(table("spinado", {"spin.king_payments": "PKW"}, 4), "quick")
    for form, is_open in ((folded, False), (paid, True)):
        (kings,) = [s for s in form.sections if any(i.name == "kings_played.Kd" for i in s.inputs)]
        assert kings.open is is_open and all(i.kind == "chips" for i in kings.inputs)


def test_trappola_bonuses_and_declarations_are_one_chip_each():
    t = table("trappola", {"trap.target": 1000})
    got = kinds(t)
    assert not any(k.endswith(".tricks") for k in got)  # no score reads them: not asked
    assert got["twos.P1"] == got["sets.P2"] == "chipset" and "choice" not in got.values()
    non_dealer = next(s for s in t.state.seats if s != t.state.dealer)
    _, deal = forms.read(
        t,
        "quick",
        {"seats.P1.points": "20", "seats.P2.points": "12",
         "last_trick": non_dealer, f"twos.{non_dealer}": ["two:1"],
         f"sets.{non_dealer}": ["set:A:3"]},
    )  # fmt: skip
    assert "tricks" not in deal["seats"]["P2"]
    assert deal["twos"] == [{"player": non_dealer, "trick": 1}]
    assert deal["declarations"] == [{"player": non_dealer, "rank": "A", "count": 3}]
    assert forms.chip_of("twos", deal["twos"][0]) == "two:1"
    assert forms.chip_of("declarations", deal["declarations"][0]) == "set:A:3"
    lines = score(t, deal).breakdown[non_dealer]
    assert {line.kind for line in lines} >= {"two", "declaration"}


def test_calabrasella_discards_are_chips_from_the_rules_minimum():
    for rules, low in ((None, 1), ({"cav.min_discard": 0}, 0)):
        t = table("calabrasella", rules)
        (inp,) = [i for i in forms.build(t, "quick").inputs() if i.name == "discards"]
        assert inp.kind == "chips" and [c for c, _ in inp.choices] == [
            str(n) for n in range(low, 5)
        ]


def test_no_select_is_left_on_an_ordinary_deal_s_open_sections():
    """Every game: the open sections of the quick form have chips, not selects."""
    from scorebook.rules import games

    for key in games():
        game = get_game(key)
        t = table(key, None, game.player_counts[0])
        for section in forms.build(t, "quick").sections:
            if section.open:
                kinds_open = {i.kind for i in section.inputs}
                assert "choice" not in kinds_open, (key, section.title)


def test_calabrasella_s_discards_chip_reaches_the_engine_as_a_number():
    t = table("calabrasella")
    bidder = t.dealt_in()[0]
    _, deal = forms.read(
        t,
        "quick",
        {"auction.winner": bidder, "call": f"3c{forms.CALL_SEP}stock", "discards": "2",
         "sides.bidder.points": "20", "last_trick": "bidder"},
    )  # fmt: skip
    assert deal["discards"] == 2
    score(t, deal)


def test_calabrasella_s_discards_are_folded_and_the_deal_scores_without_them():
    """How many cards the bidder discarded changes no score (the description's
    ``discards_score``): the quick form folds the chips away, and a deal without them
    scores as the same deal with them (it took a tap of every deal, 5 taps not 4)."""
    t = table("calabrasella")
    form = forms.build(t, "quick")
    (fold,) = [s for s in form.sections if any(i.name == "discards" for i in s.inputs)]
    discards = next(i for i in fold.inputs if i.name == "discards")
    assert not fold.open and discards.kind == "chips"
    bidder = t.dealt_in()[0]
    post = {"auction.winner": bidder, "call": f"3c{forms.CALL_SEP}stock",
            "sides.bidder.points": "20", "last_trick": "bidder"}  # fmt: skip
    _, bare = forms.read(t, "quick", post)
    _, told = forms.read(t, "quick", {**post, "discards": "3"})
    assert "discards" not in bare and told["discards"] == 3
    assert score(t, bare).points == score(t, told).points


@pytest.mark.parametrize(
    "game,players,lost",
    [("tressette2", 2, (0,)), ("tressette3", 3, (0, 1)), ("tressette4i", 4, (1, 0, 2)),
     ("rovescino", 4, (1, 0, 2))],
)  # fmt: skip
def test_whole_points_ask_the_points_lost_not_each_player_s_figures(game, players, lost):
    """Where the score reads whole points only (floored, or the remainder to the last
    trick), the figures left over change no score but the rest's: the quick form asks
    each typed player's points and, once, how many points the figures lost in all (the
    commonest chosen); each player's figures were a tap each (up to 7 taps, not 5)."""
    t = table(game, None, players)
    part = t.shape.part("piles")
    assert part is not None and part.get("whole_points") == lost
    by_name = {i.name: i for i in forms.build(t, "quick").inputs()}
    assert not any(name.endswith("~figures") for name in by_name)
    seats = t.state.seats
    chips = by_name.get(f"seats{forms.LOST}")
    if len(lost) == 1:
        assert chips is None
        return
    assert chips.value == str(lost[0]) and [c for c, _ in chips.choices] == [
        str(k) for k in sorted(lost)
    ]
    typed = {f"seats.{s}.thirds": "2" for s in seats[:-1]}
    for k in sorted(lost):
        form, deal = forms.read(t, "quick", {**typed, f"seats{forms.LOST}": str(k),
                                            "last_trick": seats[0]})  # fmt: skip
        result = score(t, deal)
        # the rest holds the deal's 10 card points less the others' and those lost
        assert result.points[seats[-1]] == 10 - 2 * (players - 1) - k
        assert sum(result.points.values()) == 11 - k
        (rest,) = [i for i in form.inputs() if i.kind == "shown"]
        assert rest.rest_text == str(10 - 2 * (players - 1) - k)


def test_round_two_thirds_up_keeps_each_player_s_figures():
    """Two thirds rounded up: a player's figures change his own score, so they are asked."""
    t = table("tressette4i", {"core.rounding": "round_two_thirds_up"}, 4)
    names = {i.name for i in forms.build(t, "quick").inputs()}
    assert "seats.P1.thirds~figures" in names and f"seats{forms.LOST}" not in names


def test_trappola_points_have_their_tens_as_chips_and_typed_whole_still_work():
    """Issue 32: Trappola's card points (two digits each, neither the rest) are entered as
    tens and units where the engine's description says so (``Part("piles", {"tens"})``):
    each points field carries the tens as chips that fill the field itself (nothing
    else is posted), so the whole number typed scores as the engine says."""
    from django.template.loader import render_to_string

    t = table("trappola", {"trap.target": 1000}, 2)
    tens = t.shape.part("piles").get("tens")
    by_name = {i.name: i for i in forms.build(t, "quick").inputs()}
    for seat in ("P1", "P2"):
        inp = by_name[f"seats.{seat}.points"]
        assert inp.tens == tens
        html = render_to_string("web/deals/_input.html", {"inp": inp})
        for ten in tens:
            assert f'data-tens-for="seats.{seat}.points" data-tens="{ten}"' in html
        assert 'type="button"' in html and "chip-row tens" in html
    _, deal = forms.read(
        t, "quick", {"seats.P1.points": "37", "seats.P2.points": "8", "last_trick": "P2"}
    )
    assert deal["seats"] == {"P1": {"points": 37}, "P2": {"points": 8}}
    assert score(t, deal).points == {"P1": 37, "P2": 8 + 6}
    # where the description says nothing of tens, a points field has no chips
    other = table("tressette2", {"t2.target": 1000}, 2)
    assert not any(i.tens for i in forms.build(other, "quick").inputs())
