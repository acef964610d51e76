"""The demo federation's federal tournament (issue 34 items 4 and 5): the Comitato
announces a provincial tournament hosted by Kalsa, four pairs of persons of its three
member clubs register (Nino with Ettore, a Belmonte pair, a Kalsa pair, a mixed one), the
Kalsa owner opens it on a night of its own today (Belmonte's night today is the
championship's, still open; Kalsa has no other night), the host plays its two Swiss rounds
and closes the night; its placings give federal points and the ranking has them. The fee
is 5 EUR a player, 1 of which the federation's share (a payable line of Kalsa's night).
Everything through the services, as the people would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model

from scorebook.clubs.models import Club
from scorebook.core.dates import today_in
from scorebook.federations.models import Federation, Officer
from scorebook.federations.services import federal_tournaments as federal
from scorebook.federations.services import links
from scorebook.matches import services as matches
from scorebook.matches.models import Match
from scorebook.tournaments.services.results import tournament_finish
from scorebook.tournaments.services.rounds import round_start

#: New persons: their account and (club, player) they are linked to.
PERSONS = (
    ("gianni", "belmonte", "Gianni"),
    ("lia", "belmonte", "Lia"),
    ("santo", "kalsa", "Santo"),
    ("marta", "kalsa", "Marta"),
    ("turi", "belmonte", "Turi"),
    ("ciccio", "kalsa", "Ciccio"),
)
#: The pairs, in the order they register.
PAIRS = (
    ("nino.russo", "ettore.bruno"),
    ("gianni", "lia"),
    ("santo", "marta"),
    ("turi", "ciccio"),
)


def load(
    comitato: Federation, game: str, rules: dict[str, Any], play: Callable[[Match, Any], None]
) -> None:
    """The tournament played today at Kalsa; ``play`` enters a match's deals."""
    users = get_user_model().objects
    owners = {slug: users.get(username=slug) for slug in ("belmonte", "kalsa")}
    for username, slug, name in PERSONS:
        person = users.create_user(username, password="demo")
        player = Club.objects.get(slug=slug).players.get(name=name)
        link = links.person_link_propose(player=player, username=username, user=owners[slug])
        links.person_link_accept(link=link, user=person)
    secretary = Officer.objects.get(federation=comitato, role="secretary").user
    kalsa = Club.objects.get(slug="kalsa")
    today = today_in(kalsa.zone_name)
    made = federal.federal_tournament_announce(
        federation=comitato,
        user=secretary,
        name="Torneo provinciale della Kalsa",
        date=today,
        host=kalsa.slug,
        level="provincial",
        game=game,
        rules=rules,
        format="swiss",
        rounds=2,
        fee="5",
        federation_share="1",
        currency="EUR",
        cap=16,
    )
    for first, second in PAIRS:
        federal.registration_add(
            federal_tournament=made, partner=second, user=users.get(username=first)
        )
    host = owners["kalsa"]
    night = matches.night_open(club_id=made.host_id, date=today, venue="Circolo Kalsa", user=host)
    tournament = federal.federal_tournament_open(federal_tournament=made, night=night, user=host)
    for _ in range(tournament.rounds):
        round_ = round_start(tournament=tournament, user=host)
        for match in Match.objects.filter(tournament_game__pairing__round=round_):
            play(match, host)
    tournament_finish(tournament=tournament, user=host)
    matches.night_close(night=night, user=host, end_open=[], reason="")
