"""Leaderboards, ratings and league standings."""
