"""AuditEvent now belongs to scorebook.core (core 0001 adopts the table as it is)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0003_alter_auditevent_club_alter_confirmation_deal_and_more'),
        ('core', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='AuditEvent')],
            database_operations=[],
        ),
    ]
