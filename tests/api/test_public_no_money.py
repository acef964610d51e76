"""Money is never public: every public endpoint (JSON and CSV) and every public page of a
club that plays for stakes shows no money, stake units, stake or currency.

The public leaderboard reused the members' serializer and gave each player's ``money``
(``{"EUR": "0.50"}``) and ``units``, in JSON and CSV; the public standings page had a
"Units" column. The walk covers every public route (a new one fails the coverage check
until it is walked here).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

from scorebook.clubs.models import Club
from scorebook.federations.services import federation as federations
from scorebook.federations.services import membership
from scorebook.matches import services as matches
from scorebook.standings import refresh
from scorebook.standings import services as standings
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import LeaderboardRow
from tests.api.common import SIDES, SMALL

#: Words of money in keys, CSV headings and pages (lower case).
MONEY_KEYS = ("money", "unit", "stake", "currency", "multiplier", "amount", "posta", "valuta")
#: What a stake of 0.50 EUR looks like written out.
#: A random token (CSRF, nonce) in a page.
TOKEN = re.compile(r"[a-z0-9_-]{24,}")
MONEY_TEXT = ("eur", "0.50", "0,50", "€", "units", "unità", "stake", "posta", "currency")


@pytest.fixture
def staked(people, club):
    """A public club whose matches are played for 0.50 EUR: one finished, one open, a
    season built, a started league."""
    Club.objects.filter(pk=club.pk).update(public=True)
    director = people.director
    night = matches.night_open(
        club_id=club.pk, date=datetime.date(2026, 11, 20), venue="Bar", user=director
    )
    table = matches.table_create(night=night, number=1, name="Tavolo 1", user=director)
    n, e, s, w = people.seated
    seats = {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk}
    made = []
    for deals in ([SIDES, SMALL, SIDES, SIDES], [SIDES]):
        match = matches.match_create(
            night=night,
            game="tressette4",
            rules={"profile": "classic_21"},
            seats=seats,
            table=table,
            user=director,
            stake_amount="0.50",
            stake_currency="EUR",
        )
        for number, data in enumerate(deals, start=1):
            matches.deal_create(match=match, data=data, expected_number=number, user=director)
        made.append(match)
    season = standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=director,
    )
    league = leagues.league_create(club=club, name="Coppa", user=director, game="tressette4")
    leagues.entry_add(league=league, name="Nord-Sud", player_ids=[n.pk, s.pk], user=director)
    leagues.entry_add(league=league, name="Est-Ovest", player_ids=[e.pk, w.pk], user=director)
    leagues.league_start(league=league, user=director)
    # A federation that publishes, the club a member: its public page names its clubs.
    federation = federations.federation_create(
        name="Comitato", slug="comitato", user=director, publishes=True
    )
    invitation = membership.club_invite(federation=federation, slug=club.slug, user=director)
    membership.club_invitation_accept(invitation=invitation, user=people.owner)
    # its championship: two teams of the club, a fixture played for the stakes' club
    from scorebook.federations.services import championships as champs

    cup = champs.championship_create(
        federation=federation,
        name="Campionato",
        season="2026",
        game="tressette4",
        tables=1,
        user=director,
    )
    for name, pair in (("Nord", (n, s)), ("Est", (e, w))):
        champs.team_enter(
            championship=cup, club=club, name=name, player_ids=[p.pk for p in pair], user=director
        )
    champs.championship_start(championship=cup, user=director)
    _federal_for_money(people, federation, director, (n, e, s, w))
    refresh.rebuild(club_id=club.pk)
    # The stakes are there to leak: the members' leaderboard has them.
    row = LeaderboardRow.objects.get(season=season, game="", player=n)
    assert row.money == {"EUR": "0.50"}
    return {
        "slug": club.slug,
        "finished": made[0].pk,
        "open": made[1].pk,
        "season": season.pk,
        "league": league.pk,
        "player": n.pk,
        "federation": federation.slug,
        "championship": cup.pk,
    }


def _federal_for_money(people, federation, director, seated):
    """A federal tournament played for money at the club (a fee, the federation's share,
    two pairs of linked persons): its points are on the public ranking, its money not."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from scorebook.federations.services import federal_tournaments as federal
    from tests import builders
    from tests.federations.federal import play_through

    accounts = [p.user or get_user_model().objects.create_user(f"persona-{p.pk}") for p in seated]
    for player, account in zip(seated, accounts, strict=True):
        builders.linked(player, account)
    made = federal.federal_tournament_announce(
        federation=federation,
        user=director,
        name="Federale",
        date=timezone.localdate(),
        host=people.club.slug,
        level="provincial",
        game=builders.GAME,
        rules=builders.RULES,
        rounds=1,
        fee="5",
        federation_share="1.50",
        currency="EUR",
        cap=8,
    )
    for first, second in ((0, 1), (2, 3)):
        federal.registration_add(
            federal_tournament=made, partner=accounts[second].username, user=accounts[first]
        )
    night = builders.night(people, date=timezone.localdate())
    tournament = federal.federal_tournament_open(
        federal_tournament=made, night=night, user=director
    )
    play_through(people, tournament)


def api_urls(w: dict[str, Any]) -> dict[str, list[str]]:
    base = f"/api/v1/public/clubs/{w['slug']}"
    board = f"{base}/leaderboard?season={w['season']}"
    return {
        "public-clubs": ["/api/v1/public/clubs"],
        "public-nights": [f"{base}/nights"],
        "public-match": [f"{base}/matches/{w['finished']}", f"{base}/matches/{w['open']}"],
        "public-seasons": [f"{base}/seasons", f"{base}/seasons?format=csv"],
        "public-leaderboard": [
            board,
            f"{board}&format=csv",
            f"{board}&game=tressette4",
            f"{board}&game=tressette4&format=csv",
        ],  # fmt: skip
        "public-ratings": [
            f"{base}/ratings?game=tressette4",
            f"{base}/ratings?game=tressette4&format=csv",
        ],  # fmt: skip
        "public-seasons-csv": [f"{base}/seasons.csv"],
        "public-leaderboard-csv": [
            f"{base}/leaderboard.csv?season={w['season']}",
            f"{base}/leaderboard.csv?season={w['season']}&game=tressette4",
        ],  # fmt: skip
        "public-ratings-csv": [f"{base}/ratings.csv?game=tressette4"],
        "public-leagues": [f"{base}/leagues"],
        "public-league-standings": [f"{base}/leagues/{w['league']}/standings"],
        "public-league-standings-csv": [f"{base}/leagues/{w['league']}/standings/csv"],
        "public-player-stats": [f"{base}/players/{w['player']}/statistics"],
        "public-federation": [f"/api/v1/public/federations/{w['federation']}"],
        "public-championship": [f"/api/v1/public/championships/{w['championship']}"],
        "public-federation-ranking": [f"/api/v1/public/federations/{w['federation']}/ranking"],
        "public-federation-ratings": [f"/api/v1/public/federations/{w['federation']}/ratings"],
    }


def page_urls(w: dict[str, Any]) -> dict[str, list[str]]:
    base = f"/public/{w['slug']}"
    board = f"{base}/standings/?season={w['season']}"
    return {
        "public_club": [f"{base}/"],
        "public_match": [f"{base}/m/{w['finished']}", f"{base}/m/{w['open']}"],
        "tv": [f"{base}/tv"],
        "public_standings": [
            board,
            f"{board}&game=tressette4",
            # sorting by money or units would rank by them: the page ignores it
            f"{board}&sort=-units",
            f"{board}&sort=units",
            f"{board}&sort=-money:EUR",
        ],  # fmt: skip
        "public_ratings": [f"{base}/standings/ratings"],
        "calendar_public": [f"{base}/nights.ics"],
        "calendar_public_federation": [f"/public/f/{w['federation']}/calendar.ics"],
        "public_federation": [f"/public/f/{w['federation']}/"],
        "public_championship": [f"/public/f/{w['federation']}/championships/{w['championship']}/"],
        "public_federation_ranking": [f"/public/f/{w['federation']}/ranking/"],
    }


def _routes(resolver: URLResolver, prefix: str = "") -> list[tuple[str, str]]:
    found = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = f"{entry.namespace}:" if entry.namespace else ""
            found += [(ns + n, r) for n, r in _routes(entry, prefix + str(entry.pattern))]
        elif isinstance(entry, URLPattern) and entry.name:
            found.append((entry.name, prefix + str(entry.pattern)))
    return found


def test_the_walk_covers_every_public_route(staked):
    routes = _routes(get_resolver())
    public = {name.rpartition(":")[2] for name, route in routes if "public/" in route}
    walked = set(api_urls(staked)) | set(page_urls(staked))
    assert public <= walked, public - walked


def _keys(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [str(k) for k in data] + [k for v in data.values() for k in _keys(v)]
    if isinstance(data, list):
        return [k for v in data for k in _keys(v)]
    return []


def _money_in(words: list[str]) -> list[str]:
    return [w for w in words if any(m in w.lower() for m in MONEY_KEYS)]


@pytest.mark.parametrize("language", ["en", "it"])
def test_no_public_endpoint_shows_money(staked, language):
    anyone = Client()
    for name, urls in api_urls(staked).items():
        for url in urls:
            answer = anyone.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert answer.status_code == 200, (url, answer.content[:300])
            body = answer.content.decode()
            if "csv" in answer["Content-Type"]:
                heading = next(csv.reader(io.StringIO(body)), [])
                assert heading, url
                assert not _money_in(heading), (url, heading)
            else:
                data = json.loads(body)
                assert data, url
                assert not _money_in(_keys(data)), (name, url, _money_in(_keys(data)))
            # A time's fraction of a second may read "0.50" (17:05:40.505724Z): not money.
            lowered = re.sub(r"\d{4}-\d\d-\d\dt[\d:.]+(z|[+-]\d\d:\d\d)?", "", body.lower())
            assert not [t for t in MONEY_TEXT if t in lowered], (url, body[:500])


@pytest.mark.parametrize("language", ["en", "it"])
def test_no_public_page_shows_money(staked, language):
    anyone = Client()
    with translation.override(language):
        note = translation.gettext("Money is never shown here.").lower()
    for urls in page_urls(staked).values():
        for url in urls:
            for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
                answer = anyone.get(url, HTTP_ACCEPT_LANGUAGE=language, **htmx)
                assert answer.status_code == 200, url
                # the language switch's "next" repeats the address asked for, and its
                # CSRF token is random letters ("eur" in it, now and then)
                asked = url.lower().replace("&", "&amp;")
                text = answer.content.decode().lower().replace(note, "").replace(asked, "")
                text = TOKEN.sub("", text)
                # a calendar names its time zone ("Europe/Rome"): not the currency
                text = re.sub(r"europe/[a-z_]+", "", text)
                found = [t for t in (*MONEY_TEXT, "money") if t in text]
                assert not found, (url, found)
    # The page shows the players: the walk read real tables.
    board = anyone.get(page_urls(staked)["public_standings"][0]).content.decode()
    assert '<th scope="row" class="player">Nino</th>' in board


def test_the_public_leaderboard_cannot_be_sorted_by_money(staked):
    anyone = Client()
    base = f"/api/v1/public/clubs/{staked['slug']}/leaderboard?season={staked['season']}"
    for column in ("units", "-units", "money:EUR", "-money:EUR"):
        answer = anyone.get(f"{base}&ordering={column}")
        assert answer.status_code == 400, column
        assert answer.json()["errors"][0]["code"] == "standings.unknown_column"
