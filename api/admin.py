"""The API registers nothing in the admin: the stored Idempotency-Keys are in core's."""
