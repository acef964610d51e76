"""Leagues stored before their settings were checked (issue 23): a game the engine does
not know ("poker") made the league's fixtures, standings, CSV and pages answer 500 for
every member, until fixed by hand; a league of single matches could hold a series of 0
games. Such a league now plays any game, and a series of one match. Not reversed: the
values it replaces were never valid."""

from django.db import migrations


def repair(apps, schema_editor):
    from scorebook.rules import games

    League = apps.get_model("standings", "League")
    known = set(games())
    for league in League.objects.exclude(game="").exclude(game__in=known).only("pk", "game"):
        league.game = ""
        league.save(update_fields=["game"])
    League.objects.filter(series="matches").exclude(series_games__range=(1, 15)).update(
        series_games=1
    )


class Migration(migrations.Migration):
    dependencies = [("standings", "0007_derived_tables_without_database_keys")]

    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
