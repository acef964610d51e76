"""The import's writes: the preview, the director's acceptance (which queues the import
itself, ``importer.import_run``, as the task ``tasks.run_import``) and its undo.

Nothing of the club's record is written before a director accepts a preview with no
problems; a refused file stores nothing at all. The import writes each night through
``matches.services`` exactly as a night at the club would be entered (``night_open``,
``table_create``, ``match_create``, ``deal_create`` for every deal (``match_record_final``
for a match recorded by its final score), ``night_close``), so
the engine's state, the ledger and the settlement are the live ones; the standings'
refresh is held meanwhile (``outbox.held``) and the club rebuilt once at the end.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator

from django.conf import settings
from django.db import transaction
from django.db.models import ForeignObjectRel, Model, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from scorebook.clubs.models import Club, Player, Role
from scorebook.clubs.services import require_role
from scorebook.core.audit import audit
from scorebook.core.inputs import bad_char
from scorebook.core.people import User
from scorebook.core.refusals import Refusal
from scorebook.ledger.models import Account, Entry, Settlement, Transfer
from scorebook.matches.models import Confirmation, Deal, Match, Night, SeatFact, Table
from scorebook.standings.models import (
    FixtureMatch,
    LeaderboardRow,
    MatchStanding,
    RatedMatch,
    Rating,
    RatingChange,
    StaleMark,
)
from scorebook.standings.outbox import stale_mark

from . import tasks
from .checker import NothingNew, RowsRefused, check_file, file_problem
from .expiry import PreviewExpired, previews_expire
from .models import Import, ImportedNight, PlannedMatch
from .template import screen

__all__ = ["NothingNew", "RowsRefused", "import_accept", "import_preview", "import_undo",
           "import_upload", "previews_expire"]  # fmt: skip


class NotInPreview(Refusal):
    code = "import.not_in_preview"
    status = 409
    message = _("This import is %(status)s: only a preview can be accepted.")


class NotUndoable(Refusal):
    code = "import.not_undoable"
    status = 409
    message = _("This import is %(status)s: only a finished or failed import can be undone.")


class UndoBlocked(Refusal):
    """A later act needs a match the import stored (a league fixture counts it, say):
    undoing would take it from under that act. ``what`` names each, in words."""

    code = "import.undo_blocked"
    status = 409
    message = _("This import cannot be undone: %(what)s")


class StoppedByErasure(Refusal):
    """A file being checked when a player of the club was erased: it may name the player,
    so it is dropped unread (``checks_stop``)."""

    code = "import.stopped_by_erasure"
    status = 409
    message = _(
        "A player of the club was erased while this file was being checked: the file was "
        "dropped. Upload it again."
    )


def checks_stop(*, club_id: int) -> int:
    """In an erasure's transaction: the club's files still being checked are dropped
    (they may name the erased player), with their planned matches, each refused in words
    (upload it again); a check still running leaves nothing behind when it ends
    (``checker``). How many were stopped."""
    checking = Import.objects.select_for_update().filter(
        club_id=club_id, status=Import.Status.CHECKING
    )
    stopped = list(checking.values_list("pk", flat=True))
    problems = {"problems": [file_problem(StoppedByErasure())], "more_problems": 0, "players": {}}
    PlannedMatch.objects.filter(batch_id__in=stopped).delete()
    Import.objects.filter(pk__in=stopped).update(
        status=Import.Status.REFUSED, upload=None, plan=problems, summary={}
    )
    return len(stopped)


def import_upload(*, club: Club, user: User, filename: str, data: bytes) -> Import:
    """Keep the file for its check, which runs as a task (``tasks.check_file``, sent
    when this commits; in-process where there is no broker): the request answers at
    once, and the page and the API follow the check's progress. What the quick checks
    refuse (too large, not CSV or XLSX, macros, a zip bomb, not UTF-8: ``screen``) is
    refused here, and nothing is stored."""
    require_role(user, club.pk, Role.DIRECTOR)
    batch = _kept(club, user, filename, data, keep=True)
    pk = batch.pk
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: tasks.check_file.apply((pk,), throw=True))
    else:
        transaction.on_commit(lambda: tasks.check_file.delay(pk))
    return batch


@transaction.atomic
def import_preview(*, club: Club, user: User, filename: str, data: bytes) -> Import:
    """The upload and its check at once, in this process (the archive's round trip, a
    script, the bench): the preview, or the refusal raised (``RowsRefused`` with each
    problem, ``NothingNew``, the template's) and nothing stored."""
    require_role(user, club.pk, Role.DIRECTOR)
    return check_file(_kept(club, user, filename, data, keep=False), data)


def _kept(club: Club, user: User, filename: str, data: bytes, *, keep: bool) -> Import:
    screen(data)
    return Import.objects.create(
        club=club,
        filename="".join(c for c in filename if not bad_char(c))[:200],
        file_hash=hashlib.sha256(data).hexdigest(),
        status=Import.Status.CHECKING,
        upload=data if keep else None,
        rows_total=data.count(b"\n"),
        uploaded_by=user,
    )


@transaction.atomic
def import_accept(*, batch: Import, user: User) -> Import:
    """The director accepts the preview: the import is queued (a Celery task, sent when
    this commits; in-process where there is no broker). A failed import may be accepted
    again: the nights it stored are skipped."""
    require_role(user, batch.club_id, Role.DIRECTOR)
    batch = Import.objects.select_for_update().get(pk=batch.pk)
    if batch.status == Import.Status.EXPIRED:
        raise PreviewExpired(days=settings.IMPORT_PREVIEW_DAYS)
    if batch.status not in (Import.Status.PREVIEW, Import.Status.FAILED):
        raise NotInPreview(status=batch.get_status_display())
    batch.status = Import.Status.QUEUED
    batch.accepted_by = user
    batch.accepted_at = timezone.now()
    batch.error = ""
    batch.save(update_fields=["status", "accepted_by", "accepted_at", "error"])
    audit(
        club_id=batch.club_id,
        actor=user,
        verb="import_accepted",
        obj=batch,
        after={"file": batch.filename, "sha256": batch.file_hash, "nights": batch.nights_total},
    )
    pk = batch.pk
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # In-process, as the standings' outbox does: the task's own app may still be
        # configured for a broker (Celery reads CELERY_BROKER_URL first).
        transaction.on_commit(lambda: tasks.run_import.apply((pk,), throw=True))
    else:
        transaction.on_commit(lambda: tasks.run_import.delay(pk))
    return batch


@transaction.atomic
def import_undo(*, batch: Import, user: User) -> Import:
    """Remove everything the import stored, in one transaction: its nights with their
    tables, matches, deals (and any later versions and confirmations), ledger entries,
    settlements and pots, the guests it added that have played nowhere else, the player
    accounts it opened that hold nothing else; then mark the standings for a rebuild."""
    require_role(user, batch.club_id, Role.DIRECTOR)
    batch = Import.objects.select_for_update().get(pk=batch.pk)
    if batch.status not in (Import.Status.DONE, Import.Status.FAILED):
        raise NotUndoable(status=batch.get_status_display())
    night_ids = list(batch.nights.values_list("night_id", flat=True))
    matches = Match.objects.filter(night_id__in=night_ids)
    _refuse_if_needed(matches)
    deals = Deal.objects.filter(match__in=matches)
    Transfer.objects.filter(settlement__night_id__in=night_ids).delete()
    Settlement.objects.filter(night_id__in=night_ids).delete()
    entries = Entry.objects.filter(night_id__in=night_ids)
    entries.exclude(reverses=None).update(reverses=None)
    entries.delete()
    Confirmation.objects.filter(deal__in=deals).delete()
    deals.exclude(supersedes=None).update(supersedes=None)
    deals.delete()
    Account.objects.filter(match__in=matches).delete()
    Account.objects.filter(night_id__in=night_ids).delete()
    batch.nights.all().delete()
    matches.delete()
    Table.objects.filter(night_id__in=night_ids).delete()
    Night.objects.filter(pk__in=night_ids).delete()
    Account.objects.filter(pk__in=batch.accounts, paid=None, received=None).delete()
    kept = _delete_unused_guests(batch)
    batch.status = Import.Status.UNDONE
    batch.undone_by = user
    batch.undone_at = timezone.now()
    batch.save(update_fields=["status", "undone_by", "undone_at"])
    audit(
        club_id=batch.club_id,
        actor=user,
        verb="import_undone",
        obj=batch,
        before={"nights": len(night_ids)},
        after={"guests_kept": kept},
    )
    # The club's standings without the import: a rebuild on the bulk queue once this
    # commits (eager mode: at once), not inside the request.
    stale_mark(club_id=batch.club_id)
    return batch


#: What the undo deletes itself, or what is derived and rebuilt after it (the standings):
#: a row of these pointing at an imported match or guest is no later act's.
_THE_IMPORTS_OWN = (
    Deal,
    SeatFact,
    Account,
    Entry,
    ImportedNight,
    MatchStanding,
    RatedMatch,
    RatingChange,
    StaleMark,
)
_REBUILT = (LeaderboardRow, Rating, RatingChange)


def _pointing_at(
    model: type[Model], ids: Iterable[int], skip: tuple[type[Model], ...]
) -> Iterator[tuple[type[Model], int]]:
    """(related model, id pointed at) for every row of another model that points at one of
    ``ids`` (a foreign key, one-to-one or many-to-many): found through ``model``'s
    relations, so a relation added tomorrow counts the day it is added."""
    ids = list(ids)
    relations = [  # the hidden ones too (``related_name="+"``: a tournament's pair)
        f for f in model._meta.get_fields(include_hidden=True) if isinstance(f, ForeignObjectRel)
    ]
    for relation in relations:
        related = relation.related_model
        if not isinstance(related, type) or related in skip or not ids:
            continue
        if relation.many_to_many:
            through = relation.through  # type: ignore[attr-defined]
            column = relation.field.m2m_reverse_field_name()  # type: ignore[attr-defined]
            rows = through._base_manager.filter(**{f"{column}__in": ids})
        else:
            column = relation.field.name
            rows = related._base_manager.filter(**{f"{column}__in": ids})
        for pointed in rows.values_list(column, flat=True).distinct():
            yield related, pointed


def _refuse_if_needed(matches: QuerySet[Match]) -> None:
    """Refuse the undo, naming each, while a later act needs one of the import's matches:
    a league's fixture that counts it (deleting the match would change the league
    silently), or any other record pointing at it."""
    ids = list(matches.values_list("pk", flat=True))
    needed = sorted(
        {(str(m._meta.verbose_name), pk) for m, pk in _pointing_at(Match, ids, _THE_IMPORTS_OWN)}
    )
    if not needed:
        return
    by_id = {
        m.pk: m
        for m in Match.objects.filter(pk__in=[pk for _, pk in needed]).select_related(
            "night", "table"
        )
    }
    links = {
        link.match_id: link
        for link in FixtureMatch.objects.filter(match_id__in=by_id).select_related(
            "fixture__league"
        )
    }
    what = []
    for kind, pk in needed:
        match = by_id[pk]
        where = _("the match of %(date)s at table %(table)s") % {
            "date": formats.date_format(match.night.date, "SHORT_DATE_FORMAT"),
            "table": match.table.number if match.table else 1,
        }
        link = links.get(pk)
        if link is not None:
            what.append(
                _(
                    "%(match)s counts for round %(round)s of the league %(league)s: take it "
                    "off that fixture first."
                )
                % {"match": where, "round": link.fixture.round, "league": link.fixture.league.name}
            )
        else:
            what.append(
                _("%(match)s is needed by another record (%(kind)s).")
                % {"match": where, "kind": kind}
            )
    raise UndoBlocked(what=" ".join(str(w) for w in what))


def _delete_unused_guests(batch: Import) -> list[int]:
    """Delete the import's guests nothing else needs; the ids of those kept, under their
    names or pseudonyms: a guest seated at a remaining match, linked to an account, or
    pointed at by any other record (a ledger account with entries, a confirmation, an
    erasure, a tournament's pair or single, a league's entry, an invitation...)."""
    seated: set[int] = set()
    for seats in Match.objects.filter(night__club_id=batch.club_id).values_list("seats", flat=True):
        seated.update(seats.values())
    guests = set(
        Player.objects.filter(pk__in=batch.guests, club_id=batch.club_id).values_list(
            "pk", flat=True
        )
    )
    candidates = guests - seated
    linked = set(
        Player.objects.filter(pk__in=candidates, user__isnull=False).values_list("pk", flat=True)
    )
    pointed = {pk for _, pk in _pointing_at(Player, candidates - linked, _REBUILT)}
    unused = candidates - linked - pointed
    Player.objects.filter(pk__in=unused).delete()
    return sorted(guests - unused)
