"""Leagues: ``services`` (the writes), ``selectors`` (the tables, computed on read), and the
pure modules they use: ``roundrobin`` (the circle method), ``knockout`` (the bracket and
series) and ``tiebreaks`` (the ordered table and its chain)."""
