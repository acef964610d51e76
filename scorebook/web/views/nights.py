"""A club night: open it, add tables, see its matches, close it and settle the stakes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.clubs.models import Player, Role
from scorebook.clubs.services import require_role
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.ledger import exports, selectors
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Transfer
from scorebook.matches import services
from scorebook.matches.models import Match, Night
from scorebook.web.access import club_for, member_of, page_context
from scorebook.web.errors import refused
from scorebook.web.forms import NightForm, TableForm
from scorebook.web.scores import game_name, scoreboard


def night_for(request, pk):
    """The night and the user's membership; 404 unless the user is a member of its club."""
    night = get_object_or_404(Night.objects.select_related("club"), pk=pk)
    return night, member_of(request, night.club_id)


@login_required
def night_new(request, slug):
    club, membership = club_for(request, slug)
    require_role(request.user, club.pk, Role.DIRECTOR)
    form = NightForm(request.POST or None, initial={"date": timezone.localdate()})
    context = page_context(club, membership, nav="club", form=form)
    if request.method == "POST" and form.is_valid():
        try:
            night = services.night_open(
                club_id=club.pk, user=signed_in(request), **form.cleaned_data
            )
        except Refusal as refusal:
            return refused(request, refusal, template="web/nights/new.html", context=context)
        return redirect("web:night", pk=night.pk)
    return render(request, "web/nights/new.html", context)


def _names(club_id):
    return dict(Player.objects.filter(club_id=club_id).values_list("id", "name"))


@login_required
def night(request, pk):
    """The night's tables and their matches with the running scores."""
    the_night, membership = night_for(request, pk)
    names = _names(the_night.club_id)
    matches = list(Match.objects.filter(night=the_night).select_related("table").order_by("id"))
    tables = {t.pk: {"table": t, "matches": []} for t in the_night.tables.order_by("number")}
    loose = []
    for match in matches:
        shown = {
            "match": match,
            "game": game_name(match.game),
            "board": scoreboard(match, names),
        }
        (tables[match.table_id]["matches"] if match.table_id in tables else loose).append(shown)
    next_number = max((t["table"].number for t in tables.values()), default=0) + 1
    return render(
        request,
        "web/nights/night.html",
        page_context(
            the_night.club,
            membership,
            nav="club",
            night=the_night,
            tables=list(tables.values()),
            loose=loose,
            table_form=TableForm(initial={"number": next_number}),
        ),
    )


@login_required
def table_new(request, pk):
    the_night, membership = night_for(request, pk)
    require_role(request.user, the_night.club_id, Role.DIRECTOR)
    form = TableForm(request.POST or None)
    context = page_context(the_night.club, membership, nav="club", night=the_night, form=form)
    if request.method == "POST" and form.is_valid():
        try:
            services.table_create(night=the_night, user=signed_in(request), **form.cleaned_data)
        except Refusal as refusal:
            return refused(request, refusal, template="web/nights/table_new.html", context=context)
        messages.success(request, _("Table added."))
        return redirect("web:night", pk=the_night.pk)
    return render(request, "web/nights/table_new.html", context)


@login_required
def night_close(request, pk):
    """The director sees each player's net and the transfers, then closes the night."""
    the_night, membership = night_for(request, pk)
    require_role(request.user, the_night.club_id, Role.DIRECTOR)
    if request.method == "POST":
        services.night_close(night=the_night, user=signed_in(request))
        messages.success(request, _("The night is closed."))
        return redirect("web:settlement", pk=the_night.pk)
    # The matches still being played, named before they are shut (the page listed only
    # the money, and a match left at 15 to 13 was closed without a word).
    names = _names(the_night.club_id)
    unfinished = [
        {"match": match, "game": game_name(match.game), "board": scoreboard(match, names)}
        for match in Match.objects.filter(night=the_night)
        .exclude(status=Match.Status.FINISHED)
        .select_related("table")
        .order_by("table__number", "id")
    ]
    return _sheet_page(
        request, the_night, membership, "web/nights/close.html", unfinished=unfinished
    )


@login_required
def settlement(request, pk):
    """Nets, the fewest transfers, the paid marks; directors mark transfers paid."""
    the_night, membership = night_for(request, pk)
    if request.method == "POST":
        transfer = get_object_or_404(
            Transfer, pk=request.POST.get("transfer"), settlement__night=the_night
        )
        ledger.transfer_mark_paid(transfer=transfer, user=signed_in(request))
        messages.success(request, _("Marked as paid."))
        return redirect("web:settlement", pk=the_night.pk)
    return _sheet_page(request, the_night, membership, "web/nights/settlement.html")


def _sheet_page(request, the_night, membership, template, **extra):
    context = page_context(
        the_night.club,
        membership,
        nav="club",
        night=the_night,
        sheet=selectors.sheet(the_night),
        **extra,
    )
    return render(request, template, context)


def _sheet_in_words(night):
    """The sheet's rows for people (the page's CSV and PDF): each game by its name and the
    winners by theirs (the sheet said "tressette4" and "N S"). The API's CSV keeps the
    codes, for the programs that read it."""
    name = f"settlement-{night.club.slug}-{night.date.isoformat()}"  # as the API's
    names = _names(night.club_id)
    lines = [
        {
            **line,
            "game": game_name(line["game"]),
            "winners": [" & ".join(names.get(line["seats"].get(w), w) for w in line["winners"])]
            if line["winners"]
            else [],
        }
        for line in selectors.match_lines(night)
    ]
    return exports.sheet_rows(night.club.name, selectors.sheet(night), lines, names), name


@login_required
def settlement_csv(request, pk):
    the_night, _membership = night_for(request, pk)
    rows, name = _sheet_in_words(the_night)
    response = HttpResponse(exports.as_csv(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


@login_required
def settlement_pdf(request, pk):
    the_night, _membership = night_for(request, pk)
    rows, name = _sheet_in_words(the_night)
    title = f"{the_night.club.name} · {the_night.date.isoformat()}"
    response = HttpResponse(exports.as_pdf(title, rows), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response


@login_required
@require_POST
def settle(request, pk):
    """Recompute the settlement of an open night now (a new version only if it changed)."""
    the_night, _membership = night_for(request, pk)
    ledger.night_settle(night=the_night, user=signed_in(request))
    return redirect("web:settlement", pk=the_night.pk)
