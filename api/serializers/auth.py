"""Logging in for a token."""

from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer


class TokenSerializer(AuthTokenSerializer):
    """No username or password longer than any account's is looked up (or recorded as a
    failed login: django-axes' column holds 255 characters)."""

    username = serializers.CharField(label="Username", max_length=150, write_only=True)
    password = serializers.CharField(
        label="Password",
        max_length=4096,
        style={"input_type": "password"},
        trim_whitespace=False,
        write_only=True,
    )
