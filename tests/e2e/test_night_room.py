"""The director's room follows the tables: a deal entered on a player's phone reaches it
without a reload (nothing showed the director which tables were behind or which deals
were unconfirmed), and its log names the correction with who and why."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DEAL = {"sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
        "last_trick": "A"}  # fmt: skip


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_room_follows_the_tables(phone, night, shots, language):
    from scorebook.matches import services
    from scorebook.web.views.nights import ROOM_REFRESH_SECONDS

    people = night.people
    match = night.tressette
    services.table_create(night=night, number=1, name="Vicino al bancone", user=people["direttore"])
    first = services.deal_create(match=match, data=DEAL, expected_number=1, user=people["nino"])
    page = phone(people["direttore"], language)
    page.goto(f"/n/{night.pk}/")
    page.get_by_role("link", name={"it": "La sala", "en": "The room"}[language]).click()
    row = page.locator(f"#match-{match.pk}")
    words = {
        "it": (
            "1 smazzata",
            "Da confermare: smazzata 1",
            "2 smazzate",
            "smazzate 1, 2",
            "smazzata 1 corretta",
        ),
        "en": ("1 deal", "Unconfirmed: deal 1", "2 deals", "deals 1, 2", "deal 1 corrected"),
    }[language]
    assert words[0] in row.inner_text() and words[1] in row.inner_text()
    assert row.locator(".score, .num").all_inner_texts() == ["7", "4"]
    services.deal_create(match=match, data=DEAL, expected_number=2, user=people["nino"])
    services.deal_correct(
        deal=first,
        data=DEAL,
        reason="Salvo aveva 12 terzi",
        user=people["ettore"],
        expected_version=1,
    )
    page.wait_for_function(
        f"() => document.querySelector('#match-{match.pk}').textContent.includes('{words[2]}')",
        timeout=(ROOM_REFRESH_SECONDS + 10) * 1000,
    )
    row = page.locator(f"#match-{match.pk}")
    assert words[3] in row.inner_text()
    log = page.locator("#log")
    assert words[4] in log.inner_text() and "Salvo aveva 12 terzi" in log.inner_text()
    assert "Ettore" in log.inner_text()
    shots(page, f"night-room-{language}")
    page.goto(f"/n/{night.pk}/close")
    assert words[3] in page.locator("#pending").inner_text()
    shots(page, f"night-close-{language}")
