"""Erasure is total, by construction (issue 31 item 1): every field the register calls
free text, stamped with the person's names in every spelling (and the admin's log, a
session's waiting message, a file being checked), holds none of them after the erasure;
a dump of every table of the database (and, on PostgreSQL, ``pg_dump`` of it) holds the
names nowhere. Renames, an old name another player has now, an account's names in two
clubs, and a player whose name is also a side's letter (the record's engine data is not
free text and stays whole)."""

from __future__ import annotations

import datetime
import json
from itertools import cycle

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, models
from django.test import Client

from scorebook.archive import register
from scorebook.archive import services as archive
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Membership, Player
from scorebook.core.models import AuditEvent
from scorebook.history import checker
from scorebook.history import services as history
from scorebook.history.models import Import, PlannedMatch
from scorebook.matches import services as record
from scorebook.matches.models import Match, Night
from tests.archive import dump
from tests.archive.everywhere import NAMES, RENAMED, WINS, user, zebulon_everywhere

#: The person's names as people write them: any case, any separator, none.
SPELLINGS = (
    "Zebulon Quixote",
    "zebulon_quixote.csv",
    "ZEBULON-QUIXOTE",
    "Zebulon.Quixote",
    "ZebulonQuixote",
    "zebulonquixote",
    "Zorba_Quintilian",
    "ZORBA QUINTILIAN",
    "zquixote",
    "zebulon.quixote@example.org",
)


def _stamped(field: models.Field, old, spelling: str):
    """``old`` with ``spelling`` added, as the field can hold it."""
    if isinstance(field, models.JSONField):
        if isinstance(old, dict):
            return {**old, "note": spelling}
        if isinstance(old, list):
            return [*old, spelling]
        return {"note": spelling}
    text = f"{old or ''} {spelling}".strip()
    limit = getattr(field, "max_length", None)
    return text[-limit:] if limit else text


def stamp_every_free_text(club: Club) -> dict[str, int]:
    """Every field the register calls free text, in a row of the club (every row of the
    models whose rows are no club's), gets one of the spellings; how many rows each model
    had stamped."""
    spellings = cycle(SPELLINGS)
    stamped: dict[str, int] = {}
    for model, fields, lookup in register.rewritten(register.REWRITE):
        rows = model._base_manager.all()
        if lookup is not None:
            rows = rows.filter(**{f"{lookup}_id": club.pk})
        for row in rows.order_by("pk")[:3]:
            for name in fields:
                field = model._meta.get_field(name)
                setattr(row, name, _stamped(field, getattr(row, name), next(spellings)))
            models.Model.save(row, update_fields=list(fields))
            stamped[model._meta.label] = stamped.get(model._meta.label, 0) + 1
    return stamped


def more_places(club: Club, zorba: Player) -> int:
    """What the builder leaves empty: the admin's log, a page's message waiting in a
    session, a preview not yet accepted (its planned matches), a file still being
    checked. The last import's id."""
    LogEntry.objects.create(
        user=user("demo"),
        content_type=ContentType.objects.get_for_model(Player),
        object_id=str(zorba.pk),
        object_repr="Zebulon Quixote",
        action_flag=CHANGE,
        change_message=json.dumps([{"changed": {"fields": ["Zebulon_Quixote"]}}]),
    )
    waiting = SessionStore()
    waiting["_messages"] = json.dumps([["__json_message", 0, 25, "Zorba Quintilian added."]])
    waiting.create()
    day = datetime.date(2023, 3, 3).isoformat()
    deal = json.dumps(WINS).replace('"', '""')
    seats = f"N={zorba.name}; E=Nino; S=Ettore; W=Tano"
    file = (
        "date,table,match,game,rules,seats,first_dealer,deal\n"
        f'{day},1,1,tressette4,classic_21,"{seats}",N,"{deal}"\n'
    ).encode()
    preview = history.import_preview(
        club=club, user=user("director"), filename="Zorba.Quintilian.csv", data=file
    )
    assert PlannedMatch.objects.filter(batch=preview).exists()
    batch = history.import_upload(
        club=club, user=user("director"), filename="zebulon_quixote.csv", data=file
    )
    return batch.pk


def erase_and_dump(demo) -> None:
    zorba = zebulon_everywhere(demo)
    checking = more_places(demo, zorba)
    stamped = stamp_every_free_text(demo)
    # every model the register rewrites had rows to stamp: the builders reach each
    assert set(stamped) == {m._meta.label for m, _, _ in register.rewritten()}, stamped
    before = dump.holding(NAMES)
    assert before
    # The instrument sees the names before; pg_dump reads another connection, so only
    # what is committed (the transactional test below; the other runs in a transaction).
    if dump.pg_dump() is not None and not connection.in_atomic_block:
        assert any(line.startswith("pg_dump:") for line in before)
    # committed at once (a transaction test), the upload's check ran already
    was_checking = Import.objects.get(pk=checking).status == Import.Status.CHECKING
    archive.player_erase(player=zorba, user=user("director"), confirm=RENAMED)
    held = dump.holding(NAMES)
    assert held == [], "\n".join(held)
    if was_checking:
        stopped = Import.objects.get(pk=checking)
        assert stopped.status == Import.Status.REFUSED and stopped.upload is None
        assert stopped.plan["problems"][0]["code"] == "import.stopped_by_erasure"


@pytest.mark.django_db
def test_every_free_text_in_every_spelling_is_gone_from_the_database(demo, eager_tasks):
    erase_and_dump(demo)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_pg_dump_of_the_database_holds_no_name_after_the_erasure(demo, eager_tasks):
    """The same on PostgreSQL, committed, so that ``pg_dump`` reads it too."""
    assert dump.pg_dump() is not None, "pg_dump is not installed"
    erase_and_dump(demo)


@pytest.mark.django_db
def test_a_check_running_when_the_player_is_erased_leaves_nothing(people, eager_tasks):
    """A check that read the file before the erasure and ends after it stores no match
    and no name: the erasure stopped it, and its end finds it stopped."""
    walter = people.seated[3]
    day = datetime.date(2024, 5, 2).isoformat()
    deal = json.dumps(WINS).replace('"', '""')
    file = (
        "date,table,match,game,rules,seats,first_dealer,deal\n"
        f'{day},1,1,tressette4,classic_21,"N=Nino; E=Ettore; S=Salvo; W=Walter",N,"{deal}"\n'
    ).encode()
    batch = history.import_upload(
        club=people.club, user=people.director, filename="walter.csv", data=file
    )
    running = Import.objects.get(pk=batch.pk)  # the check's copy, read before the erasure
    archive.player_erase(player=walter, user=people.director, confirm="Walter")
    done = checker.check_file(running, file)  # it ends after
    assert done.status == Import.Status.REFUSED
    assert not PlannedMatch.objects.filter(batch=batch).exists()
    assert "walter" not in json.dumps(Import.objects.get(pk=batch.pk).plan).lower()
    assert checker.check_run(batch.pk).status == Import.Status.REFUSED  # a late task: nothing


@pytest.mark.django_db
def test_an_old_name_another_player_has_now_stays_theirs_but_leaves_the_erased_history(
    people,
):
    """Ettore was renamed "Ettore Vecchio"; a new player took "Ettore". Erasing the old
    Ettore rewrites his own history (the rename's line) but not the new Ettore's name in
    the club's texts."""
    director = people.director
    old = people.seated[1]
    clubs.player_update(player=old, changes={"name": "Ettore Vecchio"}, user=director)
    new = clubs.player_create(club=people.club, name="Ettore", user=director)
    night = record.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 1, 9), venue="da Ettore", user=director
    )
    archive.player_erase(player=old, user=director, confirm="Ettore Vecchio")
    assert Night.objects.get(pk=night.pk).venue == "da Ettore"  # the new Ettore's
    lines = AuditEvent.objects.filter(object_type="player", object_id=str(old.pk))
    text = json.dumps(list(lines.values_list("before", "after")))
    assert "Ettore" not in text and "Erased player #1" in text
    assert Player.objects.get(pk=new.pk).name == "Ettore"


@pytest.mark.django_db
def test_an_account_erasure_forgets_every_name_in_every_club(people):
    """The member is "Nino" in San Rocco and "Giovanni Rossi" in Altrove: both names go
    from both clubs' texts."""
    member = people.member
    other = people.other
    Membership.objects.create(club=other, user=member, role="director")
    there = Player.objects.create(club=other, name="Giovanni Rossi", user=member)
    for club, venue in ((people.club, "Giovanni Rossi e Nino"), (other, "da NINO, giovanni_rossi")):
        record.night_open(
            club_id=club.pk,
            date=datetime.date(2026, 1, 9),
            venue=venue,
            user=user("owner") if club == people.club else member,
        )
    archive.account_erase(user=member, confirm="member")
    venues = list(Night.objects.order_by("club_id").values_list("venue", flat=True))
    assert venues == [
        "Erased player #1 e Erased player #1",
        "da Erased player #1, Erased player #1",
    ]
    assert Player.objects.get(pk=there.pk).erased


@pytest.mark.django_db
def test_a_player_named_like_a_side_leaves_the_record_whole(people):
    """The record's engine data (a match's state, a deal's input and result) is not free
    text (the register says why): erasing a player called "A" rewrote side A's totals and
    every deal, and the match could not go on."""
    director = people.director
    a = clubs.player_create(club=people.club, name="A", user=director)
    n, e, s, _ = people.seated
    night = record.night_open(
        club_id=people.club.pk, date=datetime.date(2026, 1, 9), venue="", user=director
    )
    match = record.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": a.pk},
        user=director,
    )
    record.deal_create(match=match, data=WINS, expected_number=1, user=people.scorer)
    state = Match.objects.get(pk=match.pk).state
    archive.player_erase(player=a, user=director, confirm="A")
    assert Match.objects.get(pk=match.pk).state == state
    record.deal_create(match=match, data=WINS, expected_number=2, user=people.scorer)
    client = Client()
    client.force_login(director)
    assert client.get(f"/m/{match.pk}/").status_code == 200
    assert Match.objects.get(pk=match.pk).state["totals"]["A"] > state["totals"]["A"]
