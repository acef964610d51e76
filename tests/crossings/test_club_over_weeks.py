"""The stateful test across the services (issue 31 item 3): a club over weeks
(tests/crossings/club.py), its invariants checked after every step
(tests/crossings/checks.py).

The budget: ``crossings-ci`` (the suite, CI) runs CI_EXAMPLES examples of up to CI_STEPS
steps each; ``make soak`` sets SOAK_EXAMPLES (and SOAK_STEPS) to run it much
longer. About one example in five that erased someone ends with the crawl of every
output (``ClubOverWeeks.founded``). The figures and what it found: docs/development.md
("Crossings").
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.crossings.club import ClubOverWeeks

CI_EXAMPLES = 12
CI_STEPS = 30

SOAK = os.environ.get("SOAK_EXAMPLES")
settings.register_profile(
    "crossings-ci",
    max_examples=CI_EXAMPLES,
    stateful_step_count=CI_STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "crossings-soak",
    settings.get_profile("crossings-ci"),
    max_examples=int(SOAK or CI_EXAMPLES),
    stateful_step_count=int(os.environ.get("SOAK_STEPS", 60)),
)


@pytest.mark.django_db
def test_a_club_over_weeks(settings_override, capsys):
    """Nothing but refusals; every night's ledger sums to zero and pays what the engine
    says; the standings equal a rebuild; every acknowledged deal is kept; an erased name is
    in no output."""
    profile = settings.get_profile("crossings-soak" if SOAK else "crossings-ci")
    ClubOverWeeks.totals.clear()
    started, cpu = time.monotonic(), time.process_time()
    run_state_machine_as_test(ClubOverWeeks, settings=profile)
    took, cpu = time.monotonic() - started, time.process_time() - cpu
    with capsys.disabled():
        print(
            f"\ncrossings: {profile.max_examples} examples of up to "
            f"{profile.stateful_step_count} steps in {took:.1f} s ({cpu:.1f} s of CPU)"
        )
        for what, n in sorted(ClubOverWeeks.totals.items()):
            print(f"  {n:6d}  {what}")


@pytest.fixture
def settings_override(settings):
    """Celery tasks in-process (the standings' refresh, the import's check and run)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    return settings
