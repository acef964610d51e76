from django.contrib import admin

from .models import AuditEvent, IdempotencyKey


class ReadOnly(admin.ModelAdmin):
    """The record is append-only: the admin shows it but never edits or deletes it."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnly):
    list_display = ["at", "club", "actor", "verb", "object_type", "object_id"]
    list_filter = ["verb"]


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(admin.ModelAdmin):
    """Stored answers are evidence of what a client was told: read only."""

    list_display = ["created_at", "user", "method", "path", "status"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
