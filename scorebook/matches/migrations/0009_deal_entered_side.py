"""Deal.entered_side: who entered a deal version at the table. Filled for the stored
deals whose account sits at their match (its seat's side, from the engine's description
of the table); left blank where the account was not seated, as nobody said."""

from django.db import migrations, models


def fill(apps, schema_editor):
    from scorebook.rules import get_game

    Deal = apps.get_model("matches", "Deal")
    Player = apps.get_model("clubs", "Player")
    shapes = {}
    for deal in Deal.objects.filter(entered_by__isnull=False).select_related("match").iterator():
        match = deal.match
        seats = match.seats or {}
        seat = next(
            (
                s
                for s, pid in seats.items()
                if Player.objects.filter(pk=pid, user_id=deal.entered_by_id).exists()
            ),
            None,
        )
        if seat is None:
            continue
        if match.pk not in shapes:
            order = tuple((match.state or {}).get("seats") or seats)
            try:
                shape = get_game(match.game).table_shape(match.rules["values"], order)
            except Exception:  # a game or rules the engine no longer reads: leave it blank
                shape = None
            shapes[match.pk] = shape
        shape = shapes[match.pk]
        if shape is None:
            continue
        deal.entered_side = shape.side_of(seat) or seat
        deal.save(update_fields=["entered_side"])


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("matches", "0008_match_final_winner"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="entered_side",
            field=models.CharField(blank=True, max_length=16),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
