# The players erased before Player.erased existed are marked from their Erasure rows.

from django.db import migrations


def mark(apps, schema_editor):
    Erasure = apps.get_model("archive", "Erasure")
    Player = apps.get_model("clubs", "Player")
    Player.objects.filter(pk__in=Erasure.objects.values("player_id")).update(erased=True)


class Migration(migrations.Migration):
    dependencies = [
        ("archive", "0001_initial"),
        ("clubs", "0006_player_erased"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
