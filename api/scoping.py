"""What a caller may name: only objects of their own clubs.

An id of another club's object must answer exactly as a missing one (docs/api.md: "objects
of another club are 404, never 403"), in a create's body as in a ``?club=`` filter, or the
difference tells a stranger what exists. These helpers scope any model by the path from it
to its club, for the serializer fields and the filters of the API.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db.models import Model, QuerySet
from django_filters import ModelChoiceFilter, ModelMultipleChoiceFilter
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import serializers

from scorebook.clubs.selectors import clubs_of
from scorebook.core.people import Anyone

#: From a model (app_label.ModelName) to its club ("" for the club itself).
CLUB_PATHS = {
    "clubs.club": "",
    "clubs.player": "club",
    "clubs.membership": "club",
    "clubs.invitation": "club",
    "matches.night": "club",
    "matches.table": "night__club",
    "matches.match": "night__club",
    "matches.deal": "match__night__club",
    "ledger.entry": "club",
    "standings.season": "club",
    "standings.league": "club",
    "standings.leagueentry": "league__club",
    "standings.round": "league__club",
    "standings.fixture": "league__club",
    "tournaments.tournament": "club",
}


def visible(queryset: QuerySet[Any], user: Anyone) -> QuerySet[Any]:
    """``queryset`` limited to the user's clubs; users: the members of the user's clubs."""
    model: type[Model] = queryset.model
    clubs = clubs_of(user)
    if model is get_user_model():
        return queryset.filter(memberships__club__in=clubs).distinct()
    path = CLUB_PATHS.get(model._meta.label_lower)
    if path is None:
        return queryset
    return queryset.filter(**{f"{path}__in" if path else "pk__in": clubs})


class OwnClubsField(serializers.PrimaryKeyRelatedField):
    """A related id the caller may name: another club's is as unknown as a missing one."""

    def get_queryset(self) -> QuerySet[Any]:
        queryset = super().get_queryset()
        assert queryset is not None, "an OwnClubsField names its model's queryset"
        request = self.context.get("request")
        return visible(queryset, getattr(request, "user", AnonymousUser()))


class ScopedFilterBackend(DjangoFilterBackend):
    """django-filter, with every related-object filter limited to the caller's clubs."""

    def get_filterset(self, request: Any, queryset: Any, view: Any) -> Any:
        filterset = super().get_filterset(request, queryset, view)
        if filterset is None:
            return None
        for name, filter_ in filterset.filters.items():
            if isinstance(filter_, (ModelChoiceFilter, ModelMultipleChoiceFilter)):
                scoped = visible(filter_.queryset, request.user)
                filter_.queryset = scoped
                filterset.form.fields[name].queryset = scoped
        return filterset
