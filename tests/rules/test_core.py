"""The engine's shared pieces: cards, problems, switches, rounding and deck checks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scorebook.rules import cards, errors
from scorebook.rules.errors import Problems, Rejection
from scorebook.rules.houserules import Switch, choice, resolve
from scorebook.rules.tricks import (
    Capture,
    check_captures,
    check_last_trick,
    may_annul,
    score_thirds,
)


def test_the_rules_package_imports_no_framework():
    code = (
        "import sys, scorebook.rules, scorebook.rules.__main__;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'rest_framework', 'celery'));"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_deck_has_forty_cards_worth_32_thirds():
    assert len(cards.DECK40) == len(set(cards.DECK40)) == 40
    assert cards.thirds_of(cards.DECK40) == 32
    assert sum(1 for c in cards.DECK40 if c.rank == "A") == 4


@pytest.mark.parametrize(
    "code,expected",
    [("Ad", cards.Card("A", "d")), ("3c", cards.Card("3", "c")), ("rs", cards.Card("R", "s"))],
)
def test_parse_card(code, expected):
    assert cards.parse_card(code) == expected


@pytest.mark.parametrize("code", ["", "A", "Ax", "8d", "10d", 3, None, ["Ad"], "Add"])
def test_parse_card_refuses_what_is_not_a_card(code):
    assert cards.parse_card(code) is None


def test_trick_winner_is_highest_of_the_led_suit_and_leader_wins_if_nobody_follows():
    c = cards.parse_card
    assert cards.trick_winner([c("4d"), c("3c"), c("Ad"), c("2d")]) == 3
    assert cards.trick_winner([c("4d"), c("3c"), c("As"), c("2b")]) == 0


def test_french_court_switch_changes_the_order_of_c_and_f():
    c = cards.parse_card
    assert cards.trick_winner([c("Fd"), c("Cd")]) == 1
    assert cards.trick_winner([c("Fd"), c("Cd")], cards.TRESSETTE_RANKS_J_ABOVE_Q) == 0


def test_card_names_in_both_languages():
    card = cards.Card("A", "d")
    assert card.name("en") == "ace of coins"
    assert card.name("it") == "asso di denari"


def test_every_registered_message_has_both_languages_and_formats():
    import scorebook.rules  # noqa: F401  (registers every module's messages)

    catalogue = errors.catalogue()
    assert catalogue
    for code, (en, it) in catalogue.items():
        assert en and it and en != it, code
        assert code == code.strip() and " " not in code


def test_the_italian_messages_spell_each_term_one_way():
    """One word for one thing: "buongioco" (the code's spelling, PE's "buon gioco"); two
    messages said "bongioco"."""
    import scorebook.rules  # noqa: F401  (registers every module's messages)

    misspelt = {"bongioco": "buongioco"}
    found = [
        (code, wrong)
        for code, (_, it) in errors.catalogue().items()
        for wrong in misspelt
        if wrong in it.lower()
    ]
    assert not found


def test_problems_collect_then_reject_once_with_all():
    problems = Problems()
    problems.add("input.missing", "sides.A", field="A")
    problems.add("input.not_integer", "sides.B.thirds", field="thirds", value="x")
    with pytest.raises(Rejection) as caught:
        problems.raise_if_any()
    out = caught.value.as_dict()
    assert out["ok"] is False
    assert [e["code"] for e in out["errors"]] == ["input.missing", "input.not_integer"]
    assert out["errors"][1]["message"]["it"] == "'thirds' deve essere un numero intero, non 'x'."
    assert caught.value.as_dict("it")["errors"][0]["message"] == "'A' è obbligatorio."


def test_unknown_problem_code_is_a_programming_error():
    with pytest.raises(KeyError):
        errors.problem("no.such.code", "")


SWITCHES = (
    choice("x.mode", "a", "b"),
    Switch("x.target", 21, between=(1, 1000)),
    choice("x.flag", True, False),
)


def test_resolve_defaults_profile_then_explicit_values():
    profiles = {"long": {"x.target": 41, "x.mode": "b"}}
    assert resolve("x", SWITCHES, profiles, None).values == {
        "x.mode": "a",
        "x.target": 21,
        "x.flag": True,
    }
    rules = resolve("x", SWITCHES, profiles, {"profile": "long", "x.target": 31})
    assert rules.values == {"x.mode": "b", "x.target": 31, "x.flag": True}
    assert rules.profile == "long"


@pytest.mark.parametrize(
    "spec,code,path",
    [
        ({"x.nope": 1}, "rules.unknown_switch", "rules.x.nope"),
        ({"x.mode": "c"}, "rules.bad_value", "rules.x.mode"),
        ({"x.target": 0}, "rules.bad_value", "rules.x.target"),
        ({"x.target": "21"}, "rules.bad_value", "rules.x.target"),
        ({"x.target": True}, "rules.bad_value", "rules.x.target"),
        ({"x.flag": 1}, "rules.bad_value", "rules.x.flag"),
        ({"profile": "nope"}, "rules.unknown_profile", "rules.profile"),
        ([1], "rules.not_an_object", "rules"),
    ],
)
def test_resolve_rejects_unknown_switches_and_values_with_the_allowed_ones(spec, code, path):
    with pytest.raises(Rejection) as caught:
        resolve("x", SWITCHES, {}, spec)
    problem = caught.value.problems[0]
    assert (problem.code, problem.path) == (code, path)


def test_bad_value_message_lists_the_allowed_values():
    with pytest.raises(Rejection) as caught:
        resolve("x", SWITCHES, {}, {"x.mode": "c"})
    assert "'a', 'b'" in caught.value.problems[0].en


@pytest.mark.parametrize(
    "thirds,lt,rounding,expected",
    [
        # TV01, TV02: two sides, every rounding agrees.
        ({"A": 14, "B": 18}, "B", "floor_per_scorer", {"A": 4, "B": 7}),
        ({"A": 20, "B": 12}, "A", "floor_per_scorer", {"A": 7, "B": 4}),
        ({"A": 20, "B": 12}, "A", "remainder_to_last_trick", {"A": 7, "B": 4}),
        # TV22: three players.
        ({"P1": 11, "P2": 10, "P3": 11}, "P2", "floor_per_scorer", {"P1": 3, "P2": 4, "P3": 3}),
        (
            {"P1": 11, "P2": 10, "P3": 11},
            "P2",
            "remainder_to_last_trick",
            {"P1": 3, "P2": 5, "P3": 3},
        ),
        # TV23: four players.
        (
            {f"P{i}": 8 for i in range(1, 5)},
            "P4",
            "floor_per_scorer",
            {"P1": 2, "P2": 2, "P3": 2, "P4": 3},
        ),
        (
            {f"P{i}": 8 for i in range(1, 5)},
            "P4",
            "remainder_to_last_trick",
            {"P1": 2, "P2": 2, "P3": 2, "P4": 5},
        ),
        # Rounding two thirds up can make 12 (S5).
        ({"A": 17, "B": 15}, "A", "round_two_thirds_up", {"A": 7, "B": 5}),
        ({"A": 14, "B": 18}, "B", "round_two_thirds_up", {"A": 5, "B": 7}),
    ],
)
def test_score_thirds(thirds, lt, rounding, expected):
    lines = score_thirds(thirds, lt, rounding)
    assert {k: sum(line.points for line in v) for k, v in lines.items()} == expected


def test_score_thirds_breakdown_shows_dropped_thirds_and_last_trick():
    lines = score_thirds({"A": 14, "B": 18}, "B", "floor_per_scorer")
    assert lines["A"][0].as_dict() == {
        "kind": "cards",
        "points": 4,
        "thirds": 14,
        "dropped_thirds": 2,
    }
    assert [line.kind for line in lines["B"]] == ["cards", "last_trick"]


def _check(caps, **kw):
    problems = Problems()
    check_captures({c.scorer: c for c in caps}, problems, **kw)
    return [(p.code, p.path) for p in problems.items]


def test_check_captures_accepts_a_consistent_deal():
    caps = [Capture("A", "sides.A", 14, 4), Capture("B", "sides.B", 18, 6)]
    assert _check(caps, tricks_in_deal=10, cards_per_trick=4) == []


@pytest.mark.parametrize(
    "caps,expected",
    [
        ([Capture("A", "A", 14, 4), Capture("B", "B", 17, 6)], ("capture.thirds_total", "")),
        ([Capture("A", "A", 14, 4), Capture("B", "B", 18, 5)], ("capture.tricks_total", "")),
        (
            [Capture("A", "A", 2, 0), Capture("B", "B", 30, 10)],
            ("capture.thirds_without_tricks", "A"),
        ),
        ([Capture("A", "A", 13, 1), Capture("B", "B", 19, 9)], ("capture.thirds_over_tricks", "A")),
    ],
)
def test_check_captures_finds_impossible_totals(caps, expected):
    assert expected in _check(caps, tricks_in_deal=10, cards_per_trick=4)


def test_check_captures_at_cards_level_finds_duplicates_and_missing_counters():
    c = cards.parse_card
    a = Capture("A", "sides.A", 4, 1, (c("Ad"), c("3d")))
    b = Capture("B", "sides.B", 3, 9, (c("Ad"),))
    found = _check([a, b], tricks_in_deal=10, cards_per_trick=4, counting_cards=cards.DECK40)
    assert ("card.duplicate", "sides.B.cards") in found
    assert ("capture.counters_missing", "") in found


def test_a_claim_may_fall_short_of_the_deck_but_not_exceed_it():
    caps = [Capture("A", "A", 14, 4), Capture("B", "B", 3, 2)]
    assert _check(caps, tricks_in_deal=6, cards_per_trick=4, complete=False) == []
    caps = [Capture("A", "A", 14, 4), Capture("B", "B", 3, 3)]
    assert _check(caps, tricks_in_deal=6, cards_per_trick=4, complete=False) == [
        ("capture.tricks_over", "")
    ]


@pytest.mark.parametrize(
    "lt,caps,code",
    [
        ("C", [Capture("A", "A", 14, 4)], "last_trick.unknown"),
        ("A", [Capture("A", "A", 0, 0), Capture("B", "B", 32, 10)], "last_trick.no_tricks"),
        (None, [], "last_trick.missing"),
    ],
)
def test_last_trick_checks(lt, caps, code):
    problems = Problems()
    check_last_trick(lt, {c.scorer: c for c in caps}, ("A", "B"), 10, "last_trick", problems)
    assert code in [p.code for p in problems.items]


@pytest.mark.parametrize(
    "hand,pen,gg",
    [  # TV09
        ("Rd Fc 7d 7c 6s 6b 5d 5c 4s 4b", True, True),
        ("3s Rd 7d 7c 6s 6b 5d 5c 4s 4b", True, False),
        ("Rd Cc Fs 7d 7c 6s 6b 5d 5c 4s", False, False),
        ("Ad 7d 7c 6s 6b 5d 5c 4s 4b 7s", False, False),
    ],
)
def test_annul_rules_tv09(hand, pen, gg):
    held = [cards.parse_card(x) for x in hand.split()]
    assert may_annul(held, "less_than_one_point") is pen
    assert may_annul(held, "no_carico_and_lt3_figures") is gg
    assert may_annul(held, "off") is False


def run_cli(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "scorebook.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
    )


def test_cli_games_lists_every_game_with_switches():
    out = run_cli("games")
    assert out.returncode == 0
    listing = json.loads(out.stdout)
    assert isinstance(listing["games"], list)
    for game in listing["games"]:
        assert {"key", "name", "players", "switches", "profiles"} <= set(game)
        for switch in game["switches"]:
            assert "default" in switch and ("values" in switch or "min" in switch)


@pytest.mark.parametrize(
    "stdin,code",
    [
        ("{not json", "input.not_json"),
        ("[1, 2]", "input.not_object"),
        ('{"game": "poker"}', "game.unknown"),
        ('{"game": "poker", "deals": []}', "game.unknown"),
        ('{"game": "poker", "deals": [], "extra": 1}', "input.unknown_field"),
    ],
)
def test_cli_rejections_exit_2_with_json(stdin, code):
    out = run_cli("score", stdin=stdin)
    assert out.returncode == 2
    body = json.loads(out.stdout)
    assert body["ok"] is False
    assert body["errors"][0]["code"] == code
    assert body["errors"][0]["message"]["it"]


def test_cli_lang_option_gives_one_language():
    out = run_cli("score", "--lang", "it", stdin='{"game": "poker"}')
    assert out.returncode == 2
    assert json.loads(out.stdout)["errors"][0]["message"].startswith("Non esiste il gioco")


def test_docs_games_page_is_generated_from_the_catalogue():
    from pathlib import Path

    from scorebook.rules.__main__ import games_markdown

    page = Path(__file__).resolve().parents[2] / "docs" / "games.md"
    assert page.read_text(encoding="utf-8") == games_markdown(), (
        "docs/games.md is stale: run `python -m scorebook.rules games --markdown > docs/games.md`"
    )


def test_cli_scores_a_deal_and_a_match():
    deal = {
        "game": "tressette4",
        "sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
        "last_trick": "B",
    }
    out = run_cli("score", stdin=json.dumps(deal))
    assert out.returncode == 0, out.stdout
    assert json.loads(out.stdout)["result"]["points"] == {"A": 4, "B": 7}
    match = {"game": "tressette4", "deals": [{k: v for k, v in deal.items() if k != "game"}] * 3}
    out = run_cli("score", stdin=json.dumps(match))
    body = json.loads(out.stdout)
    assert out.returncode == 0
    assert body["match"]["totals"] == {"A": 12, "B": 21}
    assert body["match"]["outcome"]["winners"] == ["E", "W"]
    assert len(body["deals"]) == 3


def test_every_message_template_names_plain_parameters():
    import string

    import scorebook.rules  # noqa: F401

    for code, pair in errors.catalogue().items():
        for template in pair:
            for _, field, _, _ in string.Formatter().parse(template):
                assert field is None or field.isidentifier(), (code, field)


def test_every_table_names_a_pack_the_engine_describes():
    """Issue 25: the card grid's pack is the engine's (``packs()``, from each game's
    ``packs``): every table of the registry names one that is there, a pack holds each of
    its cards once, its suits are the cards' suits, and the cards that score are in it."""
    from scorebook.rules import games, packs, start_match

    described = packs()
    named = set()
    for key, game in sorted(games().items()):
        specs = [(None, n) for n in game.player_counts]
        specs += [({"profile": p}, None) for p in game.profiles]
        for rules, players in specs:
            _, resolved, state = start_match(key, rules, players)
            shape = game.table_shape(resolved.as_dict()["values"], state.seats)
            if shape.pack is None:
                continue
            named.add(shape.pack)
            assert shape.pack in described, f"{key}: no pack {shape.pack!r}"
            codes = {c.code for c in described[shape.pack].cards}
            assert set(shape.counting) <= codes, key
    assert named == set(described), "a pack no table names, or a table's pack missing"
    for name, pack in described.items():
        assert len(set(pack.cards)) == len(pack.cards), name
        assert set(pack.suits) == {c.suit for c in pack.cards}, name
    assert described["italian"].card_name("Ac", italian=True) == "asso di coppe"
    assert described["french50"].card_name("Qc", italian=False) == "queen of hearts"


def test_lost_points_of_the_figures_left_over():
    """How many whole points the figures left over may lose, the commonest first: two
    piles never lose one, three usually none, four usually one (16 of the 27 ways)."""
    from scorebook.rules.table import lost_points

    assert lost_points(2, 32) == (0,)
    assert lost_points(3, 32) == (0, 1)
    assert lost_points(4, 32) == (1, 0, 2)
