"""Export → import into an empty club → identical standings (issue 28): the export's
``import/matches.csv`` is the import template's file, and the import reads it back.

The new club gets the season the old one had (seasons are a club's setting, not part of
the template); then its leaderboard (every season, game and player, matched by name: the
ids differ), its ratings and its ledger's per-player nets are the old club's."""

import csv
import io
import zipfile
from collections import defaultdict
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from scorebook.archive import exports
from scorebook.clubs.models import Club, Membership, Player
from scorebook.history import services as imports
from scorebook.history.selectors import summary
from scorebook.history.template import COLUMNS
from scorebook.ledger.models import Entry
from scorebook.matches import services as record
from scorebook.matches.models import Deal, Match, Night
from scorebook.standings import refresh
from scorebook.standings.models import LeaderboardRow, Rating, Season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def board(club):
    """The leaderboard by (season name, game, player name)."""
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    seasons = dict(Season.objects.filter(club=club).values_list("pk", "name"))
    fields = ("matches", "won", "lost", "win_rate", "points_for", "points_against", "deals")
    fields += ("units", "money", "events", "bids")
    return {
        (seasons[row["season_id"]], row["game"], names[row["player_id"]]): tuple(
            row[f] for f in fields
        )
        for row in LeaderboardRow.objects.filter(club=club, sources__gt=0).values(
            "season_id", "game", "player_id", *fields
        )
    }


def ratings(club):
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    return {
        (r["game"], names[r["player_id"]]): (round(r["mu"], 6), round(r["sigma"], 6))
        for r in Rating.objects.filter(club=club).values("game", "player_id", "mu", "sigma")
    }


def nets(club):
    """Each player's net over the whole ledger, per unit and currency."""
    out = defaultdict(Decimal)
    entries = Entry.objects.filter(club=club).select_related("payer__player", "payee__player")
    for entry in entries:
        for account, sign in ((entry.payer, -1), (entry.payee, 1)):
            if account.player is not None:
                out[(account.player.name, entry.unit, entry.currency)] += sign * entry.amount
    return {key: value for key, value in out.items() if value}


def close_tonight(club, reason=""):
    """Close the club's open night as the close page does (its open matches ended with
    it), and bring the standings up to date: the import closes every night it stores."""
    director = get_user_model().objects.get(username="director")
    tonight = Night.objects.get(club=club, status=Night.Status.OPEN)
    still = Match.objects.filter(night=tonight, status="open").values_list("pk", flat=True)
    record.night_close(night=tonight, user=director, end_open=list(still), reason=reason)
    refresh.rebuild(club_id=club.pk)


def test_export_then_import_into_an_empty_club_gives_the_same_standings(
    demo, django_capture_on_commit_callbacks
):
    close_tonight(demo)
    out = io.BytesIO()
    exports.club_export(demo, out)
    data = zipfile.ZipFile(out).read("import/matches.csv")
    assert tuple(next(csv.reader(io.StringIO(data.decode())))) == COLUMNS
    assert exports.IMPORT_COLUMNS == COLUMNS

    director = get_user_model().objects.get(username="director")
    empty = Club.objects.create(name="Circolo Nuovo", slug="nuovo")
    Membership.objects.create(club=empty, user=director, role="owner")
    for season in Season.objects.filter(club=demo):
        Season.objects.create(
            club=empty, name=season.name, starts_on=season.starts_on, ends_on=season.ends_on
        )
    with django_capture_on_commit_callbacks(execute=True):
        batch = imports.import_preview(club=empty, user=director, filename="matches.csv", data=data)
        imports.import_accept(batch=batch, user=director)
    batch.refresh_from_db()
    assert batch.status == "done", batch.error

    with_deals = Match.objects.filter(night__club=demo, deals__isnull=False).distinct()
    assert Match.objects.filter(night__club=empty).count() == with_deals.count()
    assert (
        Deal.objects.filter(match__night__club=empty).count()
        == Deal.objects.filter(match__night__club=demo, is_current=True).count()
    )
    old, new = board(demo), board(empty)
    assert old and new == old
    assert len(old) >= 10 and any(key[1] == "" for key in old)  # per game and all games
    assert ratings(demo) and ratings(empty) == ratings(demo)
    assert nets(demo) and nets(empty) == nets(demo)


def test_the_same_export_twice_imports_nothing_new(demo, django_capture_on_commit_callbacks):
    out = io.BytesIO()
    exports.club_export(demo, out)
    data = zipfile.ZipFile(out).read("import/matches.csv")
    director = get_user_model().objects.get(username="director")
    empty = Club.objects.create(name="Circolo Nuovo", slug="nuovo")
    Membership.objects.create(club=empty, user=director, role="owner")
    with django_capture_on_commit_callbacks(execute=True):
        batch = imports.import_preview(club=empty, user=director, filename="m.csv", data=data)
        imports.import_accept(batch=batch, user=director)
    with pytest.raises(imports.NothingNew):
        imports.import_preview(club=empty, user=director, filename="m.csv", data=data)


def matches_of(club):
    """Each match as the record tells it: night's date, table, game, status, reason, final
    score and current deals (ids differ between the clubs)."""
    return sorted(
        (
            m.night.date.isoformat(),
            m.table.number if m.table else 1,
            m.game,
            m.status,
            m.stopped,
            m.ended_reason,
            sorted((m.final_score or {}).items()),
            m.final_winner,
            Deal.objects.filter(match=m, is_current=True).count(),
        )
        for m in Match.objects.filter(night__club=club).select_related("night", "table")
    )


@pytest.fixture
def ended(demo):
    """Tonight's record, as the day's new ways of ending a match leave it: the Terziglio
    with a deal abandoned (a forfeit a tavolino), a match abandoned before its first deal,
    and a match kept by its final score only, at a stake."""
    director = get_user_model().objects.get(username="director")
    tonight = Night.objects.get(club=demo, status=Night.Status.OPEN)
    three = Match.objects.get(night=tonight, seats__has_key="P3")
    pairs = Match.objects.get(night=tonight, seats__has_key="W")
    assert Deal.objects.filter(match=three).exists()
    record.match_abandon(match=three, reason="Forfeit a tavolino: Tano left", user=director)
    unplayed = record.match_create(
        night=tonight, table=three.table, game=three.game,
        rules={"profile": three.rules["profile"]},
        seats=three.seats, first_dealer="P2", user=director,
    )  # fmt: skip
    record.match_abandon(match=unplayed, reason="Nobody came back", user=director)
    final = record.match_create(
        night=tonight, table=pairs.table, game=pairs.game,
        rules={"profile": pairs.rules["profile"]},
        seats=pairs.seats, first_dealer="N", user=director,
        stake_amount=Decimal("0.50"), stake_currency="EUR",
    )  # fmt: skip
    record.match_record_final(match=final, totals={"A": 21, "B": 13}, user=director)
    # Tied at the target, which ends a match where the first side to reach it wins (the
    # totals cannot say which: the winner is part of the record, issue 31 item 8).
    tied = record.match_create(
        night=tonight, table=pairs.table, game=pairs.game,
        rules={"profile": pairs.rules["profile"], "t4.reaching_target": "first_in_trick_order"},
        seats=pairs.seats, first_dealer="E", user=director,
        stake_amount=Decimal("0.50"), stake_currency="EUR",
    )  # fmt: skip
    record.match_record_final(match=tied, totals={"A": 21, "B": 21}, winner="B", user=director)
    close_tonight(demo, reason="Time's up")  # the Tressette at 1 deal abandoned with it
    return demo


def test_abandoned_and_final_score_matches_survive_the_round_trip(
    ended, django_capture_on_commit_callbacks
):
    demo = ended
    out = io.BytesIO()
    exports.club_export(demo, out)
    data = zipfile.ZipFile(out).read("import/matches.csv")
    director = get_user_model().objects.get(username="director")
    empty = Club.objects.create(name="Circolo Nuovo", slug="nuovo")
    Membership.objects.create(club=empty, user=director, role="owner")
    for season in Season.objects.filter(club=demo):
        Season.objects.create(
            club=empty, name=season.name, starts_on=season.starts_on, ends_on=season.ends_on
        )
    with django_capture_on_commit_callbacks(execute=True):
        batch = imports.import_preview(club=empty, user=director, filename="matches.csv", data=data)
        imports.import_accept(batch=batch, user=director)
    batch.refresh_from_db()
    assert batch.status == "done", batch.error

    old = matches_of(demo)
    assert {m[3] for m in old} == {"abandoned", "finished"}
    assert any(m[3] == "abandoned" and m[8] == 0 for m in old)
    assert any(m[3] == "abandoned" and m[5] == "Time's up" for m in old)
    assert any(m[4] for m in old)  # the Terziglio a week ago, finished at its night's close
    assert any(m[6] for m in old) and any(m[7] == "B" for m in old)
    assert matches_of(empty) == old
    assert board(demo) and board(empty) == board(demo)
    assert ratings(empty) == ratings(demo)
    assert nets(demo) and nets(empty) == nets(demo)


def test_a_night_exported_open_comes_back_closed_with_its_matches_ended(
    demo, django_capture_on_commit_callbacks
):
    """The template has no night status: the import closes every night, and the close
    ends what is still open (issue 31 item 10). Tonight's chips Terziglio comes back
    finished with its scores, the Tressette at one deal abandoned; the preview said so."""
    tonight = Night.objects.get(club=demo, status=Night.Status.OPEN)
    chips = Match.objects.get(night=tonight, seats__has_key="P3")
    out = io.BytesIO()
    exports.club_export(demo, out)
    data = zipfile.ZipFile(out).read("import/matches.csv")
    director = get_user_model().objects.get(username="director")
    empty = Club.objects.create(name="Circolo Nuovo", slug="nuovo")
    Membership.objects.create(club=empty, user=director, role="owner")
    with django_capture_on_commit_callbacks(execute=True):
        batch = imports.import_preview(club=empty, user=director, filename="m.csv", data=data)
        told = summary(batch)
        imports.import_accept(batch=batch, user=director)
    batch.refresh_from_db()
    assert batch.status == "done", batch.error
    # tonight's two, and the Terziglio a week ago, finished at its close as it is again
    assert (told["stopped_at_close"], told["abandoned_at_close"]) == (2, 1)
    assert not Night.objects.filter(club=empty, status=Night.Status.OPEN).exists()
    again = Match.objects.filter(night__club=empty, night__date=tonight.date)
    ended = {(m.game == chips.game, m.status, m.stopped) for m in again}
    assert ended == {(True, "finished", True), (False, "abandoned", False)}
    assert not Match.objects.filter(night__club=empty, status="open").exists()
