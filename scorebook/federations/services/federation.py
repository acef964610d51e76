"""Founding a federation, changing it, and its officers: the president names officers
(president, secretary, officer) and changes the federation; a federation always keeps a
president. Being an officer gives no role in any club."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scorebook.core.audit import audit
from scorebook.core.models import AuditEvent
from scorebook.core.people import User
from scorebook.core.refusals import unique_or

from ..models import Federation, Level, Officer, OfficerRole
from ..refusals import (
    AlreadyOfficer,
    FederationSlugTaken,
    FoundingLimit,
    LastPresident,
    OfficerGone,
    UnknownAccount,
)
from .guards import locked, require_officer

#: What the president may change.
SETTINGS = frozenset({"name", "slug", "level", "publishes"})


def _audit(federation: Federation, user: User, verb: str, obj: Any, **facts: Any) -> None:
    """The federation's acts in the audit log: ids and codes only (no name), no club."""
    audit(
        club_id=None, actor=user, verb=verb, obj=obj, after={"federation": federation.pk, **facts}
    )


def _founding_allowed(user: User) -> None:
    """Refuse a founding past the account's limit (FEDERATION_FOUNDING_LIMIT in
    CLUB_FOUNDING_HOURS); the account's row is locked, so two foundings at once by one
    account are counted one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    hours = settings.CLUB_FOUNDING_HOURS
    since = timezone.now() - timedelta(hours=hours)
    founded = AuditEvent.objects.filter(
        actor=user, verb="federation_created", at__gte=since
    ).count()
    if founded >= settings.FEDERATION_FOUNDING_LIMIT:
        raise FoundingLimit(count=founded, hours=hours)


@transaction.atomic
def federation_create(
    *,
    name: str,
    slug: str,
    user: User,
    level: str = Level.PROVINCIAL,
    publishes: bool = False,
) -> Federation:
    """Any signed-in person founds a federation and is its first president (as anyone
    founds a club); a few per account a day, so that addresses are not hoarded."""
    _founding_allowed(user)
    refusal = FederationSlugTaken(path="slug", slug=slug)
    if Federation.objects.filter(slug=slug).exists():
        raise refusal
    federation = unique_or(
        refusal,
        lambda: Federation.objects.create(name=name, slug=slug, level=level, publishes=publishes),
    )
    Officer.objects.create(federation=federation, user=user, role=OfficerRole.PRESIDENT)
    _audit(federation, user, "federation_created", federation, level=level)
    return federation


@transaction.atomic
def federation_update(*, federation: Federation, changes: dict[str, Any], user: User) -> Federation:
    """The president changes the name, the address, the level, whether it publishes."""
    require_officer(user, federation.pk, OfficerRole.PRESIDENT)
    federation = locked(federation)
    changes = {f: v for f, v in changes.items() if f in SETTINGS and getattr(federation, f) != v}
    if not changes:
        return federation
    if "slug" in changes:
        taken = Federation.objects.filter(slug=changes["slug"]).exclude(pk=federation.pk)
        if taken.exists():
            raise FederationSlugTaken(path="slug", slug=changes["slug"])
    for field, value in changes.items():
        setattr(federation, field, value)
    unique_or(
        FederationSlugTaken(path="slug", slug=federation.slug),
        lambda: federation.save(update_fields=list(changes)),
    )
    _audit(federation, user, "federation_changed", federation, fields=sorted(changes))
    return federation


def _account(username: str) -> User:
    account = get_user_model().objects.filter(username=username, is_active=True).first()
    if account is None:
        raise UnknownAccount(path="username", username=username[:150])
    return account


@transaction.atomic
def officer_add(*, federation: Federation, username: str, role: str, user: User) -> Officer:
    """The president names an account an officer with ``role``."""
    require_officer(user, federation.pk, OfficerRole.PRESIDENT)
    federation = locked(federation)
    account = _account(username)
    refusal = AlreadyOfficer(path="username", username=account.get_username())
    if Officer.objects.filter(federation=federation, user=account).exists():
        raise refusal
    office = unique_or(
        refusal, lambda: Officer.objects.create(federation=federation, user=account, role=role)
    )
    _audit(federation, user, "officer_added", office, account=account.pk, role=role)
    return office


def _keeps_a_president(office: Officer) -> None:
    """Refused when ``office`` is the federation's last president (the row is locked by
    the caller's lock on the federation)."""
    if office.role != OfficerRole.PRESIDENT:
        return
    others = Officer.objects.filter(federation_id=office.federation_id, role=OfficerRole.PRESIDENT)
    if not others.exclude(pk=office.pk).exists():
        raise LastPresident()


def _still_there(officer: Officer) -> Officer:
    """The office read again under the federation's lock (another phone may have removed
    it a moment ago)."""
    again = Officer.objects.filter(pk=officer.pk).first()
    if again is None:
        raise OfficerGone()
    return again


@transaction.atomic
def officer_change(*, officer: Officer, role: str, user: User) -> Officer:
    """The president changes an officer's role (the last president stays one)."""
    require_officer(user, officer.federation_id, OfficerRole.PRESIDENT)
    federation = locked(officer.federation_id)
    officer = _still_there(officer)
    if officer.role == role:
        return officer
    if role != OfficerRole.PRESIDENT:
        _keeps_a_president(officer)
    before = officer.role
    officer.role = role
    officer.save(update_fields=["role"])
    _audit(
        federation, user, "officer_changed", officer, account=officer.user_id, role=role, was=before
    )
    return officer


@transaction.atomic
def officer_remove(*, officer: Officer, user: User) -> None:
    """The president removes an officer, or an officer steps down; the last president
    cannot (they name another first)."""
    if officer.user_id != user.pk:
        require_officer(user, officer.federation_id, OfficerRole.PRESIDENT)
    federation = locked(officer.federation_id)
    officer = _still_there(officer)
    _keeps_a_president(officer)
    _audit(federation, user, "officer_removed", officer, account=officer.user_id, role=officer.role)
    officer.delete()
