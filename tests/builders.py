"""Builders for tests: what a test needs made, with the defaults most tests want.

The personas (tests/personas.py, the ``people`` fixture) are *who*; these are *what*.
Nights, tables, matches, deals, leagues and tournaments are made through the services, as
a club makes them, so every invariant the services keep holds (and the audit log has its
rows); clubs, accounts and players are plain rows, as the personas are. Every builder
takes keyword arguments for what a test wants different and passes them on::

    from tests import builders as build

    night = build.night(people)                       # Fri 20 Nov 2026, opened by the director
    table = build.table(people, night, 2)             # table 2 of the night
    match = build.match(people, night)                # Tressette in 4 to 21, Nino N, Ettore E..
    match = build.match(people, night, game="terziglio")  # any game: seats from the engine
    build.deals(people, match, build.A_WINS, build.B_WINS)   # deals 1 and 2, by the scorer
    build.finish(people, match)                       # deals until the match is over
    build.random_deals(people, match, 3, seed=7)      # legal deals from the engine's generator
    build.close(people, night)                        # closed, its open matches ended with it
    league = build.league(people, pairs=2)            # a started round robin of two pairs
    cup = build.tournament(people, night, pairs=4)    # four pairs at the door, not started
    club, owner = build.club("Circolo Altrove", "altrove")
    scorer = build.member(club, "scorer", "gino", player="Gino")

Fixtures in tests/conftest.py wrap the common ones: ``night`` (``build.night(people)``).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from itertools import count as counter
from typing import Any

from django.contrib.auth import get_user_model

from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches import services as matches
from scorebook.matches.models import Deal, Match, Night, Table
from scorebook.rules import get_game, resume_match

# Tressette in 4: deals that side A (North-South) or side B (East-West) wins, and one
# B wins by less. 21 up: A_WINS three times and the last trick ends a match.
A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
    "last_trick": "A",
}
B_WINS = {
    "sides": {"A": {"thirds": 12, "tricks": 5}, "B": {"thirds": 20, "tricks": 5}},
    "last_trick": "B",
}
B_WINS_SMALL = {
    "sides": {"A": {"thirds": 14, "tricks": 4}, "B": {"thirds": 18, "tricks": 6}},
    "last_trick": "B",
}
GAME = "tressette4"
RULES = {"profile": "classic_21"}
DAY = datetime.date(2026, 11, 20)  # a Friday: the night most tests play
COMPASS = ("N", "E", "S", "W")  # the personas' seats: Nino, Ettore, Salvo, Walter
EXTRA = ("Quinto", "Sesto", "Settimo", "Ottavo")  # who sits beyond the four, when a game wants

_names = counter(1)


# -- who: clubs, accounts, players ---------------------------------------------------------


def club(name: str, slug: str, *, owner: str | None = None, **fields: Any) -> tuple[Club, Any]:
    """A club and its owner (an account named ``owner``, default ``<slug>-owner``)."""
    made = Club.objects.create(name=name, slug=slug, **fields)
    return made, member(made, "owner", owner or f"{slug}-owner")


def member(club: Club, role: str, username: str | None = None, *, player: str | None = None):
    """An account with ``role`` in ``club`` (password ``pw-<username>``); with ``player``,
    also the club's player of that name, linked to the account."""
    username = username or f"{role}-{next(_names)}"
    user = get_user_model().objects.create_user(username, password=f"pw-{username}")
    Membership.objects.create(club=club, user=user, role=role)
    if player is not None:
        Player.objects.create(club=club, name=player, user=user)
    return user


def players(club: Club, count: int, prefix: str = "P") -> list[Player]:
    """``count`` new players of ``club`` without accounts: P000, P001, ..."""
    return [Player.objects.create(club=club, name=f"{prefix}{i:03d}") for i in range(count)]


def named(club: Club, *names: str) -> list[Player]:
    """The club's players of these names, made if missing."""
    return [Player.objects.get_or_create(club=club, name=name)[0] for name in names]


# -- what: nights, tables, matches, deals --------------------------------------------------


def night(
    people, *, day: int = 20, date: Any = None, venue: str = "", user=None, club_id=None
) -> Night:
    """A night opened by the director: 20 November 2026 (``day`` another day of that
    November, or any ``date``)."""
    return matches.night_open(
        club_id=club_id or people.club.pk,
        date=date or datetime.date(2026, 11, day),
        venue=venue,
        user=user or people.director,
    )


def table(people, night: Night, number: int = 1, name: str = "", *, user=None) -> Table:
    return matches.table_create(night=night, number=number, name=name, user=user or people.director)


def seats_for(people, game: str = GAME, rules: Any = RULES, players: int | None = None):
    """Seat name -> player id for a new match of ``game``: the engine's seats, the personas
    in them (Nino, Ettore, Salvo, Walter: North, East, South, West where the game has
    those seats, else in the engine's order), new players after the fourth."""
    engine = get_game(game)
    resolved = engine.rules(rules)
    names = engine.seats(resolved, players or engine.default_players(resolved))
    people_ = list(people.seated)
    if len(names) > len(people_):
        people_ += named(people.club, *EXTRA[: len(names) - len(people_)])
    if set(names) <= set(COMPASS):
        return {seat: people_[COMPASS.index(seat)].pk for seat in names}
    return {seat: player.pk for seat, player in zip(names, people_, strict=False)}


def match(
    people,
    night: Night,
    *,
    game: str = GAME,
    rules: Any = RULES,
    seats: Mapping[str, int] | None = None,
    players: int | None = None,
    user=None,
    **options: Any,
) -> Match:
    """A match of ``game`` on ``night`` (default: Tressette in 4 to 21), made by the scorer,
    the personas seated (``seats_for``) unless ``seats`` says otherwise. ``options`` go to
    ``match_create`` as they are: table, first_dealer, stake_amount, stake_currency."""
    return matches.match_create(
        night=night,
        game=game,
        rules=rules,
        seats=dict(seats) if seats is not None else seats_for(people, game, rules, players),
        user=user or people.scorer,
        **options,
    )


def deals(
    people, match: Match, *data: Mapping[str, Any], user=None, entered_side: str = ""
) -> list[Deal]:
    """Enter each deal in order (each the match's next), by the scorer unless ``user``;
    ``entered_side``: who is entering them, on a phone whose account sits nowhere there."""
    who = user or people.scorer
    return [
        matches.deal_create(
            match=match, data=deal, expected_number=None, user=who, entered_side=entered_side
        )
        for deal in data
    ]


def finish(people, match: Match, data: Mapping[str, Any] = A_WINS, *, user=None) -> Match:
    """Enter ``data`` deal after deal until the match is finished (at most 40)."""
    for _ in range(40):
        current = Match.objects.get(pk=match.pk)
        if current.status == Match.Status.FINISHED:
            return current
        deals(people, match, data, user=user)
    raise AssertionError(f"match {match.pk} not finished after 40 deals of {data}")


def close(people, night: Night, *, reason: str = "", user=None) -> Night:
    """Close the night as the close page does, by the director unless ``user``: every match
    still open is ended with it (finished with its scores where it has no end of its own,
    else abandoned with ``reason``)."""
    still = Match.objects.filter(night=night, status=Match.Status.OPEN).values_list("pk", flat=True)
    return matches.night_close(
        night=night, user=user or people.director, end_open=list(still), reason=reason
    )


def random_deals(
    people, match: Match, count: int, *, seed: int = 0, level: str | None = None, user=None
) -> list[Deal]:
    """``count`` legal deals from the engine's own generator (``Game.random_deal``) for the
    match as it stands, each entered before the next is drawn (stops early if it ends)."""
    rng = random.Random(seed)
    made: list[Deal] = []
    for _ in range(count):
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.OPEN:
            break
        engine, rules, state = resume_match(current.game, current.rules["values"], current.state)
        data = engine.random_deal(rng, rules, state, level or engine.levels[0])
        made += deals(people, current, data, user=user)
    return made


# -- leagues and tournaments -----------------------------------------------------------------


def league(
    people,
    *,
    pairs: int | Sequence[Sequence[Player]] = 2,
    name: str = "Coppa d'inverno",
    start: bool = True,
    **settings: Any,
):
    """A pairs league of the club (``settings`` to ``league_create``): ``pairs`` new pairs,
    or these pairs of players; started (fixtures made) unless ``start=False``. Two pairs
    by default: Nino & Salvo against Ettore & Walter."""
    from scorebook.standings.leagues import services as leagues

    director = people.director
    made = leagues.league_create(club=people.club, name=name, user=director, **settings)
    if isinstance(pairs, int):
        n, e, s, w = people.seated
        pairs = [(n, s), (e, w)] if pairs == 2 else _in_pairs(players(people.club, 2 * pairs))
    for pair in pairs:
        leagues.entry_add(
            league=made,
            name=" & ".join(p.name for p in pair),
            player_ids=[p.pk for p in pair],
            user=director,
        )
    return leagues.league_start(league=made, user=director) if start else made


def tournament(people, night: Night, *, pairs: int = 0, **settings: Any):
    """A tournament on ``night`` (``settings`` to ``tournament_create``; default Tressette
    in 4 to 21, seed 1234, named Torneo di San Rocco) with ``pairs`` pairs of new players
    entered at the door. Not started."""
    from scorebook.tournaments.services.registration import entry_add
    from scorebook.tournaments.services.setup import tournament_create

    settings.setdefault("name", "Torneo di San Rocco")
    settings.setdefault("game", GAME)
    settings.setdefault("rules", RULES)
    settings.setdefault("seed", 1234)
    made = tournament_create(night=night, user=people.director, **settings)
    for first, second in _in_pairs(players(people.club, 2 * pairs)):
        entry_add(tournament=made, players=[first.pk, second.pk], user=people.director)
    return made


def _in_pairs(items: Iterable[Player]) -> list[tuple[Player, Player]]:
    flat = list(items)
    return list(zip(flat[::2], flat[1::2], strict=True))


def stake(amount: str, currency: str = "EUR") -> dict[str, Any]:
    """``match(..., **build.stake("0.50"))``: a stake per point in ``currency``."""
    return {"stake_amount": Decimal(amount), "stake_currency": currency}


# -- federations -------------------------------------------------------------------------------


def federation(
    *clubs: Club, name: str = "Comitato di Palermo", slug: str = "comitato-pa", **settings: Any
):
    """A federation founded by its president (an account ``<slug>-president``), with a
    secretary and an officer (``<slug>-secretary``, ``<slug>-officer``), and ``clubs`` as
    members: each invited by the president and accepted by the club's first owner."""
    from scorebook.federations.services import federation as federations

    users = get_user_model().objects
    president = users.create_user(f"{slug}-president", password="pw-president")
    made = federations.federation_create(name=name, slug=slug, user=president, **settings)
    for role in ("secretary", "officer"):
        users.create_user(f"{slug}-{role}", password=f"pw-{role}")
        federations.officer_add(
            federation=made, username=f"{slug}-{role}", role=role, user=president
        )
    for each in clubs:
        joined(made, each)
    return made


def joined(federation: Any, club: Club):
    """``club`` joins ``federation``: invited by its president, accepted by the club's
    first owner. Returns the affiliation."""
    from scorebook.federations.models import Officer
    from scorebook.federations.services import membership

    president = Officer.objects.filter(federation=federation, role="president").first().user
    owner = Membership.objects.filter(club=club, role="owner").order_by("pk").first().user
    invitation = membership.club_invite(federation=federation, slug=club.slug, user=president)
    return membership.club_invitation_accept(invitation=invitation, user=owner)


def linked(player: Player, account: Any):
    """``account`` linked to ``player``: proposed by a director (or the owner) of the
    player's club, accepted by the person. Returns the link."""
    from scorebook.federations.services import links

    director = (
        Membership.objects.filter(club_id=player.club_id, role__in=["director", "owner"])
        .order_by("pk")
        .first()
        .user
    )
    link = links.person_link_propose(player=player, username=account.get_username(), user=director)
    if link.status == "accepted":
        return link
    return links.person_link_accept(link=link, user=account)
