"""Who is asking, as the services and selectors type it.

Services act for a signed-in person (``User``); selectors may be asked by anyone, signed in
or not (``Anyone``). Scorebook uses Django's own user model.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser

User: TypeAlias = AuthUser
Anyone: TypeAlias = AuthUser | AnonymousUser
