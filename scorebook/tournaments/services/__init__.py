"""Writes to a tournament, by job; each write is one transaction and a refusal changes
nothing. The reads (standings, bracket, rounds in all, final places, the money) are in
``tournaments.selectors``.

- ``setup``: create a tournament on tonight's night, change its settings;
- ``registration``: pairs and singles at the door, the draw of singles into pairs,
  withdrawals;
- ``rounds``: pair a round, swap and bye before it starts, start it (tables seated, the
  matches created through ``matches.services.match_create``);
- ``results``: forfeits, la bella, finish (prizes paid) and cancel (fees back);
- ``money``: the fees into the pot, refunds, the prize plan and the payout;
- ``guards``: the checks every write shares (the tournament locked for a director).
"""
