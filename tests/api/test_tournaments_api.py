"""Tonight's tournament through HTTP (issue 27): created on a night, pairs and singles
registered at the door, the draw, the rounds started with their matches by table, swaps,
byes, forfeits, withdrawals, the standings with the criterion per row, the pot and the
finish; bad input is a typed refusal that stores nothing; another club's ids are 404."""

import pytest

from scorebook.clubs.models import Club, Player
from scorebook.matches.models import Match
from scorebook.tournaments.models import Entry, Pairing, Single, Tournament
from tests.api.common import api
from tests.tournaments.helpers import finish_match, players

BASE = "/api/v1/tournaments"


def create(client, night, **extra):
    body = {
        "night": night.pk,
        "name": "Torneo di San Rocco",
        "game": "tressette4",
        "rules": {"profile": "classic_21"},
        "rounds": 3,
        **extra,
    }
    return client.post(BASE, body, format="json")


def six_pairs(people, client, tid, count=6):
    ps = players(people.club, 2 * count)
    ids = []
    for i in range(count):
        answer = client.post(
            f"{BASE}/{tid}/entries", {"players": [ps[2 * i].pk, ps[2 * i + 1].pk]}, format="json"
        )
        assert answer.status_code == 201, answer.json()
        ids.append(answer.json()["id"])
    return ids


def codes(answer):
    return [e["code"] for e in answer.json()["errors"]]


def test_a_swiss_night_through_the_api(people, night):
    director = api(people, "director")
    created = create(director, night, entry_fee="5.00", currency="EUR", prizes=["50", "30"])
    assert created.status_code == 201, created.json()
    tid = created.json()["id"]
    # a pair of a member and a new guest in one step
    nino = people.seated[0]
    pair = director.post(f"{BASE}/{tid}/entries", {"players": [nino.pk, "Zio Tano"]}, format="json")
    assert pair.status_code == 201, pair.json()
    assert pair.json()["player_names"] == [nino.name, "Zio Tano"]
    assert Player.objects.filter(club=people.club, name="Zio Tano", guest=True).exists()
    entries = [pair.json()["id"], *six_pairs(people, director, tid, 3)]
    # two singles drawn into a pair, once
    for name in ("Lia", "Tano"):
        assert (
            director.post(f"{BASE}/{tid}/singles", {"player": name}, format="json").status_code
            == 201
        )
    drawn = director.post(f"{BASE}/{tid}/draw")
    assert drawn.status_code == 201, drawn.json()
    assert len(drawn.json()["entries"]) == 1 and drawn.json()["seed"]
    assert codes(director.post(f"{BASE}/{tid}/draw")) == ["tournament.nothing_to_draw"]
    registered = director.get(f"{BASE}/{tid}/entries").json()
    assert len(registered["entries"]) == 5 and registered["singles"] == []
    assert director.get(f"{BASE}/{tid}/prizes").json()["pot"] == "50.00"

    # round 1: paired, a swap, then started with a match per table
    paired = director.post(f"{BASE}/{tid}/pair")
    assert paired.status_code == 201, paired.json()
    lines = paired.json()["lines"]
    assert paired.json()["status"] == "paired" and len(lines) == 3  # 5 pairs: one bye
    assert lines[-1]["away"] is None and lines[-1]["status"] == "bye"
    first, second = lines[0]["home"], lines[1]["home"]
    swapped = director.post(f"{BASE}/{tid}/swap", {"first": first, "second": second}, format="json")
    assert swapped.status_code == 200, swapped.json()
    assert swapped.json()["lines"][0]["home"] == second
    started = director.post(f"{BASE}/{tid}/start")
    assert started.status_code == 200, started.json()
    tables = [line for line in started.json()["lines"] if line["away"] is not None]
    assert [line["table"] for line in tables] == [1, 2]
    assert all(len(line["matches"]) == 1 for line in tables)
    # pairing the next round while matches are open is refused, nothing stored
    assert codes(director.post(f"{BASE}/{tid}/pair")) == ["tournament.match_open"]
    # one table plays, the other forfeits a tavolino with a reason
    finish_match(people, Match.objects.get(pk=tables[0]["matches"][0]["id"]))
    no_reason = director.post(
        f"{BASE}/{tid}/forfeit",
        {"pairing": tables[1]["pairing"], "entry": tables[1]["away"], "reason": " "},
        format="json",
    )
    assert codes(no_reason) == ["tournament.reason_needed"]
    forfeit = director.post(
        f"{BASE}/{tid}/forfeit",
        {"pairing": tables[1]["pairing"], "entry": tables[1]["away"], "reason": "went home"},
        format="json",
    )
    assert forfeit.status_code == 200, forfeit.json()
    assert forfeit.json()["status"] == "closed"

    standings = director.get(f"{BASE}/{tid}/standings").json()
    assert len(standings) == 5
    assert {row["match_points"] for row in standings} == {2, 0}
    assert all(
        row["decided_by"]
        in {None, "match_points", "buchholz", "point_difference", "head_to_head", "lot"}
        for row in standings
    )
    assert standings[0]["decided_by"] is not None
    # a withdrawal between rounds (the fee stays in the pot after round 1)
    out = director.post(
        f"{BASE}/{tid}/withdraw", {"entry": entries[3], "reason": "a train to catch"}, format="json"
    )
    assert out.status_code == 200, out.json()
    assert out.json()["withdrawn_after"] == 1
    assert director.get(f"{BASE}/{tid}/prizes").json()["pot"] == "50.00"
    csv = director.get(f"{BASE}/{tid}/standings/csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")

    for number in (2, 3):
        started = director.post(f"{BASE}/{tid}/start")
        assert started.status_code == 200, started.json()
        assert started.json()["number"] == number
        names = {line["home"] for line in started.json()["lines"]} | {
            line["away"] for line in started.json()["lines"]
        }
        assert entries[3] not in names  # the withdrawn pair is paired no more
        for line in started.json()["lines"]:
            for m in line["matches"]:
                finish_match(people, Match.objects.get(pk=m["id"]))
    assert director.get(f"{BASE}/{tid}/next").json()["can_finish"] is True
    finished = director.post(f"{BASE}/{tid}/finish")
    assert finished.status_code == 200, finished.json()
    assert finished.json()["status"] == "finished"
    assert director.get(f"{BASE}/{tid}/prizes").json()["pot"] == "0.00"
    assert len(director.get(f"{BASE}/{tid}/rounds").json()) == 3


def test_members_read_and_only_directors_write(people, night):
    tid = create(api(people, "director"), night).json()["id"]
    member = api(people, "member")
    assert member.get(f"{BASE}/{tid}").status_code == 200
    assert member.get(f"{BASE}/{tid}/standings").status_code == 200
    refused = member.post(f"{BASE}/{tid}/entries", {"players": ["A", "B"]}, format="json")
    assert refused.status_code == 403
    assert create(api(people, "scorer"), night, name="Altro").status_code == 403
    taken = create(api(people, "director"), night)
    assert taken.status_code == 409 and codes(taken) == ["tournament.name_taken"]
    assert not Entry.objects.exists() and Tournament.objects.count() == 1


def test_another_clubs_tournament_entries_and_pairings_are_404(people, night):
    director = api(people, "director")
    tid = create(director, night).json()["id"]
    six_pairs(people, director, tid)
    director.post(f"{BASE}/{tid}/start")
    assert api(people, "stranger").get(f"{BASE}/{tid}").status_code == 404
    assert api(people, "stranger").post(f"{BASE}/{tid}/start").status_code == 404
    # another club's night cannot carry our tournament
    other = Club.objects.create(name="Altro", slug="altro")
    from scorebook.matches.models import Night

    theirs = Night.objects.create(club=other, date=night.date)
    assert create(director, theirs).status_code == 400
    # an entry or a pairing of another tournament is as unknown as a missing one
    second = create(director, night, name="Secondo").json()["id"]
    foreign = Entry.objects.filter(tournament_id=tid).first()
    pairing = Pairing.objects.filter(round__tournament_id=tid).first()
    assert (
        director.post(f"{BASE}/{second}/bye", {"entry": foreign.pk}, format="json").status_code
        == 404
    )
    body = {"pairing": pairing.pk, "entry": foreign.pk, "reason": "x"}
    assert director.post(f"{BASE}/{second}/forfeit", body, format="json").status_code == 404
    assert director.post(f"{BASE}/{tid}/bye", {"entry": 10**9}, format="json").status_code == 404


@pytest.mark.parametrize(
    "body, code",
    [
        ({"prizes": ["60", "50"], "entry_fee": "5", "currency": "EUR"}, "tournament.prizes_over"),
        ({"game": "no such game"}, "tournament.not_pairs"),
        ({"rounds": 0}, "input.min_value"),
        ({"format": "bogus"}, "input.invalid_choice"),
        ({"tiebreaks": ["lot", "lot"]}, "tournament.settings"),
        ({"currency": "euro"}, "input.invalid"),
        ({"rules": {"profile": "no such profile"}}, None),
        ({"name": ""}, None),
        ({"entry_fee": "-1"}, None),
    ],
)
def test_bad_settings_are_refused_in_words_and_nothing_stored(people, night, body, code):
    answer = create(api(people, "director"), night, **body)
    assert answer.status_code == 400, answer.json()
    errors = answer.json()["errors"]
    assert errors and all(e["message"] for e in errors)
    if code is not None:
        assert code in [e["code"] for e in errors], errors
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "players",
    [[], [1], ["A", "A"], [True, "B"], [None, "B"], [{"x": 1}, "B"], ["", "B"], [0, "B"],
     ["x" * 81, "B"], [2**70, "B"], "AB", [1, 2, 3]],
)  # fmt: skip
def test_bad_pairs_are_refused_and_nothing_stored(people, night, players):
    director = api(people, "director")
    tid = create(director, night).json()["id"]
    before = Player.objects.count()
    answer = director.post(f"{BASE}/{tid}/entries", {"players": players}, format="json")
    assert answer.status_code in (400, 404, 409), answer.json()
    assert answer.json()["errors"]
    assert not Entry.objects.exists() and Player.objects.count() == before


def test_another_clubs_player_is_refused_as_unknown(people, night):
    director = api(people, "director")
    tid = create(director, night).json()["id"]
    other = Club.objects.create(name="Altro", slug="altro")
    theirs = Player.objects.create(club=other, name="Forestiero")
    answer = director.post(
        f"{BASE}/{tid}/entries", {"players": [theirs.pk, "Ospite"]}, format="json"
    )
    assert answer.status_code == 400 and codes(answer) == ["tournament.unknown_player"]
    assert not Entry.objects.exists() and not Player.objects.filter(name="Ospite").exists()


def test_an_odd_draw_and_a_round_with_singles_waiting_are_refused(people, night):
    director = api(people, "director")
    tid = create(director, night).json()["id"]
    six_pairs(people, director, tid)
    director.post(f"{BASE}/{tid}/singles", {"player": "Solo"}, format="json")
    assert codes(director.post(f"{BASE}/{tid}/draw")) == ["tournament.singles_odd"]
    refused = director.post(f"{BASE}/{tid}/start")
    assert refused.status_code in (400, 409) and refused.json()["errors"]
    assert not Pairing.objects.exists() and Single.objects.filter(entry=None).count() == 1


def test_pairing_a_withdrawn_entry_is_refused(people, night):
    director = api(people, "director")
    tid = create(director, night).json()["id"]
    ids = six_pairs(people, director, tid)
    director.post(f"{BASE}/{tid}/withdraw", {"entry": ids[0], "reason": "ill"}, format="json")
    paired = director.post(f"{BASE}/{tid}/pair").json()
    assert ids[0] not in {line["home"] for line in paired["lines"]}
    refused = director.post(f"{BASE}/{tid}/bye", {"entry": ids[0]}, format="json")
    assert refused.status_code in (400, 409) and refused.json()["errors"]
    assert Pairing.objects.filter(home_id=ids[0]).count() == 0


def test_settings_change_through_the_api_before_round_one_and_only_some_after(people, night):
    director = api(people, "director")
    tid = create(director, night, entry_fee="5.00", currency="EUR").json()["id"]
    changed = director.patch(
        f"{BASE}/{tid}", {"rounds": 4, "prizes": ["60", "40"], "name": "Coppa"}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["rounds"] == 4 and changed.json()["name"] == "Coppa"
    assert changed.json()["prizes"] == ["60.00", "40.00"]
    over = director.patch(f"{BASE}/{tid}", {"prizes": ["80", "40"]}, format="json")
    assert over.status_code == 400 and codes(over) == ["tournament.prizes_over"]
    six_pairs(people, director, tid, count=4)
    fee = director.patch(f"{BASE}/{tid}", {"entry_fee": "7.00"}, format="json")
    assert fee.status_code == 400 and codes(fee) == ["tournament.settings"]
    assert director.post(f"{BASE}/{tid}/pair", {}, format="json").status_code == 201
    fixed = director.patch(f"{BASE}/{tid}", {"rounds": 2}, format="json")
    assert fixed.status_code == 400 and codes(fixed) == ["tournament.settings"]
    assert fixed.json()["errors"][0]["path"] == "rounds"
    chain = ["match_points", "point_difference", "lot"]
    ok = director.patch(f"{BASE}/{tid}", {"tiebreaks": chain, "points_win": 3}, format="json")
    assert ok.status_code == 200, ok.json()
    assert Tournament.objects.get(pk=tid).tiebreaks == chain
    assert Tournament.objects.get(pk=tid).rounds == 4
    member = api(people, "member")
    assert member.patch(f"{BASE}/{tid}", {"name": "X"}, format="json").status_code == 403
    assert director.put(f"{BASE}/{tid}", {"name": "X"}, format="json").status_code == 405


def test_a_single_withdraws_through_the_api_with_the_fee_back(people, night):
    director = api(people, "director")
    tid = create(director, night, entry_fee="5.00", currency="EUR").json()["id"]
    single = director.post(f"{BASE}/{tid}/singles", {"player": "Lia"}, format="json").json()
    pot = lambda: director.get(f"{BASE}/{tid}/prizes").json()  # noqa: E731
    blank = director.post(
        f"{BASE}/{tid}/singles/withdraw", {"single": single["id"], "reason": ""}, format="json"
    )
    assert blank.status_code == 400
    gone = director.post(
        f"{BASE}/{tid}/singles/withdraw",
        {"single": single["id"], "reason": "Va via"},
        format="json",
    )
    assert gone.status_code == 204
    assert not Single.objects.filter(pk=single["id"]).exists()
    assert pot()["pot"] == "0.00"
    again = director.post(
        f"{BASE}/{tid}/singles/withdraw",
        {"single": single["id"], "reason": "Va via"},
        format="json",
    )
    assert again.status_code == 404
