"""Every house-rule switch of every game, and every value it takes, has words a player
reads on the match form, in English and Italian (issue 13): a new switch in the engine
cannot reach the page as a code."""

import re

from django.utils import translation

from scorebook.rules.engine import describe_games
from scorebook.web.switches import SWITCHES, VALUES, value_label


def _is_code(value):
    """Numbers and the tags of rule books (DOS, PEN, 1/2/4/8/16) are shown as they are."""
    return re.fullmatch(r"[A-Z0-9/\-]+", str(value)) is not None


def _catalogue():
    for game in describe_games()["games"]:
        for switch in game["switches"]:
            yield game["key"], switch


def test_every_switch_has_words():
    missing = sorted({s["key"] for _, s in _catalogue() if s["key"] not in SWITCHES})
    assert not missing, f"switches without words in scorebook/web/switches.py: {missing}"


def test_every_value_has_words():
    missing = sorted(
        {
            f"{s['key']}={v}"
            for _, s in _catalogue()
            for v in s.get("values") or ()
            if str(v) not in VALUES and not _is_code(v)
        }
    )
    assert not missing, f"values without words in scorebook/web/switches.py: {missing}"


def test_the_words_are_italian_in_italian():
    untranslated = []
    with translation.override("it"):
        for key, label in SWITCHES.items():
            with translation.override("en"):
                english = str(label)
            if str(label) == english and not key.endswith(".deck"):
                untranslated.append(key)
        assert value_label("t4.cappotto_points", "double") == "doppi (22)"
    assert not untranslated, untranslated
