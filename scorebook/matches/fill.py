"""Fill the per-seat facts (``SeatFact``) of the matches stored before they were kept at
entry: the data migration ``0013_fill_seat_facts`` and ``manage.py fill_seat_facts``.

Batched (``BATCH`` matches at a time, each batch its own transaction: the current deals'
results and the match's result read, its rows deleted and written again), with a
progress bar, and resumable: a run stopped half-way left whole batches behind it, and
the next run starts again from the last match that has rows (its batch is redone: every
batch replaces its matches' rows, so a batch done twice leaves what one run leaves).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from tqdm import tqdm

from .facts import FINISHED, deal_seat_facts, result_facts

BATCH = 2000


def fill(
    match_model: Any,
    deal_model: Any,
    fact_model: Any,
    *,
    start_over: bool = False,
    quiet: bool = False,
    batch: int = BATCH,
) -> int:
    """Write the facts of every match from the last one that has them on (every match
    with ``start_over``); returns how many matches it went through. The models are
    given (a migration's historical ones, or the live ones)."""
    since = 0
    if not start_over:
        last = fact_model.objects.order_by("-match_id").values_list("match_id", flat=True)
        since = (last.first() or 1) - 1  # the last match with rows: its batch is redone
    matches = match_model.objects.filter(pk__gt=since).order_by("pk")
    done = 0
    with tqdm(total=matches.count(), unit="match", disable=quiet or None) as bar:
        while True:
            ids = list(matches.filter(pk__gt=since).values_list("pk", flat=True)[:batch])
            if not ids:
                return done
            with transaction.atomic():
                _batch(match_model, deal_model, fact_model, ids)
            since = ids[-1]
            done += len(ids)
            bar.update(len(ids))


def _batch(match_model: Any, deal_model: Any, fact_model: Any, ids: list[int]) -> None:
    fact_model.objects.filter(match_id__in=ids).delete()
    rows = []
    found = match_model.objects.filter(pk__in=ids).only(
        "pk", "game", "rules", "seats", "state", "result", "status"
    )
    by_pk = {m.pk: m for m in found}
    for match in by_pk.values():
        if match.status == FINISHED:
            rows += [fact_model(match_id=match.pk, **row) for row in result_facts(match)]
    deals = (
        deal_model.objects.filter(match_id__in=ids)
        .order_by("match_id", "number", "version")
        .values_list("pk", "match_id", "result")
    )
    for deal_id, match_id, result in deals.iterator(chunk_size=5000):
        match = by_pk[match_id]
        rows += [
            fact_model(match_id=match_id, deal_id=deal_id, **row)
            for row in deal_seat_facts(match, result)
        ]
    fact_model.objects.bulk_create(rows, batch_size=5000)
