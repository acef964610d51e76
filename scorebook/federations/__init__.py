"""Federations: clubs that play together (issue 34). Above tournaments and standings,
below archive, sharing and the adapters; nothing below imports it."""
