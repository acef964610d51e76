"""Export -> import round trip (issue 28 steps 1 and 2): the demo club's import/matches.csv,
read back by the import into an empty club with the same seasons, gives the same
standings (every leaderboard row and rating, by player name) and the same ledger."""

from __future__ import annotations

import io
import zipfile
from collections import Counter

import pytest
from django.contrib.auth import get_user_model

from scorebook.archive import exports
from scorebook.clubs.models import Club, Membership
from scorebook.history import services
from scorebook.history.models import Import
from scorebook.ledger.models import Entry
from scorebook.matches.models import Deal
from scorebook.standings.models import LeaderboardRow, Rating, Season

pytestmark = pytest.mark.django_db


def board(club):
    return sorted(
        (
            r.season.name,
            r.player.name,
            r.game,
            r.matches,
            r.won,
            r.lost,
            r.points_for,
            r.points_against,
            r.deals,
            str(r.units),
            r.money,
            r.events,
            r.bids,
        )
        for r in LeaderboardRow.objects.filter(club=club).select_related("season", "player")
    )


def ratings(club):
    return sorted(
        (r.player.name, r.game, round(r.mu, 6), round(r.sigma, 6))
        for r in Rating.objects.filter(club=club).select_related("player")
    )


def test_the_export_imports_into_an_empty_club_with_the_same_standings(
    demo, django_capture_on_commit_callbacks
):
    out = io.BytesIO()
    exports.club_export(demo, out)
    data = zipfile.ZipFile(io.BytesIO(out.getvalue())).read("import/matches.csv")
    director = get_user_model().objects.create_user("new-director")
    empty = Club.objects.create(name="Circolo Nuovo", slug="nuovo")
    Membership.objects.create(club=empty, user=director, role="director")
    for season in Season.objects.filter(club=demo):
        Season.objects.create(
            club=empty, name=season.name, starts_on=season.starts_on, ends_on=season.ends_on
        )
    batch = services.import_preview(club=empty, user=director, filename="m.csv", data=data)
    with django_capture_on_commit_callbacks(execute=True):
        services.import_accept(batch=batch, user=director)
    assert Import.objects.get(pk=batch.pk).status == "done"
    current = Deal.objects.filter(is_current=True)
    assert (
        current.filter(match__night__club=empty).count()
        == current.filter(match__night__club=demo).count()
    )
    assert board(empty) == board(demo)
    assert ratings(empty) == ratings(demo)
    assert nets(empty) == nets(demo) and nets(demo)  # the demo plays for stakes


def nets(club) -> dict[tuple[str, str], str]:
    """Each player's net in the ledger, per unit (reversed and reversing entries cancel)."""
    net: Counter = Counter()
    for e in Entry.objects.filter(club=club).select_related("payer__player", "payee__player"):
        if e.payer.player:
            net[(e.payer.player.name, e.unit)] -= e.amount
        if e.payee.player:
            net[(e.payee.player.name, e.unit)] += e.amount
    return {key: str(value) for key, value in net.items() if value}
