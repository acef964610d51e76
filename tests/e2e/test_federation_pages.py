"""The federation's pages on a 390 px phone, in Italian and English (issue 34 item 7): the
demo federation (load_demo) as its president, its secretary, a member club's owner and
director, a linked person, and anyone for the public page. axe finds no serious or
critical violation, nothing is wider than the screen, every control is a tap target of at
least 44 px (the checks of test_every_page.py); then Ettore accepts a club's proposal
with one tap on his phone, and the page says he is linked. (Belmonte proposes it: Nino
is linked at all three demo clubs since the federal tournament, where he was Kalsa's
guest.)"""

from __future__ import annotations

import pytest

from tests.e2e.test_every_page import MEASURE, OVERFLOW, TAP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
FED = "comitato-palermo"

#: (screenshot name, who looks, url)
PAGES = [
    ("90-federations", "demo", "/f/"),
    ("91-federation", "demo", f"/f/{FED}/"),
    ("92-federation-clubs", "segreteria", f"/f/{FED}/clubs"),
    ("93-federation-officers", "demo", f"/f/{FED}/officers"),
    ("94-federation-persons", "segreteria", f"/f/{FED}/persons"),
    ("95-federation-settings", "demo", f"/f/{FED}/settings"),
    ("96-club-federations", "demo", "/c/san-rocco/federations"),
    ("97-club-links", "belmonte", "/c/belmonte/links"),
    ("98-my-links", "ettore.bruno", "/me/links"),
    ("99-public-federation", None, f"/public/f/{FED}/"),
]


@pytest.fixture
def demo(settings):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scorebook.clubs import services as clubs
    from scorebook.clubs.models import Club
    from scorebook.federations.services import federation as federations
    from scorebook.federations.services import links, membership

    settings.DEBUG = True  # load_demo refuses otherwise
    call_command("load_demo")
    users = get_user_model().objects
    # an invitation the San Rocco owner answers, a proposal Ettore answers
    secretary = users.get(username="segreteria")
    lega = federations.federation_create(
        name="Lega Regionale Siciliana", slug="lega-sicilia", level="regional", user=secretary
    )
    membership.club_invite(federation=lega, slug="san-rocco", user=secretary)
    owner = users.get(username="belmonte")
    ettore = clubs.player_create(club=Club.objects.get(slug="belmonte"), name="Ettore", user=owner)
    links.person_link_propose(player=ettore, username="ettore.bruno", user=owner)
    return users


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_federation_pages_on_a_phone(demo, phone, shots, axe, language):
    problems = []
    pages = {}
    for name, who, url in PAGES:
        if who not in pages:
            pages[who] = phone(demo.get(username=who) if who else None, language=language)
            pages[who].set_viewport_size(PHONE)
        page = pages[who]
        response = page.goto(url)
        assert response is not None and response.status == 200, (name, response.status)
        axe(page, f"{name} ({language})")
        shots(page, f"{name}-{language}")
        small = page.evaluate(MEASURE, TAP)
        if small:
            problems.append(f"{name}: under {TAP} px: " + "; ".join(small[:6]))
        wider, culprits = page.evaluate(OVERFLOW)
        if wider:
            problems.append(f"{name}: wider than the phone: {culprits}")
    assert not problems, "\n".join(problems)

    # Ettore says yes to Belmonte's proposal with one tap
    ettore = pages["ettore.bruno"]
    ettore.goto("/me/links")
    yes = "Sì, sono io" if language == "it" else "Yes, that is me"
    ettore.get_by_role("button", name=yes).click()
    ettore.wait_for_url("**/me/links")
    assert ettore.locator(".message").inner_text().strip() in ("Collegato.", "Linked.")
    from scorebook.federations.models import PersonLink

    assert PersonLink.objects.get(user__username="ettore.bruno", club__slug="belmonte").status == (
        "accepted"
    )
