"""The API stores nothing of its own: the Idempotency-Key store it answers retries from is
``scorebook.core.models.IdempotencyKey`` (the pages' saves use it too)."""
