from django.contrib import admin, messages

from scorebook.core.admin import ReadOnly
from scorebook.core.refusals import Refusal

from . import services
from .models import Account, Entry, Settlement, Transfer


@admin.register(Account)
class AccountAdmin(ReadOnly):
    list_display = ["__str__", "club", "player", "match", "pot"]
    list_filter = ["club"]


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    """The ledger is immutable: corrections book reversals, never edits."""

    list_display = ["id", "night", "match", "deal", "kind", "payer", "payee", "amount", "unit"]
    list_filter = ["kind", "unit", "club"]
    list_select_related = ["night__club", "match", "deal", "payer__player", "payee__player"]


class TransferInline(admin.TabularInline):
    model = Transfer
    fields = ("payer", "payee", "amount", "unit", "currency", "paid_at", "paid_by")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Settlement)
class SettlementAdmin(ReadOnly):
    list_display = ["night", "version", "computed_at", "computed_by"]
    inlines = [TransferInline]


@admin.register(Transfer)
class TransferAdmin(ReadOnly):
    list_display = ["settlement", "payer", "payee", "amount", "currency", "paid_at", "paid_by"]
    list_filter = ["paid_at"]
    actions = ["mark_paid"]

    @admin.action(description="Mark paid (directors of the club)")
    def mark_paid(self, request, queryset):
        for transfer in queryset:
            try:
                services.transfer_mark_paid(transfer=transfer, user=request.user)
            except Refusal as refused:
                self.message_user(request, f"{transfer}: {refused.text()}", messages.ERROR)
