"""The home page and a club's pages."""

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import redirect, render

from scorebook.clubs.selectors import clubs_of
from scorebook.matches.models import Night
from scorebook.web.access import club_for, page_context
from scorebook.web.forms import LoginForm


def home(request):
    """Welcome and a login form for visitors; the club home for a member of one club, the
    list of clubs for a member of several."""
    if not request.user.is_authenticated:
        return render(request, "web/home.html", {"form": LoginForm(request)})
    clubs = list(clubs_of(request.user).order_by("name"))
    if len(clubs) == 1:
        return redirect("web:club", slug=clubs[0].slug)
    return render(request, "web/clubs/choose.html", {"clubs": clubs})


@login_required
def club(request, slug):
    """The club home: tonight's night if one is open, the past nights."""
    the_club, membership = club_for(request, slug)
    nights = list(Night.objects.filter(club=the_club).annotate(match_count=Count("matches"))[:30])
    tonight = [n for n in nights if n.status == Night.Status.OPEN]
    past = [n for n in nights if n.status != Night.Status.OPEN]
    return render(
        request,
        "web/clubs/club.html",
        page_context(the_club, membership, nav="club", tonight=tonight, past=past),
    )
