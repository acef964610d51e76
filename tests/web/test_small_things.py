"""Small things found on the way (issue 24, item 9), each with the words a person reads."""

import datetime
import re

from django.test import Client

from scorebook.clubs import services as clubs
from scorebook.clubs.models import Club
from scorebook.matches import services
from tests.web.test_pages import client_for


def test_an_invitation_says_how_often_it_was_used_without_0_volta(people, club):
    """ "Usato 0 volta su 1" (used 0 time of 1): the count read as a plural of 0."""
    clubs.invitation_create(club=club, role="member", user=people.director)
    client = client_for(people, "director")
    italian = client.get(f"/c/{club.slug}/invite", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Utilizzi: 0 su 1 · valido fino a " in italian and "volta" not in italian
    english = client.get(f"/c/{club.slug}/invite", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Uses: 0 of 1 · valid until " in english


def test_a_night_without_tables_lists_its_matches_as_matches(people, club):
    """A night without tables showed its matches only under "Altre partite" (other
    matches: other than what?)."""
    night = services.night_open(club_id=club.pk, date="2026-11-27", venue="", user=people.director)
    n, e, s, w = people.seated
    services.match_create(
        night=night,
        game="tressette4",
        rules={"profile": "classic_21"},
        seats={"N": n.pk, "E": e.pk, "S": s.pk, "W": w.pk},
        user=people.director,
    )
    client = client_for(people, "member")
    italian = client.get(f"/n/{night.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<h2>Partite</h2>" in italian and "Altre partite" not in italian
    services.table_create(night=night, number=1, name="", user=people.director)
    italian = client.get(f"/n/{night.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<h2>Altre partite</h2>" in italian  # beside a table, they are the others


def test_the_public_page_tells_apart_nights_of_the_same_date(people, club):
    """Two nights of one date and no venue read as the same night twice."""
    Club.objects.filter(pk=club.pk).update(public=True)
    day = datetime.date(2026, 11, 20)
    for venue in ("", "", "Bar Roma"):
        services.night_open(club_id=club.pk, date=day, venue=venue, user=people.director)
    services.night_open(club_id=club.pk, date="2026-11-13", venue="", user=people.director)
    italian = Client().get(f"/public/{club.slug}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    headings = re.findall(r"<h2>([^<]+)</h2>", italian)
    assert headings == [
        "venerdì 20 novembre 2026 · Bar Roma · serata 3",
        "venerdì 20 novembre 2026 · serata 2",
        "venerdì 20 novembre 2026 · serata 1",
        "venerdì 13 novembre 2026",
    ]
    english = Client().get(f"/public/{club.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h2>Friday 20 November 2026 · night 2</h2>" in english


def test_the_sign_up_form_says_what_a_username_may_hold_in_words(world):
    """Django's help text read "Obbligatorio. 150 caratteri o meno.Solo lettere, cifre e
    @/./+/-/_" (no space after its full stop, and the slashes read as characters)."""
    page = Client().get("/join/{token}".format(**world), HTTP_ACCEPT_LANGUAGE="it")
    body = page.content.decode()
    assert "meno.Solo" not in body and "@/./+/-/_" not in body
    assert "Lettere, cifre e i segni @ . + - _, al massimo 150." in body
    english = Client().get("/join/{token}".format(**world), HTTP_ACCEPT_LANGUAGE="en")
    assert "Letters, digits and @ . + - _, at most 150." in english.content.decode()


def test_the_italian_leaderboard_writes_every_number_with_a_decimal_comma(people, club, world):
    """It mixed "1.50" (the money, read from JSON as text) with "66,67" (the win rate)."""
    from scorebook.standings import refresh
    from scorebook.standings import services as standings

    standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=people.director,
    )
    refresh.rebuild(club_id=club.pk)
    client = client_for(people, "member")
    body = client.get(f"/c/{club.slug}/standings/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    table = body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert re.search(r"\d,\d\d<", table), table  # the money, in Italian
    assert not re.search(r"\d\.\d", table), re.search(r".{20}\d\.\d.{5}", table).group(0)


def test_a_revoke_is_a_rinuncia_in_italian():
    """The Italian said "rifiuto" (a refusal) for a revoke; at the table it is a rinuncia."""
    from django.utils import translation

    with translation.override("it"):
        assert translation.gettext("revoke") == "rinuncia"
        assert translation.gettext("Revoke (renounce) by").startswith("Rinuncia di")
        assert "rinuncia" in translation.gettext("A revoke shown by a play record")
        assert "rinuncia" in translation.gettext("Points to each opponent of a revoking player")
