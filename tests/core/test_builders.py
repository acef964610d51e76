"""The shared builders (tests/builders.py) make what they say: a match of every game the
engine knows, with the personas seated and legal deals entered; a league and a tournament
through the services."""

import pytest

from scorebook.matches.models import Match
from scorebook.rules import games
from tests import builders as build


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(games()))
def test_a_match_of_every_game_takes_the_engines_own_deals(people, night, game):
    match = build.match(people, night, game=game, rules=None)
    assert set(match.seats.values()) >= {p.pk for p in people.seated[: len(match.seats)]}
    made = build.random_deals(people, match, 3, seed=5)
    assert [d.number for d in made] == list(range(1, len(made) + 1)) and made
    assert Match.objects.get(pk=match.pk).deals.count() == len(made)


@pytest.mark.django_db
def test_tressette_seats_the_personas_by_compass_and_finishes(people, night):
    match = build.match(people, night, table=build.table(people, night, 3))
    n, e, s, w = people.seated
    assert match.seats == {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk}
    assert match.table.number == 3
    assert build.finish(people, match).status == Match.Status.FINISHED


@pytest.mark.django_db
def test_a_league_and_a_tournament(people, night):
    league = build.league(people)
    assert league.entries.count() == 2 and league.fixtures.exists()
    cup = build.tournament(people, night, pairs=4)
    assert cup.entries.count() == 4 and cup.seed == 1234
    club, owner = build.club("Circolo Altrove 2", "altrove-2")
    scorer = build.member(club, "scorer", "gino", player="Gino")
    assert {m.role for m in owner.memberships.all()} == {"owner"}
    assert scorer.memberships.get().club == club and club.players.get().user == scorer
