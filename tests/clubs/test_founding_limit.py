"""Founding clubs is limited per account (issue 31 item 4): any signed-in account may
found a club and upload files to it, CLUB_FOUNDING_LIMIT in CLUB_FOUNDING_HOURS hours;
past it, a refusal in words (429 club.founding_limit), nothing stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from scorebook.clubs.models import Club
from scorebook.clubs.services import FoundingLimit, club_create
from scorebook.core.models import AuditEvent
from tests.api.common import api


@pytest.fixture
def founder(db):
    return get_user_model().objects.create_user("founder")


def test_past_the_limit_the_account_is_refused_in_words(founder, settings):
    settings.CLUB_FOUNDING_LIMIT, settings.CLUB_FOUNDING_HOURS = 3, 24
    for number in range(3):
        club_create(name=f"Club {number}", slug=f"club-{number}", user=founder)
    with pytest.raises(FoundingLimit) as refused:
        club_create(name="One more", slug="one-more", user=founder)
    assert refused.value.status == 429
    assert "3 clubs in the last 24 hours" in refused.value.text()
    with translation.override("it"):
        assert "24 ore" in refused.value.text()
    assert not Club.objects.filter(slug="one-more").exists()
    other = get_user_model().objects.create_user("another")
    club_create(name="Theirs", slug="theirs", user=other)  # per account


def test_the_limit_counts_the_last_hours_only(founder, settings):
    settings.CLUB_FOUNDING_LIMIT, settings.CLUB_FOUNDING_HOURS = 2, 24
    club_create(name="Old", slug="old", user=founder)
    club_create(name="Older", slug="older", user=founder)
    AuditEvent.objects.filter(verb="club_created").update(at=timezone.now() - timedelta(hours=25))
    club_create(name="New", slug="new", user=founder)


def test_the_api_answers_429_with_its_code(people, settings):
    settings.CLUB_FOUNDING_LIMIT = 1
    client = api(people, "stranger")  # the stranger founded the other club in the personas
    AuditEvent.objects.filter(verb="club_created").delete()
    first = client.post("/api/v1/clubs", {"name": "Uno", "slug": "uno"}, format="json")
    assert first.status_code == 201, first.json()
    answer = client.post(
        "/api/v1/clubs", {"name": "Due", "slug": "due"}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert answer.status_code == 429
    error = answer.json()["errors"][0]
    assert error["code"] == "club.founding_limit" and "1 circoli" in error["message"]
    assert not Club.objects.filter(slug="due").exists()
