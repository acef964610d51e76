"""``manage.py page_weight``: each page's HTML plus its CSS and JS, gzip-compressed, as a
first visit loads them (the issue's budget: under 100 KB), with the service worker a
signed-in page registers (``data-sw``: it is fetched on the first visit too). Needs the
demo club (``load_demo``); measures through Django's test client, not a browser."""

import gzip
import re

from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.management.base import BaseCommand, CommandError
from django.test import Client

from scorebook.clubs.models import Club
from scorebook.matches.models import Deal, Match, Night

BUDGET = 100 * 1024


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9))


def static_file(name: str) -> bytes:
    found = finders.find(name)
    if not isinstance(found, str):
        raise CommandError(f"The page links {name}, which no static finder has")
    with open(found, "rb") as file:
        return file.read()


class Command(BaseCommand):
    help = "Print each page's compressed weight (HTML + CSS + JS) for the demo club."

    def handle(self, *args, **options):
        club = Club.objects.filter(slug="san-rocco").first()
        user = get_user_model().objects.filter(username="demo").first()
        if club is None or user is None:
            raise CommandError("Load the demo club first: manage.py load_demo")
        night = Night.objects.filter(club=club).order_by("-date").first()
        match = Match.objects.filter(night__club=club).order_by("id").first()
        if night is None or match is None:
            raise CommandError("The demo club has no night or match: manage.py load_demo")
        playing = (
            Match.objects.filter(night__club=club, night__status="open", status="open")
            .order_by("id")
            .first()
        )
        deal = Deal.objects.filter(match__night__club=club).order_by("id").first()
        client = Client(HTTP_HOST="127.0.0.1")
        pages = {"welcome": "/"}
        anonymous = {name: client.get(url) for name, url in pages.items()}
        client.force_login(user)
        pages = {
            "club home": f"/c/{club.slug}/",
            "members": f"/c/{club.slug}/members",
            "players": f"/c/{club.slug}/players",
            "invite": f"/c/{club.slug}/invite",
            "night": f"/n/{night.pk}/",
            "start a match": (  # the form for the demo's first game, with its seats
                f"/n/{night.pk}/matches/new?game={match.game}&players={len(match.seats)}"
            ),
            "settlement": f"/n/{night.pk}/settlement",
            "match": f"/m/{match.pk}/",
            "public results": f"/public/{club.slug}/",
            "leaderboard": f"/c/{club.slug}/standings/",
            "ratings": f"/c/{club.slug}/standings/ratings",
            "leagues": f"/c/{club.slug}/leagues/",
            "TV": f"/public/{club.slug}/tv",
        }
        if playing is not None:  # the deal forms, the heaviest pages (the card grids)
            for level in ("quick", "totals", "cards", "play"):
                pages[f"deal, {level}"] = f"/m/{playing.pk}/deals/new?level={level}"
        if deal is not None:
            pages["a deal"] = f"/d/{deal.pk}/"
        responses = {**anonymous, **{name: client.get(url) for name, url in pages.items()}}
        worst = 0
        workers: dict[str, int] = {}
        self.stdout.write(f"{'page':<16}{'html':>8}{'css+js':>9}{'total':>9}  (bytes, gzip -9)")
        for name, response in responses.items():
            html = response.content
            assets = set(re.findall(rb'(?:href|src)="/static/([^"]+\.(?:css|js))"', html))
            static = sum(gz(static_file(a.decode())) for a in assets)
            for worker in set(re.findall(rb'data-sw="([^"]+)"', html)):
                url = worker.decode()
                if url not in workers:
                    workers[url] = gz(client.get(url).content)
                static += workers[url]
            total = gz(html) + static
            worst = max(worst, total)
            self.stdout.write(f"{name:<16}{gz(html):>8}{static:>9}{total:>9}")
        verdict = "within" if worst < BUDGET else "OVER"
        self.stdout.write(f"heaviest page: {worst} bytes, {verdict} the {BUDGET} byte budget")
