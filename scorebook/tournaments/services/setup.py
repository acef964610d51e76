"""A tournament's settings: create it on tonight's night (``DEFAULTS``: format, rounds,
groups, series, tie-breaks, points, fee and prizes), change them while they may change
(``CHANGEABLE_WHILE_RUNNING`` once round 1 is paired)."""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any

from django.db import transaction

from scorebook.clubs.models import Role
from scorebook.clubs.services import require_role
from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.core.refusals import unique_or
from scorebook.matches.models import Night
from scorebook.matches.refusals import STAKE_CURRENCIES
from scorebook.standings.leagues import knockout

from .. import ranking, selectors
from ..models import Tournament
from ..refusals import (
    NightClosed,
    TournamentNameTaken,
    TournamentSettings,
)
from .guards import locked, pair_seats
from .money import checked_amount, checked_prizes

#: The settings a director gives (``tournament_create``) or changes (``tournament_update``),
#: with their defaults.
DEFAULTS: dict[str, Any] = {
    "format": Tournament.Format.SWISS,
    "rounds": 3,
    "group_size": 4,
    "qualifiers": 1,
    "seeding": Tournament.Seeding.ORDER,
    "series": knockout.MATCHES,
    "series_games": 1,
    "tiebreaks": None,
    "points_win": 2,
    "points_draw": 1,
    "points_loss": 0,
    "entry_fee": 0,
    "currency": "",
    "prize_kind": Tournament.PrizeKind.PERCENT,
    "prizes": (),
    "club_share": 0,
}


#: What may still change once round 1 is paired: the tie-breaks and the points (the
#: standings are computed on read) and the prize split (paid at the end).
CHANGEABLE_WHILE_RUNNING = {
    "name",
    "tiebreaks",
    "points_win",
    "points_draw",
    "points_loss",
    "prize_kind",
    "prizes",
    "club_share",
}


def _small_int(value: Any, low: int, high: int, path: str, words: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise TournamentSettings(path=path, problem=words)
    return value


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """The settings as stored, each checked; a refusal names the first that does not hold."""
    out = dict(values)
    name = values["name"].strip() if isinstance(values["name"], str) else ""
    if not name or len(name) > 80:
        raise TournamentSettings(path="name", problem="a name of 1 to 80 characters")
    out["name"] = name
    if values["format"] not in Tournament.Format.values:
        raise TournamentSettings(path="format", problem=str(values["format"])[:20])
    _small_int(values["rounds"], 1, 20, "rounds", "1 to 20 rounds")
    _small_int(values["group_size"], 3, 5, "group_size", "groups of 3 to 5")
    _small_int(values["qualifiers"], 1, 2, "qualifiers", "1 or 2 of each group")
    if values["seeding"] not in Tournament.Seeding.values:
        raise TournamentSettings(path="seeding", problem=str(values["seeding"])[:20])
    _small_int(values["series_games"], 1, 9, "series_games", "1 to 9 games")
    try:
        knockout.Series(values["series"], values["series_games"])
    except (ValueError, TypeError):
        raise TournamentSettings(path="series", problem=str(values["series"])[:20]) from None
    try:
        out["tiebreaks"] = list(ranking.check_chain(values["tiebreaks"] or ranking.CRITERIA))
    except (ValueError, TypeError) as problem:
        raise TournamentSettings(path="tiebreaks", problem=str(problem)[:100]) from None
    for key in ("points_win", "points_draw", "points_loss"):
        _small_int(values[key], 0, 100, key, "0 to 100")
    fee = checked_amount(values["entry_fee"], "entry_fee")
    currency = values["currency"]
    # The stakes' currencies: the fee is booked in the ledger beside the night's stakes.
    if not isinstance(currency, str) or (currency and currency not in STAKE_CURRENCIES):
        raise TournamentSettings(path="currency", problem="one of " + ", ".join(STAKE_CURRENCIES))
    if fee and not currency:
        raise TournamentSettings(path="currency", problem="an entry fee needs a currency")
    prizes, share = checked_prizes(values["prize_kind"], values["prizes"], values["club_share"])
    out.update(
        entry_fee=fee,
        currency=currency if fee else "",
        prizes=prizes if fee else [],
        club_share=share if fee else Decimal(0),
    )
    return out


@transaction.atomic
def tournament_create(
    *,
    night: Night,
    name: str,
    game: str,
    rules: Any,
    user: User,
    seed: int | None = None,
    **settings: Any,
) -> Tournament:
    """A tournament on tonight's ``night``. The house rules are checked by the engine
    now (each match is created with them later); ``seed`` (default: a random one) drives
    every drawing of lots and is stored. ``settings``: any of ``DEFAULTS`` (format,
    rounds, group_size, qualifiers, seeding, series, series_games, tiebreaks, points_win,
    points_draw, points_loss, entry_fee, currency, prize_kind, prizes, club_share)."""
    require_role(user, night.club_id, Role.DIRECTOR)
    if night.status == Night.Status.CLOSED:
        raise NightClosed()
    unknown = set(settings) - set(DEFAULTS)
    if unknown:
        raise TournamentSettings(path=sorted(unknown)[0], problem="not a setting")
    values = _checked({**DEFAULTS, **settings, "name": name})
    pair_seats(game, rules)
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**48):
        raise TournamentSettings(path="seed", problem="a whole number from 0 to 2^48")
    if Tournament.objects.filter(night=night, name=values["name"]).exists():
        raise TournamentNameTaken(path="name", name=values["name"])
    # The check above cannot see a director creating the same name at this moment.
    tournament = unique_or(
        TournamentNameTaken(path="name", name=values["name"]),
        lambda: Tournament.objects.create(
            club_id=night.club_id,
            night=night,
            game=game,
            rules=rules if rules is not None else {},
            seed=seed if seed is not None else secrets.randbits(48),
            created_by=user,
            **values,
        ),
    )
    audit(
        club_id=night.club_id,
        actor=user,
        verb="tournament_created",
        obj=tournament,
        after={"name": tournament.name, "format": tournament.format, "seed": tournament.seed},
    )
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, changes: dict[str, Any], user: User) -> Tournament:
    """Change settings (``DEFAULTS``' keys and the name). Before round 1 is paired
    anything may change but the fee once a fee is booked; afterwards only the name, the
    tie-breaks, the points and the prize split (``CHANGEABLE_WHILE_RUNNING``)."""
    tournament = locked(tournament, user)
    if not isinstance(changes, dict):
        raise TournamentSettings(path="", problem="an object of settings")
    unknown = set(changes) - set(DEFAULTS) - {"name"}
    if unknown:
        raise TournamentSettings(path=sorted(unknown)[0], problem="not a setting")
    if tournament.status != Tournament.Status.REGISTRATION:
        fixed = sorted(set(changes) - CHANGEABLE_WHILE_RUNNING)
        if fixed:
            raise TournamentSettings(path=fixed[0], problem="fixed once round 1 is paired")
    current = {key: getattr(tournament, key) for key in [*DEFAULTS, "name"]}
    values = _checked({**current, **changes})
    booked = selectors.ledger_entries(tournament).exists()
    if booked and (
        values["entry_fee"] != tournament.entry_fee or values["currency"] != tournament.currency
    ):
        raise TournamentSettings(path="entry_fee", problem="fees are already paid")
    if (
        values["name"] != tournament.name
        and Tournament.objects.filter(night_id=tournament.night_id, name=values["name"]).exists()
    ):
        raise TournamentNameTaken(path="name", name=values["name"])
    changed = {k: v for k, v in values.items() if v != current[k]}
    for key, value in changed.items():
        setattr(tournament, key, value)
    if changed:
        # Another tournament renamed to this name at this moment: the same refusal.
        unique_or(
            TournamentNameTaken(path="name", name=values["name"]),
            lambda: tournament.save(update_fields=list(changed)),
        )
        audit(
            club_id=tournament.club_id,
            actor=user,
            verb="tournament_changed",
            obj=tournament,
            before={k: str(current[k]) for k in changed},
            after={k: str(v) for k, v in changed.items()},
        )
    return tournament
