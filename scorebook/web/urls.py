"""The pages' routes (names in the web contract). Each area adds only its own lines."""

from django.urls import path

from scorebook.web.views import (
    archive,
    auth,
    calendars,
    championships,
    clubs,
    deals,
    federations,
    imports,
    invitations,
    leagues,
    matches,
    nights,
    offline,
    person_links,
    public,
    standings,
    tournaments,
)
from scorebook.web.views import (
    federal_tournaments as federal,
)

app_name = "web"

urlpatterns = [
    # Standings (standings).
    path("c/<slug:slug>/standings/", standings.leaderboard, name="standings"),
    path("c/<slug:slug>/standings/ratings", standings.ratings, name="ratings"),
    path("c/<slug:slug>/standings/pdf", standings.leaderboard_pdf, name="standings_pdf"),
    path("", clubs.home, name="home"),
    path("login", auth.LoginView.as_view(), name="login"),
    path("logout", auth.LogoutView.as_view(), name="logout"),
    path("join/<str:token>", invitations.join, name="join"),
    # a club
    path("c/<slug:slug>/", clubs.club, name="club"),
    path("c/<slug:slug>/members", clubs.members, name="members"),
    path("c/<slug:slug>/players", clubs.players, name="players"),
    path("c/<slug:slug>/settings", clubs.club_settings, name="club_settings"),
    path("c/<slug:slug>/import", imports.imports, name="imports"),
    path("c/<slug:slug>/import/example.csv", imports.example, name="import_example"),
    path("c/<slug:slug>/import/<id:pk>", imports.import_detail, name="import"),
    path("c/<slug:slug>/import/<id:pk>/accept", imports.import_accept, name="import_accept"),
    path("c/<slug:slug>/import/<id:pk>/undo", imports.import_undo, name="import_undo"),
    path("c/<slug:slug>/invite", invitations.invite, name="invite"),
    path("c/<slug:slug>/invite/<id:pk>/withdraw", invitations.invite_revoke, name="invite_revoke"),
    path("c/<slug:slug>/nights/new", nights.night_new, name="night_new"),
    # a night
    path("n/<id:pk>/", nights.night, name="night"),
    path("n/<id:pk>/tables/new", nights.table_new, name="table_new"),
    path("n/<id:pk>/room", nights.night_room, name="night_room"),
    path("n/<id:pk>/matches/new", matches.match_new, name="match_new"),
    path("n/<id:pk>/close", nights.night_close, name="night_close"),
    path("n/<id:pk>/settle", nights.settle, name="settle"),
    path("n/<id:pk>/settlement", nights.settlement, name="settlement"),
    path("n/<id:pk>/settlement.pdf", nights.settlement_pdf, name="settlement_pdf"),
    path("n/<id:pk>/settlement.csv", nights.settlement_csv, name="settlement_csv"),
    # tonight's tournament
    path("n/<id:pk>/tournaments/new", tournaments.tournament_new, name="tournament_new"),
    path("t/<id:pk>/", tournaments.tournament, name="tournament"),
    path("t/<id:pk>/settings", tournaments.tournament_settings, name="tournament_settings"),
    path("t/<id:pk>/standings.csv", tournaments.standings_csv, name="tournament_csv"),
    path("t/<id:pk>/standings.pdf", tournaments.standings_pdf, name="tournament_pdf"),
    path("t/<id:pk>/round-<id:number>.pdf", tournaments.round_pdf, name="tournament_round_pdf"),
    path("t/<id:pk>/tables-<id:number>.pdf", tournaments.cards_pdf, name="tournament_cards_pdf"),
    path("t/<id:pk>/do/<slug:action>", tournaments.tournament_action, name="tournament_action"),
    # a match
    path("m/<id:pk>/", matches.match, name="match"),
    # public results
    path("public/<slug:slug>/", public.public_club, name="public_club"),
    path("public/<slug:slug>/m/<id:pk>", public.public_match, name="public_match"),
    path("public/<slug:slug>/tv", public.tv, name="tv"),
    path("public/<slug:slug>/standings/", standings.public_leaderboard, name="public_standings"),
    path("public/<slug:slug>/standings/ratings", standings.public_ratings, name="public_ratings"),
    # Deal entry at the table (table).
    path("m/<id:match_id>/deals/new", deals.deal_new, name="deal_new"),
    path("m/<id:match_id>/deals/check", deals.deal_check, name="deal_check"),
    path("d/<id:deal_id>/", deals.deal_page, name="deal"),
    path("d/<id:deal_id>/confirm", deals.deal_confirm, name="deal_confirm"),
    path("m/<id:match_id>/confirm-remaining", deals.confirm_remaining, name="confirm_remaining"),
    path("d/<id:deal_id>/correct", deals.deal_correct, name="deal_correct"),
    path("me/pin", deals.pin, name="pin"),
    # Taking data out and forgetting a person (archive).
    path("me/", archive.account, name="account"),
    path("me/export.zip", archive.account_export, name="account_export"),
    path("me/erase", archive.account_erase, name="account_erase"),
    path("c/<slug:slug>/export.zip", archive.club_export, name="club_export"),
    path("c/<slug:slug>/players/<id:player_id>/erase", archive.player_erase, name="player_erase"),
    path("privacy", archive.privacy, name="privacy"),
    # The service worker, from the root so that its scope is every page (offline).
    path("sw.js", offline.service_worker, name="service_worker"),
    # Leagues and player statistics (leagues).
    path("c/<slug:slug>/leagues/", leagues.league_list, name="leagues"),
    path("c/<slug:slug>/leagues/<id:league_id>/", leagues.league, name="league"),
    path("c/<slug:slug>/leagues/<id:league_id>/csv", leagues.league_csv, name="league_csv"),
    path("c/<slug:slug>/leagues/<id:league_id>/pdf", leagues.league_pdf, name="league_pdf"),
    path(
        "c/<slug:slug>/leagues/<id:league_id>/fixtures/<id:fixture_id>/play",
        leagues.fixture_play,
        name="fixture_play",
    ),
    path(
        "c/<slug:slug>/leagues/<id:league_id>/<str:action>",
        leagues.league_action,
        name="league_action",
    ),
    path("c/<slug:slug>/players/<id:player_id>/stats", leagues.player_stats, name="player_stats"),
    # Calendars (sharing): feeds by a member's token, without a session.
    path("c/<slug:slug>/calendar", calendars.calendar_page, name="calendar"),
    path("cal/<str:token>/club.ics", calendars.club_feed, name="calendar_club"),
    path("cal/<str:token>/mine.ics", calendars.my_feed, name="calendar_mine"),
    path(
        "cal/<str:token>/leagues/<id:league_id>.ics",
        calendars.league_feed,
        name="calendar_league",
    ),
    path("public/<slug:slug>/nights.ics", calendars.public_nights_feed, name="calendar_public"),
    path("f/<slug:fed>/calendar.ics", calendars.federation_feed, name="calendar_federation"),
    path(
        "public/f/<slug:fed>/calendar.ics",
        calendars.public_federation_feed,
        name="calendar_public_federation",
    ),
    # Federations (federations, issue 34): a federation's pages under /f/<fed>/, its public
    # page under /public/f/<fed>/; the club's side under /c/<slug>/; the person's under /me/.
    path("f/", federations.federation_list, name="federations"),
    path("f/<slug:fed>/", federations.federation_home, name="federation"),
    path("f/<slug:fed>/officers", federations.federation_officers, name="federation_officers"),
    path("f/<slug:fed>/clubs", federations.federation_clubs, name="federation_clubs"),
    path("f/<slug:fed>/persons", federations.federation_persons, name="federation_persons"),
    path("f/<slug:fed>/settings", federations.federation_settings, name="federation_settings"),
    path("public/f/<slug:fed>/", federations.public_federation, name="public_federation"),
    path("f/<slug:fed>/championships/", championships.championship_list, name="championships"),
    path(
        "f/<slug:fed>/championships/new",
        championships.championship_new,
        name="championship_new",
    ),
    path(
        "f/<slug:fed>/championships/<id:pk>/enter",
        championships.championship_enter,
        name="championship_enter",
    ),
    path(
        "f/<slug:fed>/fixtures/<id:pk>/",
        championships.championship_fixture,
        name="championship_fixture",
    ),
    path(
        "f/<slug:fed>/championships/<id:pk>/",
        championships.championship_page,
        name="championship",
    ),
    path(
        "public/f/<slug:fed>/championships/<id:pk>/",
        championships.public_championship,
        name="public_championship",
    ),
    # Federal tournaments and the ranking (issue 34 items 4 and 5)
    path("f/<slug:fed>/tournaments", federal.federal_tournaments, name="federal_tournaments"),
    path(
        "f/<slug:fed>/tournaments/<id:pk>/", federal.federal_tournament, name="federal_tournament"
    ),
    path("f/<slug:fed>/ranking/", federal.federation_ranking, name="federation_ranking"),
    path("f/<slug:fed>/ranking.csv", federal.federation_ranking_csv, name="federation_ranking_csv"),
    path("f/<slug:fed>/ranking.pdf", federal.federation_ranking_pdf, name="federation_ranking_pdf"),
    path(
        "f/<slug:fed>/ranking/<id:user_id>/",
        federal.federation_person,
        name="federation_person",
    ),
    path(
        "public/f/<slug:fed>/ranking/",
        federal.public_federation_ranking,
        name="public_federation_ranking",
    ),
    path("c/<slug:slug>/federations", person_links.club_federations, name="club_federations"),
    path("c/<slug:slug>/links", person_links.club_links, name="club_links"),
    path("me/links", person_links.my_links, name="my_links"),
]
