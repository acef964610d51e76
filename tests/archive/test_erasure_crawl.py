"""Erasure x everything (issue 31 item 1): the demo club with a person's names written
into every kind of free text the app accepts (tests/archive/everywhere.py), then erased
from the page by a director.

The crawl (tests/archive/crawl.py: every page, the API and the public API, both ZIP
exports, the calendars, the PDFs as text, the CSVs) counts the outputs holding any of the
person's names before (in every kind of output) and after (none); the numbers (ledger,
standings, results) do not move, no log line names them, and a dump of every table of
the database holds them nowhere either.
"""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from scorebook.ledger.models import Entry as LedgerEntry
from scorebook.matches.models import Match
from scorebook.standings.models import LeaderboardRow
from tests.archive import crawl, dump
from tests.archive.everywhere import NAMES, RENAMED, user, zebulon_everywhere

pytestmark = pytest.mark.django_db


def numbers(club):
    return (
        sorted(LedgerEntry.objects.filter(club=club).values_list("payer", "payee", "amount")),
        sorted(
            LeaderboardRow.objects.filter(club=club).values_list("player", "game", "won", "units")
        ),
        sorted(Match.objects.filter(night__club=club).values_list("pk", "status", "result")),
    )


def test_after_the_erasure_no_output_holds_any_of_the_names(
    demo, eager_tasks, django_capture_on_commit_callbacks, caplog
):
    with django_capture_on_commit_callbacks(execute=True):
        zebulon = zebulon_everywhere(demo)
    before = crawl.outputs(demo)
    assert not before.errors()
    named = crawl.holding(before, NAMES)
    # the instruments see each kind of output holding the name before
    kinds = {crawl.kind_of(url) for url in named}
    assert kinds == {"page", "api", "pdf", "csv", "zip", "ics"}, kinds
    wanted = [
        "/api/v1/public/clubs/san-rocco/leagues/",  # a league forfeit's reason, anonymously
        "director /me/export.zip",  # the renaming director's own data: the old name
        "/export",  # the club's ZIP through the API
        "/settlement.pdf",
        "nights.ics",
    ]
    for piece in wanted:
        assert any(piece in url for url in named), (piece, named)
    counted = numbers(demo)

    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        director = Client(HTTP_ACCEPT_LANGUAGE="en")
        director.force_login(user("director"))
        done = director.post(
            f"/c/{demo.slug}/players/{zebulon.pk}/erase", {"name": RENAMED.lower()}, follow=True
        )
        assert done.status_code == 200 and "Erased player #1" in done.content.decode()
    after = crawl.outputs(demo)
    assert not after.errors()
    left = crawl.holding(after, NAMES)
    print(
        f"\nerasure crawl: {len(named)} of {len(before.texts)} outputs held the name before, "
        f"{len(left)} of {len(after.texts)} after; kinds before {before.kinds()}"
    )
    assert left == [], left
    assert not [r for r in caplog.records if crawl.holding_text(r.getMessage(), NAMES)]
    assert numbers(demo) == counted
    held = dump.holding(NAMES)
    assert held == [], held
