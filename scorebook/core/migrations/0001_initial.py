"""AuditEvent moves here from the matches app and keeps its table, matches_auditevent:
only Django's state changes; no row is copied or lost."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('clubs', '0002_invitation'),
        ('matches', '0003_alter_auditevent_club_alter_confirmation_deal_and_more'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
            migrations.CreateModel(
                name='AuditEvent',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('verb', models.CharField(max_length=40)),
                    ('object_type', models.CharField(max_length=40)),
                    ('object_id', models.CharField(max_length=40)),
                    ('before', models.JSONField(blank=True, null=True)),
                    ('after', models.JSONField(blank=True, null=True)),
                    ('reason', models.TextField(blank=True)),
                    ('at', models.DateTimeField(auto_now_add=True)),
                    ('actor', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('club', models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.club')),
                ],
                options={
                    'db_table': 'matches_auditevent',
                    'ordering': ['-at'],
                },
            ),
            ],
            database_operations=[],
        ),
    ]
