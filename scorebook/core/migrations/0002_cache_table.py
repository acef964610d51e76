"""The database cache's table, made by `migrate` (it needed a separate `createcachetable`,
and a deploy that ran only `migrate` answered 500 on every throttled anonymous endpoint:
`rules/score`, `public/*`). Django's own command makes it, for every database cache the
settings name (none under Redis); a table already there (from that command) is kept."""

from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):

    dependencies = [
        ("core", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_cache_tables, migrations.RunPython.noop, elidable=False),
    ]
