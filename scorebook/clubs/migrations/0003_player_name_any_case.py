"""A club's player names are unique without case ("nino" beside "Nino" was accepted, and
every seat picker offered both). Names already there twice in different case are told
apart first: the player added later is renamed "nino (2)", so no player, match or seat
is lost."""

import django.db.models.functions.text
from django.db import migrations, models


def tell_apart(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    taken: dict[int, set[str]] = {}
    for player in Player.objects.order_by("club_id", "pk"):
        seen = taken.setdefault(player.club_id, set())
        name = player.name
        number = 1
        while name.lower() in seen:
            number += 1
            suffix = f" ({number})"
            name = player.name[: 80 - len(suffix)] + suffix
        seen.add(name.lower())
        if name != player.name:
            player.name = name
            player.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0002_invitation"),
    ]

    operations = [
        migrations.RunPython(tell_apart, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_name_unique_in_club",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                models.F("club"),
                django.db.models.functions.text.Lower("name"),
                name="player_name_unique_in_club_any_case",
            ),
        ),
    ]
