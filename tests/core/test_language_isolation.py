"""Each test starts in the site's language (tests/conftest.py): a request in Italian
through Django's test client leaves Italian active in the thread after its answer, and two
tournament tests read Italian words when they ran after such a request in the full suite.
The two tests below run in this order (pytest keeps a file's order)."""

from django.test import Client
from django.utils import translation


def test_a_request_in_italian_leaves_italian_active(db):
    Client().get("/privacy", HTTP_ACCEPT_LANGUAGE="it")
    assert translation.get_language() == "it"


def test_the_next_test_starts_in_english_again(db):
    assert translation.get_language() == "en"
