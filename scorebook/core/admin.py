from django.contrib import admin

from scorebook.matches.admin import ReadOnly

from .models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnly):
    list_display = ["at", "club", "actor", "verb", "object_type", "object_id"]
    list_filter = ["verb"]
