"""Tonight's tournament on the pages, the rest of issue 27 (gaps seen on the phones): the
standings without a "Placed by" column (the criterion under the pair's name), the prizes
card saying the pot before the payout and who was paid what, every setting on the create
form and a settings page, la bella / a series' next match from the page, and the groups
and the knockout bracket. In Italian, through the test client."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.test import Client

from scorebook.matches.models import Match
from scorebook.tournaments import ranking, selectors
from scorebook.tournaments.models import Tournament
from scorebook.tournaments.services.results import tournament_finish
from scorebook.tournaments.services.rounds import round_start
from tests.tournaments.helpers import finish_match, play_round, with_pairs

MORE = {
    "name": "Torneo",
    "game": "tressette4",
    "format": "groups",
    "rounds": "3",
    "entry_fee": "10",
    "currency": "EUR",
    "prizes": "30, 20",
    "prize_kind": "fixed",
    "club_share": "5",
    "then_1": "head_to_head",
    "then_2": "buchholz",
    "then_3": "",
    "points_win": "3",
    "points_draw": "1",
    "points_loss": "0",
    "group_size": "3",
    "qualifiers": "2",
    "seeding": "lots",
    "series": "best_of",
    "series_games": "3",
}


def client_of(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(user)
    return client


def text_of(html):
    text = unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))
    return text.replace(" :", ":")


def test_the_standings_say_the_criterion_under_the_name_not_in_a_column(people, night):
    t = with_pairs(people, night, 4, rounds=1)
    round_start(tournament=t, user=people.director)
    play_round(people, t.round_set.get())
    html = client_of(people.director).get(f"/t/{t.pk}/").content.decode()
    table = html[html.index('id="standings"') : html.index('id="prizes"')]
    assert "Decisa da</th>" not in table  # no column of its own
    headers = re.findall(r"<th scope=\"col\"", table)
    assert len(headers) == 5  # #, pair, Pt, Bh, +/−
    assert table.count('class="placed-by meta"') == 4
    words = "punti partita|Buchholz|differenza punti di gioco|scontri diretti|sorteggio"
    assert len(re.findall(rf"decisa da: ({words})</span>", table)) == 4


def test_the_prizes_card_before_and_after_the_payout(people, night):
    t = with_pairs(people, night, 4, rounds=1, entry_fee="5", currency="EUR", prizes=["60", "40"])
    director = client_of(people.director)
    round_start(tournament=t, user=people.director)
    play_round(people, t.round_set.get())
    before = text_of(director.get(f"/t/{t.pk}/").content.decode())
    # the pot holds 4 pairs x 2 players x 5.00
    assert "Quota 5,00 EUR a giocatore; il montepremi è di 40,00 EUR" in before
    assert "1° posto: 60% del montepremi, al momento 24,00 EUR" in before
    assert "2° posto: 40% del montepremi, al momento 16,00 EUR" in before
    assert director.post(f"/t/{t.pk}/do/finish").status_code == 302
    after = text_of(director.get(f"/t/{t.pk}/").content.decode())
    first, second = [ids[0] for _place, ids in selectors.final_places(t)[:2]]
    names = dict(t.entries.values_list("pk", "name"))
    assert "prima dei premi il montepremi era di 40,00 EUR" in after
    assert f"1° posto {names[first]}: 24,00 EUR" in after
    assert f"2° posto {names[second]}: 16,00 EUR" in after
    assert " 0,00 EUR" not in after
    assert "60,00, 40,00" not in after


def test_the_create_form_takes_every_setting(people, night):
    director = client_of(people.director)
    page = director.get(f"/n/{night.pk}/tournaments/new").content.decode()
    assert "Altre opzioni" in page and 'name="series_games"' in page
    answer = director.post(f"/n/{night.pk}/tournaments/new", MORE)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    t = Tournament.objects.get()
    assert t.format == "groups" and t.group_size == 3 and t.qualifiers == 2
    assert t.seeding == "lots" and t.series == "best_of" and t.series_games == 3
    assert t.tiebreaks == ["match_points", "head_to_head", "buchholz"]
    assert (t.points_win, t.points_draw, t.points_loss) == (3, 1, 0)
    assert t.prize_kind == "fixed" and t.prizes == ["30.00", "20.00"]
    assert t.club_share == Decimal("5.00") and t.entry_fee == Decimal("10.00")


def test_the_create_form_refuses_a_tiebreak_twice_and_keeps_the_default_chain(people, night):
    director = client_of(people.director)
    twice = director.post(f"/n/{night.pk}/tournaments/new", {**MORE, "then_2": "head_to_head"})
    assert twice.status_code == 400
    assert "una volta sola" in twice.content.decode()
    assert not Tournament.objects.exists()
    short = {"name": "T", "game": "tressette4", "format": "swiss", "rounds": "2"}
    assert director.post(f"/n/{night.pk}/tournaments/new", short).status_code == 302
    t = Tournament.objects.get()
    assert t.tiebreaks == list(ranking.CRITERIA)
    assert (t.points_win, t.group_size, t.series) == (2, 4, "matches")


def test_the_settings_page_before_and_after_round_one(people, night):
    t = with_pairs(people, night, 4, rounds=2, entry_fee="5", currency="EUR", prizes=["100"])
    director = client_of(people.director)
    url = f"/t/{t.pk}/settings"
    assert f'href="{url}"' in director.get(f"/t/{t.pk}/").content.decode()
    form = director.get(url)
    assert form.status_code == 200 and "Impostazioni del torneo" in form.content.decode()
    assert client_of(people.member).get(url).status_code == 403
    assert client_of(people.stranger).get(url).status_code == 404
    changed = {**MORE, "name": "Torneo nuovo", "format": "knockout", "entry_fee": "5",
               "prize_kind": "percent", "prizes": "70, 30", "club_share": "0"}  # fmt: skip
    del changed["game"]
    assert director.post(url, changed).status_code == 302
    t.refresh_from_db()
    assert (t.name, t.format, t.series, t.series_games) == (
        "Torneo nuovo",
        "knockout",
        "best_of",
        3,
    )
    assert t.prizes == ["70.00", "30.00"]
    round_start(tournament=t, user=people.director)
    running = director.get(url).content.decode()
    assert "Il turno 1 è già abbinato" in running
    assert re.search(r'name="format"[^>]*disabled', running)
    # a fixed setting sent anyway is ignored (a disabled field); the prizes still change
    later = {**changed, "format": "swiss", "prizes": "60, 40", "points_win": "2"}
    assert director.post(url, later).status_code == 302
    t.refresh_from_db()
    assert t.format == "knockout" and t.prizes == ["60.00", "40.00"] and t.points_win == 2
    over = director.post(url, {**later, "prizes": "80, 40"})
    assert over.status_code in (400, 409) and "100" in over.content.decode()
    t.refresh_from_db()
    assert t.prizes == ["60.00", "40.00"]


def test_la_bella_and_a_series_next_match_from_the_page(people, night):
    t = with_pairs(people, night, 2, format="knockout", series="games", series_games=2)
    director = client_of(people.director)
    round_start(tournament=t, user=people.director)
    pairing = t.round_set.get().pairings.get()
    (first,) = Match.objects.filter(night=night, status="open")
    finish_match(people, first, home_wins=True)
    html = director.get(f"/t/{t.pk}/").content.decode()
    assert "Inizia la prossima partita della serie" in html and "serie 1–0" in html
    assert (
        client_of(people.member)
        .post(f"/t/{t.pk}/do/next-match", {"pairing": pairing.pk})
        .status_code
        == 403
    )
    assert director.post(f"/t/{t.pk}/do/next-match", {"pairing": pairing.pk}).status_code == 302
    (second,) = Match.objects.filter(night=night, status="open")
    finish_match(people, second, home_wins=False)
    html = director.get(f"/t/{t.pk}/").content.decode()
    assert "Gioca la bella" in html and "pari: si gioca la bella" in html
    assert director.post(f"/t/{t.pk}/do/next-match", {"pairing": pairing.pk}).status_code == 302
    assert pairing.games.count() == 3
    again = director.post(f"/t/{t.pk}/do/next-match", {"pairing": pairing.pk})
    assert again.status_code == 409 and pairing.games.count() == 3
    assert director.post(f"/t/{t.pk}/do/next-match", {"pairing": "x"}).status_code == 400


def test_groups_then_knockout_on_the_page(people, night):
    t = with_pairs(people, night, 6, format="groups", group_size=3, qualifiers=1)
    director = client_of(people.director)
    for _ in range(3):  # each group of 3 plays 3 rounds, one pair resting each
        round_ = round_start(tournament=t, user=people.director)
        play_round(people, round_)
    html = text_of(director.get(f"/t/{t.pk}/").content.decode())
    assert "Girone 1" in html and "Girone 2" in html
    assert html.count("passa il turno") == 2
    final = round_start(tournament=t, user=people.director)
    html = director.get(f"/t/{t.pk}/").content.decode()
    knockout = text_of(html[html.index('id="knockout"') :])
    assert "Finale" in knockout
    pairing = final.pairings.get()
    names = dict(t.entries.values_list("pk", "name"))
    assert names[pairing.home_id] in knockout and names[pairing.away_id] in knockout
    play_round(people, final)
    knockout = text_of(director.get(f"/t/{t.pk}/").content.decode().split('id="knockout"')[1])
    assert f"passa {names[pairing.home_id]}" in knockout


def test_a_straight_knockout_shows_its_bracket_from_round_one(people, night):
    t = with_pairs(people, night, 4, format="knockout")
    round_start(tournament=t, user=people.director)
    html = client_of(people.director).get(f"/t/{t.pk}/").content.decode()
    knockout = text_of(html[html.index('id="knockout"') :])
    assert "Semifinali" in knockout and "Finale" in knockout
    assert "vincente del turno precedente" in knockout.lower() or "vincit" in knockout.lower()


@pytest.mark.parametrize(
    "bad",
    [
        {"prizes": "999999, 1", "prize_kind": "percent"},
        {"prizes": "60, 50", "prize_kind": "percent", "club_share": "0"},
        {"club_share": "-1"},
        {"club_share": "99999999999"},
        {"points_win": "101"},
        {"series_games": "0"},
        {"then_1": "lot"},
        {"format": "league"},
        {"seeding": "\x00"},
        {"prize_kind": "both"},
        {"currency": "eur"},
        {"group_size": "6"},
        {"qualifiers": "3"},
        {"name": ""},
    ],
)
def test_bad_settings_are_refused_in_words_and_nothing_changes(people, night, bad):
    director = client_of(people.director)
    created = director.post(f"/n/{night.pk}/tournaments/new", {**MORE, **bad})
    assert created.status_code in (400, 409), created.status_code
    assert not Tournament.objects.exists()
    t = with_pairs(people, night, 2)
    before = Tournament.objects.values().get(pk=t.pk)
    changed = {k: v for k, v in {**MORE, **bad}.items() if k != "game"}
    answer = director.post(f"/t/{t.pk}/settings", changed)
    assert answer.status_code in (400, 409), answer.status_code
    assert Tournament.objects.values().get(pk=t.pk) == before


def test_the_settings_of_a_finished_tournament_are_refused(people, night):
    t = with_pairs(people, night, 2, rounds=1)
    round_start(tournament=t, user=people.director)
    play_round(people, t.round_set.get())
    tournament_finish(tournament=t, user=people.director)
    director = client_of(people.director)
    assert f"/t/{t.pk}/settings" not in director.get(f"/t/{t.pk}/").content.decode()
    answer = director.post(f"/t/{t.pk}/settings", {"name": "Nuovo", "format": "swiss"})
    assert answer.status_code == 409
    t.refresh_from_db()
    assert t.name != "Nuovo"


def test_the_director_cancels_the_tournament_from_the_page(people, night):
    t = with_pairs(people, night, 4, rounds=2, entry_fee="5", currency="EUR", prizes=["100"])
    round_start(tournament=t, user=people.director)
    director = client_of(people.director)
    page = director.get(f"/t/{t.pk}/").content.decode()
    assert "Annulla il torneo" in page and "do/cancel" in page
    assert director.post(f"/t/{t.pk}/do/cancel", {"reason": ""}).status_code == 400
    member = client_of(people.member)
    assert member.post(f"/t/{t.pk}/do/cancel", {"reason": "pioggia"}).status_code == 403
    t.refresh_from_db()
    assert t.status == "running"
    answer = director.post(f"/t/{t.pk}/do/cancel", {"reason": "manca la luce"})
    assert answer.status_code == 302
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert selectors.pot_balance(t) == 0
    assert not Match.objects.filter(night=night, status="open").exists()
    html = text_of(director.get(f"/t/{t.pk}/").content.decode())
    assert "ogni quota ancora nel montepremi è stata restituita" in html
    for action in ("do/cancel", "do/start", "do/pair", f"/t/{t.pk}/settings"):
        assert action not in director.get(f"/t/{t.pk}/").content.decode()
    again = director.post(f"/t/{t.pk}/do/cancel", {"reason": "di nuovo"})
    assert again.status_code == 409


def test_the_rounds_field_asks_how_many_rounds(people, night):
    """The number field's label was the Swiss format's own name ('turni all'italiana
    (sistema svizzero)' above a box holding 3), seen in the create form's screenshot."""
    page = client_of(people.director).get(f"/n/{night.pk}/tournaments/new").content.decode()
    label = re.search(r'<label for="id_rounds"[^>]*>(.*?)</label>', page, re.S)
    assert label is not None
    assert "Quanti turni" in text_of(label.group(1))
