"""IdempotencyKey now belongs to scorebook.core (core 0003 adopts the table as it is)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0002_idempotency_headers"),
        ("core", "0003_idempotencykey_from_api"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotencyKey")],
            database_operations=[],
        ),
    ]
