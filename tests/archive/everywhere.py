"""A person written into every kind of free text the app accepts, in the demo club
(issue 31): "Zebulon Quixote", with an account of their own (``zquixote``), the player
made through the API with an Idempotency-Key, their name in a night's venue, a table's
name, deals entered from a phone whose user agent names them, a correction's reason, a
director's override, an abandoned match's reason, an imported file's name, its seats and
its ``abandoned`` column, a season, a league (its name, a pair, a forfeit's reason, an
undone forfeit's reason, a fixture planned into the calendars), a tournament (its name,
a pair, a withdrawal's reason, a forfeit's reason, its cancel's reason). Then the
director renames the player "Zorba Quintilian". ``NAMES``: what no output and no row may
hold after the erasure."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club, Player
from scorebook.history import importer
from scorebook.history import services as history
from scorebook.history.models import Import
from scorebook.matches import services as record
from scorebook.matches.models import Deal
from scorebook.standings import services as standings
from scorebook.standings.leagues import services as leagues
from scorebook.standings.models import Fixture
from scorebook.tournaments.models import Pairing
from scorebook.tournaments.services import registration, results, rounds, setup

FIRST, RENAMED = "Zebulon Quixote", "Zorba Quintilian"
USERNAME = "zquixote"
#: What no output may hold afterwards, compared on letters and digits in any case: both
#: names, the account's username, first and last names and email.
NAMES = (FIRST, RENAMED, USERNAME, "Zebulon", "Quixote", "zebulon.quixote@example.org")
GAME = "tressette4"
WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
    "last_trick": "A",
}
PHONE = "ZebulonQuixote-Phone/1.0 (Android)"


def user(name):
    return get_user_model().objects.get(username=name)


def _ids(club):
    return dict(Player.objects.filter(club=club).values_list("name", "pk"))


def _import(club, director, nino, ettore, tano):
    """A night two years ago from ``zebulon_quixote.csv``: a finished match and one
    abandoned with a reason naming the person (the player is still "Zebulon Quixote")."""
    day = (datetime.date.today() - datetime.timedelta(days=730)).isoformat()
    deal = json.dumps(WINS).replace('"', '""')
    seats = f"N={FIRST}; E={ettore}; S={nino}; W={tano}"
    rows = [
        "date,table,match,game,rules,seats,first_dealer,stake,currency,deal,abandoned",
        *[f'{day},1,1,{GAME},classic_21,"{seats}",N,,,"{deal}",' for _ in range(3)],
        f'{day},2,1,{GAME},classic_21,"{seats}",N,,,"{deal}",Zebulon-Quixote se n\'è andato',
    ]
    batch = history.import_preview(
        club=club,
        user=director,
        filename="zebulon_quixote.csv",
        data=("\n".join(rows) + "\n").encode(),
    )
    history.import_accept(batch=batch, user=director)
    batch = importer.import_run(batch.pk)  # the task, here (its on-commit send finds it done)
    assert batch.status == Import.Status.DONE, batch.error


def _league(club, director, ids, zebulon):
    league = leagues.league_create(
        club=club, name=f"Lega {FIRST}", user=director, game=GAME, withdrawals="keep"
    )
    pairs = [
        (f"{FIRST} e Nino", [zebulon.pk, ids["Nino"]]),
        ("Ettore e Tano", [ids["Ettore"], ids["Tano"]]),
        ("Rosa e Pina", [ids["Rosa"], ids["Pina"]]),
        ("Salvo e Walter", [ids["Salvo"], ids["Walter"]]),
    ]
    entries = [
        leagues.entry_add(league=league, name=n, player_ids=p, user=director) for n, p in pairs
    ]
    leagues.league_start(league=league, user=director)
    fixtures = list(Fixture.objects.filter(league=league).order_by("round", "pk"))
    his = [f for f in fixtures if entries[0].pk in (f.home_id, f.away_id)]
    leagues.fixture_forfeit(
        fixture=his[0], entry=entries[0], reason=f"{FIRST} assente", user=director
    )
    leagues.fixture_forfeit(fixture=his[1], entry=entries[0], reason="assente", user=director)
    leagues.fixture_forfeit_undo(
        fixture=his[1], reason=f"errore: {FIRST.upper()} c'era", user=director
    )
    leagues.fixture_plan(
        fixture=his[2], day=datetime.date.today() + datetime.timedelta(days=7), user=director
    )


def _tournament(night, director, ids, zebulon):
    cup = setup.tournament_create(
        night=night,
        name=f"Torneo {FIRST}",
        game=GAME,
        rules={"profile": "classic_21"},
        user=director,
    )
    pairs = [
        [zebulon.pk, ids["Nino"]],
        [ids["Ettore"], ids["Tano"]],
        [ids["Rosa"], ids["Pina"]],
        [ids["Salvo"], ids["Walter"]],
        [ids["Carmelo"], "Ospite"],
    ]
    entries = [registration.entry_add(tournament=cup, players=p, user=director) for p in pairs]
    registration.entry_withdraw(entry=entries[-1], reason=f"ritirati per {FIRST}", user=director)
    rounds.round_start(tournament=cup, user=director)
    his = (
        Pairing.objects.get(round__tournament=cup, home=entries[0])
        if Pairing.objects.filter(round__tournament=cup, home=entries[0]).exists()
        else Pairing.objects.get(round__tournament=cup, away=entries[0])
    )
    results.pairing_forfeit(
        pairing=his, entry=entries[0], reason="zebulon_quixote malato", user=director
    )
    results.tournament_cancel(tournament=cup, reason=f"pioggia ({FIRST})", user=director)


def zebulon_everywhere(club: Club) -> Player:
    """The demo club with the person's names written into every kind of free text (the
    module's docstring says where); the player, renamed "Zorba Quintilian"."""
    director = user("director")
    person = get_user_model().objects.create_user(
        USERNAME,
        password="pw-zq",
        first_name="Zebulon",
        last_name="Quixote",
        email="zebulon.quixote@example.org",
    )
    api = APIClient()
    api.force_authenticate(director)
    made = api.post(
        "/api/v1/players",
        {"club": club.pk, "name": FIRST},
        format="json",
        HTTP_IDEMPOTENCY_KEY="zq-player-1",
    )
    assert made.status_code == 201, made.content
    zebulon = Player.objects.get(pk=made.json()["id"])
    invitation = clubs.invitation_create(club=club, role="member", user=director, player=zebulon)
    clubs.invitation_accept(token=invitation.token, user=person)
    ids = _ids(club)
    _import(club, director, "Nino", "Ettore", "Tano")
    yesterday = datetime.date.today() - datetime.timedelta(days=1)
    night = record.night_open(
        club_id=club.pk, date=yesterday, venue=f"Casa di {FIRST}", user=director
    )
    table = record.table_create(night=night, number=1, name="Tavolo Zebulon_Quixote", user=director)
    seats = {"N": zebulon.pk, "E": ids["Ettore"], "S": ids["Nino"], "W": ids["Tano"]}
    match = record.match_create(
        night=night,
        game=GAME,
        rules={"profile": "classic_21"},
        seats=seats,
        table=table,
        user=director,
        stake_amount=Decimal("0.50"),
        stake_currency="EUR",
    )
    phone = APIClient(HTTP_USER_AGENT=PHONE)
    phone.force_authenticate(director)
    for number in (1, 2, 3):
        answer = phone.post(
            f"/api/v1/matches/{match.pk}/deals",
            {"deal": WINS, "number": number},
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"zq-deal-{number}",
        )
        assert answer.status_code == 201, answer.content
    first = Deal.objects.get(match=match, number=1, is_current=True)
    corrected = record.deal_correct(
        deal=first,
        data=WINS,
        reason=f"{FIRST} ha contato male",
        user=director,
        expected_version=first.version,
    )
    record.deal_confirm(deal=corrected, user=user("demo"), override_reason=f"{FIRST} d'accordo")
    left = record.match_create(
        night=night, game=GAME, rules={"profile": "classic_21"}, seats=seats, user=director
    )
    record.match_abandon(match=left, reason="zebulon.quixote è andato via", user=director)
    standings.season_create(
        club_id=club.pk,
        name=f"Stagione di {FIRST}",
        starts_on=datetime.date.today() - datetime.timedelta(days=800),
        ends_on=None,
        user=director,
    )
    _league(club, director, ids, zebulon)
    _tournament(night, director, ids, zebulon)
    record.night_close(night=night, user=director)
    renamed = api.patch(f"/api/v1/players/{zebulon.pk}", {"name": RENAMED}, format="json")
    assert renamed.status_code == 200, renamed.content
    zebulon.refresh_from_db()
    return zebulon
