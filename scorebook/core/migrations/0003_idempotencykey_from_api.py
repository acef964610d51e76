"""IdempotencyKey moves here from the api app (the pages' saves use it too, and the pages
must not depend on the API): the table and its rows stay as they are (``db_table`` keeps
the name it has had since the matches app); only Django's record of which app owns it
moves. api 0003 drops it from the api app's state."""

import django.core.serializers.json
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_cache_table"),
        ("api", "0002_idempotency_headers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IdempotencyKey",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("key", models.CharField(max_length=255)),
                        ("method", models.CharField(max_length=8)),
                        ("path", models.CharField(max_length=255)),
                        ("body_hash", models.CharField(max_length=64)),
                        ("status", models.PositiveSmallIntegerField(null=True)),
                        (
                            "response",
                            models.JSONField(
                                encoder=django.core.serializers.json.DjangoJSONEncoder, null=True
                            ),
                        ),
                        ("headers", models.JSONField(blank=True, default=dict)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_idempotencykey",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "key"), name="idempotency_key_unique"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
