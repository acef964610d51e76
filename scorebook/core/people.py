"""Who is asking, as the services and selectors type it.

Services act for a signed-in person (``User``); selectors may be asked by anyone, signed in
or not (``Anyone``). Scorebook uses Django's own user model.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.core.exceptions import PermissionDenied

User: TypeAlias = AuthUser
Anyone: TypeAlias = AuthUser | AnonymousUser


def signed_in(request: Any) -> User:
    """The person behind a request a login already guards (the view's permission or
    ``login_required`` refused anyone else first), typed as such for the services."""
    user = request.user
    if not isinstance(user, AuthUser):
        raise PermissionDenied
    return user
