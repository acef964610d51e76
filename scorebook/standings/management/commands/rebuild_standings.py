"""Rebuild the standings from the deal log: every club, or one club, or one season."""

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from scorebook.clubs.models import Club
from scorebook.standings import services
from scorebook.standings.models import Season

#: Clubs rebuilt together, in one transaction and a few queries: enough to make the
#: per-query cost small, few enough to keep the memory bounded (the contests of a group's
#: matches are held until they are rated).
CLUBS_AT_ONCE = 25


class Command(BaseCommand):
    help = "Rebuild leaderboards and ratings from the deal log and the ledger."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="The club's slug or id (default: every club).")
        parser.add_argument("--season", type=int, help="One season's id (needs --club).")
        parser.add_argument("--quiet-progress", action="store_true", help="No progress bar.")

    def handle(self, *args, club=None, season=None, quiet_progress=False, **options):
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
        with tqdm(total=len(ids), unit="club", disable=quiet_progress or None) as bar:
            for start in range(0, len(ids), CLUBS_AT_ONCE):
                group = ids[start : start + CLUBS_AT_ONCE]
                services.rebuild_clubs(group, season_ids=seasons)
                bar.update(len(group))
        self.stdout.write(f"rebuilt the standings of {len(ids)} club(s)")
