"""The pages' routes (names in docs: WEB-CONTRACT). Each area adds only its own lines."""

from django.urls import path

from scorebook.web.views import auth, clubs, deals, standings

app_name = "web"

urlpatterns = [
    # Standings (standings).
    path("c/<slug:slug>/standings/", standings.leaderboard, name="standings"),
    path("c/<slug:slug>/standings/ratings", standings.ratings, name="ratings"),
    path("", clubs.home, name="home"),
    path("login", auth.LoginView.as_view(), name="login"),
    path("logout", auth.LogoutView.as_view(), name="logout"),
    path("c/<slug:slug>/", clubs.club, name="club"),
    # Deal entry at the table (table).
    path("m/<int:match_id>/deals/new", deals.deal_new, name="deal_new"),
    path("m/<int:match_id>/deals/check", deals.deal_check, name="deal_check"),
    path("d/<int:deal_id>/", deals.deal_page, name="deal"),
    path("d/<int:deal_id>/confirm", deals.deal_confirm, name="deal_confirm"),
    path("d/<int:deal_id>/correct", deals.deal_correct, name="deal_correct"),
    path("me/pin", deals.pin, name="pin"),
]
