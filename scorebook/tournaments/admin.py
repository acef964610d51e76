"""Tournaments in the admin: read only (every change goes through the services, which
check it, book the ledger and write the audit log)."""

from django.contrib import admin

from scorebook.core.admin import ReadOnly

from .models import Draw, Entry, Pairing, Round, Single, Tournament


@admin.register(Tournament)
class TournamentAdmin(ReadOnly):
    list_display = ["name", "club", "night", "format", "status", "entry_fee", "currency"]
    list_filter = ["format", "status", "club"]


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ["name", "tournament", "seed", "lot", "group", "first_round", "withdrawn_at"]
    list_select_related = ["tournament"]


@admin.register(Single)
class SingleAdmin(ReadOnly):
    list_display = ["player", "tournament", "entry", "draw"]


@admin.register(Draw)
class DrawAdmin(ReadOnly):
    list_display = ["tournament", "number", "seed", "made_at"]


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ["tournament", "number", "stage", "started_at", "closed_at"]


@admin.register(Pairing)
class PairingAdmin(ReadOnly):
    list_display = ["round", "board", "home", "away", "table", "forfeited_by"]
    list_select_related = ["round__tournament", "home", "away", "table"]
