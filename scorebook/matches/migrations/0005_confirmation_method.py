"""A confirmation says how it was given (own phone, PIN, table phone, director override),
which seated player gave it and on whose phone; a tap on the table phone has no account of
its own (guests confirm too), so ``user`` may be empty. One confirmation per seat.

The rows that exist keep their meaning: ``override`` becomes the method ``override``, the
rest ``own_phone`` (a PIN confirmation was stored as the player's own, indistinguishable);
the player is the one the match seated at the row's seat, and the device's account the
confirming user's. A second row for one seat of one deal (only possible if a player's
account link changed) keeps its row but loses the seat, so the new rule holds."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

METHODS = [
    ("own_phone", "own phone"),
    ("pin", "PIN"),
    ("table_phone", "table phone"),
    ("override", "director override"),
]


def forwards(apps, schema_editor):
    Confirmation = apps.get_model("matches", "Confirmation")
    taken = set()
    rows = Confirmation.objects.select_related("deal__match").order_by("at", "pk")
    for row in rows.iterator():
        changed = ["method", "device_user", "player", "seat"]
        row.method = "override" if row.override else "own_phone"
        row.device_user_id = row.user_id
        if row.seat and (row.deal_id, row.seat) in taken:
            row.seat = ""
        if row.seat:
            taken.add((row.deal_id, row.seat))
            row.player_id = row.deal.match.seats.get(row.seat)
        row.save(update_fields=changed)


def backwards(apps, schema_editor):
    Confirmation = apps.get_model("matches", "Confirmation")
    Confirmation.objects.filter(method="override").update(override=True)


def drop_accountless(apps, schema_editor):
    """Back to the old shape: a tap on the table phone has no account to be kept under."""
    Confirmation = apps.get_model("matches", "Confirmation")
    Confirmation.objects.filter(user__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0004_club_confirmation_policy"),
        ("matches", "0004_delete_auditevent"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="confirmation",
            name="method",
            field=models.CharField(choices=METHODS, default="own_phone", max_length=12),
        ),
        migrations.AddField(
            model_name="confirmation",
            name="device_user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="confirmation",
            name="player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.player",
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveConstraint(
            model_name="confirmation",
            name="one_confirmation_per_user",
        ),
        migrations.RemoveField(
            model_name="confirmation",
            name="override",
        ),
        migrations.AlterField(
            model_name="confirmation",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, drop_accountless),
        migrations.AddConstraint(
            model_name="confirmation",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("deal", "user"),
                name="one_confirmation_per_user",
            ),
        ),
        migrations.AddConstraint(
            model_name="confirmation",
            constraint=models.UniqueConstraint(
                condition=models.Q(("seat", ""), _negated=True),
                fields=("deal", "seat"),
                name="one_confirmation_per_seat",
            ),
        ),
    ]
