"""Routes of API v1."""

from typing import Any

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from api.views.archive import ClubExportView, MeEraseView, MeExportView, PlayerEraseView
from api.views.auth import TokenView
from api.views.calendars import CalendarRotateView, CalendarView
from api.views.championships import (
    ChampionshipFixtureViewSet,
    ChampionshipTeamViewSet,
    ChampionshipViewSet,
    PublicChampionship,
)
from api.views.clubs import ClubViewSet, InvitationViewSet, MembershipViewSet, PlayerViewSet
from api.views.federal_tournaments import (
    FederalRegistrationViewSet,
    FederalTournamentViewSet,
    FederationPersonHistory,
    FederationPersonRatings,
    FederationRanking,
    FederationRatings,
    FederationTournaments,
    PublicFederationRanking,
    PublicFederationRatings,
)
from api.views.federations import (
    AffiliationViewSet,
    ClubInvitationViewSet,
    FederationViewSet,
    NumberViewSet,
    OfficerViewSet,
    PersonLinkViewSet,
    PublicFederation,
)
from api.views.fixtures import FixtureViewSet
from api.views.history import ImportViewSet
from api.views.leagues import (
    LeagueEntryViewSet,
    LeagueViewSet,
    PublicLeagues,
    PublicLeagueStandings,
    PublicLeagueStandingsCsv,
)
from api.views.ledger import EntryViewSet, TransferViewSet
from api.views.matches import DealViewSet, MatchViewSet, NightViewSet, TableViewSet
from api.views.me import MeView
from api.views.public import PublicClubs, PublicMatch, PublicNights
from api.views.rules import GameSchemaView, GamesView, ScoreView
from api.views.standings import (
    LeaderboardCsv,
    LeaderboardPdf,
    LeaderboardView,
    PublicLeaderboard,
    PublicLeaderboardCsv,
    PublicRatings,
    PublicRatingsCsv,
    PublicSeasons,
    PublicSeasonsCsv,
    RatingHistoryCsv,
    RatingHistoryView,
    RatingsCsv,
    RatingsView,
    SeasonViewSet,
    StandingsSettingsView,
)
from api.views.statistics import PlayerStatisticsView, PublicPlayerStatistics
from api.views.tournaments import TournamentViewSet
from scorebook.core.numbers import ID_PATTERN


class IdRouter(DefaultRouter):
    """Every object's id in a path is ASCII digits (scorebook/core/numbers.py): ``²`` or
    ``abc`` match no route, the same 404 as an id that does not exist."""

    def get_lookup_regex(self, viewset: Any, lookup_prefix: str = "") -> str:
        field = getattr(viewset, "lookup_url_kwarg", None) or getattr(viewset, "lookup_field", "pk")
        return f"(?P<{lookup_prefix}{field}>{ID_PATTERN})"


router = IdRouter(trailing_slash=False)
router.register("clubs", ClubViewSet, basename="club")
router.register("memberships", MembershipViewSet, basename="membership")
router.register("players", PlayerViewSet, basename="player")
router.register("invitations", InvitationViewSet, basename="invitation")
router.register("nights", NightViewSet, basename="night")
router.register("tables", TableViewSet, basename="table")
router.register("matches", MatchViewSet, basename="match")
router.register("deals", DealViewSet, basename="deal")
router.register("entries", EntryViewSet, basename="entry")
router.register("transfers", TransferViewSet, basename="transfer")
router.register("seasons", SeasonViewSet, basename="season")
router.register("leagues", LeagueViewSet, basename="league")
router.register("league-entries", LeagueEntryViewSet, basename="league-entry")
router.register("fixtures", FixtureViewSet, basename="fixture")
router.register("imports", ImportViewSet, basename="import")
router.register("tournaments", TournamentViewSet, basename="tournament")
# Federations (issue 34): the federation's own routes under federations/{id}/...
router.register("federations", FederationViewSet, basename="federation")
router.register("federation-officers", OfficerViewSet, basename="officer")
router.register("federation-invitations", ClubInvitationViewSet, basename="club-invitation")
router.register("affiliations", AffiliationViewSet, basename="affiliation")
router.register("federation-numbers", NumberViewSet, basename="federation-number")
router.register("person-links", PersonLinkViewSet, basename="person-link")
router.register("championships", ChampionshipViewSet, basename="championship")
router.register("championship-teams", ChampionshipTeamViewSet, basename="championship-team")
router.register(
    "championship-fixtures", ChampionshipFixtureViewSet, basename="championship-fixture"
)
router.register("federal-tournaments", FederalTournamentViewSet, basename="federal-tournament")
router.register(
    "federal-registrations", FederalRegistrationViewSet, basename="federal-registration"
)

urlpatterns = [
    path("rules/games", GamesView.as_view(), name="rules-games"),
    path("rules/games/<str:game>/schema", GameSchemaView.as_view(), name="rules-game-schema"),
    path("rules/score", ScoreView.as_view(), name="rules-score"),
    path("auth/token", TokenView.as_view(), name="auth-token"),
    path("me", MeView.as_view(), name="me"),
    path("me/export", MeExportView.as_view(), name="me-export"),
    path("me/erase", MeEraseView.as_view(), name="me-erase"),
    path("clubs/<id:pk>/export", ClubExportView.as_view(), name="club-export"),
    path("players/<id:pk>/erase", PlayerEraseView.as_view(), name="player-erase"),
    path("public/clubs", PublicClubs.as_view(), name="public-clubs"),
    path("public/clubs/<slug:slug>/nights", PublicNights.as_view(), name="public-nights"),
    path("public/clubs/<slug:slug>/matches/<id:pk>", PublicMatch.as_view(), name="public-match"),
    path("leaderboard", LeaderboardView.as_view(), name="leaderboard"),
    path("leaderboard/pdf", LeaderboardPdf.as_view(), name="leaderboard-pdf"),
    path("clubs/<id:club_id>/calendar", CalendarView.as_view(), name="club-calendar"),
    path(
        "clubs/<id:club_id>/calendar/rotate",
        CalendarRotateView.as_view(),
        name="club-calendar-rotate",
    ),
    path("leaderboard.csv", LeaderboardCsv.as_view(), name="leaderboard-csv"),
    path("ratings", RatingsView.as_view(), name="ratings"),
    path("ratings.csv", RatingsCsv.as_view(), name="ratings-csv"),
    path("rating-history", RatingHistoryView.as_view(), name="rating-history"),
    path("rating-history.csv", RatingHistoryCsv.as_view(), name="rating-history-csv"),
    path(
        "clubs/<id:club_id>/standings-settings",
        StandingsSettingsView.as_view(),
        name="standings-settings",
    ),
    path("public/clubs/<slug:slug>/seasons", PublicSeasons.as_view(), name="public-seasons"),
    path(
        "public/clubs/<slug:slug>/seasons.csv",
        PublicSeasonsCsv.as_view(),
        name="public-seasons-csv",
    ),
    path(
        "public/clubs/<slug:slug>/leaderboard",
        PublicLeaderboard.as_view(),
        name="public-leaderboard",
    ),
    path(
        "public/clubs/<slug:slug>/leaderboard.csv",
        PublicLeaderboardCsv.as_view(),
        name="public-leaderboard-csv",
    ),
    path("public/clubs/<slug:slug>/ratings", PublicRatings.as_view(), name="public-ratings"),
    path(
        "public/clubs/<slug:slug>/ratings.csv",
        PublicRatingsCsv.as_view(),
        name="public-ratings-csv",
    ),
    path("players/<id:pk>/statistics", PlayerStatisticsView.as_view(), name="player-stats"),
    path("public/clubs/<slug:slug>/leagues", PublicLeagues.as_view(), name="public-leagues"),
    path(
        "public/clubs/<slug:slug>/leagues/<id:pk>/standings",
        PublicLeagueStandings.as_view(),
        name="public-league-standings",
    ),
    path(
        "public/clubs/<slug:slug>/leagues/<id:pk>/standings/csv",
        PublicLeagueStandingsCsv.as_view(),
        name="public-league-standings-csv",
    ),
    path(
        "public/clubs/<slug:slug>/players/<id:pk>/statistics",
        PublicPlayerStatistics.as_view(),
        name="public-player-stats",
    ),
    path("public/federations/<slug:slug>", PublicFederation.as_view(), name="public-federation"),
    path("public/championships/<id:pk>", PublicChampionship.as_view(), name="public-championship"),
    # Federal tournaments and the ranking (issue 34 items 4 and 5)
    path(
        "federations/<id:pk>/tournaments",
        FederationTournaments.as_view(),
        name="federation-tournaments",
    ),
    path(
        "federations/<id:pk>/ranking",
        FederationRanking.as_view(),
        name="federation-ranking",
    ),
    path(
        "federations/<id:pk>/ranking/<id:user_id>",
        FederationPersonHistory.as_view(),
        name="federation-person-history",
    ),
    path(
        "public/federations/<slug:slug>/ranking",
        PublicFederationRanking.as_view(),
        name="public-federation-ranking",
    ),
    path("federations/<id:pk>/ratings", FederationRatings.as_view(), name="federation-ratings"),
    path(
        "federations/<id:pk>/ratings/<id:user_id>",
        FederationPersonRatings.as_view(),
        name="federation-person-ratings",
    ),
    path(
        "public/federations/<slug:slug>/ratings",
        PublicFederationRatings.as_view(),
        name="public-federation-ratings",
    ),
    path("", include(router.urls)),
]
