"""The scale-out check's data, run inside ``manage.py shell`` by ``scale_out.py``: one open
night, one scorer (and token) per phone, SCALE_MATCHES matches of Tressette in four to 41.
Prints one JSON line: the tokens and the match ids."""

import json
import os

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from scorebook.clubs.models import Club, Membership, Player
from scorebook.matches import services

PHONES = int(os.environ["SCALE_PHONES"])
MATCHES = int(os.environ["SCALE_MATCHES"])

User = get_user_model()
club = Club.objects.create(name="Scale-out club", slug="scale-out")
director = User.objects.create_user("scale-director")
Membership.objects.create(club=club, user=director, role="director")
phones = [User.objects.create_user(f"phone-{i}") for i in range(PHONES)]
for phone in phones:
    Membership.objects.create(club=club, user=phone, role="scorer")
night = services.night_open(club_id=club.pk, date="2026-11-23", venue="", user=director)
players = [Player.objects.create(club=club, name=n) for n in ("N", "E", "S", "W")]
seats = dict(zip(("N", "E", "S", "W"), (p.pk for p in players), strict=True))
matches = [
    services.match_create(
        night=night, game="tressette4", rules={"t4.target": 41}, seats=seats, user=director
    ).pk
    for _ in range(MATCHES)
]
tokens = [Token.objects.create(user=phone).key for phone in phones]
print(json.dumps({"tokens": tokens, "matches": matches}))
