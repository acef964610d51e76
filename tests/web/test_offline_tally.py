"""What the phone adds to the score for a waiting deal (issue 32 item 4): the real
``tally.js``, run by node on the description the server writes beside the quick form
(``offline_checks.tally``), gives the engine's points for the deal the form posts (read by
the server's form, judged by the engine), or null where the engine alone can say them (a
declaration, a sweep, a stramazzo), never another number; the games whose deals only the
engine scores have no description."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from scorebook.rules import Rejection, get_game, start_match
from scorebook.rules.schema import game_keys
from scorebook.web import deal_forms as forms
from scorebook.web.offline_checks import describe

NAMES = {"N": "Nino", "E": "Ettore", "S": "Salvo", "W": "Walter"}
TALLY_JS = Path(__file__).resolve().parents[2] / "scorebook/web/static/web/tally.js"
NODE = shutil.which("node")
#: Deals tried per game.
DEALS = 60

pytestmark = pytest.mark.skipif(NODE is None, reason="node runs tally.js")  # CI has it


def table(key, spec=None, players=None):
    game = get_game(key)
    if players is None:
        players = len(game.new_match(game.rules(spec), None, None).seats)
    _, resolved, state = start_match(key, spec, players)
    return forms.Table(key, resolved.as_dict()["values"], state, NAMES)


def run_js(tally, posts):
    """tally.js's ``adds`` for each posted form (a dict of lists, as Django reads it)."""
    script = (
        "const t = require(process.argv[1]);"
        "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = input.posts.map(p => {"
        "  const q = new URLSearchParams();"
        "  for (const [k, vs] of Object.entries(p)) for (const v of vs) q.append(k, v);"
        "  return t.adds(input.tally, q); });"
        "process.stdout.write(JSON.stringify(out));"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", script, str(TALLY_JS)],
        input=json.dumps({"tally": tally, "posts": posts}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def posts(t, tally, rng):
    """Quick-form posts: the typed piles (whole points, the figures tapped or typed
    "6 e 2"), the last trick; a few with a declaration or a sweep chosen as well."""
    out = []
    typed = tally["piles"]
    inputs = {i.name: i for i in forms.build(t, "quick").inputs()}
    chips = [c for c, _ in inputs[tally["last"]].choices if c]
    for n in range(DEALS):
        left = tally["whole"]
        data: dict[str, list[str]] = {}
        for k, pile in enumerate(typed):
            th = left if (k == len(typed) - 1 and tally["rest"] is None) else rng.randint(0, left)
            th = min(th, left) if n % 7 else (0 if k else left)  # the edges: all or nothing
            left -= th
            if pile["figures"] not in inputs:  # whole points only: the rest says the figures
                data[pile["name"]] = [str(th // 3)]
            elif n % 5 == 1:
                data[pile["name"]] = [f"{th // 3} e {th % 3}"]
            else:
                data[pile["name"]] = [str(th // 3)]
                data[pile["figures"]] = [str(th % 3)]
        if tally["lost"]:  # the points the figures left over lost in all: one chip
            data[tally["lost"]] = [rng.choice([c for c, _ in inputs[tally["lost"]].choices])]
        data[tally["last"]] = [rng.choice(chips)]
        if "removed" in inputs:  # played by three: the 4 taken out (it scores nothing)
            data["removed"] = [next(c for c, _ in inputs["removed"].choices if c)]
        if n % 9 == 4 and tally["blank"]:  # something the engine alone scores
            name = rng.choice(tally["blank"])
            choices = [c for c, _ in inputs[name].choices if c] if name in inputs else []
            if choices:
                data[name] = [choices[0]]
        out.append(data)
    return out


def engine_points(t, data):
    _form, deal = forms.read(t, "quick", data)
    game = get_game(t.game)
    try:
        result = game.add_deal(copy.deepcopy(t.state), deal, game.rules(dict(t.rules)))
    except Rejection:
        return None
    return result.points


CASES = [
    ("tressette4", None, None),
    ("tressette4", {"core.rounding": "round_two_thirds_up"}, None),
    ("tressette4", {"t4.stramazzo_def": "off"}, None),
    ("traversone_pairs", None, None),
    ("tressette2", None, None),
    ("tressette3", None, None),
    ("tressette4i", None, None),
    ("rovescino", None, 4),
    ("rovescino", None, 3),
    ("rovescino", {"profile": "oas_41"}, 4),
]


@pytest.mark.parametrize(("key", "spec", "players"), CASES)
def test_the_phone_adds_the_engines_points(key, spec, players):
    t = table(key, spec, players)
    with translation.override("it"):
        tally = describe(t, "quick")["tally"]
    assert tally is not None
    sent = posts(t, tally, random.Random(key))
    counted = 0
    for data, adds in zip(sent, run_js(tally, sent), strict=True):
        points = engine_points(t, data)
        if adds is None or points is None:
            continue  # not counted (the word), or a deal the engine refuses (reviewed later)
        counted += 1
        assert adds == {s: points.get(s, 0) for s in adds}, data
        assert set(points) - set(adds) == {s for s, p in points.items() if not p and s not in adds}
    assert counted >= DEALS // 2, counted  # the ordinary deals are counted


def test_a_declaration_or_a_sweep_is_not_counted():
    """Tressette in pairs: 6 and 2 with the last trick is 7 to 4; with a napoletana or
    the cappotto chosen the engine alone says it."""
    t = table("tressette4", {"profile": "accuso_41"})
    tally = describe(t, "quick")["tally"]
    plain = {"sides.A.thirds": ["6"], "sides.A.thirds~figures": ["2"], "last_trick": ["A"]}
    accuso = {**plain, "accusi.N": ["napoletana:c"]}
    cappotto = {**plain, "all_tricks": ["A"]}
    assert "all_tricks" in tally["blank"] and "accusi.N" in tally["blank"]
    assert run_js(tally, [plain, accuso, cappotto]) == [{"A": 7, "B": 4}, None, None]
    assert engine_points(t, plain) == {"A": 7, "B": 4}


def test_only_the_piles_games_have_a_tally():
    """An auction's contract (Terziglio, Calabrasella), the caller's partner (Chiamata),
    the chips and points of Spinado and Trappola: the engine's; and no level but the
    quick form's."""
    have = {key for key in game_keys() if describe(table(key), "quick")["tally"]}
    assert have == {
        "rovescino",
        "traversone_pairs",
        "tressette2",
        "tressette3",
        "tressette4",
        "tressette4i",
    }
    assert describe(table("tressette4"), "totals")["tally"] is None


def run_leader(boards):
    """tally.js's ``leader`` for each board ([[scorer, points], ...], as shown)."""
    script = (
        "const t = require(process.argv[1]);"
        "const boards = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(boards.map(b => t.leader(b))));"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", script, str(TALLY_JS)],
        input=json.dumps(boards),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def test_the_leading_mark_follows_the_score_shown_as_the_server_marks_it():
    """The match page's "leading" stayed on the server's leader while the score shown
    added the waiting deals (issue 32 item 4): tally.js marks the score shown, by the
    server's own rule (``scores.scoreboard``: one scorer ahead of all the others; none on
    a tie for the top), checked here on random boards of two, three and four scorers."""
    from scorebook.matches.models import Match
    from scorebook.web.scores import scoreboard

    rng = random.Random(32)
    boards, expected = [], []
    for n in range(300):
        scorers = [f"P{k}" for k in range(1, 2 + n % 4)]  # one to four scorers
        totals = {s: rng.randint(-3, 3) for s in scorers}
        match = Match(game="tressette4i", seats={s: k for k, s in enumerate(scorers)},
                      rules={"values": {}}, status="open",
                      state={"seats": scorers, "scorers": scorers, "totals": totals})  # fmt: skip
        board = scoreboard(match, {})
        boards.append([[side.scorer, side.points] for side in board])
        expected.append(next((side.scorer for side in board if side.leading), None))
    assert run_leader(boards) == expected
    assert None in expected and "P2" in expected  # ties and leaders both tried
    assert run_leader([[["A", 0], ["B", 0]], [["A", 7], ["B", 4]], [["A", 7]]]) == [None, "A", None]
