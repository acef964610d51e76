"""The deal form: posted fields become the engine's deal JSON, the one blank score or pile
is the rest, and each engine problem lands on the input named by its path."""

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scorebook.rules import Rejection, start_match
from scorebook.rules.cards import DECK40, THIRDS
from scorebook.rules.table import ENTRY_LEVELS
from scorebook.web import deal_forms as forms
from scorebook.web import switches

NAMES = {"N": "Nino", "E": "Ettore", "S": "Salvo", "W": "Walter"}


def table(game, rules=None, players=None, dealer=None, names=None):
    _, resolved, state = start_match(game, rules, players, dealer)
    return forms.Table(game, resolved.as_dict()["values"], state, names or {})


def score(t, deal):
    game, rules, state = start_match(t.game, t.rules, len(t.state.seats), t.state.dealer)
    return game.add_deal(state, deal, rules)


def test_totals_with_the_rest_and_declarations():
    t = table("tressette4", {"profile": "accuso_41"}, names=NAMES)
    form, deal = forms.read(
        t,
        "totals",
        {
            "sides.A.thirds": "14",
            "sides.A.tricks": "4",
            "last_trick": "B",
            "declarations[0].player": "N",
            "declarations[0].type": "napoletana",
            "declarations[0].suit": "c",
        },
    )
    assert deal == {
        "sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
        "last_trick": "B",
        "declarations": [{"player": "N", "type": "napoletana", "suit": "c"}],
    }
    rest = {i.name: i.rest for i in form.inputs() if i.rest is not None}
    assert rest == {"sides.B.thirds": 18, "sides.B.tricks": 6}
    assert score(t, deal).points == {"A": 4 + 3, "B": 7}


def test_two_blanks_are_not_guessed():
    t = table("tressette4")
    _, deal = forms.read(t, "totals", {"last_trick": "A"})
    assert deal == {"last_trick": "A"}


def test_a_word_where_a_number_goes_reaches_the_engine_as_it_is():
    t = table("tressette4")
    form, deal = forms.read(
        t, "totals", {"sides.A.thirds": "dodici", "sides.B.thirds": "20", "last_trick": "A"}
    )
    assert deal["sides"]["A"]["thirds"] == "dodici"
    with pytest.raises(Rejection) as caught:
        score(t, deal)
    with translation.override("it"):
        forms.place(form, forms.problems(caught.value, "it"))
    by_name = {i.name: i.errors for i in form.inputs()}
    assert any("numero intero" in e for e in by_name["sides.A.thirds"])


def test_a_field_is_named_by_its_label_not_its_json_key():
    """The engine says "'thirds' deve essere tra 0 e 32"; next to the field the player
    reads the field's own label, in Italian."""
    t = table("tressette4", {"profile": "accuso_41"})
    with translation.override("it"):
        form, deal = forms.read(t, "totals", {"sides.A.thirds": "40", "sides.A.tricks": "4"})
        with pytest.raises(Rejection) as caught:
            score(t, deal)
        forms.place(form, forms.problems(caught.value, "it"))
        by_name = {i.name: (str(i.label), i.errors) for i in form.inputs()}
    label, errors = by_name["sides.A.thirds"]
    assert errors and all("'thirds'" not in e for e in errors), errors
    assert any(f"«{label}»" in e and "tra 0 e 32" in e for e in errors), errors


def test_problems_land_next_to_their_field_in_italian():
    """TV05: N's four 3s and E's napoletana in swords both need the 3 of swords."""
    t = table("tressette4", {"profile": "accuso_41"})
    form, deal = forms.read(
        t,
        "totals",
        {
            "sides.A.thirds": "16",
            "sides.A.tricks": "5",
            "last_trick": "B",
            "declarations[0].player": "N",
            "declarations[0].type": "four",
            "declarations[0].rank": "3",
            "declarations[1].player": "E",
            "declarations[1].type": "napoletana",
            "declarations[1].suit": "s",
        },
    )
    with pytest.raises(Rejection) as caught:
        score(t, deal)
    forms.place(form, forms.problems(caught.value, "it"))
    owners = [i.name for i in form.inputs() if i.errors]
    assert owners and all(name.startswith("declarations[") for name in owners)
    assert "tre di spade" in " ".join(e for i in form.inputs() for e in i.errors)


def test_a_problem_of_the_whole_deal_goes_to_the_top():
    form = forms.build(table("tressette4"), "totals")
    forms.place(form, forms.problems(Rejection([_problem("")]), "en"))
    assert form.errors and not any(i.errors for i in form.inputs())


def _problem(path):
    from scorebook.rules.errors import problem

    return problem("capture.thirds_total", path, total=31, expected=32, points="10⅔")


def test_inside_a_match_the_deal_prefix_is_dropped():
    form = forms.build(table("tressette4"), "totals")
    forms.place(form, forms.problems(Rejection([_problem("deals[3].sides.A.thirds")]), "en"))
    assert {i.name for i in form.inputs() if i.errors} == {"sides.A.thirds"}


def test_card_grid_the_empty_pile_is_the_rest():
    t = table("tressette4")
    taken = ["Ad", "Ac", "2d", "2c", "2s", "3c", "Rd", "Rc", "Rs", "Cd", "Cc", "Fd", "Fc", "Fs"]
    form, deal = forms.read(
        t,
        "cards",
        {"sides.A.cards": taken, "sides.A.tricks": "5", "last_trick": "A"},
    )
    assert sorted(deal["sides"]["B"]["cards"]) == sorted(
        c.code for c in DECK40 if c.code not in taken and c.rank in THIRDS
    )
    assert deal["sides"]["B"]["tricks"] == 5
    assert score(t, deal).points["A"] > 0


@given(st.sets(st.sampled_from([c.code for c in DECK40])), st.integers(0, 10))
def test_card_grid_two_piles_always_hold_the_deck_once(taken, tricks):
    t = table("tressette4")
    _, deal = forms.read(
        t, "cards", {"sides.A.cards": sorted(taken), "sides.A.tricks": str(tricks)}
    )
    piles = deal.get("sides", {})
    a = piles.get("A", {}).get("cards", [])
    b = piles.get("B", {}).get("cards", [])
    counting = {c.code for c in DECK40 if c.rank in THIRDS}
    if taken and not counting <= taken:
        assert set(a) | set(b) == taken | counting
        assert not set(a) & set(b)
        assert piles["B"]["tricks"] == 10 - tricks


def test_terziglio_auction_result_becomes_the_bids():
    t = table("terziglio", {"profile": "chips_1_2_4_8_16"}, 3, "P3")
    _, deal = forms.read(
        t,
        "totals",
        {
            "auction.winner": "P1",
            "auction.bid": "solissimo_scegliete",
            "monte_shares.P2": "3",
            "monte_shares.P3": "1",
            "sides.soloist.thirds": "32",
            "sides.soloist.tricks": "12",
            "last_trick": "soloist",
        },
    )
    assert deal["bids"] == [
        {"player": "P1", "bid": "solissimo_scegliete"},
        {"player": "P2", "bid": "pass"},
        {"player": "P3", "bid": "pass"},
    ]
    result = score(t, deal)
    # TV29: cappotto doubles 16: 32 from each opponent.
    assert result.units == {"P1": 64, "P2": -32, "P3": -32}


def test_terziglio_card_not_given_back_is_a_lost_hand():
    """2.7.5 (PE): the soloist forgot to hand a card back for the called one."""
    t = table("terziglio", None, 3, "P3")
    _, deal = forms.read(
        t,
        "totals",
        {
            "auction.winner": "P1",
            "auction.bid": "chiamo",
            "called": "3s",
            "called_from": "P2",
            "card_not_given_back": "on",
            "sides.soloist.thirds": "15",
            "sides.soloist.tricks": "6",
            "last_trick": "soloist",
        },
    )
    assert deal["card_not_given_back"] is True
    assert score(t, deal).points == {"P1": 0, "P2": 1, "P3": 1}


def test_terziglio_pass_out():
    t = table("terziglio", None, 3, "P3")
    _, deal = forms.read(t, "totals", {"auction.bid": "pass"})
    assert [b["bid"] for b in deal["bids"]] == ["pass"] * 3
    assert score(t, deal).same_dealer in (True, False)


def test_annulled_deal_keeps_only_the_annul():
    t = table("tressette4")
    _, deal = forms.read(t, "totals", {"annulled_by": "E", "sides.A.thirds": "10"})
    assert deal == {"annulled_by": "E"}


def test_play_record_is_the_pasted_json():
    t = table("tressette4")
    form, deal = forms.read(t, "play", {"record": '{"hands": {}}'})
    assert deal == {"hands": {}}
    form, deal = forms.read(t, "play", {"record": "{not json"})
    assert deal == {} and form.errors


def test_four_all_against_all_offers_declarations_per_player_unless_switched_off():
    """Reference 2.4: declarations per player (t4i.declarations, on by default)."""
    off = forms.build(table("tressette4i", {"t4i.declarations": False}), "totals")
    assert not any(i.name.startswith("declarations") for i in off.inputs())
    t = table("tressette4i")
    _, deal = forms.read(
        t,
        "totals",
        {
            **{f"seats.P{i}.thirds": "8" for i in range(1, 5)},
            **{f"seats.P{i}.tricks": "2" for i in range(1, 4)},
            "seats.P4.tricks": "4",
            "last_trick": "P4",
            "declarations[0].player": "P3",
            "declarations[0].type": "napoletana",
            "declarations[0].suit": "b",
        },
    )
    assert deal["declarations"] == [{"player": "P3", "type": "napoletana", "suit": "b"}]
    assert score(t, deal).points == {"P1": 2, "P2": 2, "P3": 5, "P4": 3}


def test_tressette_for_two_offers_declarations_only_when_the_switch_is_on():
    plain = forms.build(table("tressette2"), "totals")
    assert not any(i.name.startswith("declarations") for i in plain.inputs())
    t = table("tressette2", {"t2.declarations": True})
    form = forms.build(t, "totals")
    kinds = next(i for i in form.inputs() if i.name == "declarations[0].type")
    assert [k for k, _ in kinds.choices] == ["", "napoletana", "three", "four"]
    _, deal = forms.read(
        t,
        "totals",
        {
            "seats.P1.thirds": "20",
            "seats.P1.tricks": "11",
            "seats.P2.thirds": "12",
            "seats.P2.tricks": "9",
            "last_trick": "P1",
            "declarations[0].player": "P2",
            "declarations[0].type": "three",
            "declarations[0].rank": "3",
            "declarations[0].missing": "d",
        },
    )
    assert deal["declarations"] == [{"player": "P2", "type": "three", "rank": "3", "missing": "d"}]
    result = score(t, deal)
    assert result.points["P2"] >= 3


CODE_RULES = {
    "t4.declarations": True,
    "t4.decl_anomalies": "code",
    "t4.claim_by": "opponents",
    "t4.false_claim": "play_on",
}


def test_the_tournament_code_fields_are_asked_only_under_its_switches():
    """A declaration gone wrong and the wrong call-outs are entered at the table when the
    club plays the tournament code (issue 16); by default the form does not ask for them."""
    plain = {
        i.name
        for i in forms.build(table("tressette4", {"t4.declarations": True}), "totals").inputs()
    }
    assert not any(n.endswith((".when", ".fixed")) or n.startswith("failed_") for n in plain)
    assert "claim.by" not in plain
    t = table("tressette4", CODE_RULES, names=NAMES)
    form, deal = forms.read(
        t,
        "totals",
        {
            "sides.A.thirds": "20",
            "sides.A.tricks": "6",
            "last_trick": "A",
            "declarations[0].player": "N",
            "declarations[0].type": "napoletana",
            "declarations[0].suit": "c",
            "declarations[0].when": "late",
            "declarations[0].contested": "on",
            "failed_callouts[0].by": "B",
            "failed_callouts[0].after_trick": "3",
        },
    )
    assert deal["declarations"] == [
        {"player": "N", "type": "napoletana", "suit": "c", "when": "late", "contested": True}
    ]
    assert deal["failed_callouts"] == [{"by": "B", "after_trick": 3}]
    result = score(t, deal)
    assert result.points == {"A": 7, "B": 4}  # the contested late napoletana is lost


def test_a_call_out_and_its_problem_land_on_the_claim_inputs():
    t = table("tressette4", {"t4.claim_by": "opponents"}, names=NAMES)
    form, deal = forms.read(
        t,
        "totals",
        {
            "sides.A.thirds": "20",
            "sides.A.tricks": "6",
            "sides.B.thirds": "1",
            "sides.B.tricks": "1",
            "claim.side": "A",
            "claim.by": "B",
            "claim.after_trick": "7",
            "claim.cappotto": "made",
        },
    )
    assert deal["claim"] == {"side": "A", "by": "B", "after_trick": 7, "cappotto": "made"}
    with pytest.raises(Rejection) as caught:
        score(t, deal)
    forms.place(form, forms.problems(caught.value, "it"))
    (owner,) = [i for i in form.inputs() if i.errors]
    assert owner.name == "claim.cappotto" and "cappotto" in owner.errors[0]


def test_a_cappotto_after_the_win_is_a_box_to_tick_when_the_switch_is_on():
    """Codice del tressette, regolamento.tex, "Norme che regolano la chiamata fuori": a
    cappotto made after the game was won pays the ordinary stake (issue 16, stakes)."""
    plain = table("tressette4")
    assert "cappotto_after_win" not in {i.name for i in forms.build(plain, "totals").inputs()}
    t = table(
        "tressette4",
        {"t4.stake": "marcio_e_batuffa", "t4.cappotto_after_win": "ordinary_stake"},
        names=NAMES,
    )
    fields = {"sides.A.thirds": "32", "sides.A.tricks": "10", "sides.B.thirds": "0",
              "sides.B.tricks": "0", "last_trick": "A"}  # fmt: skip
    _, deal = forms.read(t, "totals", {**fields, "cappotto_after_win": "on"})
    assert deal["cappotto_after_win"] is True
    _, unticked = forms.read(t, "totals", fields)
    assert "cappotto_after_win" not in unticked


def test_a_call_out_and_a_declaration_gone_wrong_in_words():
    """Issue 16: the deal page says who called whom out, when, with how many points and
    whether the call held, and how a declaration went wrong (it said only the points)."""
    from scorebook.web.breakdown import claim_words, describe

    rules = {"t4.claim_by": "opponents", "t4.decl_anomalies": "code", "t4.declarations": True}
    t = table("tressette4", rules, names=NAMES)
    laid = {
        "sides": {"A": {"thirds": 8, "tricks": 3}, "B": {"thirds": 0, "tricks": 0}},
        "claim": {"side": "A", "by": "B", "after_trick": 3, "cappotto": "laid_down"},
    }
    result = score(t, laid).as_dict()
    with translation.override("en"):
        assert claim_words(result, t) == (
            "B (Ettore, Walter) called A (Nino, Salvo) out after trick 3: 2 of 21: the call "
            "was wrong; then the side called out made its cappotto by laying its cards down: "
            "the callers owe one more stake."
        )
    with translation.override("it"):
        assert claim_words(result, t).startswith(
            "B (Ettore, Walter) ha chiamato fuori A (Nino, Salvo) dopo la presa 3: 2 punti su "
            "21: la chiamata era sbagliata; poi la coppia chiamata fuori ha fatto cappotto"
        )
    late = {
        "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A",
        "declarations": [
            {"player": "N", "type": "napoletana", "suit": "c", "when": "late", "contested": True}
        ],
    }
    with translation.override("en"):
        (row,) = [r for r in describe(score(t, late).as_dict(), t) if r["scorer"] == "A"]
        (line,) = [ln for ln in row["lines"] if ln["points"] == 0]
        assert line["detail"] == "napoletana of cups; declared late, contested, its points are lost"
    assert claim_words(score(t, late).as_dict(), t) == ""


def test_a_declaration_not_yet_scored_at_a_claim_says_so():
    """Reference 2.1.6: a claim before the first trick is complete counts no declaration;
    the deal page says why its line is worth 0."""
    from scorebook.web.breakdown import describe

    t = table("tressette4", names=NAMES)
    early = {
        "sides": {"A": {"thirds": 0, "tricks": 0}, "B": {"thirds": 0, "tricks": 0}},
        "claim": {"side": "A", "after_trick": 0},
        "declarations": [{"player": "N", "type": "napoletana", "suit": "c"}],
    }
    result = score(t, early).as_dict()
    for lang, words in (("en", "not yet scored at the claim"), ("it", "non ancora contato")):
        with translation.override(lang):
            (row,) = [r for r in describe(result, t) if r["scorer"] == "A"]
            (line,) = [ln for ln in row["lines"] if ln["kind"] in ("declaration", "accuso")]
            assert line["points"] == 0 and words in line["detail"]


def _tables():
    """Every game of the engine's registry: its default rules at each number of players,
    and each of its profiles at its default number."""
    from scorebook.rules import games

    for key, game in sorted(games().items()):
        for players in game.player_counts:
            yield pytest.param(key, None, players, id=f"{key}-{players}p")
        for profile in game.profiles:
            yield pytest.param(key, {"profile": profile}, None, id=f"{key}-{profile}")


@pytest.mark.parametrize("game,rules,players", list(_tables()))
@pytest.mark.parametrize("level", ENTRY_LEVELS)
def test_the_form_enters_a_deal_of_every_game_of_the_registry(game, rules, players, level):
    """Issue 25: the page form is built from the engine's description of each game, so a
    game (or a profile, or a number of players) the form cannot enter fails here. Legal
    deals of the game, written into the form's own fields and read back, give the same
    engine deal, scored the same."""
    import random

    t = table(game, rules, players)
    form = forms.build(t, level)
    assert list(form.inputs()), f"{game} asks nothing at {level}"
    shape = t.shape
    for side in shape.scorers if shape.scored_by == "sides" else ():
        assert side in switches.SIDE_LABELS, f"no words for the side {side!r} of {game}"
    assert set(t.dealt_in()) <= set(t.state.seats) and len(t.dealt_in()) >= 2
    engine, resolved, state = start_match(game, rules, players)
    held = 0
    for seed in range(12):
        deal = engine.random_deal(random.Random(seed), resolved, state, level)
        fields = forms.prefill(t, level, deal)
        if fields is None:
            continue
        assert set(fields) <= {i.name for i in form.inputs()}
        held += 1
        _, again = forms.read(t, level, fields)
        body = {k: v for k, v in deal.items() if k not in ("dealer", "level")}
        assert again == body or score(t, again).as_dict() == score(t, deal).as_dict()
    assert held, f"the {level} form of {game} {rules or ''} held none of 12 legal deals"
