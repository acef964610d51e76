"""A side may be two players ("Nino e Salvo", "gli avversari"): the engine's Italian does
not put a singular verb after a side's name ("Gli altri due ha fatto 3 prese" was read
on the deal form), it names the side and then says the fact."""

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "scorebook" / "rules"
#: "{scorer} ha", "{side_it} ha": a side's name then a singular verb ("il lato {side} ha"
#: and "la coppia {side} può" are right: the subject is "il lato", "la coppia")
SINGULAR_AFTER_A_SIDE = re.compile(
    r"(?<!lato )(?<!coppia )\{(?:scorer|side|side_it|sides?_it)\} (?:non )?(?:ha|è|deve|può) "
)


def test_no_singular_verb_after_a_sides_name():
    found = [
        f"{path.relative_to(RULES)}:{n}: {line.strip()}"
        for path in sorted(RULES.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if SINGULAR_AFTER_A_SIDE.search(line)
    ]
    assert not found, "\n".join(found)
