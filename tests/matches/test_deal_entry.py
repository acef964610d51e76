"""Deal entry resumes from the match's stored state: deal 30 costs what deal 1 does, and
the state it stores is exactly what folding every deal from the start gives."""

import random

import pytest
from django.db import connection
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext

from scorebook.clubs.models import Player
from scorebook.matches import services
from scorebook.matches.models import Deal, Match
from scorebook.rules import games, get_game
from tests import builders as build

SIDES = build.A_WINS


def new_match(people, night, game_key, rules=None):
    game = get_game(game_key)
    seats = game.new_match(game.rules(rules), None, None).seats
    players = list(people.seated)
    while len(players) < len(seats):
        players.append(Player.objects.create(club=people.club, name=f"Guest {len(players)}"))
    return services.match_create(
        night=night,
        game=game_key,
        rules=rules,
        seats={seat: p.pk for seat, p in zip(seats, players, strict=False)},
        user=people.scorer,
    )


def entry_queries(match, number, user):
    with CaptureQueriesContext(connection) as queries:
        services.deal_create(match=match.pk, data=SIDES, expected_number=number, user=user)
    return [q["sql"] for q in queries.captured_queries]


def test_deal_30_asks_the_database_what_deal_1_does_and_reads_no_earlier_deal(people, night):
    match = new_match(people, night, "tressette4", {"t4.target": 1000})
    scorer = people.scorer
    first = entry_queries(match, 1, scorer)
    for number in range(2, 30):
        services.deal_create(match=match, data=SIDES, expected_number=number, user=scorer)
    thirtieth = entry_queries(match, 30, scorer)
    assert len(thirtieth) == len(first)
    table = Deal._meta.db_table
    touching_deals = [sql for sql in thirtieth if table in sql]
    assert len(touching_deals) == 1 and touching_deals[0].lstrip().upper().startswith("INSERT")


#: What one deal entry through the API asks the database, in order (under a test's
#: transaction each atomic block is a savepoint). A new statement on the hot path must
#: be added here on purpose: the bench figures in docs/performance.md count these.
API_DEAL_ENTRY = (
    "SAVEPOINT",  # the Idempotency-Key's transaction (core/idempotency.py)
    "SELECT auth_user.* FROM",  # the token's user (api/authentication.py, core/hotpath.py)
    "SAVEPOINT",  # deal_create's
    "SELECT matches_match.*",  # the match, locked (FOR UPDATE on PostgreSQL)
    "SELECT matches_night.status,",  # after the lock: the night's status, its club, the role
    "INSERT INTO matches_deal",
    "UPDATE matches_match",  # the state, save(update_fields=...)
    "INSERT INTO standings_stalemark",  # the standings' outbox
    "RELEASE SAVEPOINT",
    "INSERT INTO matches_idempotencykey",  # the answer, in the same transaction
    "RELEASE SAVEPOINT",
)


def test_deal_entry_through_the_api_runs_these_statements(people, night, django_assert_num_queries):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    match = new_match(people, night, "tressette4", {"t4.target": 1000})
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people.scorer).key}")
    for number in (1, 2):  # deal 2 as deal 1: nothing read on the first only
        with django_assert_num_queries(len(API_DEAL_ENTRY)) as queries:
            answer = client.post(
                f"/api/v1/matches/{match.pk}/deals",
                {"deal": SIDES, "number": number},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"entry-{number}",
            )
        assert answer.status_code == 201, answer.json()
        said = [" ".join(q["sql"].replace('"', "").split()[:3]) for q in queries.captured_queries]
        for sql, expected in zip(said, API_DEAL_ENTRY, strict=True):
            assert sql.startswith(expected), (sql, expected)


def test_a_state_stored_before_resuming_existed_is_folded_once(people, night):
    match = new_match(people, night, "tressette4", {"t4.target": 1000})
    scorer = people.scorer
    for number in (1, 2):
        services.deal_create(match=match, data=SIDES, expected_number=number, user=scorer)
    match.refresh_from_db()
    resumed = dict(match.state)
    old = {k: v for k, v in resumed.items() if k != "format"}
    Match.objects.filter(pk=match.pk).update(state=old)
    services.deal_create(match=match, data=SIDES, expected_number=3, user=scorer)
    match.refresh_from_db()
    assert match.state["format"] == resumed["format"]
    assert match.state["deals_played"] == 3
    assert match.state["totals"] == {"A": 21, "B": 12}


GAMES = sorted(games())


@pytest.mark.parametrize("game_key", GAMES)
def test_the_stored_state_is_the_fold_of_every_deal(people, night, game_key):
    """Deal by deal through the service, at random levels: after each deal the stored
    state and results equal a fold of all current inputs from the start."""
    match = new_match(people, night, game_key)
    game = get_game(game_key)
    rules = game.rules(match.rules["values"])
    rng = random.Random(game_key)
    scorer = people.scorer
    for number in range(1, 13):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        state = services.fold(match, [d.input for d in services.current_deals(match)]).state
        level = rng.choice(game.levels)
        data = game.random_deal(rng, rules, state, level)
        services.deal_create(match=match, data=data, expected_number=number, user=scorer)
        match.refresh_from_db()
        deals = services.current_deals(match)
        folded = services.fold(match, [d.input for d in deals])
        assert match.state == folded.state.as_dict()
        assert match.result == (folded.state.outcome.as_dict() if folded.state.outcome else None)
        assert [d.result for d in deals] == [r.as_dict() for r in folded.results]


# -- writes that skip save() ------------------------------------------------------------------


def written_without_save(run):
    """The models ``run`` writes (INSERT or UPDATE) without going through ``save()``:
    bulk_create, QuerySet.update or plain SQL. A receiver hooked to their save would
    silently miss those writes."""
    from django.apps import apps

    saved = set()

    def seen(sender, **kwargs):
        saved.add(sender)

    tables = {model._meta.db_table: model for model in apps.get_models()}
    pre_save.connect(seen, dispatch_uid="written_without_save")
    try:
        with CaptureQueriesContext(connection) as queries:
            run()
    finally:
        pre_save.disconnect(dispatch_uid="written_without_save")
    written = set()
    for query in queries.captured_queries:
        words = query["sql"].replace('"', " ").split()
        verb = words[0].upper()
        if verb in ("INSERT", "UPDATE"):
            # INSERT [OR IGNORE] INTO <table> (SQLite's ON CONFLICT DO NOTHING), UPDATE <table>
            name = words[words.index("INTO") + 1] if verb == "INSERT" else words[1]
            written.add(tables[name])
    return written - saved


def signal_check(models):
    """The models among ``models`` that a pre_save or post_save receiver listens to."""
    return [m for m in models if pre_save.has_listeners(m) or post_save.has_listeners(m)]


@pytest.fixture
def per_deal_match(people, night):
    """A game settled every deal with money at stake: the ledger books on every entry."""
    key = next(k for k in GAMES if get_game(k).settles_per_deal(get_game(k).rules(None)))
    match = new_match(people, night, key)
    match.stake_amount, match.stake_currency, match.stake_unit = 1, "EUR", "money"
    match.save()
    return match


def enter_and_correct(match, people):
    game = get_game(match.game)
    rules = game.rules(match.rules["values"])
    rng = random.Random(7)
    scorer = people.scorer

    def run():
        for number in (1, 2):
            match.refresh_from_db()
            state = services.fold(match, [d.input for d in services.current_deals(match)]).state
            data = game.random_deal(rng, rules, state, game.levels[0])
            services.deal_create(match=match, data=data, expected_number=number, user=scorer)
        deal = Deal.objects.get(match=match, number=1)
        services.deal_correct(
            deal=deal,
            data=deal.input,
            reason="same again",
            user=people.director,
            expected_version=1,
        )

    return run


def test_nothing_listens_to_the_save_of_a_model_written_without_save(people, per_deal_match):
    skipped = written_without_save(enter_and_correct(per_deal_match, people))
    assert Deal not in skipped and Match not in skipped
    assert signal_check(skipped) == []


def test_the_check_fails_once_a_receiver_listens(people, per_deal_match):
    skipped = written_without_save(enter_and_correct(per_deal_match, people))
    assert skipped, "the ledger books with bulk_create: there is something to guard"
    model = sorted(skipped, key=lambda m: m._meta.label)[0]

    def receiver(sender, **kwargs):
        pass

    post_save.connect(receiver, sender=model)
    try:
        assert signal_check(skipped) == [model]
    finally:
        post_save.disconnect(receiver, sender=model)


def test_a_deal_after_a_finished_match_is_refused_as_finished_not_as_a_conflict(people, night):
    """A phone's waiting deal 2 meets a match the director finished with its final score
    (no deal stored): it is refused as match.finished (the phone offers to discard it),
    not as a conflict with nothing to compare (deal.conflict). A deal number that is
    stored is still a conflict."""
    match = new_match(people, night, "tressette4")
    services.match_record_final(match=match, totals={"A": 41, "B": 20}, user=people.director)
    with pytest.raises(services.MatchFinished):
        services.deal_create(match=match, data=SIDES, expected_number=2, user=people.scorer)
    other = new_match(people, night, "tressette4")
    services.deal_create(match=other, data=SIDES, expected_number=1, user=people.scorer)
    with pytest.raises(services.DealConflict):
        services.deal_create(match=other, data=SIDES, expected_number=1, user=people.scorer)
