"""The HTTP bench's data, run inside ``manage.py shell`` by ``http_bench.py``.

One open night, one scorer (and token) per client, and for each run two sets of matches
(warm-up, measured) with consecutive ids, so the wrk script can name them by arithmetic:
- ``totals``: Tressette in four to 41, deals entered as totals (level a);
- ``play1``: Tressette in four to 1000, deal 1 entered as a play record (level c);
- ``play30``: the same matches with 29 play-record deals stored, deal 30 to enter.

The 29 deals are entered once through the services into a template match and copied, rows
and all, into the others: the copies are what deal entry would have stored. Prints one
JSON line: the tokens, the first match id of each set and the deal bodies.
"""

import json
import os
import random

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token

from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches import services
from scorebook.matches.models import Deal, Match
from scorebook.rules import get_game

CLIENTS = int(os.environ["BENCH_CLIENTS"])
COUNTS = json.loads(os.environ["BENCH_COUNTS"])  # set name -> [warm-up, measured] per client
LONG = 30  # the deal the play30 run enters

User = get_user_model()
scorers = [User.objects.create_user(f"bench-{i}") for i in range(CLIENTS)]
club = Club.objects.create(name="Bench club", slug="bench")
director = User.objects.create_user("bench-director")
for scorer in scorers:
    Membership.objects.create(club=club, user=scorer, role="scorer")
Membership.objects.create(club=club, user=director, role="director")
night = services.night_open(club_id=club.pk, date="2026-11-22", venue="", user=director)
players = [Player.objects.create(club=club, name=n) for n in ("N", "E", "S", "W")]
seats = dict(zip(("N", "E", "S", "W"), (p.pk for p in players), strict=True))


def template(target: int) -> Match:
    return services.match_create(
        night=night, game="tressette4", rules={"t4.target": target}, seats=seats, user=scorers[0]
    )


def copies(model: Match, count: int) -> int:
    """``count`` copies of ``model`` with consecutive ids; the first id."""
    fields = {
        f.attname: getattr(model, f.attname) for f in Match._meta.concrete_fields if f.name != "id"
    }
    made = Match.objects.bulk_create(Match(**fields) for _ in range(count))
    assert [m.pk for m in made] == list(range(made[0].pk, made[0].pk + count))
    return made[0].pk


# Play records: a random match of 30 deals, each fitting the state the one before left.
game = get_game("tressette4")
long = template(1000)
rules = game.rules(long.rules["values"])

for seed in range(2026, 2126):  # some deals end a match at once (an event): the first seed
    rng = random.Random(seed)  # whose 30 deals leave it open
    state = game.new_match(rules, 4, long.first_dealer)
    bodies = []
    while len(bodies) < LONG and not state.finished:
        bodies.append(game.random_deal(rng, rules, state, "play"))
        game.add_deal(state, bodies[-1], rules)
    if not state.finished:
        break
assert not state.finished, "no seed gave a match still open at deal 30"
for number, body in enumerate(bodies[: LONG - 1], start=1):
    services.deal_create(match=long, data=body, expected_number=number, user=scorers[0])
long.refresh_from_db()

runs = {"totals": [], "play1": [], "play30": []}
models = {"totals": template(41), "play1": template(1000), "play30": long}
deal_table = Deal._meta.db_table
columns = [f.column for f in Deal._meta.concrete_fields if f.name not in ("id", "match")]
listed = ", ".join(connection.ops.quote_name(c) for c in columns)
for name, model in models.items():
    for per_client in COUNTS[name]:
        first = copies(model, CLIENTS * per_client)
        runs[name].append(first)
        if name == "play30":
            with connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {deal_table} (match_id, {listed})"
                    f" SELECT m.id, {listed} FROM {deal_table} d"
                    f" CROSS JOIN generate_series(%s::bigint, %s::bigint) AS m(id)"
                    " WHERE d.match_id = %s",
                    [first, first + CLIENTS * per_client - 1, long.pk],
                )
tokens = ",".join(Token.objects.create(user=scorer).key for scorer in scorers)
print(
    json.dumps(
        {
            "tokens": tokens,
            "runs": runs,
            "bodies": {"play1": bodies[0], "play30": bodies[LONG - 1]},
        }
    )
)
