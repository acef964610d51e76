from django.db import migrations


def mark_every_club(apps, schema_editor):
    """Rows built before contributions were stored cannot be refreshed per match: a mark
    naming nothing makes the next refresh (or the sweeper) rebuild each such club."""
    LeaderboardRow = apps.get_model("standings", "LeaderboardRow")
    StaleMark = apps.get_model("standings", "StaleMark")
    clubs = set(LeaderboardRow.objects.values_list("club_id", flat=True).distinct())
    StaleMark.objects.bulk_create(StaleMark(club_id=c) for c in sorted(clubs))


class Migration(migrations.Migration):
    dependencies = [("standings", "0005_incremental_standings")]

    operations = [migrations.RunPython(mark_every_club, migrations.RunPython.noop)]
