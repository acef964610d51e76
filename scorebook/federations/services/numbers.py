"""Federation numbers: one per person per federation. A person gets the next free number
of a federation when they first belong to it (a link of theirs to a player of a member
club accepted, or their club joining with them linked); a secretary may set a person's
number to the card number they already have. Numbers stay when a link is removed or a
club leaves (the federation's record of the person); an erasure deletes them."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from scorebook.core.audit import audit
from scorebook.core.people import User
from scorebook.core.refusals import unique_or

from ..models import Affiliation, Federation, FederationNumber, OfficerRole, PersonLink
from ..ranked import ranking_changed
from ..refusals import NumberGone, NumberRange, NumberTaken
from .guards import locked, require_officer

#: The largest number a federation gives or a secretary sets (eight digits: a card's).
NUMBER_MAX = 99_999_999


def numbers_give(
    *, federation_ids: Iterable[int], user_ids: Iterable[int]
) -> list[FederationNumber]:
    """Each of ``user_ids`` without a number in each of ``federation_ids`` gets the next
    free one (each federation's row locked: two acceptances at once get two numbers).
    Called inside the service that made them belong; returns the numbers given."""
    given = []
    people = sorted(set(user_ids))
    for federation_id in sorted(set(federation_ids)):
        federation = locked(federation_id)
        have = set(
            FederationNumber.objects.filter(federation=federation, user_id__in=people).values_list(
                "user_id", flat=True
            )
        )
        taken = set(
            FederationNumber.objects.filter(
                federation=federation, number__gte=federation.next_number
            ).values_list("number", flat=True)
        )
        number = federation.next_number
        for person in people:
            if person in have:
                continue
            while number in taken:
                number += 1
            given.append(
                FederationNumber.objects.create(
                    federation=federation, user_id=person, number=number
                )
            )
            number += 1
        if number != federation.next_number:
            federation.next_number = number
            federation.save(update_fields=["next_number"])
            ranking_changed([federation_id])  # the ranking shows the numbers
    return given


def numbers_for_link(link: PersonLink) -> list[FederationNumber]:
    """The numbers an accepted link brings: in every federation its club belongs to now."""
    federations = Affiliation.objects.filter(club_id=link.club_id, left_at__isnull=True)
    return numbers_give(
        federation_ids=federations.values_list("federation_id", flat=True), user_ids=[link.user_id]
    )


def numbers_for_club(federation: Federation, club_id: int) -> list[FederationNumber]:
    """The numbers a club's joining brings: every person linked to one of its players."""
    linked = PersonLink.objects.filter(club_id=club_id, status=PersonLink.Status.ACCEPTED)
    return numbers_give(
        federation_ids=[federation.pk], user_ids=linked.values_list("user_id", flat=True)
    )


@transaction.atomic
def number_set(*, row: FederationNumber, number: int, user: User) -> FederationNumber:
    """A secretary (or the president) sets a person's number: the card they already have.
    Refused when another person of the federation has it."""
    require_officer(user, row.federation_id, OfficerRole.SECRETARY)
    if not 1 <= number <= NUMBER_MAX:
        raise NumberRange(path="number", most=NUMBER_MAX)
    federation = locked(row.federation_id)
    again = FederationNumber.objects.filter(pk=row.pk).first()
    if again is None:  # erased a moment ago
        raise NumberGone()
    row = again
    if row.number == number:
        return row
    refusal = NumberTaken(path="number", number=number)
    if FederationNumber.objects.filter(federation=federation, number=number).exists():
        raise refusal
    before = row.number
    row.number, row.assigned_by = number, user
    unique_or(refusal, lambda: row.save(update_fields=["number", "assigned_by"]))
    ranking_changed([federation.pk])
    audit(
        club_id=None,
        actor=user,
        verb="federation_number_set",
        obj=row,
        before={"number": before},
        after={"federation": federation.pk, "user": row.user_id, "number": number},
    )
    return row
