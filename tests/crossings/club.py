"""A club over weeks, driven through the service functions as a club drives them (issue 31
item 3): a hypothesis ``RuleBasedStateMachine`` whose rules open nights, add players and
tables, start matches of random games under random house rules, enter, correct and
confirm deals (each drawn by the engine's own generator), abandon and forfeit, play a
league's fixtures and a tournament's round, import a history file and undo it, rename
and erase a person, close nights and settle them.

Each rule calls one service (or a club's short sequence of them) inside the test's
transaction, its on-commit work (the standings' refresh, the import's tasks) run at once
as a club's worker would. A ``Refusal`` (the services' one refusal type) is a service
saying no and leaves the world as it was; anything else a service raises fails the test.
After every step the invariants of ``tests/crossings/checks.py`` hold; at the end of an
example in which someone was erased, no output of the crawl holds any of their names.
"""

from __future__ import annotations

import datetime
import time
from collections import Counter
from decimal import Decimal
from itertools import count
from typing import Any

from django.test import TestCase
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from scorebook.archive import services as archive
from scorebook.archive.services import names_of
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Player
from scorebook.core.refusals import Refusal
from scorebook.history import services as history
from scorebook.history.models import Import
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Transfer
from scorebook.matches import services as record
from scorebook.matches.models import Deal, Match, Night
from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.matches.selectors import current_deals, sides
from scorebook.rules import get_game
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import Fixture, League
from scorebook.tournaments.models import Pairing, Tournament
from scorebook.tournaments.services import registration, results, rounds, setup
from scorebook.tournaments.services.guards import pair_seats
from tests import builders as build
from tests.crossings import checks, files

CLUBS = count(1)
FIRST_NIGHT = datetime.date(2026, 9, 4)  # a Friday; a week is seven days after it
PAIRS = files.pairs_games()
picks = st.integers(0, 2**16)


class ClubOverWeeks(RuleBasedStateMachine):
    """One club of its own per example (the examples share the test's database)."""

    #: What every example did and was refused, summed over the run (the report's figures).
    totals: Counter[str] = Counter()

    def __init__(self) -> None:
        super().__init__()
        n = next(CLUBS)
        self.club, self.owner = build.club(f"Circolo {n}", f"weeks-{n}")
        self.director = build.member(self.club, "director", f"weeks-{n}-director")
        self.scorer = build.member(self.club, "scorer", f"weeks-{n}-scorer")
        self.people: list[int] = []
        self.names: dict[int, set[str]] = {}  # every name each player has had
        self.erased: set[str] = set()
        self.acknowledged: set[int] = set()
        self.week = 0
        self.imports: list[int] = []
        self.done: Counter[str] = Counter()

    # -- the harness ---------------------------------------------------------------------

    def act(self, what: str, service: Any) -> Any:
        """Run one step's services, their on-commit work after; a refusal is counted."""
        try:
            with TestCase.captureOnCommitCallbacks(execute=True):
                answer = service()
        except Refusal as refusal:
            self.done[f"refused {what}: {refusal.code}"] += 1
            ClubOverWeeks.totals[f"refused {what}: {refusal.code}"] += 1
            return None
        self.done[what] += 1
        ClubOverWeeks.totals[what] += 1
        return answer

    def _pick(self, items: list[Any], pick: int) -> Any:
        return items[pick % len(items)] if items else None

    def _open_nights(self) -> list[Night]:
        return list(Night.objects.filter(club=self.club, status="open").order_by("pk"))

    def _open_matches(self) -> list[Match]:
        return list(
            Match.objects.filter(
                night__club=self.club, status="open", night__status="open"
            ).order_by("pk")
        )

    def _players(self) -> list[Player]:
        return list(Player.objects.filter(club=self.club, erased=False).order_by("pk"))

    def _new_player(self) -> Player | None:
        name = files.unique_name()
        made = self.act(
            "player_create",
            lambda: clubs.player_create(club=self.club, name=name, user=self.director),
        )
        if made is not None:
            self.names[made.pk] = {name}
        return made

    def _seated(self, count_: int, pick: int) -> list[Player]:
        while len(self._players()) < count_:
            self._new_player()
        chosen = self._players()
        start = pick % len(chosen)
        return (chosen[start:] + chosen[:start])[:count_]

    @initialize(crawl=st.integers(1, 5))
    def founded(self, crawl: int) -> None:
        """Four players; ``crawl``: whether the example ends with the erasure crawl (if
        anyone was erased), drawn so that a failing example replays with its crawl."""
        self.crawl = crawl == 1
        for _ in range(4):
            self._new_player()

    # -- nights, players, tables -------------------------------------------------------

    @precondition(lambda self: Night.objects.filter(club=self.club, status="open").count() < 3)
    @rule(day=st.integers(0, 6))
    def open_night(self, day: int) -> None:
        self.week += 1
        date = FIRST_NIGHT + datetime.timedelta(days=7 * self.week + day)
        self.act(
            "night_open",
            lambda: record.night_open(
                club_id=self.club.pk, date=date, venue="", user=self.director
            ),
        )

    @rule()
    def add_player(self) -> None:
        self._new_player()

    @precondition(lambda self: Night.objects.filter(club=self.club, status="open").exists())
    @rule(pick=picks, number=st.integers(1, 6))
    def add_table(self, pick: int, number: int) -> None:
        night = self._pick(self._open_nights(), pick)
        self.act(
            "table_create",
            lambda: record.table_create(night=night, number=number, name="", user=self.director),
        )

    @rule(pick=picks)
    def rename(self, pick: int) -> None:
        player = self._pick(self._players(), pick)
        if player is None:
            return
        name = files.unique_name()
        done = self.act(
            "player_update",
            lambda: clubs.player_update(player=player, changes={"name": name}, user=self.director),
        )
        if done is not None:
            self.names.setdefault(player.pk, set()).add(name)

    # -- matches and deals --------------------------------------------------------------

    @precondition(lambda self: Night.objects.filter(club=self.club, status="open").exists())
    @rule(data=st.data(), game=st.sampled_from(files.GAMES), pick=picks,
          stake=st.sampled_from(["0", "0.50", "1", "2.25"]), money=st.booleans(),
          deals=st.integers(0, 6))  # fmt: skip
    def start_match(  # noqa: PLR0913
        self, data: Any, game: str, pick: int, stake: str, money: bool, deals: int
    ) -> None:
        """A match of ``game`` under drawn house rules, and its first ``deals`` deals."""
        values = data.draw(files.house_rules(game), label="rules")
        engine = get_game(game)
        counts = engine.player_counts
        players = data.draw(st.sampled_from(counts), label="players")
        night = self._pick(self._open_nights(), pick)
        try:
            seats = engine.seats(engine.rules(values), players)
        except Exception:  # the engine refuses these house rules: so will the service
            seats = tuple(f"P{i}" for i in range(1, players + 1))
        people = self._seated(len(seats), pick)
        tables = list(night.tables.order_by("pk"))
        match = self.act(
            "match_create",
            lambda: record.match_create(
                night=night,
                game=game,
                rules=values,
                seats={s: p.pk for s, p in zip(seats, people, strict=True)},
                user=self.scorer,
                table=self._pick(tables, pick) if tables and pick % 2 else None,
                stake_amount=Decimal(stake),
                stake_currency=STAKE_CURRENCIES[0] if money else "",
            ),
        )
        if match is not None:
            self._play(match, pick, money, deals)

    @precondition(lambda self: Match.objects.filter(night__club=self.club, status="open").exists())
    @rule(pick=picks, seed=picks, side=st.booleans(), deals=st.integers(1, 8))
    def enter_deals(self, pick: int, seed: int, side: bool, deals: int) -> None:
        """Up to ``deals`` deals of one open match, one after the other, as a table does."""
        match = self._pick(self._open_matches(), pick)
        if match is not None:
            self._play(match, seed, side, deals)

    def _play(self, match: Match, seed: int, side: bool, deals: int) -> None:
        entering = ""
        if side:
            entering = sorted(set(sides(match).values()))[seed % len(set(sides(match).values()))]
        for n in range(deals):
            match = Match.objects.get(pk=match.pk)
            if match.status != Match.Status.OPEN:
                return
            data = files.next_deal(match, seed + n)
            if data is None:
                self.done["no deal from the engine's generator"] += 1
                ClubOverWeeks.totals["no deal from the engine's generator"] += 1
                return
            deal = self.act(
                "deal_create",
                lambda match=match, data=data: record.deal_create(
                    match=match, data=data, expected_number=None, user=self.scorer,
                    entered_side=entering,
                ),
            )  # fmt: skip
            if deal is None:
                return
            self.acknowledged.add(deal.pk)

    def _deals(self) -> list[Deal]:
        return list(
            Deal.objects.filter(match__night__club=self.club, is_current=True).order_by("pk")
        )

    @precondition(lambda self: Deal.objects.filter(match__night__club=self.club).exists())
    @rule(pick=picks, seed=picks)
    def correct_deal(self, pick: int, seed: int) -> None:
        deal = self._pick(self._deals(), pick)
        match = deal.match
        earlier = [d.input for d in current_deals(match) if d.number < deal.number]
        data = files.deal_in_place(match, earlier, seed)
        if data is None:
            return
        new = self.act(
            "deal_correct",
            lambda: record.deal_correct(
                deal=deal, data=data, reason="the sheet says so", user=self.director,
                expected_version=deal.version,
            ),
        )  # fmt: skip
        if new is not None:
            self.acknowledged.add(new.pk)

    @precondition(lambda self: Deal.objects.filter(match__night__club=self.club).exists())
    @rule(pick=picks, override=st.booleans())
    def confirm_deal(self, pick: int, override: bool) -> None:
        deal = self._pick(self._deals(), pick)
        if override:
            self.act(
                "deal_confirm (override)",
                lambda: record.deal_confirm(
                    deal=deal, user=self.director, override_reason="read back at the table"
                ),
            )
            return
        seat = self._pick(sorted(deal.match.seats), pick // 7)
        self.act(
            "deal_confirm_at_table",
            lambda: record.deal_confirm_at_table(deal=deal, seat=seat, user=self.scorer),
        )

    @precondition(lambda self: Match.objects.filter(night__club=self.club, status="open").exists())
    @rule(pick=picks)
    def abandon(self, pick: int) -> None:
        match = self._pick(self._open_matches(), pick)
        if match is None:
            return
        someone = Player.objects.get(pk=self._pick(sorted(match.seats.values()), pick))
        self.act(
            "match_abandon",
            lambda: record.match_abandon(
                match=match, reason=f"{someone.name} went home", user=self.director
            ),
        )

    # -- nights' ends ---------------------------------------------------------------------

    @precondition(lambda self: Night.objects.filter(club=self.club, status="open").exists())
    @rule(pick=picks)
    def close_night(self, pick: int) -> None:
        night = self._pick(self._open_nights(), pick)
        for tournament in Tournament.objects.filter(night=night, status="running"):
            self._finish_or_cancel(tournament)
        still = list(night.matches.filter(status="open").values_list("pk", flat=True))
        someone = self._pick(self._players(), pick)
        reason = f"{someone.name} locked up" if someone else ""
        self.act(
            "night_close",
            lambda: record.night_close(
                night=night, user=self.director, end_open=still, reason=reason
            ),
        )

    @precondition(lambda self: Night.objects.filter(club=self.club).exists())
    @rule(pick=picks, pay=st.booleans())
    def settle(self, pick: int, pay: bool) -> None:
        night = self._pick(list(Night.objects.filter(club=self.club).order_by("pk")), pick)
        settlement = self.act(
            "night_settle", lambda: ledger.night_settle(night=night, user=self.director)
        )
        if settlement is not None and pay:
            transfer = self._pick(list(settlement.transfers.order_by("pk")), pick)
            if transfer is not None:
                self.act(
                    "transfer_mark_paid",
                    lambda: ledger.transfer_mark_paid(
                        transfer=Transfer.objects.get(pk=transfer.pk), user=self.director
                    ),
                )

    # -- a league ---------------------------------------------------------------------------

    @precondition(lambda self: not League.objects.filter(club=self.club).exists())
    @rule(game=st.sampled_from(PAIRS), entries=st.integers(2, 4), pick=picks)
    def league(self, game: str, entries: int, pick: int) -> None:
        people = self._seated(2 * entries, pick)

        def made() -> League:
            league = leagues.league_create(
                club=self.club, name="Coppa", user=self.director, game=game,
                forfeit_points=1 if pick % 2 else None,
            )  # fmt: skip
            for i in range(entries):
                pair = people[2 * i : 2 * i + 2]
                leagues.entry_add(
                    league=league, name=" & ".join(p.name for p in pair),
                    player_ids=[p.pk for p in pair], user=self.director,
                )  # fmt: skip
            return leagues.league_start(league=league, user=self.director)

        self.act("league (create, entries, start)", made)

    def _fixtures(self) -> list[Fixture]:
        return list(
            Fixture.objects.filter(
                league__club=self.club, home__isnull=False, away__isnull=False
            ).order_by("pk")
        )

    @precondition(
        lambda self: (
            Fixture.objects.filter(league__club=self.club).exists()
            and Night.objects.filter(club=self.club, status="open").exists()
        )
    )
    @rule(pick=picks)
    def play_fixture(self, pick: int) -> None:
        fixture = self._pick(self._fixtures(), pick)
        night = self._pick(self._open_nights(), pick)
        if fixture is None:
            return
        league = fixture.league
        (a1, a2), (b1, b2) = pair_seats(league.game, None)
        home = list(fixture.home.players.order_by("pk"))
        away = list(fixture.away.players.order_by("pk"))
        seats = {a1: home[0].pk, a2: home[1].pk, b1: away[0].pk, b2: away[1].pk}

        def played() -> Any:
            match = record.match_create(
                night=night, game=league.game, rules=None, seats=seats, user=self.director
            )
            return leagues.fixture_match_link(fixture=fixture, match=match, user=self.director)

        self.act("fixture: match_create + fixture_match_link", played)

    @precondition(lambda self: Fixture.objects.filter(league__club=self.club).exists())
    @rule(pick=picks, home=st.booleans())
    def forfeit_fixture(self, pick: int, home: bool) -> None:
        fixture = self._pick(self._fixtures(), pick)
        if fixture is None:
            return
        entry = fixture.home if home else fixture.away
        self.act(
            "fixture_forfeit",
            lambda: leagues.fixture_forfeit(
                fixture=fixture, entry=entry, reason=f"{entry.name} did not come",
                user=self.director,
            ),
        )  # fmt: skip

    # -- a tournament's round -------------------------------------------------------------------

    @precondition(lambda self: Night.objects.filter(club=self.club, status="open").exists())
    @rule(game=st.sampled_from(PAIRS), pick=picks, fee=st.booleans())
    def tournament_round(self, game: str, pick: int, fee: bool) -> None:
        night = self._pick(self._open_nights(), pick)
        people = self._seated(4, pick)
        guests = [files.unique_name() for _ in range(4)]

        def started() -> Any:
            cup = setup.tournament_create(
                night=night, name=f"Torneo {guests[0]}", game=game, rules=None,
                user=self.director, seed=pick, rounds=1,
                **({"entry_fee": Decimal("2.00"), "currency": STAKE_CURRENCIES[0]} if fee else {}),
            )  # fmt: skip
            for pair in ((people[0].pk, people[1].pk), (people[2].pk, people[3].pk),
                         (guests[0], guests[1]), (guests[2], guests[3])):  # fmt: skip
                registration.entry_add(tournament=cup, players=list(pair), user=self.director)
            rounds.round_start(tournament=cup, user=self.director)
            return cup

        if self.act("tournament (create, 4 pairs, round 1)", started) is not None:
            for name in guests:
                made = Player.objects.get(club=self.club, name=name)
                self.names[made.pk] = {name}

    @precondition(lambda self: Pairing.objects.filter(round__tournament__club=self.club).exists())
    @rule(pick=picks)
    def forfeit_pairing(self, pick: int) -> None:
        pairings = list(
            Pairing.objects.filter(round__tournament__club=self.club, away__isnull=False)
            .select_related("home", "away", "round")
            .order_by("pk")
        )
        pairing = self._pick(pairings, pick)
        if pairing is None:
            return
        entry = pairing.home if pick % 2 else pairing.away
        self.act(
            "pairing_forfeit",
            lambda: results.pairing_forfeit(
                pairing=pairing, entry=entry, reason=f"{entry.name} left", user=self.director
            ),
        )

    def _finish_or_cancel(self, tournament: Tournament) -> None:
        done = self.act(
            "tournament_finish",
            lambda: results.tournament_finish(tournament=tournament, user=self.director),
        )
        if done is None:
            self.act(
                "tournament_cancel",
                lambda: results.tournament_cancel(
                    tournament=tournament, reason="rain", user=self.director
                ),
            )

    @precondition(lambda self: Tournament.objects.filter(club=self.club, status="running").exists())
    @rule(pick=picks)
    def end_tournament(self, pick: int) -> None:
        running = list(Tournament.objects.filter(club=self.club, status="running").order_by("pk"))
        self._finish_or_cancel(self._pick(running, pick))

    # -- the history: an import and its undo ------------------------------------------------

    @precondition(lambda self: len(self.imports) < 3)
    @rule(data=st.data(), pick=picks, seed=picks, matches=st.integers(1, 2))
    def import_file(self, data: Any, pick: int, seed: int, matches: int) -> None:
        day = datetime.date(2016, 1, 1) + datetime.timedelta(days=len(self.imports) * 7)
        planned = []
        new_names: list[str] = []
        for i in range(matches):
            game = data.draw(st.sampled_from(files.GAMES), label="imported game")
            engine = get_game(game)
            values = data.draw(files.house_rules(game), label="imported rules")
            n = data.draw(st.sampled_from(engine.player_counts), label="imported players")
            known = [p.name for p in self._seated(n, pick + i)][: n // 2]
            guests = [files.unique_name() for _ in range(n - len(known))]
            new_names += guests
            someone = (known + guests)[0]
            abandoned = f"{someone} was called away" if seed % 3 == 0 else ""
            planned.append((game, values, known + guests, 1 + seed % 6, abandoned))
        content = files.history_file(day, planned, seed)
        filename = f"{(new_names or ['sheet'])[0].replace(' ', '_').lower()}.csv"

        def imported() -> Import:
            batch = history.import_preview(
                club=self.club, user=self.director, filename=filename, data=content
            )
            return history.import_accept(batch=batch, user=self.director)

        batch = self.act("import (preview, accept)", imported)
        self.imports.append(batch.pk if batch is not None else 0)
        if batch is not None:
            batch.refresh_from_db()
            assert batch.status == Import.Status.DONE, (batch.status, batch.error)
            for player in Player.objects.filter(club=self.club, name__in=new_names):
                self.names[player.pk] = {player.name}

    @precondition(lambda self: any(self.imports))
    @rule(pick=picks)
    def undo_import(self, pick: int) -> None:
        batch = Import.objects.get(pk=self._pick([pk for pk in self.imports if pk], pick))
        nights = batch.nights.values_list("night_id", flat=True)
        theirs = set(Deal.objects.filter(match__night_id__in=nights).values_list("pk", flat=True))
        if self.act("import_undo", lambda: history.import_undo(batch=batch, user=self.director)):
            self.acknowledged -= theirs  # undone by an acknowledged act: the undo's own

    # -- erasure ----------------------------------------------------------------------------------

    @rule(pick=picks)
    def erase(self, pick: int) -> None:
        player = self._pick(self._players(), pick)
        if player is None:
            return
        names = names_of(player) | self.names.get(player.pk, set())
        done = self.act(
            "player_erase",
            lambda: archive.player_erase(player=player, user=self.director, confirm=player.name),
        )
        if done is not None:
            self.erased |= names

    # -- the invariants -------------------------------------------------------------------------

    @invariant()
    def ledger_sums_to_zero(self) -> None:
        ClubOverWeeks.totals["steps (and the start)"] += 1
        checks.ledger_balances(self.club.pk)
        checks.nights_closed_whole(self.club.pk)

    @invariant()
    def standings_equal_a_rebuild(self) -> None:
        checks.standings_equal_a_rebuild(self.club.pk)

    @invariant()
    def nothing_acknowledged_is_lost(self) -> None:
        checks.nothing_lost(self.acknowledged)

    def teardown(self) -> None:
        if not self.erased or not getattr(self, "crawl", False):
            return
        started = time.process_time()
        read, _ = checks.names_gone(Club.objects.get(pk=self.club.pk), self.erased)
        ClubOverWeeks.totals["crawl CPU seconds"] += round(time.process_time() - started)
        ClubOverWeeks.totals["crawls"] += 1
        ClubOverWeeks.totals["outputs crawled"] += read
