"""The import itself, the task's body (``tasks.run_import``): one transaction per night,
through the record's own services, then the club's standings rebuilt once.

The import writes each night through ``matches.services`` exactly as a night at the club
would be entered (``night_open``, ``table_create``, ``match_create``, ``deal_create`` for
every deal, ``night_close``, which ends what the file leaves unfinished), so the engine's
state, the ledger and the settlement are the live ones; the standings' refresh is held
meanwhile (``outbox.held``). The acceptance that queues it is ``services.import_accept``:
services -> tasks -> importer, no circle.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.utils import timezone

from scorebook.clubs.models import Club, Player
from scorebook.clubs.services import player_create
from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.core.refusals import Refusal
from scorebook.ledger.models import Account
from scorebook.matches import services as record
from scorebook.matches.models import Match, Table
from scorebook.standings import outbox, refresh

from .models import Import, ImportedNight, PlannedMatch

log = logging.getLogger(__name__)


def import_run(batch_id: int) -> Import:
    """The import itself (the task's body): each night not yet imported in its own
    transaction, then the club's standings rebuilt. Safe to run twice: a night whose
    fingerprint the club has is skipped, inside its transaction."""
    batch = Import.objects.select_related("accepted_by").get(pk=batch_id)
    if batch.status not in (Import.Status.QUEUED, Import.Status.RUNNING):
        return batch
    user = batch.accepted_by
    if user is None:
        return _failed(batch, "the director who accepted the import is gone")
    Import.objects.filter(pk=batch.pk).update(status=Import.Status.RUNNING)
    accounts_before = set(
        Account.objects.filter(club_id=batch.club_id, player__isnull=False).values_list(
            "pk", flat=True
        )
    )
    guests: list[int] = list(batch.guests)
    try:
        with outbox.held(batch.club_id):
            for night in batch.plan["nights"]:
                if night["already"]:
                    continue
                _import_night(batch, night, user, guests)
    except Refusal as refusal:
        # The club changed since the preview (a role removed, a night closed...): the
        # nights stored so far stay (each is whole); a second acceptance resumes.
        log.info("import %s stopped: %s", batch.pk, refusal)
        Import.objects.filter(pk=batch.pk).update(guests=guests)
        _rebuild(batch.club_id)
        return _failed(batch, refusal.text())
    except BaseException:
        # A bug or an outage: the import says it stopped (not "running" for ever), the
        # nights stored so far stay whole, and the error goes on to be logged.
        Import.objects.filter(pk=batch.pk).update(guests=guests)
        _failed(batch, "stopped by an unexpected error (logged)")
        raise
    accounts = set(
        Account.objects.filter(club_id=batch.club_id, player__isnull=False).values_list(
            "pk", flat=True
        )
    )
    _rebuild(batch.club_id)
    with transaction.atomic():
        PlannedMatch.objects.filter(batch=batch).delete()  # stored now: no longer needed
        Import.objects.filter(pk=batch.pk).update(
            status=Import.Status.DONE,
            finished_at=timezone.now(),
            guests=guests,
            accounts=sorted(set(batch.accounts) | (accounts - accounts_before)),
        )
        audit(
            club_id=batch.club_id,
            actor=user,
            verb="import_done",
            obj=batch,
            after={"nights": batch.nights_total, "deals": batch.deals_total},
        )
    return Import.objects.get(pk=batch.pk)


def _failed(batch: Import, error: str) -> Import:
    Import.objects.filter(pk=batch.pk).update(status=Import.Status.FAILED, error=error[:2000])
    return Import.objects.get(pk=batch.pk)


def _rebuild(club_id: int) -> None:
    """The club's standings and ratings from the deal log: the imported years included."""
    refresh.rebuild(club_id=club_id)


@transaction.atomic
def _import_night(batch: Import, night: dict[str, Any], user: User, guests: list[int]) -> None:
    """One night, whole or not at all: its players (new guests added), tables, matches and
    deals, then its close (the ledger's pots and the settlement)."""
    club_id = batch.club_id
    # One night of a club imported at a time: a second import of the same night (two
    # previews of one file accepted at once) waits here, then finds it and skips it.
    Club.objects.select_for_update().filter(pk=club_id).first()
    if ImportedNight.objects.filter(club_id=club_id, fingerprint=night["fingerprint"]).exists():
        return
    night = {**night, "matches": planned_matches(batch, night["date"])}
    players = _players(batch.club, night, user, guests)
    stored = record.night_open(club_id=club_id, date=night["date"], venue="", user=user)
    tables: dict[int, Table] = {}
    for match in night["matches"]:
        number = match["table"]
        if number not in tables:
            tables[number] = record.table_create(night=stored, number=number, name="", user=user)
        created = record.match_create(
            night=stored,
            game=match["game"],
            rules=match["rules"],
            seats={seat: players[name.lower()] for seat, name in match["seats"].items()},
            user=user,
            table=tables[number],
            first_dealer=match["first_dealer"],
            stake_amount=Decimal(match["stake"]),
            stake_currency=match["currency"],
        )
        for deal in match["deals"]:
            record.deal_create(match=created, data=deal, expected_number=None, user=user)
        if match.get("final") is not None:
            record.match_record_final(
                match=created, totals=match["final"], winner=match.get("winner"), user=user
            )
        if match.get("abandoned") is not None:
            record.match_abandon(match=created, reason=match["abandoned"], user=user)
    # the close ends the matches the file leaves unfinished (the preview counted them)
    still = Match.objects.filter(night=stored, status=Match.Status.OPEN).values_list(
        "pk", flat=True
    )
    record.night_close(night=stored, user=user, end_open=list(still))
    ImportedNight.objects.create(
        batch=batch, club_id=club_id, night=stored, fingerprint=night["fingerprint"]
    )
    audit(
        club_id=club_id,
        actor=user,
        verb="night_imported",
        obj=stored,
        after={"import": batch.pk, "date": night["date"], "deals": night["deals"]},
    )
    Import.objects.filter(pk=batch.pk).update(nights_done=F("nights_done") + 1)


def planned_matches(batch: Import, day: str) -> list[dict[str, Any]]:
    """The night ``day``'s matches of the preview, in table and match order."""
    rows = PlannedMatch.objects.filter(batch=batch, date=day).order_by("table", "number")
    return list(rows.values_list("data", flat=True))


def _players(club: Club, night: dict[str, Any], user: User, guests: list[int]) -> dict[str, int]:
    """The night's names (without case) to player ids: the club's, else a new guest."""
    names = {name for m in night["matches"] for name in m["seats"].values()}
    lowered = {name.lower() for name in names}
    found = dict(
        Player.objects.annotate(low=Lower("name"))
        .filter(club=club, low__in=lowered)
        .values_list("low", "pk")
    )
    for name in sorted(names):
        if name.lower() not in found:
            guest = player_create(club=club, name=name, user=user, guest=True)
            guests.append(guest.pk)
            found[name.lower()] = guest.pk
    return found
