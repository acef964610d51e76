"""Deal entry at the table: the form per game and level, live checks by the engine, the
save (with the API's service and Idempotency-Key contract), a deal's page with every
version, confirmations (own phone or PIN hand-over) and corrections.

The views pick a service and render its answer; the engine judges every deal.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Player, Role
from scorebook.clubs.selectors import clubs_of, membership_of
from scorebook.core.numbers import MAX_ID, parse_id, require_int
from scorebook.core.people import signed_in
from scorebook.core.refusals import Refusal
from scorebook.matches import services, visitors
from scorebook.matches.models import Confirmation, Deal, Match, Night
from scorebook.matches.selectors import accepts
from scorebook.rules import Rejection
from scorebook.web import confirming, offline_checks, preview
from scorebook.web import deal_forms as forms
from scorebook.web import services as web_services
from scorebook.web.access import can, page_context
from scorebook.web.breakdown import claim_words, describe, trick_words, unit_heading
from scorebook.web.idempotency import idempotent_page
from scorebook.web.seats import seated
from scorebook.web.templatetags.scorebook import score, signed
from scorebook.web.views import matches as match_views


def _match(request: HttpRequest, match_id: int) -> Match:
    match = (
        Match.objects.select_related("night__club")
        .filter(pk=match_id, night__club__in=clubs_of(request.user))
        .first()
    )
    if match is None:
        raise Http404
    return match


def _deal(request: HttpRequest, deal_id: int) -> Deal:
    deal = (
        Deal.objects.select_related("match__night__club", "entered_by")
        .filter(pk=deal_id, match__night__club__in=clubs_of(request.user))
        .first()
    )
    if deal is None:
        raise Http404
    return deal


def _visit(request: HttpRequest, deal_id: int) -> tuple[Deal, dict[str, Any] | None]:
    """The deal to correct: the caller's club's, or another club's they correct from
    outside it (``matches.visitors``: the away club's director of a championship fixture),
    with what the registry says of the visit (None for the club's own). A member of the
    match's club below the correction's role there who directs the away club corrects as
    the away club's director: either role is enough, as in ``services.deal_correct``."""
    user = signed_in(request)
    try:
        own = _deal(request, deal_id)
    except Http404:
        deal = Deal.objects.select_related("match__night__club", "entered_by").filter(pk=deal_id)
        found = deal.first()
        visit = visitors.visiting(found.match_id, user) if found else None
        if found is None or visit is None:
            raise
        return found, visit
    held = membership_of(user, own.match.night.club_id)
    if held is not None and held.at_least(_correction_role(own.match)):
        return own, None
    return own, visitors.visiting(own.match_id, user)


def see_other(url: str) -> HttpResponse:
    """A POST that worked answers 303: the browser fetches the next page with a GET."""
    return HttpResponseRedirect(url, status=303)


def match_url(match: Match) -> str:
    """The match page; until it exists (the web helper is landing it), the club's page."""
    try:
        return reverse("web:match", args=[match.pk])
    except NoReverseMatch:
        return reverse("web:club", args=[match.night.club.slug])


def _level(request: HttpRequest, default: str = "totals") -> str:
    level = request.POST.get("level") or request.GET.get("level") or default
    return level if level in forms.LEVELS else default


def _refusal_errors(refusal: Refusal) -> list[str]:
    """The words of a service's refusal, in the user's language."""
    return [e["message"] for e in refusal.errors()]


def _frame(request: HttpRequest, match: Match, **extra: Any) -> dict[str, Any]:
    """What base.html needs (the club, the user's role) and the way back to the match."""
    club = match.night.club
    return page_context(
        club,
        membership_of(request.user, club.pk),
        match=match,
        match_url=match_url(match),
        **extra,
    )


def _context(
    request: HttpRequest, match: Match, form: forms.DealForm, **extra: Any
) -> dict[str, Any]:
    table = extra.get("table")
    dealer = table.seat_label(table.state.dealer) if table is not None else ""
    return {
        **_frame(request, match),
        "dealer": dealer,
        "form": form,
        "levels": [
            ("quick", _("Quick")),
            ("totals", _("Totals")),
            ("cards", _("Cards taken")),
            ("play", _("Play record")),
        ],
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
@idempotent_page
def deal_new(request: HttpRequest, match_id: int) -> HttpResponse:
    """The next deal's form (quick entry unless asked otherwise), with the running score
    and, after a save, the deal just saved in one line; a POST saves it through
    ``deal_create`` (as the API does) and comes back here for the next one."""
    # A post without a level is the deal format's totals (as a program would send it).
    level = _level(request, "quick" if request.method == "GET" else "totals")
    if request.method == "POST":
        return _save(request, match_id, level)
    match = _match(request, match_id)
    # The form only for those the service lets save it (a member would fill it in vain).
    clubs.require_role(signed_in(request), match.night.club_id, Role.SCORER)
    _game, _rules, state = preview.state_before(match)
    table = preview.table(match, state)
    saved = _saved(match, table, parse_id(request.GET.get("saved")))
    return render(
        request,
        "web/deals/new.html",
        _context(
            request,
            match,
            forms.build(table, level),
            offline_checks=offline_checks.describe(table, level),
            shape=preview.shape_of(table),
            table=table,
            number=state.deals_played + 1,
            key=uuid.uuid4(),
            finished=state.finished,
            score=_running_score(table),
            saved=saved,
            # the other side's one-tap "Confermiamo" for the deal just saved, on this phone
            confirm_here=confirming.confirm_here(match, request.user, saved["deal"], back="new")
            if saved
            else None,
            entering=confirming.entering(match, request.user, dict(table.names)),
        ),
    )


def _side_names(table: forms.Table, scorer: str) -> str:
    """A scorer as the table says it: "Nino & Salvo", "Nino", else the side's words."""
    members = table.shape.members.get(scorer) or ((scorer,) if scorer in table.names else ())
    names = [table.names.get(seat) or seat for seat in members]
    return " & ".join(names) if names else str(table.label(scorer))


def _running_score(table: forms.Table) -> list[dict[str, Any]]:
    """Each scorer's running total, in the engine's order of scorers."""
    totals = table.state.totals
    return [
        {"scorer": s, "who": _side_names(table, s), "total": totals.get(s, 0)}
        for s in table.state.scorers
    ]


def _saved(match: Match, table: forms.Table, deal_id: int | None) -> dict[str, Any] | None:
    """The deal just saved in one line, every side's points (issue 32 item 5: only the
    winner's were written) then the score: "Nino & Salvo +7 · Ettore & Walter +4 · 30–23"."""
    if deal_id is None:
        return None
    deal = Deal.objects.filter(pk=deal_id, match=match, is_current=True).first()
    if deal is None:
        return None
    points = (deal.result or {}).get("points") or {}
    order = [s for s in table.state.scorers if s in points] or list(points)
    gained = " · ".join(f"{_side_names(table, s)} {signed(points[s])}" for s in order)
    # A minus sign, not a hyphen, and spaced dashes: "12 – 12 – −24" (it read "12–12–-24")
    totals = " – ".join(score(table.state.totals.get(s, 0)) for s in table.state.scorers)
    return {
        "deal": deal,
        "line": " · ".join(x for x in (gained, totals) if x),
        # the form shows the line's score right under it: the page may hide it from the eye
        "gained": gained,
        "totals": totals,
        "how": _how_to_confirm(match.night.club.confirmation_policy),
    }


def _how_to_confirm(policy: str) -> str:
    """Where the club does not count a tap on the table phone, the save says how the other
    side confirms (issue 32 item 5: it said nothing, and no button came)."""
    if policy == "pin":
        return _(
            "To confirm it, a player of the other side opens the deal (the link above) and "
            "types their PIN, or confirms on their own phone."
        )
    if policy == "own_phone":
        return _(
            "To confirm it, a player of the other side opens this deal on their own phone "
            "and taps «I confirm this deal»."
        )
    return ""


def _save(request: HttpRequest, match_id: int, level: str) -> HttpResponse:
    """The save: the form read once with the shape it was rendered with (or the match's
    stored state), then ``deal_create``, which locks the match and refuses outsiders as
    for the API. The pages' hot path: nothing read before the service but the session. A
    refusal or a conflict renders from what was read."""
    table = preview.table_from_shape(request.POST.get("shape", ""))
    if table is None:
        match = Match.objects.only("game", "rules", "state", "seats").filter(pk=match_id).first()
        if match is None:
            raise Http404
        table = preview.quick_table(match)
    entry = forms.take(table, level, request.POST)
    expected = _int(request.POST.get("expected_number"), "expected_number")
    status = 400
    deal: Deal | None = None
    if not entry.errors:
        try:
            deal = services.deal_create(
                match=match_id,
                data=entry.deal,
                expected_number=expected,
                user=signed_in(request),
                client=request.META.get("HTTP_USER_AGENT", ""),
                entered_side=request.POST.get("entered_side", ""),
            )
        except services.NoSuchMatch:
            raise Http404 from None
        except services.DealConflict as conflict:
            if not _again(request, conflict.stored, entry.deal):
                return _conflict(request, _match(request, match_id), conflict, entry)
            deal = conflict.stored  # this account's save again (Back, then Save): stored
        except Refusal as refusal:
            entry.problems += refusal.errors()
            status = refusal.status
        if deal is not None:  # the next deal's form, with this one in a line on top
            after = reverse("web:deal_new", args=[match_id])
            return see_other(f"{after}?level={level}&saved={deal.pk}")
    match = _match(request, match_id)
    table = preview.table(match)
    entering = confirming.entering(match, request.user, dict(table.names))
    if entering is not None:  # as the phone said it
        entering["value"] = request.POST.get("entered_side", "")
    response = render(
        request,
        "web/deals/new.html",
        _context(
            request,
            match,
            forms.render(table, entry),
            offline_checks=offline_checks.describe(table, level),
            table=table,
            number=expected or preview.next_number(match),
            shape=preview.shape_of(table),
            key=request.POST.get("idempotency_key") or uuid.uuid4(),
            entering=entering,
        ),
        status=status,
    )
    return _coded(response, [str(p.get("code") or "") for p in entry.problems] or ["input"])


def _coded(response: HttpResponse, codes: list[str]) -> HttpResponse:
    """A refused save says why in a header too (``Refusal-Codes``: the refusal's and the
    engine's codes): the phone's queue tells a closed night, a finished match and a
    conflict apart from a deal to put right, without reading the page."""
    response["Refusal-Codes"] = " ".join(dict.fromkeys(c for c in codes if c))
    return response


def _int(value: Any, field: str) -> int | None:
    """A posted whole number, None when left empty; anything else is refused in words."""
    text = str(value or "").strip()
    return require_int(text, field=field, low=0, high=MAX_ID) if text else None


def _own(request: HttpRequest, stored: Deal | None) -> bool:
    """Whether the stored deal was entered by the account signed in here."""
    return stored is not None and stored.entered_by_id == request.user.pk


def _again(request: HttpRequest, stored: Deal | None, data: Any) -> bool:
    """The same deal saved again by the account that stored it (the phone went Back to the
    saved form and saved it once more, under a new key): nothing to choose."""
    return stored is not None and _own(request, stored) and stored.input == data


def _conflict(
    request: HttpRequest, match: Match, conflict: services.DealConflict, entry: forms.Entry
) -> HttpResponse:
    """Another phone stored this deal number first: show both, let the user choose."""
    stored = conflict.stored
    mine = None
    if stored is not None:
        try:
            mine = preview.score(match, entry.deal, stored.number)
        except Rejection as rejection:
            entry.problems += forms.problems(rejection, get_language())
    table = preview.table(match)
    response = render(
        request,
        "web/deals/conflict.html",
        {
            **_frame(request, match),
            "stored": stored,
            "own": _own(request, stored),
            "stored_by": _who(
                stored.entered_by if stored else None,
                dict(
                    Player.objects.filter(
                        club_id=match.night.club_id, user__isnull=False
                    ).values_list("user_id", "name")
                ),
            ),
            "stored_lines": describe(stored.result, table) if stored else [],
            "stored_tricks": trick_words(stored.result, table) if stored else [],
            "mine_lines": describe(mine.as_dict(), table) if mine else [],
            "unit": unit_heading(table),
            "number": conflict.expected,
            "fields": entry.fields(),
            "level": entry.level,
            "key": uuid.uuid4(),
            "form": forms.render(table, entry),
        },
        status=409,
    )
    return _coded(response, [conflict.code])


@login_required
@require_POST
def deal_check(request: HttpRequest, match_id: int) -> HttpResponse:
    """The engine's verdict on the form as it is now (htmx, on every change); for the
    club's members, and for a visitor the registry lets correct the match's deals (the
    away director of a fixture), whose correction form checks as it goes too."""
    try:
        match = _match(request, match_id)
    except Http404:
        if visitors.visiting(match_id, signed_in(request)) is None:
            raise
        match = Match.objects.select_related("night__club").get(pk=match_id)
    level = _level(request)
    number = _int(request.POST.get("deal_number"), "deal_number")
    game, rules, state = preview.state_before(match, number)
    table = preview.table(match, state)
    form, data = forms.read(table, level, request.POST)
    result = None
    if data and not form.errors:
        try:
            result = game.add_deal(state, data, rules)
        except Rejection as rejection:
            forms.place(form, forms.problems(rejection, get_language()), live=True)
    return render(
        request,
        "web/deals/_check.html",
        {
            "form": form,
            "result": result.as_dict() if result else None,
            "lines": describe(result.as_dict(), table) if result else [],
            "claim": claim_words(result.as_dict(), table) if result else "",
            "tricks": trick_words(result.as_dict(), table) if result else [],
            "unit": unit_heading(table),
            "empty": not data,
        },
    )


@login_required
def deal_page(request: HttpRequest, deal_id: int) -> HttpResponse:
    return _deal_page(request, _deal(request, deal_id))


def _who(user: Any, by_user: dict[int, str]) -> str:
    """A person as the table knows them: their player's name, else their username."""
    if user is None:
        return "?"
    return by_user.get(user.pk) or user.get_username()


def _fixture_url(visit: dict[str, Any] | None) -> str:
    """The way back for who corrects from outside the club: the fixture's page."""
    if visit is None:
        return ""
    return reverse("web:championship_fixture", args=[visit["federation"], visit["fixture"]])


def _correction_role(match: Match) -> str:
    """Who may correct: a director once the match is over or the night closed (as the
    service says), a scorer before."""
    over = match.status == Match.Status.FINISHED or match.night.status == Night.Status.CLOSED
    return Role.DIRECTOR if over else Role.SCORER


def _deal_page(
    request: HttpRequest,
    deal: Deal,
    errors: list[str] | None = None,
    status: int = 200,
    handed: dict[str, Any] | None = None,
) -> HttpResponse:
    """A deal's breakdown in words, its play trick by trick, and every version."""
    match = deal.match
    versions = list(
        Deal.objects.filter(match=match, number=deal.number)
        .select_related("entered_by")
        .prefetch_related("confirmations__user")
        .order_by("-version")
    )
    current = next((v for v in versions if v.is_current), versions[0])
    players = list(Player.objects.filter(pk__in=match.seats.values()).order_by("name"))
    names = {p.pk: p.name for p in players}
    table = preview.quick_table(match)
    table = forms.Table(
        game=table.game,
        rules=table.rules,
        state=table.state,
        names={seat: names.get(pid, "") for seat, pid in match.seats.items()},
    )
    confirmations = list(current.confirmations.all())
    # The person who entered this version never confirms it (the service refuses), so
    # neither the button nor the hand-over offers it to them.
    confirmed = {c.user_id for c in confirmations} | {current.entered_by_id}
    by_user = {p.user_id: p.name for p in players if p.user_id is not None}
    seated = [p for p in players if p.user_id is not None]
    users = _users(match, [*confirmations, *(c for v in versions for c in v.confirmations.all())])
    pin_counts = accepts(match.night.club.confirmation_policy, Confirmation.Method.PIN)
    frame = _frame(request, match)
    membership = frame["membership"]
    return render(
        request,
        "web/deals/deal.html",
        {
            **frame,
            "can_enter": frame["is_scorer"]
            and match.night.status == Night.Status.OPEN
            and match.status == Match.Status.OPEN,
            "can_correct": can(membership, _correction_role(match)),
            "deal": current,
            "unit": unit_heading(table),
            "versions": [
                {
                    "deal": v,
                    "lines": describe(v.result, table),
                    "claim": claim_words(v.result, table),
                    "tricks": trick_words(v.result, table),
                    "who": _who(v.entered_by, by_user),
                    "confirmations": _confirmation_lines(v.confirmations.all(), names, users),
                    "input": json.dumps(v.input, ensure_ascii=False),
                }
                for v in versions
            ],
            "handover": [p for p in seated if p.user_id not in confirmed] if pin_counts else [],
            "can_confirm": request.user.pk not in confirmed
            and any(p.user_id == request.user.pk for p in seated),
            "errors": errors or [],
            # a PIN refused: the hand-over stays open, its player chosen, the refusal in it
            "handed": handed or {},
            "confirmations": _confirmation_lines(confirmations, names, users),
            "confirm_here": confirming.confirm_here(match, request.user, current, back="deal"),
        },
        status=status,
    )


def _users(match: Match, confirmations: list[Any]) -> dict[int, str]:
    """The names the confirmations' accounts go by: their player's, else the username."""
    ids = {i for c in confirmations for i in (c.user_id, c.device_user_id) if i is not None}
    names = dict(
        Player.objects.filter(club_id=match.night.club_id, user_id__in=ids).values_list(
            "user_id", "name"
        )
    )
    missing = ids - set(names)
    if missing:
        for user in get_user_model().objects.filter(pk__in=missing):
            names[user.pk] = user.get_username()
    return names


def _confirmation_lines(
    confirmations: Any, names: dict[int, str], users: dict[int, str]
) -> list[dict[str, Any]]:
    """Each confirmation as the deal page shows it: who, how, when, and its method (a tap
    on the table phone looks different from a player's own phone or PIN)."""
    return [
        {
            "who": confirming.who(c, names, users),
            "how": confirming.how(c, names, users),
            "at": c.at,
            "method": c.method,
        }
        for c in confirmations
    ]


def _back(request: HttpRequest, match_id: int, deal_id: int) -> HttpResponse:
    """Where a confirmation returns: the match page, the next deal's form or the deal."""
    back = request.POST.get("back")
    if back == "match":  # confirmed from the match page: stay there
        return see_other(reverse("web:match", args=[match_id]))
    if back == "new":  # confirmed after a save: on to the next deal
        return see_other(reverse("web:deal_new", args=[match_id]))
    return see_other(reverse("web:deal", args=[deal_id]))


@login_required
@require_POST
def deal_confirm(request: HttpRequest, deal_id: int) -> HttpResponse:
    """Confirm on one's own phone, on the phone handed across with one's PIN, or with one
    tap for a seat on the table phone (``seat``)."""
    deal = _deal(request, deal_id)
    player = _int(request.POST.get("player"), "player")
    seat = request.POST.get("seat", "")
    user = signed_in(request)
    try:
        if seat:
            done = services.deal_confirm_at_table(deal=deal, seat=seat, user=user)
        elif player is not None:
            done = web_services.deal_confirm_with_pin(
                deal=deal, player_id=player, pin=request.POST.get("pin", ""), handed_by=user
            )
        else:
            done = services.deal_confirm(deal=deal, user=user)
    except Refusal as refusal:
        if not seat and player is not None:
            handed = {"player": player, "errors": _refusal_errors(refusal)}
            return _deal_page(request, deal, status=refusal.status, handed=handed)
        return _deal_page(request, deal, _refusal_errors(refusal), refusal.status)
    if request.POST.get("back") == "new" and done.player is not None:
        # Back on the next deal's form, which does not list confirmations: say it there.
        who = seated(done.seat, done.player.name)
        messages.success(
            request,
            _("Deal %(number)s confirmed by %(who)s.") % {"number": deal.number, "who": who},
        )
    return _back(request, deal.match_id, deal.pk)


@login_required
@require_POST
def confirm_remaining(request: HttpRequest, match_id: int) -> HttpResponse:
    """ "Confirm the remaining deals": one tap confirms, for a seat, every deal of the
    match its side has not confirmed and did not enter."""
    match = _match(request, match_id)
    try:
        done = services.deal_confirm_remaining(
            match=match, seat=request.POST.get("seat", ""), user=signed_in(request)
        )
    except Refusal as refusal:
        return match_views.match_page(request, match.pk, _refusal_errors(refusal), refusal.status)
    messages.success(
        request,
        ngettext("%(count)d deal confirmed.", "%(count)d deals confirmed.", len(done))
        % {"count": len(done)},
    )
    if request.POST.get("back") == "new":
        return see_other(reverse("web:deal_new", args=[match.pk]))
    return see_other(reverse("web:match", args=[match.pk]))


@login_required
@require_http_methods(["GET", "POST"])
@idempotent_page
def deal_correct(request: HttpRequest, deal_id: int) -> HttpResponse:
    """A new version of a deal, with a reason; every deal after it is re-derived. A
    director of the away club of a championship fixture corrects its matches' deals here
    too (``matches.visitors``), and comes back to the fixture's page."""
    deal, visit = _visit(request, deal_id)
    match = deal.match
    game, rules, state = preview.state_before(match, deal.number)
    table = preview.table(match, state)
    back = _fixture_url(visit)
    if request.method == "GET":
        if visit is None:
            clubs.require_role(signed_in(request), match.night.club_id, _correction_role(match))
        level = _level(request, deal.level if deal.level in forms.LEVELS else "totals")
        if level == "quick":  # a stored deal is corrected on the form of its own level
            level = "totals"
        fields = forms.prefill(table, level, deal.input) if level != "play" else None
        if fields is None:
            level = "play"
            fields = {"record": json.dumps(deal.input, ensure_ascii=False, indent=1)}
        form, _data = forms.read(table, level, fields)
        return render(
            request,
            "web/deals/correct.html",
            _context(
                request,
                match,
                form,
                deal=deal,
                table=table,
                key=uuid.uuid4(),
                reason="",
                back=back,
            ),
        )
    level = _level(request)
    form, data = forms.read(table, level, request.POST)
    reason = request.POST.get("reason", "").strip()
    reason_errors: list[str] = []
    status = 400
    if not reason:
        reason_errors.append(_("Say why the deal is corrected."))
    elif not form.errors:
        try:
            new = services.deal_correct(
                deal=deal,
                data=data,
                reason=reason,
                user=signed_in(request),
                expected_version=_int(request.POST.get("expected_version"), "expected_version"),
            )
        except Refusal as refusal:
            forms.place(form, refusal.errors())
            status = refusal.status
        else:
            if back:
                messages.success(request, _("Deal corrected."))
                return see_other(back)
            return see_other(reverse("web:deal", args=[new.pk]))
    return render(
        request,
        "web/deals/correct.html",
        _context(
            request,
            match,
            form,
            deal=deal,
            table=table,
            key=request.POST.get("idempotency_key") or uuid.uuid4(),
            reason=reason,
            reason_errors=reason_errors,
            back=back,
        ),
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def pin(request: HttpRequest) -> HttpResponse:
    """Set one's table PIN (typed on another player's phone to confirm a deal there)."""
    errors: list[str] = []
    done = False
    if request.method == "POST":
        try:
            web_services.pin_set(user=signed_in(request), pin=request.POST.get("pin", ""))
            done = True
        except Refusal as refusal:
            errors = _refusal_errors(refusal)
    return render(
        request,
        "web/deals/pin.html",
        {"errors": errors, "done": done},
        status=400 if errors else 200,
    )
