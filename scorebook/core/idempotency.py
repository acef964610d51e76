"""The Idempotency-Key store, for the API and the pages alike (Stripe's contract).

A POST with an ``Idempotency-Key`` (a header for the API, a hidden field or the header for
the pages) runs in one transaction with its key: when it succeeds the key row with the
answer is written in the same transaction, so the work and the key commit together or not at
all. A retry with the same key and body gets the stored answer again (marked
``Idempotent-Replayed: true``); the same key with another body gets 422.

A concurrent request with the same key (a phone retrying while the first is still
running) does its work, then waits on the key's unique index until the first commits,
fails there, rolls its work back and replays the first answer; if the first fails, its
key goes with it and the retry runs afresh. An answer that is not a success (a refusal,
invalid input) changes nothing and is not stored: it is rolled back, and if another
request with the key has committed meanwhile (the retry was refused because the first
already did the work), that first answer is replayed. Keys are per user: anonymous
requests run as if they had none.

The body is compared byte for byte (with the path): a retry sends the request it sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpResponse

from scorebook.core.people import Anyone

from .models import IdempotencyKey

#: Headers of a stored answer that its replay carries too.
REPLAYED_HEADERS = ("ETag", "Location")


def _stored(user: Anyone, key: str) -> IdempotencyKey | None:
    return IdempotencyKey.objects.filter(user_id=int(user.pk or 0), key=key).first()


def run_once(
    *,
    key: str,
    method: str,
    path: str,
    digest: str,
    run: Callable[[], HttpResponse],
    user_of: Callable[[], Any],
    answer: Callable[[HttpResponse], tuple[int, Any] | None],
    replay: Callable[[IdempotencyKey], HttpResponse],
    reused: Callable[[], HttpResponse],
) -> HttpResponse:
    """The contract above, for any POST: ``run`` does the work; ``answer`` says what of
    a response to store (``(status, data)``, or None when it is not a success); ``replay``
    answers a retry from the stored row; ``reused`` answers the same key with another
    ``digest``. The API's middleware and the pages' saves both use it."""
    user = None
    try:
        with transaction.atomic():
            response = run()
            user = user_of()
            if user is None or not user.is_authenticated:
                return response
            stored = answer(response)
            if stored is not None:
                IdempotencyKey.objects.create(
                    user=user,
                    key=key,
                    method=method,
                    path=path,
                    body_hash=digest,
                    status=stored[0],
                    response=stored[1],
                    headers={h: response[h] for h in REPLAYED_HEADERS if response.has_header(h)},
                )
            else:
                transaction.set_rollback(True)
    except IntegrityError:
        # A retry, or a request with this key that committed while we waited on the
        # index; anything else that broke a constraint is not ours to answer.
        row = _stored(user, key) if user is not None else None
        if row is None:
            raise
        return replay(row) if row.body_hash == digest else reused()
    if stored is None and response.status_code < 500:
        row = _stored(user, key)
        if row is not None:
            return replay(row) if row.body_hash == digest else reused()
    return response
