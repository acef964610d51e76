from django.contrib import admin

from .models import Club, Membership, Player


class MembershipInline(admin.TabularInline):
    """Shown, not edited: roles change through the services (the owner rule, the audit)."""

    model = Membership
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "public", "created_at"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Read-only: removing or demoting the last owner must be refused, and every role
    change audited, which only the services do."""

    list_display = ["club", "user", "role"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    list_filter = ["role", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "guest", "active"]
    list_filter = ["club", "guest", "active"]
    search_fields = ["name"]
