"""Idempotency-Key is the default for every POST of the API: each one replays its first
answer to a retry with the same key and changes nothing more."""

from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver

from scorebook.core.models import IdempotencyKey
from scorebook.ledger.models import Transfer
from scorebook.matches import services
from scorebook.standings.models import Fixture, LeagueEntry
from tests.api.common import SIDES, SMALL, api
from tests.api.idempotency_championships import CHAMPIONSHIP_POSTS
from tests.api.idempotency_federations import FEDERAL_OTHER_BODIES, FEDERATION_POSTS
from tests.standings.league_helpers import night, pair_match, players

# POST routes without a user to key on: signing in, signing up (anonymous by definition).
ANONYMOUS = {"v1:auth-token", "v1:invitation-sign-up"}


def post_routes() -> set[str]:
    """The names of every API route that accepts POST, read from the URL configuration."""
    found: set[str] = set()

    def walk(patterns, names):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(
                    pattern.url_patterns,
                    [*names, pattern.namespace] if pattern.namespace else names,
                )
            elif isinstance(pattern, URLPattern) and pattern.name and names[:1] == ["v1"]:
                view = pattern.callback
                actions = getattr(view, "actions", None)
                accepts = "post" in actions if actions is not None else hasattr(view.cls, "post")
                if accepts:
                    found.add(":".join([*names, pattern.name]))

    walk(get_resolver().url_patterns, [])
    return found


def _finished(people, match):
    match.stake_amount, match.stake_currency, match.stake_unit = Decimal("0.50"), "EUR", "money"
    match.save()
    for _ in range(3):
        services.deal_create(match=match, data=SIDES, expected_number=None, user=people.scorer)
    return match


def _closed_transfer(people, match):
    _finished(people, match)
    services.night_close(night=match.night, user=people.director)
    return Transfer.objects.first()


def _league(people, started=False, linked=None):
    """Nino-Salvo (North-South) against Ettore-Walter: a draft league, or started."""
    from scorebook.standings.leagues import services as leagues

    league = leagues.league_create(club=people.club, name="Coppa", user=people.director)
    n, e, s, w = people.seated
    for name, pair in (("NS", [n.pk, s.pk]), ("EW", [e.pk, w.pk])):
        leagues.entry_add(league=league, name=name, player_ids=pair, user=people.director)
    if started:
        leagues.league_start(league=league, user=people.director)
    if linked is not None:
        fixture = league.fixtures.get()
        leagues.fixture_match_link(fixture=fixture, match=linked, user=people.director)
    return league


# route -> (who posts, build(people, match) -> (url, body, extra headers))
POSTS = {
    "v1:club-list": (
        "scorer",
        lambda people, match: ("/api/v1/clubs", {"name": "Nuovo", "slug": "nuovo"}, {}),
    ),
    "v1:player-list": (
        "director",
        lambda people, match: ("/api/v1/players", {"club": people.club.pk, "name": "Ospite"}, {}),
    ),
    "v1:night-list": (
        "director",
        lambda people, match: (
            "/api/v1/nights",
            {"club": people.club.pk, "date": "2026-12-01"},
            {},
        ),
    ),
    "v1:night-close": (
        "director",
        lambda people, match: (
            f"/api/v1/nights/{match.night_id}/close",
            {
                "end_open": list(
                    match.night.matches.filter(status="open").values_list("pk", flat=True)
                )
            },
            {},
        ),
    ),
    "v1:night-settle": (
        "director",
        lambda people, match: (
            f"/api/v1/nights/{_finished(people, match).night_id}/settle",
            {},
            {},
        ),
    ),
    "v1:table-list": (
        "director",
        lambda people, match: ("/api/v1/tables", {"night": match.night_id, "number": 7}, {}),
    ),
    "v1:match-list": (
        "scorer",
        lambda people, match: (
            "/api/v1/matches",
            {
                "night": match.night_id,
                "game": "tressette4",
                "seats": dict(zip("NESW", (p.pk for p in people.seated), strict=True)),
            },
            {},
        ),
    ),
    "v1:match-deals": (
        "scorer",
        lambda people, match: (
            f"/api/v1/matches/{match.pk}/deals",
            {"deal": SIDES, "number": 1},
            {},
        ),
    ),
    "v1:deal-correct": (
        "scorer",
        lambda people, match: _correct(people, match),
    ),
    "v1:deal-confirm": (
        "member",
        lambda people, match: (f"/api/v1/deals/{_first(people, match).pk}/confirm", {}, {}),
    ),
    "v1:match-confirm-remaining": (
        "scorer",
        lambda people, match: (
            f"/api/v1/matches/{_first(people, match).match_id}/confirm-remaining",
            {"seat": "E"},
            {},
        ),
    ),
    "v1:match-final-score": (
        "director",
        lambda people, match: (
            f"/api/v1/matches/{match.pk}/final-score",
            {"totals": {"A": 21, "B": 13}},
            {},
        ),
    ),
    "v1:transfer-paid": (
        "director",
        lambda people, match: (
            f"/api/v1/transfers/{_closed_transfer(people, match).pk}/paid",
            {},
            {},
        ),
    ),
    "v1:league-list": (
        "director",
        lambda people, match: ("/api/v1/leagues", {"club": people.club.pk, "name": "Lega"}, {}),
    ),
    "v1:league-entries": (
        "director",
        lambda people, match: _new_entry(people),
    ),
    "v1:league-start": (
        "director",
        lambda people, match: (f"/api/v1/leagues/{_league(people).pk}/start", {}, {}),
    ),
    "v1:league-entry-withdraw": (
        "director",
        lambda people, match: (
            f"/api/v1/league-entries/{_league(people, True).entries.first().pk}/withdraw",
            {"reason": "moved"},
            {},
        ),
    ),
    "v1:fixture-matches": (
        "scorer",
        lambda people, match: (
            f"/api/v1/fixtures/{_league(people, True).fixtures.get().pk}/matches",
            {"match": match.pk},
            {},
        ),
    ),
    "v1:fixture-unlink": (
        "director",
        lambda people, match: (
            f"/api/v1/fixtures/{_league(people, True, match).fixtures.get().pk}/unlink",
            {"match": match.pk},
            {},
        ),
    ),
    "v1:season-list": (
        "director",
        lambda people, match: (
            "/api/v1/seasons",
            {
                "club": people.club.pk,
                "name": "2027",
                "starts_on": "2027-01-01",
                "ends_on": "2027-12-31",
            },
            {},
        ),
    ),
    "v1:invitation-list": (
        "director",
        lambda people, match: ("/api/v1/invitations", {"club": people.club.pk}, {}),
    ),
    "v1:invitation-accept": (
        "stranger",
        lambda people, match: (
            "/api/v1/invitations/accept",
            {"token": _invitation(people).token},
            {},
        ),
    ),
    "v1:rules-score": (
        "scorer",
        lambda people, match: ("/api/v1/rules/score", {"game": "tressette4", **SIDES}, {}),
    ),
    "v1:import-list": (
        "director",
        lambda people, match: (
            "/api/v1/imports",
            lambda: {"club": people.club.pk, "file": SimpleUploadedFile("h.csv", EXAMPLE_CSV)},
            {},
        ),
    ),
    "v1:import-accept": (
        "director",
        lambda people, match: (f"/api/v1/imports/{_previewed(people).pk}/accept", {}, {}),
    ),
    "v1:import-undo": (
        "director",
        lambda people, match: (f"/api/v1/imports/{_imported(people).pk}/undo", {}, {}),
    ),
    "v1:player-erase": (
        "director",
        lambda people, match: (
            f"/api/v1/players/{_guest(people).pk}/erase",
            {"name": "Ospite da cancellare"},
            {},
        ),
    ),
    "v1:me-erase": (
        "member",
        lambda people, match: ("/api/v1/me/erase", {"username": people.member.username}, {}),
    ),
}

EXAMPLE_CSV = (Path(__file__).resolve().parents[2] / "docs" / "import-example.csv").read_bytes()


def _previewed(people):
    from scorebook.history import services as history

    return history.import_preview(
        club=people.club, user=people.director, filename="h.csv", data=EXAMPLE_CSV
    )


def _imported(people):
    from scorebook.history import importer
    from scorebook.history import services as history

    batch = _previewed(people)
    history.import_accept(batch=batch, user=people.director)
    return importer.import_run(batch.pk)


def _guest(people):
    from scorebook.clubs.models import Player

    return Player.objects.create(club=people.club, name="Ospite da cancellare")


def _invitation(people):
    from scorebook.clubs.services import invitation_create

    return invitation_create(club=people.club, role="member", user=people.director)


def _new_entry(people):
    from scorebook.clubs.models import Player
    from scorebook.standings.leagues import services as leagues

    league = leagues.league_create(
        club=people.club, name="Singoli", kind="players", user=people.director
    )
    guest = Player.objects.create(club=people.club, name="Ospite")
    return (f"/api/v1/leagues/{league.pk}/entries", {"name": "Ospite", "players": [guest.pk]}, {})


def _first(people, match):
    return services.deal_create(match=match, data=SIDES, expected_number=1, user=people.scorer)


def _correct(people, match):
    deal = _first(people, match)
    return (
        f"/api/v1/deals/{deal.pk}/correct",
        {"deal": SMALL, "reason": "swapped the sides"},
        {"HTTP_IF_MATCH": deal.etag},
    )


def _league(people, start=False):
    """A league of three pairs through the API (started, with its fixtures, if asked)."""
    director = api(people, "director")
    body = {"club": people.club.pk, "name": "Coppa", "points_win": 3, "withdrawals": "keep"}
    league = director.post("/api/v1/leagues", body, format="json").json()["id"]
    named = players(people.club, "Nino", "Ettore", "Salvo", "Walter", "Zina", "Rosa")
    for i, name in enumerate(("Nino-Ettore", "Salvo-Walter", "Zina-Rosa")):
        pair = {"name": name, "players": [named[2 * i].pk, named[2 * i + 1].pk]}
        director.post(f"/api/v1/leagues/{league}/entries", pair, format="json")
    if start:
        director.post(f"/api/v1/leagues/{league}/start")
    return league, named


def _linkable(people):
    """A fixture of a started league and a match its two pairs played."""
    league, (nino, ettore, salvo, walter, *_) = _league(people, start=True)
    fixture = Fixture.objects.get(
        league_id=league,
        home__name__in=["Nino-Ettore", "Salvo-Walter"],
        away__name__in=["Nino-Ettore", "Salvo-Walter"],
    )
    return fixture, pair_match(people, night(people), (nino, ettore), (salvo, walter), "NS")


def _linked(people):
    fixture, played = _linkable(people)
    api(people, "scorer").post(f"/api/v1/fixtures/{fixture.pk}/matches", {"match": played.pk})
    return fixture, played


def _forfeited(people):
    fixture = _linkable(people)[0]
    api(people, "director").post(
        f"/api/v1/fixtures/{fixture.pk}/forfeit", {"entry": fixture.away_id, "reason": "absent"}
    )
    return fixture


def _an_entry(people):
    return LeagueEntry.objects.filter(league_id=_league(people, start=True)[0]).first()


LEAGUE_POSTS = {
    "v1:league-list": (
        "director",
        lambda people, match: (
            "/api/v1/leagues",
            {"club": people.club.pk, "name": "Coppa", "points_win": 3, "withdrawals": "keep"},
            {},
        ),
    ),
    "v1:league-entries": (
        "director",
        lambda people, match: (
            f"/api/v1/leagues/{_league(people)[0]}/entries",
            {"name": "Ospiti", "players": [p.pk for p in players(people.club, "Ada", "Bice")]},
            {},
        ),
    ),
    "v1:league-start": (
        "director",
        lambda people, match: (f"/api/v1/leagues/{_league(people)[0]}/start", {}, {}),
    ),
    "v1:league-entry-withdraw": (
        "director",
        lambda people, match: (
            f"/api/v1/league-entries/{_an_entry(people).pk}/withdraw",
            {},
            {},
        ),
    ),
    "v1:fixture-matches": (
        "scorer",
        lambda people, match: (
            lambda fixture, played: (
                f"/api/v1/fixtures/{fixture.pk}/matches",
                {"match": played.pk},
                {},
            )
        )(*_linkable(people)),
    ),
    "v1:fixture-unlink": (
        "director",
        lambda people, match: (
            lambda fixture, played: (
                f"/api/v1/fixtures/{fixture.pk}/unlink",
                {"match": played.pk},
                {},
            )
        )(*_linked(people)),
    ),
    "v1:fixture-forfeit": (
        "director",
        lambda people, match: (
            lambda fixture: (
                f"/api/v1/fixtures/{fixture.pk}/forfeit",
                {"entry": fixture.home_id, "reason": "did not turn up"},
                {},
            )
        )(_linkable(people)[0]),
    ),
    "v1:fixture-plan": (
        "director",
        lambda people, match: (
            lambda fixture: (
                f"/api/v1/fixtures/{fixture.pk}/plan",
                {"planned_on": "2026-12-04"},
                {},
            )
        )(_linkable(people)[0]),
    ),
    "v1:fixture-forfeit-undo": (
        "director",
        lambda people, match: (
            lambda fixture: (
                f"/api/v1/fixtures/{fixture.pk}/forfeit/undo",
                {"reason": "they had called ahead"},
                {},
            )
        )(_forfeited(people)),
    ),
    "v1:league-knockout": (
        "director",
        lambda people, match: (
            f"/api/v1/leagues/{_league(people, start=True)[0]}/knockout",
            {"name": "Finale", "top": 2},
            {},
        ),
    ),
}
POSTS.update(LEAGUE_POSTS)
#: New calendar addresses (issue 28 step 5): a retry answers the same addresses, revoking
#: nothing more.
POSTS["v1:club-calendar-rotate"] = (
    "member",
    lambda people, match: (f"/api/v1/clubs/{people.club.pk}/calendar/rotate", {}, {}),
)


def _tournament(people, pairs=0, rounds=3, started=False, played=False, **settings):
    """A Swiss tournament tonight (the match fixture's night) with ``pairs`` pairs of new
    players; round 1 started (and its matches played) if asked."""
    from scorebook.tournaments.services.registration import entry_add
    from scorebook.tournaments.services.rounds import round_start
    from tests.tournaments.helpers import open_night, play_round, tournament

    t = tournament(people, open_night(people, day=21), rounds=rounds, **settings)
    for i in range(pairs):
        entry_add(tournament=t, players=[f"A{i}", f"B{i}"], user=people.director)
    if started:
        round_ = round_start(tournament=t, user=people.director)
        if played:
            play_round(people, round_)
    return t


def _a_pairing(t):
    return t.round_set.get().pairings.exclude(away=None).first()


def _half_played(people):
    from scorebook.matches.models import Match
    from tests.tournaments.helpers import finish_match

    t = _tournament(people, 2, started=True, series="best_of", series_games=3)
    pairing = _a_pairing(t)
    finish_match(people, Match.objects.get(tournament_game__pairing=pairing))
    return f"/api/v1/tournaments/{t.pk}/next-match", {"pairing": pairing.pk}, {}


def _paired(people):
    from scorebook.tournaments.services.rounds import round_pair

    t = _tournament(people, 4)
    round_pair(tournament=t, user=people.director)
    return t


TOURNAMENT_POSTS = {
    "v1:tournament-list": (
        "director",
        lambda people, match: (
            "/api/v1/tournaments",
            {"night": match.night_id, "name": "Torneo", "game": "tressette4"},
            {},
        ),
    ),
    "v1:tournament-entries": (
        "director",
        lambda people, match: (
            f"/api/v1/tournaments/{_tournament(people).pk}/entries",
            {"players": [people.seated[0].pk, "Zio Tano"]},
            {},
        ),
    ),
    "v1:tournament-singles": (
        "director",
        lambda people, match: (
            f"/api/v1/tournaments/{_tournament(people).pk}/singles",
            {"player": "Lia"},
            {},
        ),
    ),
    "v1:tournament-draw": (
        "director",
        lambda people, match: _drawable(people),
    ),
    "v1:tournament-withdraw": (
        "director",
        lambda people, match: (
            lambda t: (
                f"/api/v1/tournaments/{t.pk}/withdraw",
                {"entry": t.entries.first().pk, "reason": "ill"},
                {},
            )
        )(_tournament(people, 2)),
    ),
    "v1:tournament-pair": (
        "director",
        lambda people, match: (f"/api/v1/tournaments/{_tournament(people, 4).pk}/pair", {}, {}),
    ),
    "v1:tournament-start": (
        "director",
        lambda people, match: (f"/api/v1/tournaments/{_tournament(people, 4).pk}/start", {}, {}),
    ),
    "v1:tournament-swap": (
        "director",
        lambda people, match: (
            lambda t: (
                f"/api/v1/tournaments/{t.pk}/swap",
                {
                    "first": t.round_set.get().pairings.get(board=1).home_id,
                    "second": t.round_set.get().pairings.get(board=2).home_id,
                },
                {},
            )
        )(_paired(people)),
    ),
    "v1:tournament-bye": (
        "director",
        lambda people, match: (
            lambda t: (
                f"/api/v1/tournaments/{t.pk}/bye",
                {"entry": t.round_set.get().pairings.get(board=1).home_id},
                {},
            )
        )(_paired(people)),
    ),
    "v1:tournament-forfeit": (
        "director",
        lambda people, match: (
            lambda t: (
                f"/api/v1/tournaments/{t.pk}/forfeit",
                {"pairing": _a_pairing(t).pk, "entry": _a_pairing(t).away_id, "reason": "left"},
                {},
            )
        )(_tournament(people, 2, started=True)),
    ),
    "v1:tournament-single-withdraw": (
        "director",
        lambda people, match: (
            lambda t: (
                f"/api/v1/tournaments/{t.pk}/singles/withdraw",
                {"single": t.singles.first().pk, "reason": "ill"},
                {},
            )
        )(_with_a_single(people)),
    ),
    "v1:tournament-cancel": (
        "director",
        lambda people, match: (
            f"/api/v1/tournaments/{_tournament(people, 2, started=True).pk}/cancel",
            {"reason": "rain"},
            {},
        ),
    ),
    "v1:tournament-next-match": (
        "director",
        lambda people, match: _half_played(people),
    ),
    "v1:tournament-finish": (
        "director",
        lambda people, match: (
            f"/api/v1/tournaments/"
            f"{_tournament(people, 2, rounds=1, started=True, played=True).pk}/finish",
            {},
            {},
        ),
    ),
}


def _with_a_single(people):
    from scorebook.tournaments.services.registration import single_add

    t = _tournament(people)
    single_add(tournament=t, player="Lia", user=people.director)
    return t


def _drawable(people):
    from scorebook.tournaments.services.registration import single_add

    t = _tournament(people)
    for name in ("Lia", "Tano"):
        single_add(tournament=t, player=name, user=people.director)
    return f"/api/v1/tournaments/{t.pk}/draw", {}, {}


POSTS.update(TOURNAMENT_POSTS)
POSTS.update(FEDERATION_POSTS)
POSTS.update(CHAMPIONSHIP_POSTS)


def test_every_post_route_is_checked_here():
    assert post_routes() - ANONYMOUS == set(POSTS)


def _stored_rows():
    """Every row of every model but the keys themselves: what a request changed."""
    from django.apps import apps

    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model is not IdempotencyKey
    }


@pytest.mark.parametrize("route", sorted(POSTS))
def test_every_post_replays_its_first_answer(people, match, route):
    who, build = POSTS[route]
    url, body, headers = build(people, match)
    client = api(people, who)
    # A file upload is multipart, made afresh for each send (an upload is read once).
    fmt, data = ("multipart", body) if callable(body) else ("json", lambda: body)
    first = client.post(url, data(), format=fmt, HTTP_IDEMPOTENCY_KEY="retry-1", **headers)
    assert 200 <= first.status_code < 300, first.content
    assert "Idempotent-Replayed" not in first
    after_first = _stored_rows()
    again = client.post(url, data(), format=fmt, HTTP_IDEMPOTENCY_KEY="retry-1", **headers)
    assert again.status_code == first.status_code
    assert again["Idempotent-Replayed"] == "true"
    assert (again.json() if again.content else None) == (first.json() if first.content else None)
    assert _stored_rows() == after_first
    assert IdempotencyKey.objects.filter(key="retry-1", path=url).count() == 1


def test_the_same_key_with_another_body_is_refused(people, match):
    client = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/deals"
    client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    other = client.post(url, {"deal": SMALL, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert other.status_code == 422
    assert other.json()["errors"][0]["code"] == "idempotency.key_reused"


@pytest.mark.parametrize("route", sorted(FEDERAL_OTHER_BODIES))
def test_a_federal_post_with_another_body_under_the_same_key_is_refused(people, match, route):
    who, build = POSTS[route]
    url, body, headers = build(people, match)
    client = api(people, who)
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k", **headers)
    assert 200 <= first.status_code < 300, first.content
    after_first = _stored_rows()
    other = FEDERAL_OTHER_BODIES[route](body)
    assert other != body
    refused = client.post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="k", **headers)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["code"] == "idempotency.key_reused"
    assert _stored_rows() == after_first


def test_a_refused_request_stores_no_key_and_changes_nothing(people, match):
    client = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/deals"
    bad = {"deal": {**SIDES, "last_trick": "C"}, "number": 1}
    assert client.post(url, bad, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 400
    assert not IdempotencyKey.objects.exists()
    good = client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k2")
    assert good.status_code == 201


def test_a_retry_refused_because_the_first_did_the_work_replays_the_first(people, match):
    """The retry would be a conflict (deal 1 is taken, by the first): it gets the first's
    answer instead, as if the first answer had reached the phone."""
    client = api(people, "scorer")
    url = f"/api/v1/matches/{match.pk}/deals"
    first = client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    again = client.post(url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert again.status_code == 201 and again.json() == first.json()


def test_a_key_longer_than_255_characters_is_refused(people, match):
    answer = api(people, "scorer").post(
        f"/api/v1/matches/{match.pk}/deals",
        {"deal": SIDES, "number": 1},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 256,
    )
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["code"] == "idempotency.key_too_long"


def test_keys_are_per_user(people, match):
    url = f"/api/v1/matches/{match.pk}/deals"
    api(people, "scorer").post(
        url, {"deal": SIDES, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    other = api(people, "director").post(
        url, {"deal": SMALL, "number": 2}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert other.status_code == 201 and "Idempotent-Replayed" not in other
