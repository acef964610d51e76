"""The same input gives the same output, byte for byte, in any process (issue 16, "Also")."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _revoke_with_three_cups():
    """N holds the 3, 2 and ace of cups and throws the 4 of coins on W's lead of the 4 of
    cups: a revoke with three cards N could have played."""
    hands = {
        "N": ["3c", "2c", "Ac", "Rd", "Cd", "Fd", "7d", "6d", "5d", "4d"],
        "W": ["3d", "2d", "Ad", "Rc", "Cc", "Fc", "7c", "6c", "5c", "4c"],
        "S": ["3s", "2s", "As", "Rs", "Cs", "Fs", "7s", "6s", "5s", "4s"],
        "E": ["3b", "2b", "Ab", "Rb", "Cb", "Fb", "7b", "6b", "5b", "4b"],
    }
    return {
        "game": "tressette4",
        "dealer": "N",
        "hands": hands,
        "tricks": [["4c", "4s", "4b", "4d"]],
        "claim": {"side": "A"},
    }


def _score_in_a_new_process(deal, hash_seed):
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    done = subprocess.run(
        [sys.executable, "-m", "scorebook.rules", "score"],
        input=json.dumps(deal),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    return done.stdout


def test_a_revoke_names_the_same_card_in_every_process():
    deal = _revoke_with_three_cups()
    outputs = {_score_in_a_new_process(deal, seed) for seed in (0, 1, 2, 3, 4, 5)}
    assert len(outputs) == 1, outputs
    (problem,) = json.loads(outputs.pop())["errors"]
    assert problem["code"] == "play.revoke"
    # The strongest card of the suit led is named: the 3 of cups, not the 2 or the ace.
    assert "3 of cups" in problem["message"]["en"]
