"""Fill the per-seat facts of the matches stored before they were kept at entry: in
batches of 2,000 matches, each its own transaction, with a progress bar; stopped half-way
(a deploy cut short), the migration is not recorded, and running it again, or
``manage.py fill_seat_facts``, starts from the last match that has facts."""

from django.db import migrations


def forwards(apps, schema_editor):
    from scorebook.matches.fill import fill

    fill(
        apps.get_model("matches", "Match"),
        apps.get_model("matches", "Deal"),
        apps.get_model("matches", "SeatFact"),
    )


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("matches", "0012_seat_facts")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True)]
