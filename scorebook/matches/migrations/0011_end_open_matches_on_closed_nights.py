"""A night closes only with every match finished or abandoned (issue 31 item 10). Before,
the close left a match open on a closed night (the demo's Terziglio a week ago), where no
deal can be added and nothing ends it: such a match is abandoned, with no reason, which
changes no figure (the standings count neither an open nor an abandoned match; the stakes
its deals booked stay)."""

from django.db import migrations
from django.db.models import F


def abandon_open_matches_on_closed_nights(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Match.objects.filter(night__status="closed", status="open").update(
        status="abandoned", version=F("version") + 1
    )


class Migration(migrations.Migration):
    dependencies = [("matches", "0010_match_stopped")]

    operations = [
        migrations.RunPython(abandon_open_matches_on_closed_nights, migrations.RunPython.noop)
    ]
