"""An abandoned match in the import template: ``abandoned`` holds its reason (``yes``
when it has none). The preview counts it; the import enters its deals, then abandons it
with that reason (``matches.services.match_abandon``); a match the file finishes cannot
be abandoned (refused in words, with row and column)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorebook.archive import exports
from scorebook.history import services
from scorebook.history.template import ABANDONED_NO_REASON, COLUMNS
from scorebook.matches.models import Deal, Match
from tests.history.test_final_score import SEATS, accept, csv_of  # noqa: F401
from tests.history.test_import import DEAL, _game

pytestmark = pytest.mark.usefixtures("eager_tasks")


def rows(abandoned: str, deals: int = 2) -> list[dict[str, str]]:
    first = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "abandoned": abandoned}
    out = [dict(first, deal=_json(DEAL))] if deals else [first]
    out += [{"date": "2019-03-21", "deal": _json(DEAL)} for _ in range(deals - 1)]
    return out


def _json(data) -> str:
    import json

    return json.dumps(data)


def preview(people, *given):
    return services.import_preview(
        club=people.club, user=people.director, filename="a.csv", data=csv_of(*given)
    )


def test_an_abandoned_match_is_imported_abandoned_with_its_reason(people, accept):  # noqa: F811
    batch = preview(people, *rows("Forfeit a tavolino"))
    assert batch.planned.get().data["abandoned"] == "Forfeit a tavolino"
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.director)
    page = client.get(reverse("web:import", args=[people.club.slug, batch.pk]))
    assert "Partite abbandonate" in page.content.decode()
    assert accept(batch, people.director).status == "done"
    (match,) = Match.objects.all()
    assert (match.status, match.ended_reason) == (Match.Status.ABANDONED, "Forfeit a tavolino")
    assert Deal.objects.filter(match=match).count() == 2
    (first, _second) = list(exports.import_rows(people.club))
    assert first["abandoned"] == "Forfeit a tavolino"


def test_abandoned_before_its_first_deal_and_without_a_reason(people, accept):  # noqa: F811
    batch = preview(people, *rows(ABANDONED_NO_REASON, deals=0))
    assert accept(batch, people.director).status == "done"
    (match,) = Match.objects.all()
    assert (match.status, match.ended_reason) == (Match.Status.ABANDONED, "")
    assert not Deal.objects.filter(match=match).exists()
    (written,) = list(exports.import_rows(people.club))
    assert (written["abandoned"], written["deal"], written["final"]) == ("yes", "", "")


def test_a_match_the_file_finishes_cannot_be_abandoned(people):
    row = {"date": "2019-03-21", "game": _game(), "seats": SEATS, "final": "A=21; B=13"}
    with pytest.raises(services.RowsRefused) as refused:
        preview(people, dict(row, abandoned="Forfeit"))
    (error,) = refused.value.errors("it")
    letter = chr(ord("A") + COLUMNS.index("abandoned"))
    assert error["params"] == {"row": 2, "column": "abandoned", "letter": letter}
    assert "abbandonata" in error["message"]
    assert not Match.objects.exists()


def test_a_reason_too_long_is_refused(people):
    with pytest.raises(services.RowsRefused) as refused:
        preview(people, *rows("x" * 201))
    (error,) = refused.value.errors("en")
    assert error["params"]["column"] == "abandoned"
    assert not Match.objects.exists()
