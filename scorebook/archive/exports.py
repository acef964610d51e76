"""A club's whole record as a ZIP of JSON and CSV, and a person's own data as a ZIP of
JSON, each with a README of the format inside (docs/export.md is the same text).

Both read only, and write the ZIP into a file object as they go (the caller gives a
temporary file and streams it back): a table is read in batches and written row by row,
so a club of 20,000 deals does not sit in memory. Every table of the record comes out as
``<table>.json`` (a list of objects, every stored field, ids as stored) and
``<table>.csv`` (the same columns; a JSON value as JSON text; a cell a spreadsheet would
read as a formula behind an apostrophe). ``import/matches.csv`` is the record again in the
import template's columns, for bringing the club into another Scorebook.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q, QuerySet
from django.utils import timezone

from scorebook.clubs.models import Club, Membership, Player
from scorebook.core.models import AuditEvent
from scorebook.core.people import User
from scorebook.federations.models import (
    Affiliation,
    ChampionshipFixture,
    FederalRegistration,
    FederalTournament,
    Federation,
    FixtureTable,
    PersonLink,
    RosterPlayer,
    Team,
)
from scorebook.history.template import ABANDONED_NO_REASON
from scorebook.ledger.exports import safe_cell
from scorebook.ledger.models import Account, Entry, Settlement, Transfer
from scorebook.matches.models import Confirmation, Deal, Match, Night, Table
from scorebook.standings.models import (
    Fixture,
    FixtureForfeit,
    FixtureMatch,
    LeaderboardRow,
    League,
    LeagueEntry,
    Rating,
    Season,
)
from scorebook.tournaments.models import Draw, Pairing, PairingMatch, Round, Single, Tournament
from scorebook.tournaments.models import Entry as TournamentEntry

from .models import Erasure

#: Bumped when a file or a column changes meaning (README says what each version reads).
FORMAT_VERSION = 1
#: The columns of the import template (docs/import.md), in its order.
IMPORT_COLUMNS = ("date", "table", "match", "game", "rules", "seats", "first_dealer", "stake",
                  "currency", "deal", "final", "winner", "abandoned")  # fmt: skip

Rows = Callable[[], Iterable[dict[str, Any]]]


@dataclass(frozen=True)
class Part:
    """One table of an export: its file name (without extension), what it holds (the
    README's line), and how to read its rows (called once per file written)."""

    name: str
    about: str
    rows: Rows


def _dumps(value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False)


def _cell(value: Any) -> str:
    if isinstance(value, dict | list):
        return safe_cell(_dumps(value))
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = json.loads(_dumps(value)) if not isinstance(value, str) else value
    return safe_cell(text)


def _values(rows: QuerySet[Any], *fields: str) -> Rows:
    return lambda: rows.values(*fields).iterator(chunk_size=1000)


def _write_json(archive: zipfile.ZipFile, name: str, rows: Iterable[dict[str, Any]]) -> int:
    count = 0
    with archive.open(name, "w") as raw, io.TextIOWrapper(raw, encoding="utf-8") as out:
        out.write("[")
        for row in rows:
            out.write(",\n" if count else "\n")
            out.write(_dumps(row))
            count += 1
        out.write("\n]\n" if count else "]\n")
    return count


def _write_csv(archive: zipfile.ZipFile, name: str, rows: Iterable[dict[str, Any]]) -> None:
    with (
        archive.open(name, "w") as raw,
        io.TextIOWrapper(raw, encoding="utf-8", newline="") as out,
    ):
        writer = csv.writer(out)
        header: list[str] | None = None
        for row in rows:
            if header is None:
                header = list(row)
                writer.writerow(header)
            writer.writerow([_cell(row.get(column)) for column in header])


def _write(archive: zipfile.ZipFile, name: str, text: str) -> None:
    archive.writestr(name, text.encode("utf-8"))


def _readme(title: str, intro: str, files: list[tuple[str, str, int]]) -> str:
    """The README inside a ZIP: what it is, then each file, what it holds, its rows."""
    lines = [f"# {title}", "", intro, "", f"Format version {FORMAT_VERSION}.", "", "## Files", ""]
    lines += [f"- `{name}`: {about} ({count} rows)" for name, about, count in files]
    return "\n".join(lines) + "\n"


# -- a club's whole record ----------------------------------------------------------------


def _users_of(club: Club) -> QuerySet[Any]:
    """The accounts the record names by id: members, and whoever opened, entered,
    confirmed, booked or acted in it (a former member too). Username only."""
    ids: set[int] = set()
    ids.update(Membership.objects.filter(club=club).values_list("user_id", flat=True))
    ids.update(Player.objects.filter(club=club).values_list("user_id", flat=True))
    ids.update(AuditEvent.objects.filter(club=club).values_list("actor_id", flat=True))
    ids.update(Deal.objects.filter(match__night__club=club).values_list("entered_by_id", flat=True))
    confirmations = Confirmation.objects.filter(deal__match__night__club=club)
    ids.update(confirmations.values_list("user_id", flat=True))
    ids.update(confirmations.values_list("device_user_id", flat=True))
    ids.update(Match.objects.filter(night__club=club).values_list("created_by_id", flat=True))
    ids.update(Night.objects.filter(club=club).values_list("opened_by_id", flat=True))
    links = PersonLink.objects.filter(club=club)
    for column in ("user_id", "proposed_by_id", "answered_by_id", "removed_by_id"):
        ids.update(links.values_list(column, flat=True))
    registrations = FederalRegistration.objects.filter(federal_tournament__host=club)
    ids.update(registrations.values_list("first_id", flat=True))
    ids.update(registrations.values_list("second_id", flat=True))
    ids.update(Team.objects.filter(club=club).values_list("captain_id", flat=True))
    ids.discard(None)
    return get_user_model().objects.filter(pk__in=ids).order_by("pk")


def _league_entries(club: Club) -> Iterator[dict[str, Any]]:
    entries = LeagueEntry.objects.filter(league__club=club).prefetch_related("players")
    for entry in entries.order_by("pk"):
        row = {
            field.attname: getattr(entry, field.attname)
            for field in LeagueEntry._meta.concrete_fields
        }
        row["players"] = sorted(p.pk for p in entry.players.all())
        yield row


def club_parts(club: Club) -> list[Part]:
    """The tables of a club's export, in the README's order."""
    nights = Night.objects.filter(club=club).order_by("date", "pk")
    matches = Match.objects.filter(night__club=club).order_by("pk")
    deals = Deal.objects.filter(match__night__club=club).order_by("match_id", "number", "version")
    leagues = League.objects.filter(club=club).order_by("pk")
    return [
        Part(
            "club",
            "the club: name, address (slug), public results, confirmation policy",
            _values(Club.objects.filter(pk=club.pk)),
        ),
        Part(
            "users",
            "the accounts the record names by id (members, whoever entered or confirmed)",
            _values(_users_of(club), "id", "username", "is_active"),
        ),
        Part(
            "members",
            "memberships: account, role, since",
            _values(Membership.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "players",
            "the names at the tables (guests have no account; an erased player is "
            "'Erased player #n')",
            _values(Player.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "erasures",
            "erased players: the pseudonym's number, who erased and when (never the old name)",
            _values(Erasure.objects.filter(club=club).order_by("number")),
        ),
        Part("nights", "club nights: date, venue, open or closed", _values(nights)),
        Part(
            "tables",
            "the tables of each night",
            _values(Table.objects.filter(night__club=club).order_by("pk")),
        ),
        Part(
            "matches",
            "matches: game, house rules as played, seats (seat to player id), first dealer, "
            "stake, status, derived state and result",
            _values(matches),
        ),
        Part(
            "deals",
            "every version of every deal: number, version, current or superseded, what "
            "was entered (the deal format, docs/deal-format.md), the engine's result, who "
            "entered it when, the correction's reason",
            _values(deals),
        ),
        Part(
            "confirmations",
            "who confirmed which deal version, from which seat, how and when",
            _values(Confirmation.objects.filter(deal__match__night__club=club).order_by("pk")),
        ),
        Part(
            "audit",
            "the audit log: who did what to which object, before and after, why, when",
            _values(AuditEvent.objects.filter(club=club).order_by("at", "pk")),
        ),
        Part(
            "ledger_accounts",
            "who holds a balance: a player, or a pot of a match or of a night",
            _values(Account.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "ledger_entries",
            "every transfer booked, reversals included (payer and payee are accounts)",
            _values(Entry.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "settlements",
            "every version of each night's settlement: each account's net",
            _values(Settlement.objects.filter(night__club=club).order_by("pk")),
        ),
        Part(
            "transfers",
            "the payments each settlement asks for, and when they were marked paid",
            _values(Transfer.objects.filter(settlement__night__club=club).order_by("pk")),
        ),
        Part(
            "seasons",
            "the seasons the standings count",
            _values(Season.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "leaderboard",
            "the standings: one line per season, game (empty: all games) and player",
            _values(LeaderboardRow.objects.filter(club=club).order_by("season_id", "game", "pk")),
        ),
        Part(
            "ratings",
            "each player's rating per game",
            _values(Rating.objects.filter(club=club).order_by("game", "pk")),
        ),
        Part("leagues", "leagues and their settings", _values(leagues)),
        Part(
            "league_entries",
            "the entries of each league (players: ids)",
            lambda: _league_entries(club),
        ),
        Part(
            "fixtures",
            "each league's fixtures",
            _values(Fixture.objects.filter(league__club=club).order_by("pk")),
        ),
        Part(
            "fixture_matches",
            "the matches played for a fixture",
            _values(FixtureMatch.objects.filter(fixture__league__club=club).order_by("pk")),
        ),
        Part(
            "tournaments",
            "one-night tournaments: game, house rules, format, rounds, fee and prizes",
            _values(Tournament.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "tournament_entries",
            "the pairs of each tournament (first, second: player ids), seeds, withdrawals",
            _values(TournamentEntry.objects.filter(tournament__club=club).order_by("pk")),
        ),
        Part(
            "tournament_singles",
            "players who came alone, for the draw",
            _values(Single.objects.filter(tournament__club=club).order_by("pk")),
        ),
        Part(
            "tournament_draws",
            "each draw of singles into pairs: its seed and the pairs made",
            _values(Draw.objects.filter(tournament__club=club).order_by("pk")),
        ),
        Part(
            "tournament_rounds",
            "each tournament's rounds",
            _values(Round.objects.filter(tournament__club=club).order_by("pk")),
        ),
        Part(
            "tournament_pairings",
            "each round's pairings (home, away: entries), forfeits",
            _values(Pairing.objects.filter(round__tournament__club=club).order_by("pk")),
        ),
        Part(
            "tournament_matches",
            "the matches played for a pairing",
            _values(
                PairingMatch.objects.filter(pairing__round__tournament__club=club).order_by("pk")
            ),
        ),
        Part(
            "fixture_forfeits",
            "fixtures won by forfeit",
            _values(FixtureForfeit.objects.filter(fixture__league__club=club).order_by("pk")),
        ),
        *_federation_parts(club),
    ]


def _federation_parts(club: Club) -> list[Part]:
    """The club's federation records (docs/federation.md): what the club itself agreed to
    or took part in, never another club's records. A championship's other clubs appear
    by their teams' ids and names (as on the championship's public table); the guests
    that stood for their players are in ``players``, and which player a guest stood for
    is the federation's, not the club's (``Visitor``: not exported); registrations for a
    federal tournament at another club are the persons' own (their own export)."""
    teams = Team.objects.filter(club=club)
    fixtures = ChampionshipFixture.objects.filter(Q(home__club=club) | Q(away__club=club))
    hosted = FederalTournament.objects.filter(host=club)
    return [
        Part(
            "federations",
            "the federations the club belongs or belonged to: name, address (slug), level",
            _values(
                Federation.objects.filter(affiliations__club=club).distinct().order_by("pk"),
                "id",
                "name",
                "slug",
                "level",
            ),
        ),
        Part(
            "federation_memberships",
            "each period of the club in a federation: joined, left, by whom",
            _values(Affiliation.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "person_links",
            "the links of the club's players to persons' accounts (user: the account's id), "
            "who proposed, answered and removed them",
            _values(PersonLink.objects.filter(club=club).order_by("pk")),
        ),
        Part(
            "championship_teams",
            "the club's teams in the federations' championships, captains",
            _values(teams.order_by("pk")),
        ),
        Part(
            "championship_rosters",
            "each team's players (regulars in table order, substitutes)",
            _values(RosterPlayer.objects.filter(team__club=club).order_by("pk")),
        ),
        Part(
            "championship_fixtures",
            "the fixtures of the club's teams, home and away: planned night, night "
            "played (home), status, confirmed result, forfeits",
            _values(fixtures.order_by("pk")),
        ),
        Part(
            "championship_tables",
            "the tables of the fixtures played at the club: the club's matches",
            _values(FixtureTable.objects.filter(fixture__home__club=club).order_by("pk")),
        ),
        Part(
            "federal_tournaments",
            "the federal tournaments the club hosted: date, level, game, fee and the "
            "federation's share, its own tournament",
            _values(hosted.order_by("pk")),
        ),
        Part(
            "federal_registrations",
            "the pairs registered for them (first, second: accounts' ids; entry: the "
            "tournament's entry)",
            _values(
                FederalRegistration.objects.filter(federal_tournament__host=club).order_by("pk")
            ),
        ),
    ]


def import_rows(club: Club) -> Iterator[dict[str, Any]]:
    """The club's matches in the import template's columns, one row per current deal:
    the first row of a match names its game, house rules (the resolved rules, as a JSON
    object), seats (``N=Nino; E=Ettore``), first dealer and stake; the next ones leave
    them empty, as the template allows. ``match`` counts the matches of a night's table
    in the order they were created (a match without a table counts at table 1). A match
    recorded by its final score is one row with ``final`` (``A=21; B=13``) and, where
    its totals cannot tell who won under its house rules, ``winner``. An abandoned
    match says so on its first row: ``abandoned`` holds its reason (``yes`` when it has
    none), and one abandoned before its first deal is that row alone; any other match
    without deals or final score has no row (the template has no row for it)."""
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    matches = (
        Match.objects.filter(night__club=club)
        .select_related("night", "table")
        .order_by("night__date", "night_id", "table__number", "pk")
    )
    ordinal: dict[tuple[int, int], int] = {}
    for match in matches.iterator(chunk_size=200):
        # The template has no match without a table: such a match sits at table 1.
        table = match.table.number if match.table is not None else 1
        key = (match.night_id, table)
        ordinal[key] = ordinal.get(key, 0) + 1
        deals = Deal.objects.filter(match=match, is_current=True).order_by("number")
        inputs: Iterable[Any] = deals.values_list("input", flat=True).iterator(chunk_size=500)
        final: dict[str, int] | None = match.final_score
        if final is not None:
            inputs = [None]  # its one row: the final score
        abandoned = match.status == Match.Status.ABANDONED
        if abandoned and final is None and not deals.exists():
            inputs = [None]  # its one row: the match, abandoned before its first deal
        first = True
        for deal_input in inputs:
            row: dict[str, Any] = dict.fromkeys(IMPORT_COLUMNS, "")
            row.update(
                date=match.night.date.isoformat(),
                table=table,
                match=ordinal[key],
                game=match.game,
                deal=_dumps(deal_input) if deal_input is not None else "",
            )
            if final is not None:
                row["final"] = "; ".join(f"{k}={v}" for k, v in final.items())
                row["winner"] = match.final_winner
            if first:
                seats = match.seat_order()
                row.update(
                    rules=_dumps(match.rules),
                    seats="; ".join(f"{seat}={names.get(match.seats[seat], '')}" for seat in seats),
                    first_dealer=match.first_dealer,
                    stake=str(match.stake_amount) if match.stake_amount else "",
                    currency=match.stake_currency,
                    abandoned=(match.ended_reason or ABANDONED_NO_REASON) if abandoned else "",
                )
                first = False
            yield row


IMPORT_ABOUT = (
    "the club's matches in the import template's columns (docs/import.md), one row per "
    "current deal (one row with `final` for a match recorded by its final score, "
    "`winner` where its totals cannot tell who won; "
    "`abandoned` holds an abandoned match's reason): what the "
    "import reads back into an empty club"
)

CLUB_INTRO = (
    "The whole record of the club, as Scorebook stores it: every table as JSON (a list "
    "of objects, every stored field, ids as stored) and as CSV (the same columns; a JSON "
    "value as JSON text; a cell a spreadsheet would read as a formula begins with an "
    "apostrophe). Ids join the tables: `deals.match` is `matches.id`, `matches.seats` "
    "maps each seat to `players.id`, `ledger_entries.payer` is `ledger_accounts.id`, "
    "`*_by` and `actor` are `users.id`. Times are UTC (ISO 8601), amounts decimal "
    "strings. `import/matches.csv` is the record again in the import template's columns "
    "(docs/import.md): one row per current deal, which the import reads into an empty "
    "club."
)


def club_export(club: Club, out: IO[bytes]) -> dict[str, int]:
    """Write the club's ZIP into ``out``; answer each table's row count."""
    parts = club_parts(club)
    counts: dict[str, int] = {}
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for part in parts:
            counts[part.name] = _write_json(archive, f"{part.name}.json", part.rows())
            _write_csv(archive, f"{part.name}.csv", part.rows())
        counts["import/matches"] = _write_import(archive, club)
        files = [(f"{p.name}.json, {p.name}.csv", p.about, counts[p.name]) for p in parts]
        files.append(("import/matches.csv", IMPORT_ABOUT, counts["import/matches"]))
        title = f"Scorebook export: {club.name}, {timezone.now():%Y-%m-%d %H:%M} UTC"
        _write(archive, "README.md", _readme(title, CLUB_INTRO, files))
    return counts


def _write_import(archive: zipfile.ZipFile, club: Club) -> int:
    count = 0
    with (
        archive.open("import/matches.csv", "w") as raw,
        io.TextIOWrapper(raw, encoding="utf-8", newline="") as out,
    ):
        writer = csv.writer(out)
        writer.writerow(IMPORT_COLUMNS)
        for row in import_rows(club):
            writer.writerow([row[c] for c in IMPORT_COLUMNS])
            count += 1
    return count


def club_export_name(club: Club) -> str:
    return f"scorebook-{club.slug}-{timezone.now():%Y%m%d}.zip"


# -- a person's own data ------------------------------------------------------------------


def person_parts(user: User) -> list[Part]:
    """What Scorebook keeps about one account and its players, in every club."""
    players = Player.objects.filter(user=user)
    player_ids = list(players.values_list("pk", flat=True))
    match_ids = _matches_of(player_ids)
    accounts = Account.objects.filter(player_id__in=player_ids)
    seated = Match.objects.filter(pk__in=match_ids).order_by("pk")
    return [
        Part(
            "account",
            "your account: username, email, names, when it was made and last used",
            _values(
                get_user_model().objects.filter(pk=user.pk),
                "id",
                "username",
                "email",
                "first_name",
                "last_name",
                "date_joined",
                "last_login",
                "is_active",
            ),
        ),
        Part(
            "memberships",
            "your clubs and your role in each",
            _values(
                Membership.objects.filter(user=user).order_by("pk"),
                "id",
                "club_id",
                "club__name",
                "club__slug",
                "role",
                "created_at",
            ),
        ),
        Part(
            "players",
            "your players (your name at each club's tables)",
            _values(players.order_by("pk")),
        ),
        Part(
            "matches",
            "the matches your players sat at (seats: seat to player id)",
            _values(
                seated,
                "id",
                "night__club_id",
                "night__date",
                "game",
                "rules",
                "seats",
                "first_dealer",
                "stake_amount",
                "stake_currency",
                "stake_unit",
                "status",
                "result",
            ),
        ),
        Part(
            "deals",
            "every version of every deal of those matches",
            _values(
                Deal.objects.filter(match_id__in=match_ids).order_by(
                    "match_id", "number", "version"
                ),
                "id",
                "match_id",
                "number",
                "version",
                "is_current",
                "level",
                "input",
                "result",
                "entered_at",
                "reason",
            ),
        ),
        Part(
            "confirmations",
            "the confirmations given from your seat or with your account",
            _values(
                Confirmation.objects.filter(
                    Q(player_id__in=player_ids) | Q(user=user) | Q(device_user=user)
                ).order_by("pk"),
                "id",
                "deal_id",
                "seat",
                "player_id",
                "method",
                "reason",
                "at",
            ),
        ),
        Part(
            "ledger",
            "the stakes your players paid or received (payer and payee are ledger accounts; "
            "yours are listed in players' accounts)",
            _values(
                Entry.objects.filter(Q(payer__in=accounts) | Q(payee__in=accounts)).order_by("pk"),
                "id",
                "night_id",
                "match_id",
                "deal_id",
                "kind",
                "payer_id",
                "payee_id",
                "payer__player_id",
                "payee__player_id",
                "amount",
                "unit",
                "currency",
                "booked_at",
            ),
        ),
        Part(
            "standings",
            "your players' lines in the leaderboards",
            _values(LeaderboardRow.objects.filter(player_id__in=player_ids).order_by("pk")),
        ),
        Part(
            "ratings",
            "your players' ratings",
            _values(Rating.objects.filter(player_id__in=player_ids).order_by("pk")),
        ),
        Part(
            "actions",
            "what you did in the clubs' audit logs",
            _values(
                AuditEvent.objects.filter(actor=user).order_by("at", "pk"),
                "id",
                "club_id",
                "verb",
                "object_type",
                "object_id",
                "before",
                "after",
                "reason",
                "at",
            ),
        ),
    ]


def _matches_of(player_ids: list[int]) -> list[int]:
    """The matches where one of the players has a seat (seats is JSON: read in Python,
    only the matches of the players' clubs)."""
    if not player_ids:
        return []
    clubs = Player.objects.filter(pk__in=player_ids).values_list("club_id", flat=True)
    wanted = set(player_ids)
    rows = Match.objects.filter(night__club_id__in=list(clubs)).values_list("pk", "seats")
    return [pk for pk, seats in rows.iterator(chunk_size=2000) if wanted & set(seats.values())]


PERSON_INTRO = (
    "Everything Scorebook keeps about you and your players, in every club: each file is "
    "JSON (a list of objects). Ids join the files: `deals.match_id` is `matches.id`, "
    "`matches.seats` maps each seat to a player id (yours are in `players.json`). Times "
    "are UTC (ISO 8601)."
)


def person_export(user: User, out: IO[bytes]) -> dict[str, int]:
    """Write the person's ZIP into ``out``; answer each file's row count."""
    parts = person_parts(user)
    counts: dict[str, int] = {}
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for part in parts:
            counts[part.name] = _write_json(archive, f"{part.name}.json", part.rows())
        files = [(f"{p.name}.json", p.about, counts[p.name]) for p in parts]
        title = f"Scorebook: your data, {timezone.now():%Y-%m-%d %H:%M} UTC"
        _write(archive, "README.md", _readme(title, PERSON_INTRO, files))
    return counts
