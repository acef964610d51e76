"""The per-seat facts stored at entry (``matches.SeatFact``) and the rebuild that reads
them (issue 35).

Differential: random matches of every kind of game (pairs, free-for-all, chips, bids,
sides, events) entered, corrected and closed through the services; then the full rebuild
from the facts and the rebuild the way it was before them (decoding each match's and
deal's JSON) leave equal tables: leaderboards, contributions, ratings and their history.
And the facts the services wrote are the facts a fresh fill from the deal log writes
(the current versions', after any corrections)."""

from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorebook.matches import services as matches
from scorebook.matches.fill import fill
from scorebook.matches.models import Deal, Match, SeatFact
from scorebook.standings import refresh
from scorebook.standings.models import RatedMatch
from tests.standings import test_incremental_equals_rebuild as world
from tests.standings.conftest import A_WINS_DEAL

GAMES = {
    **world.GAMES,
    "terziglio_chips": ("terziglio", {"profile": "chips_1_2_4_8_16"}, ("P1", "P2", "P3")),
    "calabrasella": ("calabrasella", None, ("P1", "P2", "P3")),
    "spinado": ("spinado", None, ("P1", "P2", "P3", "P4")),
    "rovescino": ("rovescino", None, ("P1", "P2", "P3")),
    "tressette4i": ("tressette4i", None, ("P1", "P2", "P3", "P4")),
    "trappola": ("trappola", None, ("P1", "P2")),
}

#: After a match of each game on each night: deals (most), corrections, a close now and
#: then (it ends the night's open matches), another match.
ops = st.lists(
    st.tuples(
        st.sampled_from(["deal"] * 12 + ["correct"] * 3 + ["close", "match"]),
        st.integers(0, 2 * len(GAMES) - 1),
        st.integers(0, 2**16),
    ),
    min_size=1,
    max_size=80,
)


def facts(club):
    """The facts a reader keeps (the results' and the current deals'), comparable."""
    rows = SeatFact.objects.filter(match__night__club=club).exclude(deal__is_current=False)
    fields = [f.name for f in SeatFact._meta.concrete_fields if f.name != "id"]
    return sorted(
        tuple(str(v) for v in row)
        for row in rows.values_list(
            *[f"{f}_id" if f in ("match", "deal", "player") else f for f in fields]
        )
    )


def rated(club):
    """What each rated match rated (its fingerprint: the teams in order) and carries."""
    return sorted(
        RatedMatch.objects.filter(club=club).values_list(
            "game", "match_id", "seq", "finished_at", "fingerprint", "carry"
        )
    )


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ops=ops)
def test_the_rebuild_from_facts_equals_the_rebuild_from_json(db, eager, monkeypatch, ops):
    monkeypatch.setattr(world, "GAMES", GAMES)
    club, user, players, nights = world._world()
    played = []
    for night, name in enumerate(sorted(GAMES) * 2):
        world._apply(("match", name, night // len(GAMES)), club, user, players, nights, played)
    names = sorted(GAMES)
    for kind, a, b in ops:
        op = (kind, names[a % len(names)], b % 4) if kind == "match" else (kind, a, b)
        with TestCase.captureOnCommitCallbacks(execute=True):
            world._apply(op, club, user, players, nights, played)
    stored = facts(club)
    refresh.rebuild_clubs([club.pk], from_facts=False)
    before = world.tables(club)
    refresh.rebuild_clubs([club.pk])
    assert world.tables(club) == before
    fill(Match, Deal, SeatFact, start_over=True, quiet=True)
    assert facts(club) == stored  # written at entry = filled from the deal log


def _match(club, user, players, night):
    seats = {"N": players[0].pk, "E": players[1].pk, "S": players[2].pk, "W": players[3].pk}
    return matches.match_create(
        night=night, game="tressette4", rules={"profile": "classic_21"}, seats=seats, user=user
    )


def test_an_ordinary_deal_writes_no_facts_and_the_last_one_the_result(db, eager):
    club, user, players, nights = world._world()
    match = _match(club, user, players, nights[0])
    matches.deal_create(match=match, data=A_WINS_DEAL, expected_number=None, user=user)
    assert not SeatFact.objects.filter(match=match).exists()
    while Match.objects.get(pk=match.pk).status == "open":
        matches.deal_create(match=match, data=A_WINS_DEAL, expected_number=None, user=user)
    rows = SeatFact.objects.filter(match=match, deal=None)
    assert {r.seat: (r.won, r.lost) for r in rows} == {
        "N": (True, False),
        "E": (False, True),
        "S": (True, False),
        "W": (False, True),
    }


def test_a_correction_replaces_the_result_facts(db, eager):
    from tests.standings.conftest import B_WINS_DEAL

    club, user, players, nights = world._world()
    match = _match(club, user, players, nights[0])
    while Match.objects.get(pk=match.pk).status == "open":
        matches.deal_create(match=match, data=A_WINS_DEAL, expected_number=None, user=user)
    for deal in matches.current_deals(Match.objects.get(pk=match.pk)):
        matches.deal_correct(
            deal=deal, data=B_WINS_DEAL, reason="sheet", user=user, expected_version=None
        )
    rows = SeatFact.objects.filter(match=match, deal=None)
    assert {r.seat: r.won for r in rows} == {"N": False, "E": True, "S": False, "W": True}


def test_the_fill_resumes_from_the_last_match_with_facts(db, eager):
    club, user, players, nights = world._world()
    done = []
    for _ in range(3):
        match = _match(club, user, players, nights[0])
        while Match.objects.get(pk=match.pk).status == "open":
            matches.deal_create(match=match, data=A_WINS_DEAL, expected_number=None, user=user)
        done.append(match.pk)
    stored = facts(club)
    SeatFact.objects.filter(match_id__in=done[1:]).delete()  # stopped after the first
    assert fill(Match, Deal, SeatFact, quiet=True, batch=1) == 3  # the first one again, on
    assert facts(club) == stored
    assert fill(Match, Deal, SeatFact, quiet=True, batch=1) == 1  # only the last again
    assert facts(club) == stored


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**16), fixes=st.lists(st.integers(0, 2**16), max_size=4))
def test_finished_matches_of_every_game_rate_alike(db, eager, monkeypatch, seed, fixes):
    """Every game's match played to its end (the ratings of pairs, free-for-all, chips,
    bids and sides), some deals corrected: both rebuilds rate alike."""
    monkeypatch.setattr(world, "GAMES", GAMES)
    club, user, players, nights = world._world()
    played = []
    for n, name in enumerate(sorted(GAMES)):
        world._apply(("match", name, n % 4), club, user, players, nights, played)
        for step in range(60):
            if Match.objects.get(pk=played[-1].pk).status != "open":
                break
            world._apply(
                ("deal", len(played) - 1, seed + step), club, user, players, nights, played
            )
        for fix in fixes:
            world._apply(("correct", len(played) - 1, fix), club, user, players, nights, played)
    for match in played[:1] + played[-1:]:  # both nights closed: open-ended matches stop
        world._apply(("close", played.index(match), 0), club, user, players, nights, played)
    assert Match.objects.filter(night__club=club, status="finished").exists()
    stored = facts(club)
    refresh.rebuild_clubs([club.pk], from_facts=False)
    before = world.tables(club), rated(club)
    refresh.rebuild_clubs([club.pk])
    assert (world.tables(club), rated(club)) == before
    fill(Match, Deal, SeatFact, start_over=True, quiet=True)
    assert facts(club) == stored


def _statements(run):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as seen:
        run()
    return [q["sql"] for q in seen.captured_queries]


def test_a_deal_with_facts_costs_one_insert_more(db, eager):
    """Deal entry's statements: an ordinary deal writes no fact; a deal with facts (a
    Terziglio contract) or the deal that finishes a match one INSERT of its rows."""
    club, user, players, nights = world._world()
    match = _match(club, user, players, nights[0])

    def deal(m, data):
        return lambda: matches.deal_create(match=m, data=data, expected_number=None, user=user)

    ordinary = _statements(deal(match, A_WINS_DEAL))
    assert not [q for q in ordinary if "seatfact" in q]
    while True:
        seen = _statements(deal(match, A_WINS_DEAL))
        if Match.objects.get(pk=match.pk).status != "open":
            break
    assert len([q for q in seen if "seatfact" in q]) == 1
    assert SeatFact.objects.filter(match=match, deal=None).count() == 4
    terziglio = matches.match_create(
        night=nights[0],
        game="terziglio",
        rules=None,
        seats={"P1": players[0].pk, "P2": players[1].pk, "P3": players[2].pk},
        user=user,
    )
    data = world._random_deal(terziglio, [], 7)
    seen = _statements(deal(terziglio, data))
    assert len([q for q in seen if "seatfact" in q]) == 1
    assert len(seen) == len(ordinary) + 1


#: House-rule profiles the tests above do not play: declarations, tournament scoring,
#: rounds, leftover cards, chips, penalties; each game's other profiles.
HOUSE_RULES = {
    "t4_accuso_41": ("tressette4", {"profile": "accuso_41"}, ("N", "E", "S", "W")),
    "t4_torneo_31": ("tressette4", {"profile": "torneo_31"}, ("N", "E", "S", "W")),
    "t4_pe": ("tressette4", {"profile": "pe"}, ("N", "E", "S", "W")),
    "t3_col_morto": ("tressette3", {"profile": "col_morto"}, ("P1", "P2", "P3")),
    "t3_vc": ("tressette3", {"profile": "vc_13_each"}, ("P1", "P2", "P3")),
    "t2_rounds": ("tressette2", {"profile": "two_rounds_point_each_round"}, ("P1", "P2")),
    "traversone": ("traversone_pairs", {"profile": "bis_21"}, ("P1", "P2", "P3", "P4")),
    "rovescino_37no": ("rovescino", {"profile": "37no"}, ("P1", "P2", "P3")),
    "t4i_leftover": ("tressette4i", {"profile": "ti_leftover"}, ("P1", "P2", "P3", "P4")),
    "terziglio_pen": ("terziglio", {"profile": "pen_redeal"}, ("P1", "P2", "P3")),
    "terziglio_dma": ("terziglio", {"profile": "dma_1_2_3_6_12"}, ("P1", "P2", "P3")),
    "chiamata_torneo": ("chiamata", {"profile": "gg_torneo"}, ("P1", "P2", "P3", "P4")),
    "calabrasella_pagat": ("calabrasella", {"profile": "pagat_summary"}, ("P1", "P2", "P3")),
    "spinado_pkw": ("spinado", {"profile": "PKW"}, ("P1", "P2", "P3", "P4")),
    "trappola_single": ("trappola", {"profile": "cardano_single_deal"}, ("P1", "P2")),
}


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**16), fixes=st.lists(st.integers(0, 2**16), max_size=3))
def test_house_rules_ties_and_seasons_sum_alike(db, eager, monkeypatch, seed, fixes):
    """The rebuild from facts sums in the database (per season, game and player); the
    JSON path sums each match's contribution in Python. Every house-rule profile above
    played to its end or left open (a night's close ends it: drawn or unfinished results,
    tied free-for-all scores that share a rank), corrections, a match counted by two
    overlapping seasons and not by one that ended before it, and a rebuild of one season
    alone: equal tables."""
    import datetime

    from scorebook.standings.models import Season

    monkeypatch.setattr(world, "GAMES", HOUSE_RULES)
    club, user, players, nights = world._world()
    whole = Season.objects.create(club=club, name="Year", starts_on=datetime.date(2026, 1, 1))
    Season.objects.filter(club=club, name="Autumn").update(ends_on=datetime.date(2026, 11, 25))
    played = []
    for n, name in enumerate(sorted(HOUSE_RULES)):
        world._apply(("match", name, n % 4), club, user, players, nights, played)
        for step in range(60 if n % 3 else 3):  # every third one left open
            if Match.objects.get(pk=played[-1].pk).status != "open":
                break
            world._apply(
                ("deal", len(played) - 1, seed + step), club, user, players, nights, played
            )
        for fix in fixes:
            world._apply(("correct", len(played) - 1, fix), club, user, players, nights, played)
    world._apply(("close", 0, 0), club, user, players, nights, played)  # the first night
    refresh.rebuild_clubs([club.pk], from_facts=False)
    before = world.tables(club), rated(club)
    refresh.rebuild_clubs([club.pk])
    assert (world.tables(club), rated(club)) == before
    for season in (whole.pk, Season.objects.get(club=club, name="Winter").pk):
        refresh.rebuild_clubs([club.pk], season_ids=[season], from_facts=False)
        before = world.tables(club)
        refresh.rebuild_clubs([club.pk], season_ids=[season])
        assert world.tables(club) == before
