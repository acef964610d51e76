"""The match form's house rules sit in a closed section (39 switches for Tressette in
pairs made the form several screens long on a phone): closed until one of them is refused,
its summary counting the switches changed from the profile. Plain HTML, no script."""

import re

from scorebook.matches.models import Match
from tests.web.test_pages import _switch_defaults, client_for

URL = "/n/{night}/matches/new?game=tressette4&players=4&profile=classic_21"


def _details(body):
    """The opening tag of the house rules' section and its summary's words."""
    found = re.search(r'(<details class="switches"[^>]*>)\s*<summary>(.*?)</summary>', body, re.S)
    assert found, "no house-rules section on the form"
    return found.group(1), found.group(2)


def _seats(people):
    n, e, s, w = people.seated
    return {"seats.N": n.pk, "seats.E": e.pk, "seats.S": s.pk, "seats.W": w.pk}


def test_the_house_rules_are_closed_on_a_new_form_and_hold_every_switch(club, people, world):
    client = client_for(people, "scorer")
    for language, words in (
        ("en", "to 21, no declarations (change them one by one)"),
        ("it", "a 21, senza accusi (cambiale una per una)"),
    ):
        body = client.get(URL.format(**world), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        tag, summary = _details(body)
        assert " open" not in tag
        assert words in summary
        section = body.split(tag, 1)[1].split("</details>", 1)[0]
        assert 'name="rules.t4.target"' in section and 'name="rules.core.direction"' in section
        assert 'name="seats.N"' not in section  # the seats stay in sight


def test_a_refused_switch_opens_the_house_rules(club, people, world):
    client = client_for(people, "scorer")
    url = URL.format(**world)
    form = {**_switch_defaults(client.get(url).content.decode()), **_seats(people)}
    before = Match.objects.count()
    response = client.post(
        url, {**form, "stake_amount": "0", "rules.t4.target": "0"}, HTTP_ACCEPT_LANGUAGE="it"
    )
    body = response.content.decode()
    assert response.status_code == 400 and Match.objects.count() == before
    tag, summary = _details(body)
    assert " open" in tag
    assert "1 regola cambiata" in summary  # 0 is not 21
    section = body.split(tag, 1)[1].split("</details>", 1)[0]
    assert re.search(r'id="id_rules\.t4\.target".*?<p class="error">', section, re.S)


def test_another_error_keeps_them_closed_and_counts_the_changes(club, people, world):
    client = client_for(people, "scorer")
    url = URL.format(**world)
    changed = {"rules.t4.target": "31", "rules.core.direction": "clockwise"}
    form = {**_switch_defaults(client.get(url).content.decode()), **changed}
    for language, words in (("en", "2 switches changed"), ("it", "2 regole cambiate")):
        response = client.post(  # no seats: refused next to the seats, not the switches
            url, {**form, "stake_amount": "0"}, HTTP_ACCEPT_LANGUAGE=language
        )
        body = response.content.decode()
        assert response.status_code == 400
        tag, summary = _details(body)
        assert " open" not in tag and words in summary, summary
        # the changes are kept for the next try
        assert re.search(r'name="rules.t4.target" value="31"', body)
        assert re.search(r'<option value="clockwise" selected>', body)


def test_the_clubs_own_games_come_first(club, people, world):
    """Tressette a coppie, the game of every match the club has played, was tenth of
    eleven on "Which game?", under games the club never plays."""
    client = client_for(people, "scorer")
    body = client.get(f"/n/{world['night']}/matches/new", HTTP_ACCEPT_LANGUAGE="it")
    games = re.findall(r'href="\?game=(\w+)&amp;players=', body.content.decode())
    assert games[0] == "tressette4"
    rest = list(dict.fromkeys(games[1:]))
    assert rest[:2] == ["calabrasella", "chiamata"]  # then by name


def test_every_seat_problem_is_said_at_once_next_to_its_seat(club, people, world):
    """One player in two seats was refused at the top of the form, alone ('Each seat needs
    a different player'), the other problems (an empty seat) only on the next try."""
    client = client_for(people, "scorer")
    url = URL.format(**world)
    n, e, s, w = people.seated
    form = {**_switch_defaults(client.get(url).content.decode()), "stake_amount": "0"}
    seats = {"seats.N": n.pk, "seats.E": e.pk, "seats.S": n.pk}  # Nino twice, W empty
    before = Match.objects.count()
    response = client.post(url, {**form, **seats}, HTTP_ACCEPT_LANGUAGE="it")
    body = response.content.decode()
    assert Match.objects.count() == before
    assert 'class="errors"' not in body.split("<fieldset>", 1)[0]  # nothing at the top
    fields = re.findall(r'<label for="id_seats\.(\w)">.*?</div>', body, re.S)
    assert fields, body
    said = {
        seat: re.findall(r'<p class="error">(.*?)</p>', block)
        for seat, block in zip(
            re.findall(r'<label for="id_seats\.(\w)">', body),
            re.findall(r'<label for="id_seats\.\w">(.*?)</div>', body, re.S),
            strict=True,
        )
    }
    assert said["N"] == ["Nino siede anche al posto S."]
    assert said["S"] == ["Nino siede anche al posto N."]
    assert said["W"] == ["Scegli un giocatore o scrivi il nome di un ospite."]
    assert said["E"] == []
