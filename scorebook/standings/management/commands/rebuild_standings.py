"""Rebuild the standings from the deal log: every club, or one club, or one season."""

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed

from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from tqdm import tqdm

from scorebook.clubs.models import Club
from scorebook.standings import refresh
from scorebook.standings.models import Season

#: Clubs rebuilt together, in one transaction and a few queries: enough to make the
#: per-query cost small, few enough to keep the memory bounded (the contests of a group's
#: matches are held until they are rated).
CLUBS_AT_ONCE = 25

#: Processes by default: clubs are independent, so groups of them rebuild side by side
#: (as PostgreSQL runs one big query on a few workers). Capped: the database shares the
#: machine and the rest of the service goes on while a rebuild runs.
DEFAULT_JOBS = min(4, os.cpu_count() or 1)


def _rebuild_group(group: list[int], seasons: list[int] | None) -> int:
    refresh.rebuild_clubs(group, season_ids=seasons)
    return len(group)


def _child_start() -> None:
    """Django in a spawned process (a forked one has it already). Each child opens its
    own database connection: the parent closed its own before starting them."""
    import django

    django.setup()


class Command(BaseCommand):
    help = "Rebuild leaderboards and ratings from the deal log and the ledger."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="The club's slug or id (default: every club).")
        parser.add_argument("--season", type=int, help="One season's id (needs --club).")
        parser.add_argument(
            "--jobs",
            type=int,
            default=DEFAULT_JOBS,
            help=f"Processes rebuilding groups of clubs side by side (default {DEFAULT_JOBS};"
            " 1 to keep to one core).",
        )
        parser.add_argument("--quiet-progress", action="store_true", help="No progress bar.")

    def handle(
        self, *args, club=None, season=None, jobs=DEFAULT_JOBS, quiet_progress=False, **options
    ):
        if jobs < 1:
            raise CommandError("--jobs must be at least 1")
        clubs = Club.objects.order_by("pk")
        if club:
            clubs = clubs.filter(pk=int(club)) if club.isdigit() else clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"no club {club!r}")
        if season is not None:
            if not club:
                raise CommandError("--season needs --club")
            if not Season.objects.filter(pk=season, club__in=clubs).exists():
                raise CommandError(f"no season {season} at club {club!r}")
        ids = list(clubs.values_list("pk", flat=True))
        seasons = [season] if season else None
        groups = [ids[start : start + CLUBS_AT_ONCE] for start in range(0, len(ids), CLUBS_AT_ONCE)]
        with tqdm(total=len(ids), unit="club", disable=quiet_progress or None) as bar:
            default = connections["default"]
            # SQLite takes one writer at a time anyway; inside a caller's transaction other
            # processes would not see what it has not committed.
            if (
                jobs == 1
                or len(groups) < 2
                or default.vendor == "sqlite"
                or default.in_atomic_block
            ):
                for group in groups:
                    bar.update(_rebuild_group(group, seasons))
            else:
                connections.close_all()  # nothing of ours crosses into the children
                context = multiprocessing.get_context(
                    "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
                )
                with ProcessPoolExecutor(
                    min(jobs, len(groups)), mp_context=context, initializer=_child_start
                ) as pool:
                    running = [pool.submit(_rebuild_group, group, seasons) for group in groups]
                    for done in as_completed(running):
                        bar.update(done.result())
        self.stdout.write(f"rebuilt the standings of {len(ids)} club(s)")
