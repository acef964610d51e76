"""Stakes over HTTP: entries, the settlement sheet (JSON, CSV, PDF), settling and paid marks,
with the same permissions as matches (members read, directors settle and mark paid)."""

import csv
import io
from decimal import Decimal

import pytest

from scorebook.ledger.models import Transfer
from scorebook.matches import services
from tests.api.common import PERSONAS, SIDES, api


@pytest.fixture
def finished(people, match):
    match.stake_amount = Decimal("0.50")
    match.stake_currency = "EUR"
    match.stake_unit = "money"
    match.save()
    for _ in range(3):
        services.deal_create(match=match, data=SIDES, expected_number=None, user=people.scorer)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def test_entries_trace_every_amount_to_its_match(people, finished):
    body = api(people, "member").get(f"/api/v1/entries?match={finished.pk}").json()
    assert body["count"] == 2
    assert {e["payee_name"] for e in body["results"]} == {"Nino", "Salvo"}
    assert {e["amount"] for e in body["results"]} == {"0.50"}
    assert api(people, "stranger").get("/api/v1/entries").json()["count"] == 0


def test_settlement_is_provisional_until_the_night_closes(people, finished):
    url = f"/api/v1/nights/{finished.night_id}/settlement"
    sheet = api(people, "member").get(url).json()
    assert sheet["provisional"] is True and sheet["version"] is None
    assert len(sheet["transfers"]) == 2
    assert {n["name"]: n["net"] for n in sheet["groups"][0]["nets"]} == {
        "Nino": "0.50",
        "Salvo": "0.50",
        "Ettore": "-0.50",
        "Walter": "-0.50",
    }
    assert (
        api(people, "director").post(f"/api/v1/nights/{finished.night_id}/close").status_code == 200
    )
    sheet = api(people, "member").get(url).json()
    assert sheet["provisional"] is False and sheet["version"] == 1


def test_marking_paid_is_for_directors_and_shows_on_the_sheet(people, finished):
    api(people, "director").post(f"/api/v1/nights/{finished.night_id}/close")
    transfer = Transfer.objects.first()
    url = f"/api/v1/transfers/{transfer.pk}/paid"
    assert api(people, "member").post(url).status_code == 403
    assert api(people, "stranger").post(url).status_code == 404
    done = api(people, "director").post(url)
    assert done.status_code == 200 and done.json()["paid_by"] == "director"
    again = api(people, "director").post(url)
    assert again.json()["paid_at"] == done.json()["paid_at"]
    sheet = api(people, "member").get(f"/api/v1/nights/{finished.night_id}/settlement").json()
    assert len(sheet["paid"]) == 1 and len(sheet["transfers"]) == 1
    history = api(people, "member").get(f"/api/v1/nights/{finished.night_id}/settlements").json()
    assert [v["version"] for v in history] == [1]


@pytest.mark.parametrize("who", PERSONAS)
def test_settle_permissions(people, finished, who):
    response = api(people, who).post(f"/api/v1/nights/{finished.night_id}/settle")
    expected = {"anonymous": 401, "stranger": 404, "member": 403, "scorer": 403}.get(who, 200)
    assert response.status_code == expected


def test_the_sheet_as_csv_and_pdf(people, finished):
    api(people, "director").post(f"/api/v1/nights/{finished.night_id}/close")
    base = f"/api/v1/nights/{finished.night_id}/settlement"
    as_csv = api(people, "member").get(f"{base}/csv")
    assert as_csv.status_code == 200 and as_csv["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(as_csv.content.decode())))
    assert ["Nino", "0.50 EUR"] in rows
    assert any(
        row[:3] == ["Ettore", "Nino", "0.50 EUR"] or row[:3] == ["Walter", "Nino", "0.50 EUR"]
        for row in rows
    )
    as_pdf = api(people, "member").get(f"{base}/pdf")
    assert as_pdf.status_code == 200 and as_pdf.content.startswith(b"%PDF")
    italian = api(people, "member").get(f"{base}/csv", HTTP_ACCEPT_LANGUAGE="it")
    assert "Giocatore" in italian.content.decode()
    assert api(people, "stranger").get(f"{base}/pdf").status_code == 404
