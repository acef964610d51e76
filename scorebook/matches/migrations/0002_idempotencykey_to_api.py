"""IdempotencyKey now belongs to the api app (api 0001 adopts the table as it is)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0001_initial"),
        ("api", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotencyKey")],
            database_operations=[],
        ),
    ]
