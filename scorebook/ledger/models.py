"""Stake entries and the settlement of a night."""
