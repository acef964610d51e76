from django.contrib import admin

from scorebook.core.admin import ReadOnly

from .models import Confirmation, Deal, Match, Night, Table


class DealVersionsInline(admin.TabularInline):
    model = Deal
    fields = (
        "number",
        "version",
        "is_current",
        "level",
        "entered_by",
        "entered_at",
        "reason",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["number", "version"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Night)
class NightAdmin(ReadOnly):
    """Nights open and close through the services (closing settles the ledger)."""

    list_display = ["club", "date", "venue", "status"]
    list_filter = ["status", "club"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "name"]


@admin.register(Match)
class MatchAdmin(ReadOnly):
    """Game, stake and status are facts the ledger and the state were derived from."""

    list_display = ["id", "night", "table", "game", "status", "version"]
    list_filter = ["game", "status"]
    inlines = [DealVersionsInline]


@admin.register(Deal)
class DealAdmin(ReadOnly):
    list_display = ["match", "number", "version", "is_current", "entered_by", "entered_at"]
    list_filter = ["is_current", "level"]


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnly):
    list_display = ["deal", "seat", "player", "method", "user", "device_user", "at"]
