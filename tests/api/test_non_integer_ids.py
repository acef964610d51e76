"""An id that is not a number names no object: 404 in the errors shape, never a 500
(issue 15: ``POST /api/v1/deals/abc/confirm`` and ``/correct`` answered 500)."""

import pytest

from tests.api.common import api


@pytest.mark.parametrize(
    "method,url",
    [
        ("post", "/api/v1/deals/abc/confirm"),
        ("post", "/api/v1/deals/abc/correct"),
        ("get", "/api/v1/deals/abc/history"),
    ],
)
def test_a_non_integer_id_is_not_found(people, method, url):
    client = api(people, "scorer")
    response = getattr(client, method)(url, {}, format="json")
    missing = getattr(client, method)(url.replace("abc", "987654"), {}, format="json")
    assert response.status_code == missing.status_code == 404
    assert response.json()["errors"][0]["code"] == missing.json()["errors"][0]["code"]
