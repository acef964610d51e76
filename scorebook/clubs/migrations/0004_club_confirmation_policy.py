"""What a club counts as a confirmation of a deal. The clubs that exist keep what they had
(a PIN typed on the table phone, or the player's own phone); a new club starts with the
table phone's tap, which works with one phone per table and with guests."""

from django.db import migrations, models

CHOICES = [
    ("table_phone", "A tap on the table phone (or a PIN, or their own phone)"),
    ("pin", "A PIN typed on the table phone (or their own phone)"),
    ("own_phone", "Only the player's own phone"),
]
HELP = "What counts as a player's confirmation of a deal."


class Migration(migrations.Migration):

    dependencies = [
        ("clubs", "0003_player_name_any_case"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="confirmation_policy",
            field=models.CharField(choices=CHOICES, default="pin", help_text=HELP, max_length=12),
        ),
        migrations.AlterField(
            model_name="club",
            name="confirmation_policy",
            field=models.CharField(
                choices=CHOICES, default="table_phone", help_text=HELP, max_length=12
            ),
        ),
    ]
