"""A team leaving a championship, and a forfeit recorded by mistake undone (issue 34
item 3). Each write is one transaction with its audit line and the championship's
``version`` bumped (the public table's cache key); a refusal changes nothing.

The rule of a withdrawal (docs/federation.md, "A team withdraws"; the pure rule is
``championship_rules.withdrawal_rule``):

- before the start: the team is deleted, as if it never entered (a director of its club,
  or an officer);
- after the start, an officer only, with a reason: before half of the team's group
  fixtures are settled its results are **annulled** (the table strikes out every result
  of theirs and lists the team at the foot without a place; its fixtures not settled are
  never played); from half on its results **stand** and every fixture it has not settled
  is **lost by forfeit**; once the knockout is drawn its knockout fixtures are lost by
  forfeit and its seed kept (the bracket stays as drawn). A fixture being played tonight
  is annulled or forfeited like the others: its tables stay matches of the home club's
  record, and the night closes as after any forfeit.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scorebook.clubs.models import Role
from scorebook.clubs.selectors import membership_of
from scorebook.core.audit import audit
from scorebook.core.people import User

from .. import championship_rules as rules
from ..models import Championship, ChampionshipFixture, OfficerRole, Team
from ..refusals import (
    ChampionshipFinished,
    ForfeitDrawnFrom,
    ForfeitOfWithdrawn,
    NotForfeited,
    TeamWithdrawn,
)
from .championships import SETTLED, Status, changed, fixture_locked, locked, settled
from .guards import require_officer

Stage = ChampionshipFixture.Stage
Withdrawal = Team.Withdrawal


@transaction.atomic
def team_withdraw(*, team: Team, user: User, reason: str = "") -> Team | None:
    """A team leaves the championship. Before the start (a director of its club, or an
    officer) it is deleted: None. After it (an officer) the rule of the module's
    docstring applies; answers the team, withdrawn."""
    championship = locked(team.championship)
    if championship.status == Championship.Status.OPEN:
        _withdraw_entry(team, championship, user)
        return None
    require_officer(user, championship.federation_id, OfficerRole.OFFICER)
    team = Team.objects.select_for_update().get(pk=team.pk)
    if team.withdrawn:
        raise TeamWithdrawn(name=team.name)
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipFinished()
    rule = _rule(championship, team)
    reason = reason.strip()[:200]
    left = list(
        ChampionshipFixture.objects.select_for_update()
        .filter(Q(home=team) | Q(away=team), championship=championship)
        .exclude(status__in=SETTLED)
        .order_by("pk")
    )
    for fixture in left:
        if rule == Withdrawal.ANNULLED:
            fixture.status = Status.ANNULLED
        else:
            fixture.status = Status.FORFEITED
            fixture.forfeited_by = team
        fixture.reason = reason
        fixture.save(update_fields=["status", "forfeited_by", "reason"])
    team.withdrawn = True
    team.withdrawn_at = timezone.now()
    team.withdrawal = rule
    team.withdrawal_reason = reason
    team.save(update_fields=["withdrawn", "withdrawn_at", "withdrawal", "withdrawal_reason"])
    audit(
        club_id=team.club_id,
        actor=user,
        verb="championship_team_withdrawn",
        obj=team,
        before={"championship": championship.pk, "name": team.name},
        after={"rule": rule, "fixtures": [f.pk for f in left]},
        reason=reason,
    )
    settled(championship)  # bumps the version; the knockout goes on; the end
    return team


def _withdraw_entry(team: Team, championship: Championship, user: User) -> None:
    """Before the start: the entry goes, as if it never was."""
    mine = membership_of(user, team.club_id)
    if mine is None or not mine.at_least(Role.DIRECTOR):
        require_officer(user, championship.federation_id, OfficerRole.OFFICER)
    audit(
        club_id=team.club_id,
        actor=user,
        verb="championship_team_withdrawn",
        obj=team,
        before={"championship": championship.pk, "name": team.name},
    )
    team.delete()
    changed(championship.pk)


def _rule(championship: Championship, team: Team) -> str:
    """Which rule the withdrawal applies: the knockout's once it is drawn, else the
    group stage's by how many of the team's group fixtures are settled (an annulled one,
    against a team gone before, counts neither way)."""
    if championship.fixtures.filter(stage=Stage.KNOCKOUT).exists():
        return Withdrawal.KNOCKOUT
    group = (
        championship.fixtures.filter(Q(home=team) | Q(away=team), stage=Stage.GROUP)
        .exclude(status=Status.ANNULLED)
        .values_list("status", flat=True)
    )
    statuses = list(group)
    done = sum(1 for s in statuses if s in (Status.CONFIRMED, Status.FORFEITED))
    return Withdrawal(rules.withdrawal_rule(done, len(statuses)))


@transaction.atomic
def fixture_forfeit_undo(
    *, fixture: ChampionshipFixture, user: User, reason: str = ""
) -> ChampionshipFixture:
    """An officer undoes a forfeit recorded by mistake: the fixture goes back to being
    played (its tables' matches give the result again, for the away captain to confirm)
    when it was played, else to planned. Refused for a withdrawn team's forfeit and for
    a forfeit something later was drawn from (the knockout, or its next round)."""
    require_officer(user, fixture.championship.federation_id, OfficerRole.OFFICER)
    championship = locked(fixture.championship)  # the championship first, as withdrawals
    fixture = fixture_locked(fixture)
    if fixture.status != Status.FORFEITED:
        raise NotForfeited(status=fixture.get_status_display())
    _check_undo(championship, fixture)
    before = {"forfeited_by": fixture.forfeited_by_id, "reason": fixture.reason}
    fixture.status = Status.PLAYING if fixture.boards.exists() else Status.PLANNED
    fixture.forfeited_by = None
    fixture.reason = ""
    fixture.save(update_fields=["status", "forfeited_by", "reason"])
    if championship.status == Championship.Status.FINISHED:
        championship.status = Championship.Status.STARTED
        championship.save(update_fields=["status"])
    changed(championship.pk)
    audit(
        club_id=None,
        actor=user,
        verb="championship_forfeit_undone",
        obj=fixture,
        before=before,
        after={"status": fixture.status},
        reason=reason.strip()[:200],
    )
    return fixture


def _check_undo(championship: Championship, fixture: ChampionshipFixture) -> None:
    if fixture.home.withdrawn or fixture.away.withdrawn:
        raise ForfeitOfWithdrawn()
    knockout = championship.fixtures.filter(stage=Stage.KNOCKOUT)
    if fixture.stage == Stage.KNOCKOUT:
        knockout = knockout.filter(round__gt=fixture.round)
    if knockout.exists():
        raise ForfeitDrawnFrom()
