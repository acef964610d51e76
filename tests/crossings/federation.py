"""A federation over a season, driven through the services its pages and API call (issue 34,
the crossings of docs/federation.md): a hypothesis ``RuleBasedStateMachine`` over a
federation of two member clubs and a third it may invite, four persons (accounts of no
club) linked to players of the clubs. Its rules invite a club and let one leave, link and
unlink persons, create and start championships and enter the clubs' teams, open the home
club's night and play a fixture there (deals entered through ``deal_create``, the table
phone's own service), correct a fixture's deal as a director of either club, confirm as
the away captain, postpone, forfeit and undo a forfeit, withdraw a team after the
start, draw the knockout, close a night; announce a federal
tournament, register and withdraw pairs, open it at the host's night, run it or call it
off; erase a player or a person's account; take a club's export.

The harness is the club's (``tests/crossings/club.py``): each rule calls one service (or a
short sequence of them) in a savepoint, its on-commit work run at once (the standings'
refresh, the federation's rating replay: eager in the test); a ``Refusal`` is a service
saying no and leaves the world as it was; anything else fails the test. After every step
the invariants of ``tests/crossings/checks.py`` (each club's ledger and standings, nothing
acknowledged lost) and ``tests/crossings/federal_checks.py`` (the championship's cached
table, the rating, the ranking, each club's own reads and export, erasure) hold.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from itertools import count
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import TestCase
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from scorebook.archive import services as archive
from scorebook.archive.services import names_of
from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Player
from scorebook.core.dates import today_in
from scorebook.core.refusals import Refusal
from scorebook.federations import ranking
from scorebook.federations import selectors as federations
from scorebook.federations.models import (
    Affiliation,
    Championship,
    ChampionshipFixture,
    FederalRegistration,
    FederalTournament,
    FixtureTable,
    PersonLink,
    Visitor,
)
from scorebook.federations.services import championships as champs
from scorebook.federations.services import federal_tournaments as federal
from scorebook.federations.services import links, membership, withdrawals
from scorebook.matches import services as record
from scorebook.matches.models import Deal, Match, Night
from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.matches.selectors import current_deals
from scorebook.tournaments.models import Pairing, Tournament
from scorebook.tournaments.services import results, rounds
from tests import builders as build
from tests.crossings import checks, federal_checks, files

EXAMPLES = count(1)
PERSONS = 4
picks = st.integers(0, 2**16)
Status = ChampionshipFixture.Status


class FederationOverASeason(RuleBasedStateMachine):
    """One federation of its own per example (the examples share the test's database)."""

    #: What every example did and was refused, summed over the run (the report's figures).
    totals: Counter[str] = Counter()

    def __init__(self) -> None:
        super().__init__()
        n = next(EXAMPLES)
        self.n = n
        self.clubs: list[Club] = []
        self.owners: dict[int, Any] = {}
        self.directors: dict[int, Any] = {}
        for letter in "abc":
            club, owner = build.club(f"Circolo {letter.upper()}{n}", f"fedx-{n}-{letter}")
            self.clubs.append(club)
            self.owners[club.pk] = owner
            self.directors[club.pk] = build.member(club, "director", f"fedx-{n}-{letter}-dir")
        self.fed = build.federation(*self.clubs[:2], name=f"Comitato {n}", slug=f"fedx-{n}")
        users = get_user_model().objects
        self.officer = users.get(username=f"fedx-{n}-officer")
        self.secretary = users.get(username=f"fedx-{n}-secretary")
        self.persons = [users.create_user(f"fedx-{n}-p{i}", password="pw") for i in range(PERSONS)]
        self.names: dict[int, set[str]] = {}  # every name each player has had
        self.erased_names: set[str] = set()
        self.erased_players: set[int] = set()
        self.erased_accounts: set[int] = set()
        self.acknowledged: set[int] = set()
        self.done: Counter[str] = Counter()

    # -- the harness ---------------------------------------------------------------------

    def act(self, what: str, service: Any) -> Any:
        """Run one step's services in a savepoint, their on-commit work after; a refusal
        (of any of them) leaves the world as it was, and is counted."""
        try:
            with TestCase.captureOnCommitCallbacks(execute=True), transaction.atomic():
                answer = service()
        except Refusal as refusal:
            FederationOverASeason.totals[f"refused {what}: {refusal.code}"] += 1
            return None
        FederationOverASeason.totals[what] += 1
        return answer

    def _pick(self, items: list[Any], pick: int) -> Any:
        return items[pick % len(items)] if items else None

    def _club_ids(self) -> list[int]:
        return [c.pk for c in self.clubs]

    def _members(self) -> list[Club]:
        joined = set(
            Affiliation.objects.filter(federation=self.fed, left_at__isnull=True).values_list(
                "club_id", flat=True
            )
        )
        return [c for c in self.clubs if c.pk in joined]

    def _players(self, club: Club) -> list[Player]:
        return list(
            Player.objects.filter(club=club, erased=False, guest=False, active=True).order_by("pk")
        )

    def _new_player(self, club: Club) -> Player | None:
        name = files.unique_name()
        made = self.act(
            "player_create",
            lambda: clubs.player_create(club=club, name=name, user=self.directors[club.pk]),
        )
        if made is not None:
            self.names[made.pk] = {name}
        return made

    def _persons(self) -> list[Any]:
        return [p for p in self.persons if p.pk not in self.erased_accounts]

    def _fixtures(self, *statuses: str) -> list[ChampionshipFixture]:
        rows = ChampionshipFixture.objects.filter(championship__federation=self.fed)
        if statuses:
            rows = rows.filter(status__in=statuses)
        return list(rows.select_related("home__club", "away__club", "championship").order_by("pk"))

    def _open_nights(self) -> list[Night]:
        return list(Night.objects.filter(club__in=self.clubs, status="open").order_by("pk"))

    @initialize()
    def founded(self) -> None:
        """Five players in each club; each person linked to a player of a member club."""
        for club in self.clubs:
            for _ in range(5):
                self._new_player(club)
        for i, person in enumerate(self.persons):
            club = self.clubs[i % 2]
            self._link(club, self._players(club)[i // 2], person, by_person=bool(i % 2))

    # -- clubs and persons ---------------------------------------------------------------

    @rule(pick=picks)
    def add_player(self, pick: int) -> None:
        self._new_player(self._pick(self.clubs, pick))

    @precondition(lambda self: len(self._members()) < 3)
    @rule(pick=picks, accept=st.booleans())
    def invite_club(self, pick: int, accept: bool) -> None:
        """The secretary invites a club not in; its owner joins (or declines)."""
        members = {c.pk for c in self._members()}
        club = self._pick([c for c in self.clubs if c.pk not in members], pick)

        def answered() -> Any:
            invitation = membership.club_invite(
                federation=self.fed, slug=club.slug, user=self.secretary
            )
            answer = (
                membership.club_invitation_accept if accept else membership.club_invitation_decline
            )
            return answer(invitation=invitation, user=self.owners[club.pk])

        self.act("club_invite + " + ("accept" if accept else "decline"), answered)

    @precondition(lambda self: len(self._members()) > 1)
    @rule(pick=picks)
    def leave(self, pick: int) -> None:
        affiliation = self._pick(
            list(
                Affiliation.objects.filter(federation=self.fed, left_at__isnull=True).order_by("pk")
            ),
            pick,
        )
        self.act(
            "club_leave",
            lambda: membership.club_leave(
                affiliation=affiliation, user=self.owners[affiliation.club_id]
            ),
        )

    def _link(self, club: Club, player: Player | None, person: Any, *, by_person: bool) -> None:
        if player is None:
            return
        director = self.directors[club.pk]

        def linked() -> PersonLink:
            if by_person:
                asked = links.person_link_ask(slug=club.slug, user=person)
                return links.person_link_accept(link=asked, user=director, player=player)
            proposed = links.person_link_propose(
                player=player, username=person.get_username(), user=director
            )
            return links.person_link_accept(link=proposed, user=person)

        self.act("person_link (" + ("asked" if by_person else "proposed") + ", accepted)", linked)

    @precondition(lambda self: len(self._persons()) > 0)
    @rule(pick=picks, who=picks, by_person=st.booleans())
    def link(self, pick: int, who: int, by_person: bool) -> None:
        club = self._pick(self.clubs, pick)
        self._link(
            club,
            self._pick(self._players(club), pick // 3),
            self._pick(self._persons(), who),
            by_person=by_person,
        )

    @precondition(
        lambda self: PersonLink.objects.filter(club__in=self.clubs, status="accepted").exists()
    )
    @rule(pick=picks, by_person=st.booleans())
    def unlink(self, pick: int, by_person: bool) -> None:
        link = self._pick(
            list(PersonLink.objects.filter(club__in=self.clubs, status="accepted").order_by("pk")),
            pick,
        )
        user = link.user if by_person else self.directors[link.club_id]
        self.act("person_link_remove", lambda: links.person_link_remove(link=link, user=user))

    # -- championships -------------------------------------------------------------------

    # Two member clubs at least: with one (a club had just left) the start is refused,
    # which took 22 of 34 attempts in a soak and left fixtures nearly unplayed (1 in 561
    # steps); tests/federations/test_championships.py asks for that refusal itself.
    @precondition(
        lambda self: (
            len(self._members()) >= 2
            and Championship.objects.filter(federation=self.fed).exclude(status="finished").count()
            < 2
        )
    )
    @rule(pick=picks, tables=st.integers(1, 2), legs=st.integers(1, 2), knockout=st.booleans(),
          subs=st.booleans())  # fmt: skip
    def championship(self, pick: int, tables: int, legs: int, knockout: bool, subs: bool) -> None:
        """An officer creates one; each member club's director enters a team (named after
        a player: a team's name may be its players'); the officer starts it."""
        size = 2 * tables
        teams = []
        for club in self._members():
            taken = set(
                Player.objects.filter(
                    rosters__team__championship__federation=self.fed,
                    rosters__team__championship__status__in=["open", "started"],
                ).values_list("pk", flat=True)
            )
            free = [p for p in self._players(club) if p.pk not in taken]
            while len(free) < size + 1:
                made = self._new_player(club)
                if made is None:
                    return
                free.append(made)
            teams.append((club, free[: size + (1 if subs else 0)]))

        def started() -> Championship:
            made = champs.championship_create(
                federation=self.fed, name=f"Campionato {pick}", season=f"{2026 + pick % 50}",
                game=build.GAME, rules_spec=build.RULES, user=self.officer, tables=tables,
                substitutes=1, legs=legs, groups=1, advance=2,
                format="groups_knockout" if knockout else "round_robin",
                first_day=datetime.date.today(),
            )  # fmt: skip
            for club, roster in teams:
                champs.team_enter(
                    championship=made, club=club, name=f"Squadra di {roster[0].name}",
                    player_ids=[p.pk for p in roster[:size]],
                    substitute_ids=[p.pk for p in roster[size:]],
                    user=self.directors[club.pk],
                )  # fmt: skip
            return champs.championship_start(championship=made, user=self.officer)

        self.act("championship (create, teams, start)", started)

    @precondition(lambda self: Night.objects.filter(club__in=self.clubs, status="open").count() < 4)
    @rule(pick=picks)
    def open_tonight(self, pick: int) -> None:
        club = self._pick(self.clubs, pick)
        self.act(
            "night_open (tonight)",
            lambda: record.night_open(
                club_id=club.pk, date=today_in(club.zone_name), venue="",
                user=self.directors[club.pk],
            ),
        )  # fmt: skip

    @precondition(lambda self: bool(self._fixtures(Status.PLANNED)))
    @rule(pick=picks, substitute=st.booleans(), seed=picks, deals=st.integers(0, 12))
    def play_fixture(self, pick: int, substitute: bool, seed: int, deals: int) -> None:
        """The home club's director plays it at tonight's night (a substitute in for the
        last regular of the away team, when it has one); then up to ``deals`` deals at its
        tables."""
        fixture = self._pick(self._fixtures(Status.PLANNED), pick)
        lineups: dict[str, Sequence[int]] = {}
        needed = 2 * fixture.championship.tables
        for side, team in (("home", fixture.home), ("away", fixture.away)):
            roster = list(team.roster.select_related("player").order_by("order"))
            playing = [r.player_id for r in roster if not r.player.erased]  # as a director
            if len(playing) >= needed and (substitute or len(playing) < len(roster)):
                lineups[side] = playing[len(playing) - needed :] if substitute else playing[:needed]
        director = self.directors[fixture.home.club_id]

        def played() -> ChampionshipFixture:
            self._tonight(fixture.home.club)
            return champs.fixture_play(fixture=fixture, user=director, lineups=lineups or None)

        if self.act("fixture_play (tonight's night opened if none)", played) is None:
            return
        for table in FixtureTable.objects.filter(fixture=fixture).order_by("number"):
            self._play(table.match, seed, deals)

    def _tonight(self, club: Club) -> Night:
        """The club's night open today, opened by its director when there is none (inside
        the step's service sequence)."""
        today = today_in(club.zone_name)
        found = Night.objects.filter(club=club, status="open", date=today).order_by("-pk").first()
        return found or record.night_open(
            club_id=club.pk, date=today, venue="", user=self.directors[club.pk]
        )

    def _open_matches(self) -> list[Match]:
        return list(
            Match.objects.filter(
                night__club__in=self.clubs, status="open", night__status="open"
            ).order_by("pk")
        )

    @precondition(
        lambda self: Match.objects.filter(night__club__in=self.clubs, status="open").exists()
    )
    @rule(pick=picks, seed=picks, deals=st.integers(1, 12))
    def enter_deals(self, pick: int, seed: int, deals: int) -> None:
        """Up to ``deals`` deals of a fixture's or a tournament's open match, each with the
        number the phone expects, entered by the home (host) club's director."""
        match = self._pick(self._open_matches(), pick)
        if match is not None:
            self._play(match, seed, deals)

    def _play(self, match: Match, seed: int, deals: int) -> None:
        director = self.directors[match.night.club_id]
        for n in range(deals):
            match = Match.objects.get(pk=match.pk)
            if match.status != Match.Status.OPEN:
                return
            data = files.next_deal(match, seed + n)
            if data is None:
                FederationOverASeason.totals["no deal from the engine's generator"] += 1
                return
            number = len(current_deals(match)) + 1
            deal = self.act(
                "deal_create",
                lambda match=match, data=data, number=number: record.deal_create(
                    match=match, data=data, expected_number=number, user=director
                ),
            )
            if deal is None:
                return
            self.acknowledged.add(deal.pk)

    def _fixture_deals(self) -> list[Deal]:
        return list(
            Deal.objects.filter(
                match__in=FixtureTable.objects.filter(
                    fixture__championship__federation=self.fed
                ).values("match_id"),
                is_current=True,
            ).order_by("pk")
        )

    @precondition(
        lambda self: (
            FixtureTable.objects.filter(fixture__championship__federation=self.fed)
            .filter(match__deals__isnull=False)
            .exists()
        )
    )
    @rule(pick=picks, seed=picks, away=st.booleans())
    def correct_fixture_deal(self, pick: int, seed: int, away: bool) -> None:
        """A director of the home club, or of the away club (the record's visitors'
        registry), corrects a deal of a fixture's match."""
        deal = self._pick(self._fixture_deals(), pick)
        if deal is None:
            return
        fixture = (
            FixtureTable.objects.select_related("fixture__away", "fixture__home")
            .get(match_id=deal.match_id)
            .fixture
        )
        user = self.directors[(fixture.away if away else fixture.home).club_id]
        earlier = [d.input for d in current_deals(deal.match) if d.number < deal.number]
        data = files.deal_in_place(deal.match, earlier, seed)
        if data is None:
            return
        new = self.act(
            "deal_correct (" + ("away" if away else "home") + " director)",
            lambda: record.deal_correct(
                deal=deal, data=data, reason="the sheet says so", user=user,
                expected_version=deal.version,
            ),
        )  # fmt: skip
        if new is not None:
            self.acknowledged.add(new.pk)

    @precondition(lambda self: bool(self._fixtures(Status.PLAYING)))
    @rule(pick=picks, captain=st.booleans())
    def confirm(self, pick: int, captain: bool) -> None:
        fixture = self._pick(self._fixtures(Status.PLAYING), pick)
        user = fixture.away.captain if captain else self.directors[fixture.away.club_id]
        self.act(
            "fixture_confirm (" + ("captain" if captain else "away director") + ")",
            lambda: champs.fixture_confirm(fixture=fixture, user=user),
        )

    @precondition(lambda self: bool(self._fixtures(Status.PLANNED)))
    @rule(pick=picks, days=st.integers(-3, 30), officer=st.booleans())
    def postpone(self, pick: int, days: int, officer: bool) -> None:
        fixture = self._pick(self._fixtures(Status.PLANNED), pick)
        someone = self._pick(list(fixture.home.roster.order_by("order")), pick).player
        user = self.officer if officer else self.directors[fixture.home.club_id]
        self.act(
            "fixture_plan",
            lambda: champs.fixture_plan(
                fixture=fixture, day=datetime.date.today() + datetime.timedelta(days=days),
                user=user, reason=f"{someone.name} is away",
            ),
        )  # fmt: skip

    @precondition(lambda self: bool(self._fixtures(Status.PLANNED, Status.PLAYING)))
    @rule(pick=picks, home=st.booleans())
    def forfeit(self, pick: int, home: bool) -> None:
        fixture = self._pick(self._fixtures(Status.PLANNED, Status.PLAYING), pick)
        team = fixture.home if home else fixture.away
        someone = self._pick(list(team.roster.order_by("order")), pick).player
        self.act(
            "fixture_forfeit",
            lambda: champs.fixture_forfeit(
                fixture=fixture, team=team, reason=f"{someone.name} did not come",
                user=self.officer,
            ),
        )  # fmt: skip

    @precondition(lambda self: bool(self._fixtures(Status.FORFEITED)))
    @rule(pick=picks)
    def undo_forfeit(self, pick: int) -> None:
        fixture = self._pick(self._fixtures(Status.FORFEITED), pick)
        self.act(
            "fixture_forfeit_undo",
            lambda: withdrawals.fixture_forfeit_undo(
                fixture=fixture, user=self.officer, reason="recorded by mistake"
            ),
        )

    @precondition(lambda self: bool(self._fixtures(Status.PLANNED, Status.PLAYING)))
    @rule(pick=picks, home=st.booleans())
    def withdraw_team(self, pick: int, home: bool) -> None:
        fixture = self._pick(self._fixtures(Status.PLANNED, Status.PLAYING), pick)
        team = fixture.home if home else fixture.away
        self.act(
            "team_withdraw",
            lambda: withdrawals.team_withdraw(team=team, user=self.officer, reason="no players"),
        )

    @precondition(
        lambda self: Championship.objects.filter(
            federation=self.fed, format="groups_knockout", status="started"
        ).exists()
    )
    @rule(pick=picks)
    def knockout(self, pick: int) -> None:
        championship = self._pick(
            list(
                Championship.objects.filter(
                    federation=self.fed, format="groups_knockout", status="started"
                ).order_by("pk")
            ),
            pick,
        )
        self.act(
            "knockout_start",
            lambda: champs.knockout_start(championship=championship, user=self.officer),
        )

    @precondition(lambda self: Night.objects.filter(club__in=self.clubs, status="open").exists())
    @rule(pick=picks)
    def close_night(self, pick: int) -> None:
        """The club's director closes a night, ending what is still open with it (its
        running tournament finished or called off first)."""
        night = self._pick(self._open_nights(), pick)
        director = self.directors[night.club_id]
        for tournament in Tournament.objects.filter(
            night=night, status__in=["registration", "running"]
        ):
            self._finish_or_cancel(tournament)
        still = list(night.matches.filter(status="open").values_list("pk", flat=True))
        self.act(
            "night_close",
            lambda: record.night_close(
                night=night, user=director, end_open=still, reason="closing time"
            ),
        )

    # -- federal tournaments ---------------------------------------------------------------

    @precondition(
        lambda self: (
            FederalTournament.objects.filter(federation=self.fed, status="announced").count() < 2
        )
    )
    @rule(pick=picks, cap=st.integers(2, 4), fee=st.booleans(), pairs=st.integers(0, 4))
    def announce(self, pick: int, cap: int, fee: bool, pairs: int) -> None:
        """An officer announces one for today at a club (one that is no member is refused);
        ``pairs`` pairs of persons register at once."""
        host = self._pick(self.clubs, pick)  # a club that is no member is refused
        money = {"fee": Decimal("5.00"), "federation_share": Decimal("1.50"),
                 "currency": STAKE_CURRENCIES[0]} if fee else {}  # fmt: skip
        made = self.act(
            "federal_tournament_announce",
            lambda: federal.federal_tournament_announce(
                federation=self.fed, user=self.officer, name=f"Torneo {pick}",
                date=datetime.date.today(), host=host.slug, level="provincial",
                game=build.GAME, rules=build.RULES, format="swiss", rounds=1, cap=cap,
                **money,
            ),
        )  # fmt: skip
        if made is not None and pairs:
            self.register(pick=-1, first=pick, pairs=pairs, anyone=False)

    def _announced(self) -> list[FederalTournament]:
        return list(
            FederalTournament.objects.filter(federation=self.fed, status="announced").order_by("pk")
        )

    @precondition(
        lambda self: FederalTournament.objects.filter(
            federation=self.fed, status="announced"
        ).exists()
    )
    @rule(pick=picks, first=picks, pairs=st.integers(1, 3), anyone=st.booleans())
    def register(self, pick: int, first: int, pairs: int, anyone: bool) -> None:
        """``pairs`` pairs register one after the other: persons of the member clubs (or,
        ``anyone``, any of the test's accounts left: refused unless they are persons)."""
        tournament = self._pick(self._announced(), pick)
        persons = (
            self._persons() if anyone else list(federations.persons_of(self.fed).order_by("pk"))
        )
        for i in range(pairs):
            a = self._pick(persons, first + 2 * i)
            b = self._pick(persons, first + 2 * i + 1)
            if a is None or b is None:
                return
            self.act(
                "registration_add",
                lambda a=a, b=b: federal.registration_add(
                    federal_tournament=tournament, partner=b.get_username(), user=a
                ),
            )

    @precondition(
        lambda self: FederalRegistration.objects.filter(
            federal_tournament__federation=self.fed, status__in=["registered", "waiting"]
        ).exists()
    )
    @rule(pick=picks, officer=st.booleans())
    def withdraw(self, pick: int, officer: bool) -> None:
        registration = self._pick(
            list(
                FederalRegistration.objects.filter(
                    federal_tournament__federation=self.fed,
                    status__in=["registered", "waiting"],
                )
                .select_related("first")
                .order_by("pk")
            ),
            pick,
        )
        user = self.officer if officer else registration.first
        self.act(
            "registration_withdraw",
            lambda: federal.registration_withdraw(registration=registration, user=user),
        )

    @precondition(
        lambda self: FederalTournament.objects.filter(
            federation=self.fed, status="announced"
        ).exists()
    )
    @rule(pick=picks)
    def open_federal(self, pick: int) -> None:
        """The host's director opens it on its night of the day (refused without one)."""
        tournament = self._pick(self._announced(), pick)
        director = self.directors[tournament.host_id]

        def opened() -> Tournament:
            night = ranking.host_nights(tournament).first() or self._tonight(tournament.host)
            return federal.federal_tournament_open(
                federal_tournament=tournament, night=night, user=director
            )

        self.act("federal_tournament_open (tonight's night opened if none)", opened)

    @precondition(
        lambda self: Tournament.objects.filter(
            federal__federation_id=self.fed.pk, status__in=["registration", "running"]
        ).exists()
    )
    @rule(pick=picks, seed=picks, finish=st.booleans())
    def run_federal(self, pick: int, seed: int, finish: bool) -> None:
        """The host's tournament: its next round started and (``finish``) its matches
        played out and the tournament finished."""
        tournament = self._pick(
            list(
                Tournament.objects.filter(
                    federal__federation_id=self.fed.pk, status__in=["registration", "running"]
                ).order_by("pk")
            ),
            pick,
        )
        director = self.directors[tournament.club_id]
        if not Match.objects.filter(
            tournament_game__pairing__round__tournament=tournament, status="open"
        ).exists():
            self.act(
                "round_start",
                lambda: rounds.round_start(tournament=tournament, user=director),
            )
        if not finish:
            return
        for pairing in Pairing.objects.filter(round__tournament=tournament).order_by("pk"):
            for game in pairing.games.select_related("match").order_by("pk"):
                self._play(game.match, seed, 40)
        self._finish_or_cancel(Tournament.objects.get(pk=tournament.pk))

    def _finish_or_cancel(self, tournament: Tournament) -> None:
        director = self.directors[tournament.club_id]
        done = self.act(
            "tournament_finish",
            lambda: results.tournament_finish(tournament=tournament, user=director),
        )
        if done is None:
            self.cancel_host_tournament(tournament)

    def cancel_host_tournament(self, tournament: Tournament) -> None:
        self.act(
            "tournament_cancel (host)",
            lambda: results.tournament_cancel(
                tournament=tournament, reason="rain", user=self.directors[tournament.club_id]
            ),
        )

    @precondition(
        lambda self: FederalTournament.objects.filter(
            federation=self.fed, status__in=["announced", "opened"]
        ).exists()
    )
    @rule(pick=picks)
    def call_off(self, pick: int) -> None:
        """An officer calls off one announced; the host's director one opened (its own
        tournament cancelled: the fees and the federation's share go back)."""
        tournament = self._pick(
            list(
                FederalTournament.objects.filter(
                    federation=self.fed, status__in=["announced", "opened"]
                ).order_by("pk")
            ),
            pick,
        )
        if tournament.tournament_id is not None:
            self.cancel_host_tournament(tournament.tournament)
            return
        self.act(
            "federal_tournament_cancel",
            lambda: federal.federal_tournament_cancel(
                federal_tournament=tournament, reason="no hall", user=self.officer
            ),
        )

    # -- erasure and export ------------------------------------------------------------------

    @rule(pick=picks)
    def erase_player(self, pick: int) -> None:
        club = self._pick(self.clubs, pick)
        player = self._pick(
            list(Player.objects.filter(club=club, erased=False).order_by("pk")), pick // 3
        )
        if player is None:
            return
        names = names_of(player) | self.names.get(player.pk, set())
        if Visitor.objects.filter(guest=player).exists():
            # a host club's guest: its name is the visiting player's, who is not erased and
            # may stand as a guest of another host under the same name
            names = set()
        done = self.act(
            "player_erase",
            lambda: archive.player_erase(
                player=player, user=self.directors[club.pk], confirm=player.name
            ),
        )
        if done is not None:
            self.erased_names |= names
            self.erased_players.add(player.pk)

    @precondition(lambda self: len(self._persons()) > 2)
    @rule(pick=picks)
    def erase_account(self, pick: int) -> None:
        person = self._pick(self._persons(), pick)
        players = list(
            Player.objects.filter(person_links__user=person, person_links__status="accepted")
        )
        names = set().union(*(names_of(p) | self.names.get(p.pk, set()) for p in players))
        done = self.act(
            "account_erase",
            lambda: archive.account_erase(user=person, confirm=person.get_username()),
        )
        if done is not None:
            self.erased_names |= names
            self.erased_players |= {p.pk for p in players}
            self.erased_accounts.add(person.pk)

    @rule(pick=picks)
    def export(self, pick: int) -> None:
        """A club's director takes the club's export: it holds the club's records only."""
        club = self._pick(self.clubs, pick)
        out = self.act(
            "club_export_file",
            lambda: archive.club_export_file(club=club, user=self.directors[club.pk]),
        )
        if out is not None:
            federal_checks.export_is_the_clubs(club, out, self._club_ids())

    # -- the invariants --------------------------------------------------------------------------

    @invariant()
    def ledgers_sum_to_zero(self) -> None:
        FederationOverASeason.totals["steps (and the start)"] += 1
        for club in self.clubs:
            checks.ledger_balances(club.pk)
            checks.nights_closed_whole(club.pk)

    @invariant()
    def standings_equal_a_rebuild(self) -> None:
        for club in self.clubs:
            checks.standings_equal_a_rebuild(club.pk)

    @invariant()
    def nothing_acknowledged_is_lost(self) -> None:
        checks.nothing_lost(self.acknowledged)

    @invariant()
    def championship_tables_equal_a_fresh_read(self) -> None:
        for championship in Championship.objects.filter(federation=self.fed).order_by("pk"):
            federal_checks.public_table_is_fresh(championship)

    @invariant()
    def rating_and_ranking_equal_a_replay(self) -> None:
        federal_checks.rating_equals_a_replay(self.fed)
        federal_checks.ranking_adds_up(self.fed, self.erased_accounts)

    @invariant()
    def each_club_reads_its_own(self) -> None:
        for club in self.clubs:
            federal_checks.club_reads_are_its_own(club)

    @invariant()
    def erasure_leaves_nothing(self) -> None:
        federal_checks.erased_are_gone(
            self.fed, self._club_ids(), self.erased_players, self.erased_accounts, self.erased_names
        )
