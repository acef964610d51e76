"""The federation's invariants the stateful test (tests/crossings/test_federation_season.py)
checks after every step, beside each club's own (``tests/crossings/checks.py``); each raises
AssertionError with what broke:

- ``public_table_is_fresh``: the championship's public table and calendar held in the cache
  (``championship_selectors.public_table``, under a key that is to change with every row
  it is computed from) equal the same read made afresh;
- ``rating_equals_a_replay``: the federation's stored rating is not waiting for a replay
  (the replay runs eagerly in the test) and equals one computed now from the clubs' matches
  (``ratings.compute``);
- ``ranking_adds_up``: the ranking's points are each person's results in its window, no
  erased account is ranked;
- ``club_reads_are_its_own``: a club's own selectors return its own rows only;
- ``export_is_the_clubs``: a club's export holds no other club's records;
- ``erased_are_gone``: an erased player keeps no link nor guest standing for them, an
  erased account no link, number, office, registration nor rating; no erased name is a
  player's, a team's or a fixture's reason.
"""

from __future__ import annotations

import dataclasses
import json
import zipfile
from collections.abc import Iterable
from typing import IO, Any

from django.core.cache import cache
from django.db.models import Q

from scorebook.clubs.models import Club, Player
from scorebook.federations import championship_selectors as reads
from scorebook.federations import ranking, ratings
from scorebook.federations import selectors as federations
from scorebook.federations.models import (
    Championship,
    ChampionshipFixture,
    FederalRegistration,
    Federation,
    FederationNumber,
    FederationRating,
    Officer,
    PersonLink,
    Team,
    Visitor,
)
from scorebook.matches.models import Match, Night
from scorebook.matches.selectors import club_nights

# -- the championship's cached table ----------------------------------------------------------


def _facts(found: tuple[list[reads.GroupTable], list[dict[str, Any]]]) -> tuple[Any, Any]:
    """What the public page shows of a table and calendar, as plain values."""
    groups, rows = found
    table = [
        (
            group.group,
            [
                (
                    r.team.pk,
                    r.team.name,
                    r.team.withdrawn,
                    dataclasses.astuple(r.row),
                    r.tables_won,
                    r.tables_lost,
                )
                for r in group.rows
            ],
        )  # fmt: skip
        for group in groups
    ]
    calendar = [
        (
            row["fixture"].pk, row["fixture"].status, row["fixture"].planned_on,
            row["fixture"].night_id, row["fixture"].reason, row["fixture"].home_id,
            row["fixture"].away_id, row["result"].as_dict() if row["result"] else None,
            row["postponed"],
        )
        for row in rows
    ]  # fmt: skip
    return table, calendar


def public_table_is_fresh(championship: Championship) -> None:
    """What the cache holds under the key the rows give now (kept by the previous step's
    read) equals a read made now; the fresh read is left in the cache for the next step."""
    championship = Championship.objects.get(pk=championship.pk)
    key = reads.public_table_key(championship)
    held = cache.get(key)
    cache.delete(key)
    fresh = reads.public_table(championship)
    if held is not None:
        assert _facts(held) == _facts(fresh), (
            f"championship {championship.pk}: the cached public table (key {key}) differs "
            f"from a fresh read:\n{_facts(held)}\n!=\n{_facts(fresh)}"
        )


# -- the rating and the ranking ----------------------------------------------------------------


def rating_equals_a_replay(federation: Federation) -> None:
    fresh = ratings.freshness(federation)
    assert fresh is None or not fresh.pending, (
        f"federation {federation.pk}: its rating waits for a replay after the step "
        f"(requested {fresh.requested_at}, built {fresh.built_at})"
    )
    stored = {
        (row.game, row.user_id): (row.mu, row.sigma, row.display, row.matches, row.clubs)
        for row in FederationRating.objects.filter(federation=federation)
    }
    computed, _ = ratings.compute(federation)
    replayed = {
        (game, person): (r.mu, r.sigma, r.display, r.matches, r.clubs)
        for game, persons in computed.items()
        for person, r in persons.items()
    }
    assert stored == replayed, (
        f"federation {federation.pk}: the stored rating differs from a replay:\n"
        f"{sorted(stored.items())}\n!=\n{sorted(replayed.items())}"
    )


def ranking_adds_up(federation: Federation, erased: Iterable[int]) -> None:
    first, last = ranking.window()
    rows = ranking.ranking(federation)
    gone = set(erased)
    for row in rows:
        assert row.user.pk not in gone, f"erased account {row.user.pk} ranked: {row}"
        counted = [
            r.points
            for r in ranking.person_history(federation, row.user.pk)
            if first <= r.federal.date <= last
        ]
        assert row.points == sum(counted), (row.user.pk, row.points, counted)
    positions = [row.position for row in rows]
    assert positions == sorted(positions), f"ranking out of order: {positions}"


# -- a club's own reads ------------------------------------------------------------------------


def club_reads_are_its_own(club: Club) -> None:
    for status in (Night.Status.OPEN, Night.Status.CLOSED):
        others = [n.pk for n in club_nights(club.pk, status=status) if n.club_id != club.pk]
        assert not others, f"club {club.pk}'s nights list other clubs' nights {others}"
        for night in club_nights(club.pk, status=status):
            foreign = [f.pk for f in reads.fixtures_of_night(night.pk) if f.home.club_id != club.pk]
            assert not foreign, f"night {night.pk} of club {club.pk} lists fixtures {foreign}"
    for rows, what in (
        (federations.club_person_links(club), "person links"),
        (federations.club_affiliations(club), "federation periods"),
    ):
        others = [row.pk for row in rows if row.club_id != club.pk]
        assert not others, f"club {club.pk}'s {what} hold other clubs' rows {others}"


def _parts(out: IO[bytes]) -> dict[str, list[dict[str, Any]]]:
    with zipfile.ZipFile(out) as archive:
        return {
            name[: -len(".json")]: json.loads(archive.read(name))
            for name in archive.namelist()
            if name.endswith(".json")
        }


def export_is_the_clubs(club: Club, out: IO[bytes], everyone: Iterable[int]) -> None:
    """Every row of the export that names a club names this one; its matches, deals,
    rosters, fixtures and tables are the club's (the other clubs of the test: ``everyone``)."""
    parts = _parts(out)
    others = set(everyone) - {club.pk}
    for name, rows in parts.items():
        for row in rows:
            for field in ("club_id", "host_id"):
                assert row.get(field, club.pk) not in others, f"{name}: {row}"
    matches = set(Match.objects.filter(night__club=club).values_list("pk", flat=True))
    players = set(Player.objects.filter(club=club).values_list("pk", flat=True))
    teams = set(Team.objects.filter(club=club).values_list("pk", flat=True))
    assert {r["id"] for r in parts["matches"]} == matches, "the export's matches"
    assert {r["match_id"] for r in parts["deals"]} <= matches, "deals of other clubs' matches"
    assert {r["id"] for r in parts["players"]} == players, "the export's players"
    for row in parts["matches"]:
        seats = row["seats"] if isinstance(row["seats"], dict) else json.loads(row["seats"])
        assert set(seats.values()) <= players, f"match {row['id']} seats {seats}"
    assert {r["match_id"] for r in parts["championship_tables"]} <= matches
    assert {r["player_id"] for r in parts["championship_rosters"]} <= players
    for row in parts["championship_fixtures"]:
        assert {row["home_id"], row["away_id"]} & teams, f"a fixture of other clubs: {row}"


# -- erasure ----------------------------------------------------------------------------------


def erased_are_gone(  # noqa: PLR0913
    federation: Federation,
    clubs: list[int],
    players: set[int],
    accounts: set[int],
    names: set[str],
) -> None:
    left = {
        "links of erased players": PersonLink.objects.filter(player_id__in=players),
        "guests standing for erased players": Visitor.objects.filter(player_id__in=players),
        "links of erased accounts": PersonLink.objects.filter(user_id__in=accounts),
        "numbers": FederationNumber.objects.filter(user_id__in=accounts),
        "offices": Officer.objects.filter(user_id__in=accounts),
        "registrations": FederalRegistration.objects.filter(
            Q(first_id__in=accounts) | Q(second_id__in=accounts)
        ),
        "ratings": FederationRating.objects.filter(user_id__in=accounts),
    }
    for what, rows in left.items():
        found = list(rows.values_list("pk", flat=True))
        assert not found, f"{what} left after an erasure: {found}"
    fixtures = ChampionshipFixture.objects.filter(championship__federation=federation)
    for name in names:
        for what, rows in (
            ("a player's name", Player.objects.filter(club_id__in=clubs, name__icontains=name)),
            ("a team's name", Team.objects.filter(championship__federation=federation,
                                                  name__icontains=name)),
            ("a fixture's reason", fixtures.filter(reason__icontains=name)),
        ):  # fmt: skip
            found = list(rows.values_list("pk", flat=True))
            assert not found, f"erased name {name!r} still {what}: {found}"
