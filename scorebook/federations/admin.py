"""The site's staff see the federations' records; changes go through the services (the
rules on officers, invitations and consent, and the audit), so most rows are read-only
here."""

from django.contrib import admin

from .models import Affiliation, ClubInvitation, Federation, FederationNumber, Officer, PersonLink


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class OfficerInline(admin.TabularInline):
    model = Officer
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Federation)
class FederationAdmin(admin.ModelAdmin):
    """Name, level and publishing may be corrected here; officers through the services."""

    list_display = ["name", "slug", "level", "publishes", "created_at"]
    list_filter = ["level", "publishes"]
    search_fields = ["name", "slug"]
    readonly_fields = ["next_number"]
    inlines = [OfficerInline]


@admin.register(Officer)
class OfficerAdmin(ReadOnly):
    list_display = ["federation", "user", "role", "created_at"]
    list_filter = ["role", "federation"]


@admin.register(ClubInvitation)
class ClubInvitationAdmin(ReadOnly):
    list_display = ["federation", "club", "status", "created_at", "expires_at", "answered_at"]
    list_filter = ["status", "federation"]


@admin.register(Affiliation)
class AffiliationAdmin(ReadOnly):
    list_display = ["federation", "club", "joined_at", "left_at"]
    list_filter = ["federation"]


@admin.register(PersonLink)
class PersonLinkAdmin(ReadOnly):
    """Consent is the person's and the club's: nobody links anyone from here."""

    list_display = ["club", "player", "user", "origin", "status", "proposed_at"]
    list_filter = ["status", "origin", "club"]


@admin.register(FederationNumber)
class FederationNumberAdmin(ReadOnly):
    list_display = ["federation", "number", "user", "assigned_at"]
    list_filter = ["federation"]
