"""Erasing a person (issue 28): the confirmations a request carries, and the erased
player's answer."""

from __future__ import annotations

from rest_framework import serializers


class PlayerEraseRequest(serializers.Serializer):
    name = serializers.CharField(
        max_length=200, trim_whitespace=False, help_text="The player's name, as confirmation."
    )


class ErasedPlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField(help_text="The pseudonym: 'Erased player #n'.")
    number = serializers.IntegerField()


class MeEraseRequest(serializers.Serializer):
    username = serializers.CharField(
        max_length=200, trim_whitespace=False, help_text="Your username, as confirmation."
    )
