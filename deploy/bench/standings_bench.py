"""`make bench-standings`: the standings on PostgreSQL with generated data.

1. Load BENCH_DEALS deals (default 100,000; issue 14 asks for 1,000,000 at 1,000 clubs:
   set BENCH_DEALS=1000000 on a machine that has the time) at BENCH_DEALS/1000 clubs with
   COPY: Tressette-in-4 and Terziglio matches cloned from matches the engine played.
2. Full rebuild (`manage.py rebuild_standings`, a subprocess: its peak RSS is measured)
   against one plain SQL pass over the same deals (GROUP BY player and season).
   Targets: ratio <= 3, peak RSS <= 512 MB.
3. A 50-row leaderboard over HTTP against a plain DRF list of 50 rows from one indexed
   table (the players endpoint), side by side with wrk. Target: ratio >= 0.8.
4. Freshness: one Celery worker (and beat) on a private redis-server, 16 clients entering
   deals over HTTP; the time from each deal's 201 to its effect in the leaderboard.
   Target: p95 <= 2 s.

Prints each figure and ratio. Not a test: nothing here passes or fails.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from deploy.bench.common import (  # noqa: E402
    copy_columns,
    free_port,
    fresh_database,
    wait_until_up,
)

PY = sys.executable
DEALS = int(os.environ.get("BENCH_DEALS", "100000"))
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/scorebook_bench_standings"
)
PORT = int(os.environ.get("BENCH_PORT") or free_port())
DURATION = os.environ.get("BENCH_DURATION", "15s")
CLIENTS = 16
PARTS = os.environ.get("BENCH_PARTS", "load,rebuild,http,fresh").split(",")
FRESH_DEALS = int(os.environ.get("BENCH_FRESH_DEALS", "6"))  # per client: 41 up, never ends
#: Clubs the deals are spread over (default one per 1,000 deals; bench-federation sets it).
CLUBS = int(os.environ.get("BENCH_CLUBS") or max(1, DEALS // 1000))


def env(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": DB_URL,
        "DEBUG": "0",
        "SECRET_KEY": "bench",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "SECURE_SSL_REDIRECT": "0",
        **extra,
    }


def reset_database() -> None:
    fresh_database(DB_URL)
    for command in (["migrate", "--noinput", "-v0"], ["createcachetable"]):  # as deployed
        subprocess.run([PY, "manage.py", *command], env=env(), cwd=ROOT, check=True)


def setup_django() -> None:
    os.environ.update(env())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")
    import django

    django.setup()


# -- data ----------------------------------------------------------------------------------


def templates(rng: random.Random):
    """Matches the engine played: (game, rules, seats, state, result, [(input, result)])."""
    from scorebook.rules import start_match

    found = []
    for game, rules, count in (("tressette4", {"profile": "classic_21"}, 40),
                               ("terziglio", None, 10)):  # fmt: skip
        for _ in range(count):
            g, resolved, state = start_match(game, rules, None, None)
            deals = []
            while not state.finished:
                data = g.random_deal(rng, resolved, state, "totals")
                deals.append((data, g.add_deal(state, data, resolved).as_dict()))
            out = state.outcome.as_dict() if state.outcome else None
            found.append((game, resolved.as_dict(), state.seats, state.as_dict(), out, deals))
    return found


def load(rng: random.Random) -> tuple[int, int]:
    """Clubs, players, a season and nights through the ORM; matches and deals by COPY."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.matches.models import Deal, Match, Night
    from scorebook.standings.models import Season

    clubs_n = CLUBS
    made = templates(rng)
    user = get_user_model().objects.create_user("bench-director", password="bench-pass-1")
    clubs = Club.objects.bulk_create(
        Club(name=f"Club {i}", slug=f"club-{i}", public=True) for i in range(clubs_n)
    )
    Membership.objects.bulk_create(Membership(club=c, user=user, role="owner") for c in clubs)
    players = Player.objects.bulk_create(
        Player(club=c, name=f"P{c.pk}-{j}")
        for c in clubs
        for j in range(60 if c is clubs[0] else 8)
    )
    by_club: dict[int, list[int]] = {}
    for p in players:
        by_club.setdefault(p.club_id, []).append(p.pk)
    Season.objects.bulk_create(
        Season(club=c, name="2026", starts_on=date(2026, 1, 1)) for c in clubs
    )
    nights = Night.objects.bulk_create(
        Night(club=c, date=date(2026, 1, 1) + timedelta(days=7 * k), status="closed")
        for c in clubs
        for k in range(10)
    )
    nights_of: dict[int, list[int]] = {}
    for n in nights:
        nights_of.setdefault(n.club_id, []).append(n.pk)
    # A plan of the matches first (ids, club, template, players, night), then each table
    # streamed by COPY in chunks: a template's JSON is serialised once, not per clone, and
    # nothing the size of the whole load is held in memory (a million deals is ~1 GB of text).
    made = [
        (game, _j(rules), seats, _j(state), _j(out), [(_j(d), _j(r)) for d, r in deals])
        for game, rules, seats, state, out, deals in made
    ]
    plan = []
    match_id, total = 1, 0
    per_club = DEALS // clubs_n
    for club in clubs:
        count = 0
        while count < per_club:
            template = rng.randrange(len(made))
            seats = made[template][2]
            pids = rng.sample(by_club[club.pk], len(seats))
            plan.append((match_id, template, pids, rng.choice(nights_of[club.pk])))
            count += len(made[template][5])
            match_id += 1
        total += count
    stamp = time.time()
    m, d = Match._meta.db_table, Deal._meta.db_table
    # Every other column (ended_reason, a column added later) at its model default.
    match_columns, match_rest = copy_columns(Match, [
        "id", "night_id", "game", "rules", "players", "seats", "first_dealer", "stake_amount",
        "stake_currency", "stake_unit", "status", "state", "result", "version", "created_at",
    ])  # fmt: skip
    deal_columns, deal_rest = copy_columns(Deal, [
        "id", "match_id", "number", "version", "is_current", "input", "level", "result",
        "entered_at", "client", "reason",
    ])  # fmt: skip
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {m} ({match_columns}) FROM STDIN") as copy:
            for chunk in _chunks(plan):
                rows = []
                for pk, template, pids, night in chunk:
                    game, rules, seats, state, out, deals = made[template]
                    seat_map = json.dumps(dict(zip(seats, pids, strict=True)))
                    rows.append("\t".join([
                        str(pk), str(night), game, rules, str(len(seats)), seat_map, seats[0],
                        "0", "", "points", "finished", state, out, str(len(deals)), _ts(stamp),
                    ]) + match_rest)  # fmt: skip
                copy.write("\n".join(rows) + "\n")
        deal_id = 1
        with cursor.copy(f"COPY {d} ({deal_columns}) FROM STDIN") as copy:
            for chunk in _chunks(plan):
                rows = []
                for pk, template, _pids, _night in chunk:
                    for number, (data, result) in enumerate(made[template][5], 1):
                        stamp += 0.001
                        rows.append("\t".join([
                            str(deal_id), str(pk), str(number), "1", "t", data, "totals",
                            result, _ts(stamp), "", "",
                        ]) + deal_rest)  # fmt: skip
                        deal_id += 1
                copy.write("\n".join(rows) + "\n")
        copy_facts(cursor, made, plan)
        for table in (m, d):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        cursor.execute(f"ANALYZE {m}; ANALYZE {d}; ANALYZE matches_seatfact")
    return clubs_n, total


FACT_FIELDS = (
    "seat", "position", "side", "won", "lost", "points_for", "points_against", "units", "score",
    "event", "made", "bid", "bid_won", "team", "team_place", "winner", "contract",
)  # fmt: skip


#: What a row of the other kind (a match's, a deal's) leaves at the model's default.
UNSET = {
    "side": "", "won": False, "lost": False, "points_for": 0, "points_against": 0, "units": 0,
    "score": 0.0, "event": "", "made": False, "bid": "", "bid_won": False, "contract": "",
}  # fmt: skip


def copy_facts(cursor, made, plan) -> None:
    """The per-seat facts the services write at entry (``matches.SeatFact``), by COPY: a
    template's facts are read once by the same readers (seat -> its index standing in
    for the player), each clone's written with its players."""
    from types import SimpleNamespace

    from scorebook.matches.facts import deal_seat_facts, result_facts

    def text(value) -> str:
        if value is None:
            return "\\N"
        if isinstance(value, bool):
            return "t" if value else "f"
        return str(value)

    facts = []
    for game, rules, seats, state, out, deals in made:
        match = SimpleNamespace(
            game=game, rules=json.loads(rules), seats={s: i for i, s in enumerate(seats)},
            state=json.loads(state), result=json.loads(out) if out != "\\N" else None,
            status="finished",
        )  # fmt: skip
        rows = [(None, r) for r in result_facts(match)]
        for number, (_data, result) in enumerate(deals, 1):
            rows += [(number, r) for r in deal_seat_facts(match, json.loads(result))]
        facts.append(
            [
                (n, r["player_id"], "\t".join(text(r.get(f, UNSET.get(f))) for f in FACT_FIELDS))
                for n, r in rows
            ]
        )
    columns = "match_id, deal_id, player_id, " + ", ".join(FACT_FIELDS)
    deal_id = 1
    with cursor.copy(f"COPY matches_seatfact ({columns}) FROM STDIN") as copy:
        for chunk in _chunks(plan):
            lines = []
            for pk, template, pids, _night in chunk:
                for number, index, rest in facts[template]:
                    deal = str(deal_id + number - 1) if number else "\\N"
                    lines.append(f"{pk}\t{deal}\t{pids[index]}\t{rest}")
                deal_id += len(made[template][5])
            if lines:
                copy.write("\n".join(lines) + "\n")


def _chunks(items: list, size: int = 5000):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _j(value) -> str:
    return json.dumps(value).replace("\\", "\\\\") if value is not None else "\\N"


def _ts(stamp: float) -> str:
    return (
        time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(stamp))
        + f".{int(stamp * 1e6) % 1000000:06d}+00"
    )


# -- 2. rebuild against one SQL pass --------------------------------------------------------

GROUP_BY = """
SELECT s.id, seat.value::bigint AS player, count(*) AS deals,
       sum((d.result->'points'->>seat.key)::int) AS points
FROM matches_deal d
JOIN matches_match m ON m.id = d.match_id
JOIN matches_night n ON n.id = m.night_id
JOIN standings_season s ON s.club_id = n.club_id AND n.date >= s.starts_on
     AND (s.ends_on IS NULL OR n.date <= s.ends_on)
CROSS JOIN LATERAL jsonb_each_text(m.seats) AS seat
WHERE d.is_current
GROUP BY s.id, seat.value
"""


def sql_pass() -> float:
    from django.db import connection

    with connection.cursor() as cursor:
        start = time.perf_counter()
        cursor.execute(GROUP_BY)
        rows = cursor.fetchall()
        took = time.perf_counter() - start
    print(f"  plain SQL GROUP BY pass: {took:.2f} s ({len(rows)} player-season rows)")
    return took


def rebuild_pass() -> tuple[float, float]:
    """The rebuild command as an operator runs it (its default processes); peak RSS is the
    largest sum over the command and its children, sampled every 50 ms from /proc."""
    start = time.perf_counter()
    command = [PY, "manage.py", "rebuild_standings", "--quiet-progress"]
    if os.environ.get("BENCH_JOBS"):
        command += ["--jobs", os.environ["BENCH_JOBS"]]
    proc = subprocess.Popen(command, env=env(), cwd=ROOT, stdout=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss_kb(proc.pid))
        time.sleep(0.05)
    if proc.returncode:
        raise SystemExit(f"rebuild_standings failed ({proc.returncode})")
    took = time.perf_counter() - start
    rss_mb = peak / 1024
    print(f"  full rebuild (rebuild_standings): {took:.2f} s, peak RSS {rss_mb:.0f} MB")
    return took, rss_mb


def tree_rss_kb(root: int) -> int:
    """Resident memory of a process and its descendants, in KB (Linux's /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue  # gone meanwhile
        parents[int(entry)] = int(fields["PPid"])
        rss[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0])
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(rss.get(pid, 0) for pid in tree)


# -- 3 and 4: over HTTP ---------------------------------------------------------------------


def gunicorn(extra: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen(
        [PY, "-m", "gunicorn", "scorebook.wsgi", "-b", f"127.0.0.1:{PORT}", "-w", "2",
         "--log-level", "warning"],
        env=env(**extra), cwd=ROOT,
    )  # fmt: skip
    try:
        wait_until_up(f"http://127.0.0.1:{PORT}")
    except BaseException:
        proc.terminate()
        raise
    return proc


def token() -> str:
    from rest_framework.authtoken.models import Token

    from scorebook.clubs.models import Membership

    user = Membership.objects.first().user
    return Token.objects.get_or_create(user=user)[0].key


def wrk(url: str, key: str) -> float:
    out = subprocess.run(
        # A slow page still answers within 10 s (wrk counts an answer after 2 s as none).
        ["wrk", "-t4", "-c16", f"-d{DURATION}", "--timeout", "10s", "-H",
         f"Authorization: Token {key}", url],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    # A figure of answers that were refusals, or of none at all, measures nothing.
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors or not int(re.search(r"(\d+) requests in", out).group(1)):
        raise SystemExit(f"{url}: no answers or answers other than 2xx in {DURATION}:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def answered(url: str, key: str) -> None:
    """One request, which must be answered 200 (within a minute, however loaded)."""
    request = urllib.request.Request(url, headers={"Authorization": f"Token {key}"})
    with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310
        if answer.status != 200:
            raise SystemExit(f"{url}: answered {answer.status}")


def http_pass() -> float:
    from scorebook.clubs.models import Club
    from scorebook.standings.models import LeaderboardRow, Season

    club = Club.objects.order_by("pk").first()
    season = Season.objects.get(club=club)
    rows = LeaderboardRow.objects.filter(season=season, game="").count()
    key = token()
    server = gunicorn({})
    try:
        base = f"http://127.0.0.1:{PORT}/api/v1"
        board = f"{base}/leaderboard?season={season.pk}"
        plain = f"{base}/players?club={club.pk}"
        for url in (board, plain):  # each worker answering (its first request is slow)
            for _ in range(4):
                answered(url, key)
        wrk(board, key)  # warm up both
        wrk(plain, key)
        board_rps = wrk(board, key)
        plain_rps = wrk(plain, key)
    finally:
        server.terminate()
        server.wait()
    print(f"  leaderboard, 50 of {rows} rows: {board_rps:.0f} req/s")
    print(f"  plain DRF list of 50 players: {plain_rps:.0f} req/s")
    return board_rps / plain_rps


def freshness_pass(during=None) -> list[float]:
    """The lags from each deal's 201 to its effect in the leaderboard; ``during`` (a
    callable given a threading.Event, set once every client is done) runs in a thread of
    its own while the clients enter their deals (the federation bench reads its public
    pages until then)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scorebook.clubs.models import Club, Membership
    from scorebook.matches import services
    from scorebook.matches.models import Night
    from scorebook.standings.models import LeaderboardRow

    tmp = Path(tempfile.mkdtemp())
    redis_port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--save", "",
                              "--appendonly", "no", "--dir", str(tmp)],
                             stdout=subprocess.DEVNULL)  # fmt: skip
    broker = f"redis://127.0.0.1:{redis_port}/0"
    time.sleep(1)
    worker = subprocess.Popen(
        [PY, "-m", "celery", "-A", "scorebook.celery", "worker", "--beat", "--concurrency=1",
         "--loglevel=WARNING", "--schedule", str(tmp / "beat"), "--without-gossip",
         "--without-mingle"],
        env=env(CELERY_BROKER_URL=broker), cwd=ROOT,
    )  # fmt: skip
    server = gunicorn({"CELERY_BROKER_URL": broker})
    clubs = list(Club.objects.order_by("pk")[1 : CLIENTS + 1])
    director = get_user_model().objects.get(username="bench-director")
    targets = []
    for club in clubs:
        night = Night.objects.create(club=club, date=date(2026, 12, 1), opened_by=director)
        pids = list(club.players.values_list("pk", flat=True)[:4])
        match = services.match_create(
            night=night,
            game="tressette4",
            rules={"profile": "accuso_41"},
            seats=dict(zip(("N", "E", "S", "W"), pids, strict=True)),
            user=director,
        )
        user, _ = get_user_model().objects.get_or_create(username=f"scorer-{club.pk}")
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": "scorer"})
        targets.append((club, match, pids[0], Token.objects.get_or_create(user=user)[0].key))
    deal = {"sides": {"A": {"thirds": 17, "tricks": 5}, "B": {"thirds": 15, "tricks": 5}},
            "last_trick": "A"}  # fmt: skip
    lags: list[float] = []
    lock = threading.Lock()

    def client(club, match, player, key):
        before = LeaderboardRow.objects.filter(club=club, game="", player_id=player)
        base = before.values_list("deals", flat=True).first() or 0
        for n in range(base + 1, base + FRESH_DEALS + 1):
            request = urllib.request.Request(
                f"http://127.0.0.1:{PORT}/api/v1/matches/{match.pk}/deals",
                data=json.dumps({"deal": deal}).encode(),
                method="POST",
                headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
                assert answer.status == 201
            done = time.perf_counter()
            while time.perf_counter() - done < 30:
                row = LeaderboardRow.objects.filter(
                    club=club, game="", player_id=player
                ).values_list("deals", flat=True)
                if row and row[0] >= n:
                    break
                time.sleep(0.02)
            with lock:
                lags.append(time.perf_counter() - done)

    from django.db import connections

    def run_client(*args):
        try:
            client(*args)
        finally:
            connections.close_all()

    try:
        threads = [threading.Thread(target=run_client, args=t) for t in targets]
        stop = threading.Event()
        beside = threading.Thread(target=during, args=(stop,)) if during else None
        if beside is not None:
            beside.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stop.set()
        if beside is not None:
            beside.join()
    finally:
        server.terminate()
        worker.terminate()
        server.wait()
        worker.wait()
        redis.terminate()
        redis.wait()
    return lags


def main() -> None:
    rng = random.Random(14)
    print(f"== bench-standings: {DEALS:,} deals at {CLUBS:,} clubs ({DB_URL})")
    if "load" in PARTS:
        reset_database()
    setup_django()
    if "load" in PARTS:
        start = time.perf_counter()
        clubs, total = load(rng)
        took = time.perf_counter() - start
        print(f"  loaded {total:,} deals at {clubs:,} clubs by COPY in {took:.1f} s")
    if "rebuild" in PARTS:
        print("== full rebuild against one SQL pass")
        sql = sql_pass()
        rebuilt, rss = rebuild_pass()
        print(
            f"  ratio rebuild / SQL pass: {rebuilt / sql:.1f}x (target <= 3x); "
            f"peak RSS {rss:.0f} MB (target <= 512 MB)"
        )
    if "http" in PARTS:
        print("== 50-row leaderboard against a plain DRF list of 50 rows")
        ratio = http_pass()
        print(f"  ratio leaderboard / plain list: {ratio:.2f} (target >= 0.8)")
    if "fresh" not in PARTS:
        return
    print(f"== freshness: one worker, {CLIENTS} clients, {FRESH_DEALS} deals each")
    lags = sorted(freshness_pass())
    p50 = statistics.median(lags)
    p95 = lags[int(0.95 * (len(lags) - 1))]
    print(
        f"  201 -> leaderboard: p50 {p50:.2f} s, p95 {p95:.2f} s, max {lags[-1]:.2f} s "
        f"over {len(lags)} deals (target p95 <= 2 s)"
    )


if __name__ == "__main__":
    main()
