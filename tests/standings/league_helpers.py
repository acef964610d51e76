"""Building leagues and playing their matches in tests."""

import datetime

from scorebook.clubs.models import Player
from scorebook.matches import services as matches
from scorebook.matches.models import Match

A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
    "last_trick": "A",
}
B_WINS = {
    "sides": {"A": {"thirds": 12, "tricks": 5}, "B": {"thirds": 20, "tricks": 5}},
    "last_trick": "B",
}


def players(club, *names):
    return [Player.objects.get_or_create(club=club, name=name)[0] for name in names]


def night(people, day=20):
    return matches.night_open(
        club_id=people.club.pk,
        date=datetime.date(2026, 11, day),
        venue="",
        user=people.director,
    )


def pair_match(people, on, north_south, east_west, winner=None, seats_order="NESW"):
    """A Tressette match, North-South against East-West, played to the end when
    ``winner`` is "NS" or "EW"."""
    (n, s), (e, w) = north_south, east_west
    by_seat = {"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk}
    match = matches.match_create(
        night=on,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={seat: by_seat[seat] for seat in seats_order},
        user=people.scorer,
    )
    if winner:
        finish(people, match, A_WINS if winner == "NS" else B_WINS)
    match.refresh_from_db()
    return match


def finish(people, match, data):
    number = 1
    while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
        matches.deal_create(match=match, data=data, expected_number=number, user=people.scorer)
        number += 1
        assert number < 40
