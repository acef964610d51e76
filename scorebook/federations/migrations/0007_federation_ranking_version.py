from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federations', '0006_team_withdrawal'),
    ]

    operations = [
        migrations.AddField(
            model_name='federation',
            name='ranking_version',
            field=models.PositiveIntegerField(default=0),
        ),
    ]
