"""A club night: open it, add tables, see its matches, close it and settle the stakes."""

import datetime
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scorebook.clubs.models import Player, Role
from scorebook.clubs.services import require_role
from scorebook.core.dates import today_in
from scorebook.core.numbers import object_or_404
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.ledger import exports, selectors
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Transfer
from scorebook.matches import services
from scorebook.matches.models import Match, Night
from scorebook.matches.selectors import (
    STOP,
    Progress,
    close_ending,
    night_log,
    night_progress,
)
from scorebook.sharing import texts
from scorebook.tournaments.selectors import tournaments_not_over
from scorebook.web.access import club_for, member_of, page_context
from scorebook.web.errors import errors_by_field, refused
from scorebook.web.forms.nights import NightCloseForm, NightForm, TableForm
from scorebook.web.scores import game_name, scoreboard
from scorebook.web.seats import seat_letter
from scorebook.web.share import share_for
from scorebook.web.templatetags.scorebook import local_date


def night_for(request, pk):
    """The night and the user's membership; 404 unless the user is a member of its club."""
    night = get_object_or_404(Night.objects.select_related("club"), pk=pk)
    return night, member_of(request, night.club_id)


@login_required
def night_new(request, slug):
    club, membership = club_for(request, slug)
    require_role(request.user, club.pk, Role.DIRECTOR)
    form = NightForm(request.POST or None, initial={"date": today_in(club.zone_name)})
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
    loose: list[dict[str, Any]] = []
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
            share=share_for(
                request,
                the_night.club,
                title=f"{the_night.club.name} · {the_night.date.isoformat()}",
                text=texts.night_text(the_night, names, matches),
                members_url=reverse("web:night", args=[the_night.pk]),
                public_url=reverse("web:public_club", args=[the_night.club.slug]),
            ),
        ),
    )


#: How often the room asks for itself again (as an open match's page does), and how long
#: since its last deal a table still playing is shown as behind.
ROOM_REFRESH_SECONDS = 15
ROOM_BEHIND = datetime.timedelta(minutes=15)


def _match_rows(the_night, matches, names):
    """Each match as the director's pages show it: where, the game, the score, and its
    progress (deals, the last one's time, unconfirmed and corrected deals)."""
    progress = night_progress(the_night.pk)
    now = timezone.now()
    rows = []
    for match in matches:
        done = progress.get(match.pk, Progress())
        rows.append(
            {
                "match": match,
                "game": game_name(match.game),
                "board": scoreboard(match, names),
                "progress": done,
                "behind": match.status == Match.Status.OPEN
                and now - (done.last_deal_at or match.created_at) > ROOM_BEHIND,
                # "0 minutes ago" read oddly: under a minute it is "just now"
                "just_now": done.last_deal_at is not None
                and now - done.last_deal_at < datetime.timedelta(minutes=1),
            }
        )
    return rows


def _log_in_words(the_night, matches):
    """The night's corrections and overrides with the person's name (their player's name
    at this club if they have one, else their account's) and where it happened, among
    ``matches`` (the night's, with their tables)."""
    log = night_log(the_night.pk)
    by_user = dict(
        Player.objects.filter(club_id=the_night.club_id, user__isnull=False).values_list(
            "user_id", "name"
        )
    )
    accounts = dict(
        get_user_model()
        .objects.filter(pk__in={e.actor_id for e in log} - set(by_user))
        .values_list("pk", "username")
    )
    places = {m.pk: m for m in matches}
    return [
        {
            "entry": entry,
            "who": (by_user.get(entry.actor_id) or accounts.get(entry.actor_id, ""))
            if entry.actor_id is not None
            else "",
            "match": places[entry.match_id],
            "game": game_name(places[entry.match_id].game),
        }
        for entry in log
    ]


@login_required
def night_room(request, pk):
    """The night for the director: every table's match with its score, deals, the time
    since its last deal and what is pending (unconfirmed and corrected deals), refreshed
    while the night is open; then the night's log of corrections and overrides."""
    the_night, membership = night_for(request, pk)
    require_role(request.user, the_night.club_id, Role.DIRECTOR)
    names = _names(the_night.club_id)
    matches = list(
        Match.objects.filter(night=the_night)
        .select_related("table")
        .order_by("table__number", "id")
    )
    rows = _match_rows(the_night, matches, names)
    at_tables = [r for r in rows if r["match"].table_id]
    used = {r["match"].table_id for r in at_tables}
    return render(
        request,
        "web/nights/room.html",
        page_context(
            the_night.club,
            membership,
            nav="club",
            night=the_night,
            rows=at_tables,
            loose=[r for r in rows if not r["match"].table_id],
            empty_tables=[t for t in the_night.tables.order_by("number") if t.pk not in used],
            log=_log_in_words(the_night, matches),
            refresh=ROOM_REFRESH_SECONDS,
            now=timezone.now(),
            behind_minutes=int(ROOM_BEHIND.total_seconds() // 60),
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
    """The director sees each player's net and the transfers, then closes the night. The
    matches still open are listed first, each with how the close ends it (finished with
    its scores, or abandoned), and the one confirmation ends them and closes the night."""
    the_night, membership = night_for(request, pk)
    require_role(request.user, the_night.club_id, Role.DIRECTOR)
    matches = list(
        Match.objects.filter(night=the_night)
        .select_related("table")
        .order_by("table__number", "id")
    )
    form = NightCloseForm(request.POST or None, match_ids=[m.pk for m in matches])
    context = _close_context(the_night, matches, form)
    if request.method == "POST" and form.is_valid():
        try:
            services.night_close(
                night=the_night,
                user=signed_in(request),
                end_open=form.cleaned_data["end_open"],
                reason=form.cleaned_data["reason"],
            )
        except Refusal as refusal:
            # the page again as the night is now (a match opened meanwhile is listed)
            matches = list(
                Match.objects.filter(night=the_night)
                .select_related("table")
                .order_by("table__number", "id")
            )
            again = NightCloseForm(initial={"reason": form.cleaned_data["reason"]}, match_ids=[])
            context = _close_context(the_night, matches, again)
            return _sheet_page(
                request,
                the_night,
                membership,
                "web/nights/close.html",
                status=refusal.status,
                refusal_errors=errors_by_field(refusal),
                **context,
            )
        messages.success(request, _("The night is closed."))
        return redirect("web:settlement", pk=the_night.pk)
    return _sheet_page(request, the_night, membership, "web/nights/close.html", **context)


def _close_context(the_night, matches, form):
    """The close page's lists: the matches still being played, named before they are
    ended (the page listed only the money, and a match left at 15 to 13 was closed
    without a word), those the close finishes with their scores apart from those it
    abandons; then the deals nobody confirmed and those corrected, as the room shows
    them."""
    names = _names(the_night.club_id)
    rows = _match_rows(the_night, matches, names)
    log = _log_in_words(the_night, matches)
    unfinished = [r for r in rows if r["match"].status == Match.Status.OPEN]
    return {
        "form": form,
        "to_stop": [r for r in unfinished if close_ending(r["match"]) == STOP],
        "to_abandon": [r for r in unfinished if close_ending(r["match"]) != STOP],
        "open_ids": [r["match"].pk for r in unfinished],
        "pending": [r for r in rows if r["progress"].unconfirmed],
        "unconfirmed": sum(len(r["progress"].unconfirmed) for r in rows),
        "corrected": sum(len(r["progress"].corrected) for r in rows),
        "corrections": [e for e in log if e["entry"].kind == "correction"],
        # the tournaments the service would refuse to close over (night.not_ready)
        "tournaments": list(tournaments_not_over(the_night.pk)),
    }


@login_required
def settlement(request, pk):
    """Nets, the fewest transfers, the paid marks; directors mark transfers paid."""
    the_night, membership = night_for(request, pk)
    if request.method == "POST":
        transfer = object_or_404(
            Transfer, request.POST.get("transfer"), settlement__night=the_night
        )
        ledger.transfer_mark_paid(transfer=transfer, user=signed_in(request))
        messages.success(request, _("Marked as paid."))
        return redirect("web:settlement", pk=the_night.pk)
    # The members' share: who pays whom, by the members' page (never a public one).
    share = share_for(
        request,
        the_night.club,
        title=f"{the_night.club.name} · {the_night.date.isoformat()}",
        text=texts.settlement_text(the_night, for_members=True),
        members_url=reverse("web:settlement", args=[the_night.pk]),
    )
    return _sheet_page(request, the_night, membership, "web/nights/settlement.html", share=share)


def _sheet_page(request, the_night, membership, template, status=200, **extra):
    sheet = selectors.sheet(the_night)
    context = page_context(
        the_night.club,
        membership,
        nav="club",
        night=the_night,
        sheet=sheet,
        lines=_lines_in_words(the_night),
        # a night played for points says points, not payments (one without stakes says
        # nobody owes anything, under the usual title)
        money=not sheet["groups"] or any(group["currency"] for group in sheet["groups"]),
        **extra,
    )
    return render(request, template, context, status=status)


def _lines_in_words(night):
    """Each match of the night as people read it, beside the nets: the game and winners by
    name (the sheet said the game's code and "N S"), the result ("21–12"), the stake, the
    multiplier and what the match moved for each player."""
    names = _names(night.club_id)
    lines = selectors.match_lines(night)
    accounts = selectors.account_names(
        {int(a) for line in lines for group in line["moved"].values() for a in group}
    )
    worded = []
    for line in lines:
        winners = " & ".join(names.get(line["seats"].get(w), w) for w in line["winners"])
        totals = sorted(line["totals"].values(), reverse=True)
        moved = [
            (accounts[int(account)], amount, key.partition(":")[2])
            for key, group in line["moved"].items()
            for account, amount in sorted(group.items(), key=lambda kv: -Decimal(kv[1]))
        ]
        worded.append(
            {
                **line,
                "game": game_name(line["game"]),
                "winners": [winners] if winners else [],
                "winner_names": winners,
                "score": "–".join(str(t) for t in totals) if winners else "",
                "result_words": f"{winners} {'–'.join(str(t) for t in totals)}" if winners else "",
                "moved_words": moved,
            }
        )
    return worded


def _sheet_in_words(night):
    """The sheet's rows for people (the page's CSV and PDF): names and words, amounts and
    times as the reader writes them. The API's CSV keeps the codes, for programs."""
    name = f"settlement-{night.club.slug}-{night.date.isoformat()}"  # as the API's
    names = _names(night.club_id)
    rows = exports.sheet_rows(
        night.club.name,
        selectors.sheet(night),
        _lines_in_words(night),
        names,
        localize=True,
        seat_word=seat_letter,
    )
    return rows, name


@login_required
def settlement_csv(request, pk):
    the_night, _membership = night_for(request, pk)
    rows, name = _sheet_in_words(the_night)
    # The reader's spreadsheet: where the decimal separator is the comma, ";" between cells.
    delimiter = ";" if get_format("DECIMAL_SEPARATOR") == "," else ","
    response = HttpResponse(
        exports.as_csv(rows, delimiter=delimiter), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


@login_required
def settlement_pdf(request, pk):
    the_night, _membership = night_for(request, pk)
    rows, name = _sheet_in_words(the_night)
    title = f"{the_night.club.name} · {local_date(the_night.date, 'l j F Y')}"
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
