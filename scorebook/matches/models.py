"""Club nights, tables, matches, deals, corrections and confirmations."""
