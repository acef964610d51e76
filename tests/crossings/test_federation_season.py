"""The stateful test across the federation's services (issue 34): a federation over a
season (tests/crossings/federation.py), its invariants checked after every step
(tests/crossings/checks.py for each club, tests/crossings/federal_checks.py for the
federation).

The budget matches the club's walk (test_club_over_weeks.py): ``crossings-ci`` runs
CI_EXAMPLES examples of up to CI_STEPS steps; ``make soak`` sets SOAK_EXAMPLES (and
SOAK_STEPS) to run it much longer.
"""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.crossings.federation import FederationOverASeason

CI_EXAMPLES = 8
CI_STEPS = 30

SOAK = os.environ.get("SOAK_EXAMPLES")
settings.register_profile(
    "federation-ci",
    max_examples=CI_EXAMPLES,
    stateful_step_count=CI_STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "federation-soak",
    settings.get_profile("federation-ci"),
    max_examples=int(SOAK or CI_EXAMPLES),
    stateful_step_count=int(os.environ.get("SOAK_STEPS", 60)),
)


@pytest.mark.django_db
def test_a_federation_over_a_season(settings_override, capsys):
    """Nothing but refusals; each club's ledger sums to zero and its standings equal a
    rebuild; every acknowledged deal is kept; the championship's cached table, the rating
    and the ranking equal a fresh read; each club reads and exports its own; an erasure
    leaves no link nor federation record of the person."""
    profile = settings.get_profile("federation-soak" if SOAK else "federation-ci")
    FederationOverASeason.totals.clear()
    started, cpu = time.monotonic(), time.process_time()
    run_state_machine_as_test(FederationOverASeason, settings=profile)
    took, cpu = time.monotonic() - started, time.process_time() - cpu
    with capsys.disabled():
        print(
            f"\nfederation crossings: {profile.max_examples} examples of up to "
            f"{profile.stateful_step_count} steps in {took:.1f} s ({cpu:.1f} s of CPU)"
        )
        for what, n in sorted(FederationOverASeason.totals.items()):
            print(f"  {n:6d}  {what}")


@pytest.fixture
def settings_override(settings):
    """Celery tasks in-process (the standings' refresh, the federation's rating replay)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    return settings
