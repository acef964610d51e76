"""The close page names a tournament not yet over, before the director presses "close":
the service refuses (night.not_ready) naming it, but the page listed only the unfinished
matches and the unconfirmed deals, so the director learnt of it only from the refusal."""

from scorebook.tournaments.services.results import tournament_cancel
from scorebook.tournaments.services.rounds import round_start
from tests.tournaments.helpers import with_pairs
from tests.web.test_pages import client_for


def warning(body):
    return body.split('id="tournaments"', 1)[1].split("</section>", 1)[0]


def test_the_close_page_names_the_tournament_not_over(people, night):
    t = with_pairs(people, night, 4, rounds=2, name="Torneo <b>di</b> San Rocco")
    round_start(tournament=t, user=people.director)
    client = client_for(people, "director")
    english = client.get(f"/n/{night.pk}/close", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    shown = warning(english)
    assert "1 tournament is not over" in shown
    assert "Torneo &lt;b&gt;di&lt;/b&gt; San Rocco" in shown and "<b>di</b>" not in shown
    assert f'href="/t/{t.pk}/"' in shown
    assert "finish it" in shown and "cancel it" in shown
    italian = client.get(f"/n/{night.pk}/close", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    shown = warning(italian)
    assert "1 torneo non è concluso" in shown and f'href="/t/{t.pk}/"' in shown


def test_a_cancelled_tournament_is_not_named(people, night):
    t = with_pairs(people, night, 4, rounds=2)
    round_start(tournament=t, user=people.director)
    tournament_cancel(tournament=t, reason="tardi", user=people.director)
    body = client_for(people, "director").get(f"/n/{night.pk}/close").content.decode()
    assert 'id="tournaments"' not in body
