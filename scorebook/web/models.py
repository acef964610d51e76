"""The phone-first pages."""
