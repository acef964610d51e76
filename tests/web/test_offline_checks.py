"""The phone's offline checks (issue 32 item 4) come from the engine's description of the
table and say what the server's form says: for every game and both languages, a pile
above a deal's, a rest below nothing and a choice left blank get, offline, the words the
server puts on the form for that very deal (read, judged by the engine, placed)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
from django.utils import translation

from scorebook.rules import Rejection, get_game, start_match
from scorebook.rules.schema import game_keys
from scorebook.web import deal_forms as forms
from scorebook.web.offline_checks import _pile, describe

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from deploy.checks import table_taps as taps  # noqa: E402 - the repository root first

NAMES = {"N": "Nino", "E": "Ettore", "S": "Salvo", "W": "Walter"}


def table(key):
    game = get_game(key)
    players = len(game.new_match(game.rules(None), None, None).seats)
    _, resolved, state = start_match(key, None, players)
    return forms.Table(key, resolved.as_dict()["values"], state, NAMES)


def valid_fields(t):
    """A legal deal of the game (the engine's own random one) as the quick form posts it:
    the other parts of the form filled, so that the engine reaches the piles. A deal that
    was played (its piles typed, as deploy/checks/table_taps.py's plan types them) comes
    first: where everybody passed the engine refuses any pile whatever its value, and the
    played deals of Terziglio and Calabrasella are not ones ``prefill`` holds."""
    import random

    game = get_game(t.game)
    for seed in range(SEEDS):
        deal = taps.random_deals(t.game, len(t.state.seats), dict(t.rules), n=1, seed=seed)[0]
        steps = taps.plan(t, taps.in_turn(deal, game.dealt_in(t.state)))
        if steps is None or any(s.how not in POSTED for s in steps):
            continue
        fields: dict[str, list[str]] = {}
        for step in steps:
            if step.how != "open":
                fields.setdefault(step.name, []).append(POSTED[step.how] or step.value)
        if any(_pile(name) for name in fields):
            return fields
    rules = game.rules(dict(t.rules))
    for seed in range(SEEDS):
        deal = game.random_deal(random.Random(seed), rules, copy.deepcopy(t.state), "totals")
        prefilled = forms.prefill(t, "quick", deal)
        if prefilled is not None:
            return {k: v if isinstance(v, list) else [str(v)] for k, v in prefilled.items()}
    return {}


#: Seeds tried for a legal deal the quick form holds.
SEEDS = 20
#: What a step of table_taps' plan posts (its value, or this); a declaration's steps: not.
POSTED = {"type": "", "chip": "", "select": "", "check": "on", "open": ""}


def server_words(t, data, lang):
    """What the server's form says for ``data``: each input's notes and the form's."""
    form, deal = forms.read(t, "quick", data)
    game = get_game(t.game)
    try:
        game.add_deal(copy.deepcopy(t.state), deal, game.rules(dict(t.rules)))
    except Rejection as rejection:
        forms.place(form, forms.problems(rejection, lang))
    said = {i.name: list(map(str, i.errors)) for i in form.inputs() if i.errors}
    return said, list(map(str, form.errors))


def say(words, value, checks):
    return words.replace(str(checks["value"]), str(value))


def compare(key, lang):
    """Where the server's form says something on a typed pile for a legal deal but that
    pile one point above a deal's, the offline words for that value are the same; where
    the typed piles add up past the whole, the words on the rest are the server's; a
    choice the description requires gets the server's words when left blank. Returns the
    typed numbers whose words were compared with the server's."""
    t = table(key)
    compared = set()
    with translation.override(lang):
        checks = describe(t, "quick")
        base = valid_fields(t)
        zero = {c["name"]: ["0"] for c in checks["numbers"]}
        zero.update({c["figures"]: ["0"] for c in checks["numbers"] if c["figures"]})
        rest = checks["rest"]
        for check in checks["numbers"]:
            over = check["high"] // check["scale"] + 1
            data = {**base, **zero, check["name"]: [str(over)]}
            data.pop(rest["name"] if rest else "", None)
            said, _top = server_words(t, data, lang)
            if check["name"] in said:  # the engine reached the piles
                assert say(check["words"], over * check["scale"], checks) in said[check["name"]]
                compared.add(check["name"])
        if rest is not None:
            first, second = checks["numbers"][:2]
            data = {**base, **zero, first["name"]: [str(first["high"] // first["scale"])]}
            if first["figures"]:
                data[first["figures"]] = [str(first["high"] % first["scale"])]
            data[second["figures"] or second["name"]] = ["1"]
            data.pop(rest["name"], None)
            said, _top = server_words(t, data, lang)
            assert rest["words"] in said[rest["name"]]
        for check in checks["required"]:
            data = {c["name"]: ["0"] for c in checks["numbers"]}
            said, _top = server_words(t, data, lang)
            assert check["words"] in said[check["name"]]
        assert "value" in checks
    return compared


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("key", game_keys())
def test_the_offline_words_are_the_servers(key, lang):
    """The comparison above, for every game and both languages."""
    compare(key, lang)


def test_the_description_asks_what_the_engine_asks():
    """Tressette in pairs: A's points typed (B's are the rest of 32 thirds), the last trick a
    choice the engine asks for; Spinado has no piles to check."""
    with translation.override("it"):
        checks = describe(table("tressette4"), "quick")
    assert [
        (c["name"], c["scale"], c["high"]) for c in checks["numbers"] if c.get("pile", True)
    ] == [("sides.A.thirds", 3, 32)]
    assert checks["rest"] is None  # one typed pile: above the whole is said on it
    assert [c["name"] for c in checks["required"]] == ["last_trick"]
    assert checks["required"][0]["words"] == "Indica chi ha fatto l'ultima presa."
    assert describe(table("spinado"), "quick")["numbers"] == []
    assert describe(table("tressette4"), "play") == {}
    three = describe(table("tressette3"), "quick")
    assert three["rest"]["name"] == "seats.P3.thirds" and three["rest"]["words"]


def test_every_game_with_piles_was_compared():
    """The comparison reaches the piles of every game whose form types them (a legal deal
    of it filled in around them): none is passed over because the engine refused the
    deal for something else first. Self-contained: it compares again (under xdist the
    parametrized cases may run in another worker)."""
    piles = {}
    with translation.override("en"):
        for key in game_keys():
            numbers = describe(table(key), "quick")["numbers"]
            piles[key] = {c["name"] for c in numbers if c.get("pile", True)}
    assert sum(1 for names in piles.values() if names) >= 4  # several games type card points
    missed = {key: names - compare(key, "en") for key, names in piles.items()}
    assert {key: names for key, names in missed.items() if names} == {}


def offline(checks, data):
    """What the phone says offline for ``data`` (posted as the form posts it), as
    ``described`` in queue.js reads the checks: each number outside its bounds, the piles
    past the whole, a required choice left blank unless the one that forces it is chosen."""
    import re

    def typed(name):
        value = data.get(name, "")
        return str((value[0] if value else "") if isinstance(value, list) else value).strip()

    said, total, every = [], 0, True
    for check in checks["numbers"]:
        lead = re.fullmatch(r"(-?[0-9]+)(?:\s*\D+\s*([0-2]))?", typed(check["name"]))
        pile = check.get("pile", True)
        if lead is None:
            every = every and not pile
            continue
        extra = lead.group(2) or (typed(check["figures"]) if check["figures"] else "") or "0"
        n = int(lead.group(1)) * check["scale"] + int(extra)
        total += n if pile else 0
        if n < check.get("low", 0) or n > check["high"]:
            said.append(say(check["words"], n, checks))
    rest = checks["rest"]
    if rest and every and rest["whole"] - total < 0:
        said.append(say(rest["words"], rest["whole"] - total, checks))
    for check in checks["required"]:
        if not typed(check["name"]) and not (check["unless"] and typed(check["unless"])):
            said.append(check["words"])
    return said


def agree(t, data, lang="en"):
    """The server's words and the phone's for ``data``: every offline word is one the
    server's form says, and the phone refuses exactly when the server refuses."""
    with translation.override(lang):
        checks = describe(t, "quick")
        said, top = server_words(t, data, lang)
        phone = offline(checks, data)
    server = [w for words in said.values() for w in words] + top
    assert set(phone) <= set(server), (phone, server)
    return server, phone


def quick(key, rules=None, players=None):
    from tests.web.test_quick_entry import table as made

    return made(key, rules, players)


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize(
    "key,rules,post,taker",
    [
        ("tressette4", None, {}, "B"),
        ("tressette4", None, {}, "E"),
        ("traversone_pairs", None, {}, "A"),
        ("chiamata", {"cdt.target": 1000}, {"called": "d", "partner": "P3"}, "others"),
        ("terziglio", {"profile": "chips_1_2_4_8_16"}, {"auction.winner": "P2",
                                                        "auction.bid": "solo"}, "soloist"),
    ],
)  # fmt: skip
def test_a_sweep_is_one_tap_offline_too(key, rules, post, taker, lang):
    """``TableShape.sweep``: "all the tricks" alone writes the piles and the last trick; the
    phone does not ask the last trick nor the points the server writes."""
    server, phone = agree(quick(key, rules), {**post, "all_tricks": taker}, lang)
    assert server == [] and phone == []


def test_chiamata_s_forced_caller_is_not_asked_offline():
    """The first hand calls: the deal names no caller and both accept it; where the 4 of
    coins leads the caller is a choice, and left blank both say the server's words."""
    post = {"called": "c", "partner": "P3", "sides.callers.thirds": "7", "last_trick": "callers"}
    assert agree(quick("chiamata", {"cdt.target": 1000}), post) == ([], [])
    t = quick("chiamata", {"cdt.target": 1000, "core.first_lead": "holder_of_4d"})
    server, phone = agree(t, post, "it")
    assert len(phone) == 1 and phone == server


def test_spinado_offline_asks_who_went_out_and_bounds_the_cards_left():
    """Spinado: who went out is the one choice always asked (left blank, the server's
    words; before, the phone asked nothing); the cards left are within the engine's
    bounds (99: the server's words); who went out has the zero the form writes."""
    t = quick("spinado", None, 4)
    holder = t.state.seats[1]
    pick = f"spinado_held_by{forms.PICK}{holder}"
    server, phone = agree(t, {"runs~where": pick, "cards_left~held": "3"})
    assert phone == server and len(phone) == 1 and "out_first" not in phone[0]
    assert agree(t, {"out_first": t.state.seats[0], "runs~where": pick,
                     "cards_left~held": "3"}) == ([], [])  # fmt: skip
    t = quick("spinado", {"spin.first_out_extra": "one_per_card_left"}, 4)
    first, *others = t.state.seats
    post = {f"cards_left.{s}": "2" for s in others}
    post |= {"out_first": first, "runs~where": f"spinado_in_dead_hand{forms.PICK}on"}
    assert agree(t, post, "it") == ([], [])  # the first out's 0: written, not asked
    server, phone = agree(t, {**post, f"cards_left.{others[0]}": "99"}, "it")
    assert len(phone) == 1 and phone[0].endswith("deve essere tra 0 e 60; vale 99.")


def test_trappola_offline_bounds_the_points_and_asks_the_last_trick():
    """Trappola: the tricks are not asked (no score reads them; a deal without them is
    accepted by both); the points above the engine's and the last trick left blank are
    refused offline in the server's words (before, the phone checked none of them)."""
    t = quick("trappola", {"trap.target": 1000})
    post = {"seats.P1.points": "20", "seats.P2.points": "12", "last_trick": "P2"}
    assert agree(t, post) == ([], [])
    for change in ({"seats.P1.points": "99"}, {"last_trick": ""}):
        for lang in ("en", "it"):
            server, phone = agree(t, {**post, **change}, lang)
            assert len(phone) == 1 and phone[0] in server, change
