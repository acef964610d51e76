"""Writes to federations, by job; each write is one transaction and a refusal changes
nothing. The reads are in ``federations.selectors``.

- ``federation``: found a federation, change it, its officers;
- ``membership``: invite a club, the club's owner accepts or declines, the club leaves;
- ``links``: a person's links to players (proposed by a director or asked by the person,
  accepted by the other side, removed by either);
- ``numbers``: federation numbers, given when a person first belongs and set by a
  secretary;
- ``championships``: a championship, its teams and fixtures; ``withdrawals``: a team
  leaving one (the rule of docs/federation.md), a forfeit undone;
- ``guards``: the checks every write shares (the caller's office in the federation).
"""
