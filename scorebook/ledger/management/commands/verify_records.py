"""``manage.py verify_records``: after restoring a backup (deploy/RUNBOOK.md), check that
the records hold together: every match's stored state, result and per-deal results are
what its current deals re-derive to, and every night's ledger sums to zero."""

from django.core.management.base import BaseCommand, CommandError

from scorebook.ledger import services as ledger
from scorebook.ledger.models import Entry
from scorebook.ledger.transfers import Unbalanced
from scorebook.matches import services
from scorebook.matches.models import Match, Night


def match_problems(match: Match) -> list[str]:
    deals = services.current_deals(match)
    try:
        folded = services.fold(match, [deal.input for deal in deals])
    except services.RulesRejected as refusal:
        return [f"match {match.pk}: its deals no longer score: {refusal}"]
    problems = []
    if match.state != folded.state.as_dict():
        problems.append(f"match {match.pk}: stored state differs from its deals")
    outcome = folded.state.outcome.as_dict() if folded.state.outcome else None
    if match.result != outcome:
        problems.append(f"match {match.pk}: stored result differs from its deals")
    for deal, result in zip(deals, folded.results, strict=True):
        if deal.result != result.as_dict():
            problems.append(f"match {match.pk} deal {deal.number}: stored result differs")
    return problems


def night_problems(night: Night) -> list[str]:
    try:
        ledger.zero_sum_check(Entry.objects.filter(night=night))
    except Unbalanced as unbalanced:
        return [f"night {night.pk}: the ledger does not sum to zero ({unbalanced})"]
    return []


class Command(BaseCommand):
    help = "Check that every match re-derives from its deals and every ledger sums to zero."
    requires_system_checks: list[str] = []  # a restore check needs only the models

    def handle(self, *args, **options):
        problems = []
        matches = Match.objects.select_related("night").order_by("pk")
        for match in matches.iterator():
            problems += match_problems(match)
        nights = Night.objects.order_by("pk")
        for night in nights.iterator():
            problems += night_problems(night)
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problems found")
        self.stdout.write(
            f"OK: {matches.count()} matches re-derive from their deals, "
            f"{nights.count()} nights' ledgers sum to zero."
        )
