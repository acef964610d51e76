"""Numbers and ids the API reads from bodies, paths and query parameters (issue 23): a 4xx
in the documented shape for anything that is not one, never a 500, nothing stored."""

from scorebook.matches.models import Deal
from tests.api.common import api
from tests.api.test_no_server_errors import assert_shape, raw_post

HUGE = "1" + "0" * 4400


def test_a_json_integer_of_thousands_of_digits_is_refused_anonymously(db):
    from rest_framework.test import APIClient

    response = raw_post(APIClient(), "/api/v1/rules/score", '{"x": ' + HUGE + "}")
    body = assert_shape(response, 400)
    assert body["errors"][0]["code"] == "input.number_too_large"


def test_a_json_integer_of_thousands_of_digits_stores_nothing(people, match):
    client = api(people, "scorer")
    body = '{"number": 1, "deal": {"sides": {"A": {"thirds": ' + HUGE + "}}}}"
    response = raw_post(client, f"/api/v1/matches/{match.pk}/deals", body)
    assert_shape(response, 400)
    negative = raw_post(client, f"/api/v1/matches/{match.pk}/deals", body.replace(HUGE, "-" + HUGE))
    assert_shape(negative, 400)
    assert Deal.objects.count() == 0
