"""Routes of API v1."""

from django.urls import path

from api.views.rules import GamesView, ScoreView

urlpatterns = [
    path("rules/games", GamesView.as_view(), name="rules-games"),
    path("rules/score", ScoreView.as_view(), name="rules-score"),
]
