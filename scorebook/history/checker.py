"""The check of an uploaded file, the preview task's body (``tasks.check_file``): every
row read as it streams and checked by the engine (``plan.plan_sheet``), the matches put
away as :class:`PlannedMatch` rows as soon as each is over, the progress written as it
goes; then the preview (its nights, names and numbers) or the problems found.

Memory stays bounded whatever the file holds: the file's bytes, the matches not yet
over, and a few bytes for each match that is (``plan._retire``). A refused file keeps
only its problems (at most ``plan.MAX_PROBLEMS``, the rest counted): no match, no upload.
The acceptance and the import itself are ``services`` and ``importer``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Club, Player
from scorebook.core.dates import today_in
from scorebook.core.refusals import Refusal
from scorebook.matches.refusals import STAKE_CURRENCIES

from .models import Import, ImportedNight, PlannedMatch
from .plan import Plan, nights_of, plan_sheet, summary_of
from .template import Row, Sheet, read_file

log = logging.getLogger(__name__)

#: Matches written to the database at a time while the check runs.
WRITE_EVERY = 500
#: The check's progress is written at most this often (seconds): each is a write.
PROGRESS_SECONDS = 1.0


class RowsRefused(Refusal):
    """The preview found problems: each is an entry of ``errors`` with its row and column."""

    code = "import.rows_refused"
    message = _("%(count)s rows of the file are refused: nothing was stored.")

    def __init__(self, problems: list[dict[str, Any]], more: int) -> None:
        super().__init__(count=len({p["row"] for p in problems}) + more)
        self.problems = problems
        self.more = more

    def errors(self, language: str | None = None) -> list[dict[str, Any]]:
        return problem_errors(self.problems, language)


class NothingNew(Refusal):
    code = "import.nothing_new"
    status = 409
    message = _("Every night of this file is already imported: nothing new to store.")


def problem_errors(problems: list[dict[str, Any]], language: str | None = None) -> list[dict]:
    """A preview's problems as the ``errors`` of an answer, in ``language`` (the active
    one by default): a row's problem names its ``row``, ``column`` and ``letter``; a
    problem of the whole file (its kind, its header...) its own path and params."""
    from django.utils.translation import get_language

    lang = "it" if (language or get_language() or "en").startswith("it") else "en"
    errors = []
    for p in problems:
        if p.get("row") is None:
            path, params = p.get("path", ""), p.get("params", {})
        else:
            path = f"row {p['row']}, {p['column']} ({p['letter']})"
            params = {"row": p["row"], "column": p["column"], "letter": p["letter"]}
        errors.append({"code": p["code"], "message": p["message"][lang], "path": path,
                       "params": params})  # fmt: skip
    return errors


def file_problem(refusal: Refusal) -> dict[str, Any]:
    """A refusal of the whole file (found while it was read) as a preview's problem, in
    both languages."""
    with translation.override("en"):
        en = refusal.text()
    with translation.override("it"):
        it = refusal.text()
    params = refusal.errors("en")[0]["params"]
    return {"row": None, "column": "", "letter": "", "code": refusal.code,
            "path": refusal.path, "params": params, "message": {"en": en, "it": it}}  # fmt: skip


def check_file(batch: Import, data: bytes) -> Import:
    """Check ``data`` for ``batch`` (in CHECKING) and make it a preview; raises the
    refusal (a template refusal, ``RowsRefused``, ``NothingNew``) where the file is
    refused, after removing what the check had put away."""
    PlannedMatch.objects.filter(batch=batch).delete()  # a second delivery starts again
    sheet = read_file(batch.filename, data)
    writer = _Writer(batch)
    players = Player.objects.filter(club_id=batch.club_id).values_list("pk", "name")
    erased = Player.objects.filter(club_id=batch.club_id, erased=True).values_list("pk", flat=True)
    imported = list(
        ImportedNight.objects.filter(club_id=batch.club_id).values_list("fingerprint", flat=True)
    )
    try:
        plan = plan_sheet(
            Sheet(sheet.columns, _progress(batch, sheet.rows, sheet.size_hint)),
            club_players=list(players),
            currencies=STAKE_CURRENCIES,
            imported=imported,
            erased=list(erased),
            sink=writer.add,
            # "in the future" is the club's: its today, in its time zone
            today=today_in(Club.objects.get(pk=batch.club_id).zone_name),
        )
        if plan.ok:
            writer.flush()
    except BaseException:
        PlannedMatch.objects.filter(batch=batch).delete()
        raise
    if not plan.ok:
        PlannedMatch.objects.filter(batch=batch).delete()
        raise RowsRefused(plan.problems, plan.more_problems)
    nights = list(nights_of(_planned(batch), imported))
    if all(night["already"] for night in nights):
        PlannedMatch.objects.filter(batch=batch).delete()
        raise NothingNew()
    return _previewed(batch, plan, nights)


def check_run(batch_id: int) -> Import:
    """The task's body: the check of an import in CHECKING (anything else: nothing to
    do, so a task delivered twice is harmless). A refused file becomes REFUSED with its
    problems; an unexpected error too ("stopped"), and goes on to be logged."""
    batch = Import.objects.filter(pk=batch_id).first()
    if batch is None or batch.status != Import.Status.CHECKING:
        return batch  # type: ignore[return-value]
    data = bytes(batch.upload or b"")
    batch.upload = None  # not held twice
    try:
        return check_file(batch, data)
    except RowsRefused as refusal:
        return _refused(batch, refusal.problems, refusal.more)
    except Refusal as refusal:
        return _refused(batch, [file_problem(refusal)], 0)
    except BaseException:
        Import.objects.filter(pk=batch.pk, status=Import.Status.CHECKING).update(
            status=Import.Status.REFUSED,
            upload=None,
            error="stopped by an unexpected error (logged)",
        )
        raise


def _refused(batch: Import, problems: list[dict[str, Any]], more: int) -> Import:
    stored = Import.objects.filter(pk=batch.pk, status=Import.Status.CHECKING).update(
        status=Import.Status.REFUSED,
        plan={"problems": problems, "more_problems": more, "players": {}},
        upload=None,
    )
    return _kept_or_stopped(batch, stored)


def _kept_or_stopped(batch: Import, stored: int) -> Import:
    """A check stopped meanwhile (``services.checks_stop``: a player was erased) leaves
    none of the matches it put away."""
    if not stored:
        PlannedMatch.objects.filter(batch_id=batch.pk).delete()
    return Import.objects.get(pk=batch.pk)


def _previewed(batch: Import, plan: Plan, nights: list[dict[str, Any]]) -> Import:
    new = [n for n in nights if not n["already"]]
    stored = Import.objects.filter(pk=batch.pk, status=Import.Status.CHECKING).update(
        status=Import.Status.PREVIEW,
        plan={"nights": nights, "problems": [], "more_problems": 0, "players": plan.players},
        summary=summary_of(nights, plan.players),
        nights_total=len(new),
        deals_total=sum(n["deals"] for n in new),
        upload=None,
    )
    return _kept_or_stopped(batch, stored)


def _planned(batch: Import) -> Iterator[tuple[str, dict[str, Any]]]:
    """The matches put away, in date, table and match order, read a few at a time."""
    rows = (
        PlannedMatch.objects.filter(batch=batch)
        .order_by("date", "table", "number")
        .values_list("date", "data")
    )
    for day, data in rows.iterator(chunk_size=WRITE_EVERY):
        yield day.isoformat(), data


class _Writer:
    """The check's sink: the matches that are over, written a few hundred at a time."""

    def __init__(self, batch: Import) -> None:
        self.batch = batch
        self.waiting: list[PlannedMatch] = []

    def add(self, day: str, match: dict[str, Any]) -> None:
        self.waiting.append(
            PlannedMatch(
                batch=self.batch, date=day, table=match["table"], number=match["number"], data=match
            )
        )
        if len(self.waiting) >= WRITE_EVERY:
            self.flush()

    def flush(self) -> None:
        if self.waiting:
            with transaction.atomic():
                PlannedMatch.objects.bulk_create(self.waiting)
            self.waiting = []


def _progress(batch: Import, rows: Iterable[Row], total: int) -> Iterator[Row]:
    """``rows``, writing how many were read (and of about how many) as they go by."""
    Import.objects.filter(pk=batch.pk).update(rows_total=total, rows_done=0)
    written = time.monotonic()
    count = 0
    for row in rows:
        count += 1
        if count % 200 == 0 and time.monotonic() - written > PROGRESS_SECONDS:
            Import.objects.filter(pk=batch.pk).update(rows_done=count)
            written = time.monotonic()
        yield row
    batch.rows_done = batch.rows_total = count  # read to the end: the estimate is done with
    Import.objects.filter(pk=batch.pk).update(rows_done=count, rows_total=count)
