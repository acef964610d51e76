"""Clubs, members and their roles, players."""
