"""Importing a club's paper years on a phone (390 px, Italian): the director opens
"Importa serate passate" from the club's settings, uploads a copy of the example file with
three bad rows (a date that is no date, an unknown game, a final score that ends no match),
watches the check's progress bar while the worker has not run it, then (the page reloads
by itself when the check is done) reads each refusal in words with its row and column,
nothing stored; uploads the example file itself and reads the preview (nights, matches,
deals, the guests to add);
accepts it and watches the progress bar go from queued to done as the worker runs the
import; finds the imported year on the leaderboard; undoes the whole import and the
leaderboard is empty again."""

from __future__ import annotations

import csv
import datetime
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "import-example.csv"


def broken_example(folder: Path) -> Path:
    """The example with a final score that ends no match first (row 2), then the example's
    rows with a date that is no date (row 3) and an unknown game (row 7)."""
    reader = csv.DictReader(EXAMPLE.open(encoding="utf-8"))
    body = list(reader)
    body[0]["date"] = "12 gennaio"
    body[4]["game"] = "scopone"
    first = body[0]
    final = {**{c: first[c] for c in ("game", "rules", "seats")}, "final": "A=12; B=13"}
    final.update({"date": "2015-12-01", "table": "1", "match": "1", "first_dealer": "N"})
    path = folder / "storico-sbagliato.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(reader.fieldnames or []))
        writer.writeheader()
        writer.writerows([final, *body])
    return path


def test_a_director_imports_the_example_and_undoes_it_at_390px(
    phone, players, shots, axe, tmp_path, monkeypatch
):
    from scorebook.history import importer, tasks
    from scorebook.history.checker import check_run
    from scorebook.history.models import Import
    from scorebook.matches.models import Night
    from scorebook.standings import services as standings
    from scorebook.standings.models import LeaderboardRow
    from scorebook.standings.tasks import rebuild_standings

    director = players["direttore"]
    season = standings.season_create(
        club_id=director.memberships.get().club_id, name="2015-16",
        starts_on=datetime.date(2015, 9, 1), ends_on=datetime.date(2016, 8, 31), user=director,
    )  # fmt: skip
    queued: list[int] = []  # the broker: the test plays the worker below
    checks: list[int] = []
    monkeypatch.setattr(tasks.run_import, "delay", queued.append)
    monkeypatch.setattr(tasks.check_file, "delay", checks.append)
    monkeypatch.setattr("django.conf.settings.CELERY_TASK_ALWAYS_EAGER", False)

    page = phone(director, "it")
    page.goto("/c/san-rocco/settings")
    page.get_by_role("link", name="Importa le serate passate (CSV o XLSX)").click()
    page.wait_for_url("**/c/san-rocco/import")
    page.locator("input[type=file]").set_input_files(str(broken_example(tmp_path)))
    page.locator("main form button.primary").click()
    page.wait_for_url("**/c/san-rocco/import/*")
    checking = page.locator("#import-progress").inner_text()
    assert "controllo del file in corso" in checking and "righe" in checking
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page, "import-checking")
    shots(page, "import-checking-it")
    (check_id,) = checks
    check_run(check_id)  # the worker; the page reloads by itself when it is done
    page.locator("#import-problems").wait_for(timeout=15_000)
    problems = page.locator("#import-problems").inner_text()
    assert "Riga 2, colonna K (final)" in problems and "non chiudono una partita" in problems
    assert "Riga 3, colonna A (date)" in problems
    assert "Riga 4, colonna F (seats)" in problems and "la cella è vuota" in problems
    assert "Riga 7, colonna D (game)" in problems
    assert Import.objects.get().status == "refused" and not Night.objects.exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page, "import-refused")
    shots(page, "import-refused-it")

    page.goto("/c/san-rocco/import")
    page.locator("input[type=file]").set_input_files(str(EXAMPLE))
    page.locator("main form button.primary").click()
    page.wait_for_url("**/c/san-rocco/import/*")
    check_run(checks[-1])
    page.locator("#import-summary").wait_for(timeout=15_000)
    summary = page.locator("#import-summary").inner_text()
    assert "12/01/2016 – 19/01/2016" in summary and "Lia" in summary
    assert not Night.objects.exists()  # nothing until accepted
    shots(page, "import-preview-it")

    page.get_by_role("button", name="Importa queste serate").click()
    page.wait_for_load_state()
    progress = page.locator("#import-progress")
    assert "0 serate su 2" in progress.inner_text()
    assert page.locator("progress").get_attribute("value") == "0"
    shots(page, "import-queued-it")
    (batch_id,) = queued
    importer.import_run(batch_id)  # the worker
    page.locator("#import-progress progress[value='100']").wait_for(timeout=15_000)
    assert "2 serate su 2" in page.locator("#import-progress").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    axe(page, "import-done")
    shots(page, "import-done-it")

    page.locator("#import-progress").get_by_role("link", name="Classifiche").click()
    page.wait_for_url("**/c/san-rocco/standings/**")
    page.goto(f"/c/san-rocco/standings/?season={season.pk}")
    board = page.inner_text("main")
    assert "2015-16" in board and "Gino" in board and "Rosa" in board
    shots(page, "import-leaderboard-it")

    page.goto(f"/c/san-rocco/import/{batch_id}")
    page.get_by_role("button", name="Annulla tutta l'importazione").click()
    page.wait_for_load_state()
    assert "L'importazione è annullata" in page.inner_text("main")
    assert not Night.objects.exists()
    # the undo asks the bulk worker for the club's rebuild (not done in the request)
    rebuild_standings(Import.objects.get(pk=batch_id).club_id)  # the worker
    assert not LeaderboardRow.objects.filter(season=season).exists()
    shots(page, "import-undone-it")
