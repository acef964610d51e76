"""The player across the table confirms a deal from the match page in one tap: the page
did not say that a deal awaited them, nor which deals nobody had confirmed."""

from django.test import Client

from scorebook.clubs.models import Club
from scorebook.matches.models import Confirmation
from tests.web.test_pages import client_for

ASKS = "La smazzata 2 aspetta la tua conferma"


def test_a_seated_player_confirms_the_newest_deal_from_the_match_page(people, world):
    client = client_for(people, "member")  # Nino, seated North; the director entered the deals
    url = f"/m/{world['match']}/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert ASKS in page and "Confermo la smazzata 2" in page
    assert page.count("da confermare") == 2  # both deals, in the list
    newest = world["deal"] + 1
    response = client.post(f"/d/{newest}/confirm", {"back": "match"})
    assert response.status_code == 303 and response["Location"] == url
    assert Confirmation.objects.filter(deal_id=newest, user=people["member"]).exists()
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "La smazzata 1 aspetta la tua conferma" in page and ASKS not in page
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Deal 1 awaits your confirmation" in english and "not confirmed yet" in english


def test_nobody_else_is_asked(people, world):
    """Not the director who entered the deals and is not seated, nor anyone on a public page."""
    page = client_for(people, "director").get(f"/m/{world['match']}/").content.decode()
    assert "awaits your confirmation" not in page and "not confirmed yet" in page
    Club.objects.filter(pk=people.club.pk).update(public=True)
    public = Client().get(f"/public/{world['slug']}/m/{world['match']}").content.decode()
    assert "Deal 2" in public and "confirm" not in public.lower()
