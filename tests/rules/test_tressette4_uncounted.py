"""Tressette in pairs and Terziglio entered as the table counts them (issue 22): the card
points of each side, no trick counts, and only when a side took every trick, which one
(``all_tricks``). The same deal with the counts scores the same; what the counts alone
could say (cappotto) the entry says by naming the side."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection, games, score_deal


def t4(deal, rules=None):
    return score_deal(deal, "tressette4", rules).as_dict()


def counted(a, ta, b, tb, **rest):
    return {"sides": {"A": {"thirds": a, "tricks": ta}, "B": {"thirds": b, "tricks": tb}}, **rest}


def uncounted(a, b, **rest):
    return {"sides": {"A": {"thirds": a}, "B": {"thirds": b}}, **rest}


@given(st.integers(1, 31), st.integers(1, 9), st.sampled_from(["A", "B"]))
def test_an_ordinary_deal_scores_the_same_without_the_counts(a, ta, last):
    """Whenever a count would be legal, leaving the counts out changes nothing but the
    facts, which say the tricks were not counted."""
    try:
        with_counts = t4(counted(a, ta, 32 - a, 10 - ta, last_trick=last))
    except Rejection:
        return
    without = t4(uncounted(a, 32 - a, last_trick=last))
    assert without["points"] == with_counts["points"]
    assert without["event"] == with_counts["event"]
    assert without["facts"]["tricks"] == {"A": None, "B": None}


def test_all_the_tricks_named_is_a_cappotto_with_its_counts():
    result = t4(uncounted(32, 0, last_trick="A", all_tricks="A"))
    assert result["event"] == "cappotto"
    assert result == t4(counted(32, 10, 0, 0, last_trick="A"))


@pytest.mark.parametrize("alone", ["N", "E", "S", "W"])
def test_all_the_tricks_by_one_player_is_the_cappottone(alone):
    """A cappottone (one player alone took every trick, E4) needed every player's counts:
    'all_tricks' named a side only (it refused "N"). Named alone, the player took every
    card and the others nothing: the deal scores as the same counts entered per player."""
    side = "A" if alone in "NS" else "B"
    thirds = {"A": 32 if side == "A" else 0, "B": 32 if side == "B" else 0}
    rules = {"profile": "pe"}
    named = t4(uncounted(thirds["A"], thirds["B"], last_trick=side, all_tricks=alone), rules)
    seats = {p: {"thirds": 32 if p == alone else 0, "tricks": 10 if p == alone else 0}
             for p in "NESW"}  # fmt: skip
    per_player = t4({"seats": seats, "last_trick": side}, rules)
    assert named["event"] == per_player["event"] == "cappottone"
    assert named["points"] == per_player["points"]
    assert named["multiplier"] == per_player["multiplier"]
    assert named["facts"]["players"][alone] == {"thirds": 32, "tricks": 10}


def test_without_all_tricks_a_whole_deal_is_a_stramazzo_not_a_cappotto():
    """All the points but not all the tricks: the reference's stramazzo (E3)."""
    assert t4(uncounted(32, 0, last_trick="A"))["event"] == "stramazzo"


@pytest.mark.parametrize(
    "deal,code",
    [
        (counted(32, 10, 0, 0, last_trick="A", all_tricks="A"), "capture.all_tricks_with_counts"),
        (uncounted(32, 0, last_trick="A", all_tricks="X"), "capture.all_tricks_bad_side"),
        (uncounted(32, 0, last_trick="A", all_tricks="E"), "last_trick.all_tricks"),
        (
            uncounted(8, 0, all_tricks="A", claim={"side": "A", "after_trick": 3}),
            "capture.all_tricks_with_claim",
        ),
    ],
)
def test_all_tricks_refusals(deal, code):
    with pytest.raises(Rejection) as caught:
        t4(deal)
    assert code in {p.code for p in caught.value.problems}


SIDE_OF = {"N": "A", "S": "A", "E": "B", "W": "B"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
#: The switches a stramazzone's score depends on, each over every value the engine has.
EVENT_SWITCHES = (
    "t4.stramazzo_def",
    "t4.stramazzo_last_trick",
    "t4.multipliers",
    "t4.special_event_effect",
    "t4.cappotto_def",
    "core.rounding",
)


@st.composite
def house_rules(draw):
    game = games()["tressette4"]
    choices = {s.key: s.choices for s in game.switches if s.key in EVENT_SWITCHES}
    assert set(choices) == set(EVENT_SWITCHES)
    rules = {key: draw(st.sampled_from(values)) for key, values in choices.items()}
    profile = draw(st.sampled_from([None, *game.profiles]))
    return rules if profile is None else {"profile": profile, **rules}


def without_who(result, *keys):
    facts = {
        k: v for k, v in result["facts"].items() if k not in ("players", "counters_alone", *keys)
    }
    return {**result, "facts": facts}


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from("NESW"),
    st.integers(0, 4),
    st.data(),
    house_rules(),
    st.sampled_from("AB"),
)
def test_all_the_points_by_one_player_scores_as_each_players_counts(alone, lost, data, rules, last):
    """The stramazzone (E4: one player alone took all his side's counters, the opponents a
    trick at least) needed every player's counts. 'counters_alone' names him beside the
    sides' points: the deal scores exactly as the same deal entered per player, and it is
    refused, in words, exactly where those counts make no stramazzo of his side."""
    side, partner = SIDE_OF[alone], PARTNER[alone]
    other = "B" if side == "A" else "A"
    them = [s for s in "NESW" if SIDE_OF[s] == other]
    mine_tricks = data.draw(st.integers(3, 10), "his tricks")
    partner_tricks = data.draw(st.integers(0, 10 - mine_tricks), "partner's tricks")
    first_tricks = data.draw(st.integers(0, 10 - mine_tricks - partner_tricks), "opponent's")
    first_thirds = data.draw(st.integers(0, lost), "one opponent's thirds")
    seats = {
        alone: {"thirds": 32 - lost, "tricks": mine_tricks},
        partner: {"thirds": 0, "tricks": partner_tricks},
        them[0]: {"thirds": first_thirds, "tricks": first_tricks},
        them[1]: {
            "thirds": lost - first_thirds,
            "tricks": 10 - mine_tricks - partner_tricks - first_tricks,
        },
    }
    try:
        per_player = t4({"seats": seats, "last_trick": last}, rules)
    except Rejection:
        assume(False)
    ours = mine_tricks + partner_tricks
    piles = {
        side: {"thirds": 32 - lost, "tricks": ours},
        other: {"thirds": lost, "tricks": 10 - ours},
    }
    entry = {"sides": piles, "last_trick": last, "counters_alone": alone}
    try:
        named = t4(entry, rules)
    except Rejection as refused:
        assert per_player["event"] != "stramazzone"
        event(f"refused: {per_player['event']}")
        (problem,) = refused.problems
        assert problem.code in ("t4.counters_alone_not_stramazzo", "t4.counters_alone_off")
        assert problem.path == "counters_alone"
        assert "'counters_alone'" in problem.as_dict("it")["message"]
        return
    assert per_player["event"] in ("stramazzone", "cappotto")  # cappotto: 'all_points'
    event(f"scored: {named['event']}")
    assert per_player["facts"]["event_side"] == side
    assert without_who(named) == without_who(per_player)
    assert named["facts"]["counters_alone"] == alone
    uncounted_entry = {
        "sides": {s: {"thirds": p["thirds"]} for s, p in piles.items()},
        "last_trick": last,
        "counters_alone": alone,
    }
    assert without_who(t4(uncounted_entry, rules), "tricks") == without_who(per_player, "tricks")


def test_the_stramazzone_by_one_player_on_the_pe_profile():
    """PE: Salvo alone took all the points, Walter a trick of scartine: ×6, not ×3."""
    deal = uncounted(32, 0, last_trick="B", counters_alone="S")
    plain = t4(uncounted(32, 0, last_trick="B"), {"profile": "pe"})
    named = t4(deal, {"profile": "pe"})
    assert (plain["event"], plain["multiplier"]) == ("stramazzo", 3)
    assert (named["event"], named["multiplier"]) == ("stramazzone", 6)
    assert named["points"] == plain["points"] == {"A": 10, "B": 0}  # B's last trick void


@pytest.mark.parametrize(
    "deal,rules,code,words",
    [
        (uncounted(32, 0, last_trick="A", counters_alone="X"), None,
         "t4.counters_alone_bad_seat", "non 'X'"),
        (uncounted(29, 3, last_trick="A", counters_alone="N"), {"profile": "pe"},
         "t4.counters_alone_not_stramazzo", "fare meno di un punto"),
        (uncounted(31, 1, last_trick="A", counters_alone="N"), None,
         "t4.counters_alone_not_stramazzo", "non prendere nessuna carta di punto"),
        (uncounted(0, 32, last_trick="B", counters_alone="N"), None,
         "t4.counters_alone_not_stramazzo", "coppia A"),
        (uncounted(32, 0, last_trick="A", all_tricks="A", counters_alone="S"), None,
         "t4.counters_alone_not_stramazzo", "almeno una presa"),
        (uncounted(32, 0, last_trick="A", counters_alone="S"), {"t4.stramazzo_def": "off"},
         "t4.counters_alone_off", "non c'è stramazzo"),
        (counted(8, 3, 0, 0, counters_alone="N", claim={"side": "A", "after_trick": 3}),
         {"profile": "accusi_31"}, "t4.counters_alone_with_claim", "chiamata"),
        ({"seats": {p: {"thirds": 32 if p == "N" else 0, "tricks": 4 if p in "NE" else 1}
                    for p in "NESW"}, "last_trick": "A", "counters_alone": "N"}, None,
         "t4.counters_alone_with_seats", "dicono già"),
    ],
)  # fmt: skip
def test_counters_alone_refusals(deal, rules, code, words):
    """Where the deal is not that player's side's stramazzo, or the field says nothing the
    rest does not, the deal is refused in words."""
    with pytest.raises(Rejection) as caught:
        t4(deal, rules)
    found = {p.code: p.as_dict("it")["message"] for p in caught.value.problems}
    assert code in found and words in found[code], found


def test_a_claim_still_needs_the_counts_so_far():
    with pytest.raises(Rejection) as caught:
        t4(uncounted(8, 0, claim={"side": "A", "after_trick": 3}))
    assert {p.path for p in caught.value.problems} >= {"sides.A.tricks"}


def terz(deal, rules=None):
    from scorebook.rules import start_match

    game, resolved, state = start_match("terziglio", rules, 3, "P3")
    return game.add_deal(state, deal, resolved).as_dict()


def solo(thirds, **rest):
    bids = [{"player": "P1", "bid": "solo"}, {"player": "P2", "bid": "pass"},
            {"player": "P3", "bid": "pass"}]  # fmt: skip
    return {
        "bids": bids,
        "sides": {"soloist": {"thirds": thirds}, "coalition": {"thirds": 32 - thirds}},
        **rest,
    }


@given(st.integers(1, 31), st.integers(1, 11), st.sampled_from(["soloist", "coalition"]))
def test_terziglio_scores_the_same_without_the_counts(thirds, tricks, last):
    """The same for Terziglio's soloist and coalition (twelve tricks)."""
    counted = solo(thirds, last_trick=last)
    counted["sides"]["soloist"]["tricks"] = tricks
    counted["sides"]["coalition"]["tricks"] = 12 - tricks
    try:
        with_counts = terz(counted)
    except Rejection:
        return
    without = terz(solo(thirds, last_trick=last))
    assert (without["points"], without["units"], without["event"]) == (
        with_counts["points"],
        with_counts["units"],
        with_counts["event"],
    )
    assert without["facts"]["tricks"] == {"soloist": None, "coalition": None}


def test_terziglio_all_the_tricks_is_the_soloists_cappotto():
    result = terz(solo(32, last_trick="soloist", all_tricks="soloist"))
    assert result["event"] == "cappotto" and result["facts"]["tricks"]["soloist"] == 12


@pytest.mark.parametrize(
    "game,players,spec",
    [
        ("chiamata", 4, {"cdt.target": 1000}),
        ("terziglio", 3, None),
        ("tressette4", 4, {"t4.target": 1000}),
        ("traversone_pairs", 4, {"rov.target": 1000}),
    ],
)
def test_the_engines_own_deals_score_the_same_without_the_counts(game, players, spec):
    """Random legal totals deals of each game that takes uncounted tricks: the counts
    taken out (and the side that took them all named), the result is the same."""
    import random

    from scorebook.rules import start_match

    engine, rules, state = start_match(game, spec, players)
    rng = random.Random(25)
    compared = 0
    for _ in range(40):
        deal = engine.random_deal(rng, rules, state, "totals")
        piles = deal.get("sides")
        if not isinstance(piles, dict) or any("cards" in p for p in piles.values()):
            engine.add_deal(state, deal, rules)
            if state.finished:
                break
            continue
        compared += 1
        tricks = {s: p["tricks"] for s, p in piles.items()}
        bare = {**deal, "sides": {s: {"thirds": p["thirds"]} for s, p in piles.items()}}
        everyone = [s for s, n in tricks.items() if n == sum(tricks.values())]
        if everyone:
            bare["all_tricks"] = everyone[0]
        _, resolved, fresh = start_match(game, spec, players, state.dealer)
        fresh.totals, fresh.deals_played = dict(state.totals), state.deals_played
        before = engine.score_deal(deal, resolved, state).as_dict()
        after = engine.score_deal(bare, resolved, fresh).as_dict()
        assert (after["points"], after.get("units"), after["event"]) == (
            before["points"],
            before.get("units"),
            before["event"],
        ), deal
        engine.add_deal(state, deal, rules)
        if state.finished:
            break
    assert compared >= 3, f"only {compared} {game} deals entered by sides"


def test_calabrasella_without_counts():
    """Calabrasella's bidder against the opponents, in points (35 a deal): the counts
    are asked only to double at 70 under cav.double_70_condition = all_tricks."""
    from scorebook.rules import start_match

    rules = {"cav.double_70_condition": "all_tricks"}

    def deal(**more):
        engine, resolved, state = start_match("calabrasella", rules, 3)
        bids = [{"player": p, "bid": "pass"} for p in engine.dealt_in(state)[:-1]]
        bids.append({"player": engine.dealt_in(state)[-1], "bid": "stand"})
        body = {"bids": bids, "called": "3c", "called_from": "stock", "discards": 1,
                "last_trick": "bidder", **more}  # fmt: skip
        return engine.add_deal(state, body, resolved).as_dict()

    plain = deal(sides={"bidder": {"points": 20}, "opponents": {"points": 15}})
    counted = deal(
        sides={"bidder": {"points": 20, "tricks": 7}, "opponents": {"points": 15, "tricks": 5}}
    )
    assert plain["units"] == counted["units"] and plain["facts"]["tricks"] == {}
    whole = deal(sides={"bidder": {"points": 35}, "opponents": {"points": 0}}, all_tricks="bidder")
    some = deal(sides={"bidder": {"points": 35}, "opponents": {"points": 0}})
    assert whole["facts"]["result"] == 70 and some["facts"]["result"] == 35
