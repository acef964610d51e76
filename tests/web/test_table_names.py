"""A table without a name is called by its number in the page's language: the Italian
night page, match page and match form said "Table 2"."""

import pytest

from tests.web.test_pages import client_for


@pytest.mark.parametrize(("language", "word"), [("it", "Tavolo 2"), ("en", "Table 2")])
def test_an_unnamed_table_is_named_in_the_pages_language(people, world, language, word):
    client = client_for(people, "director")
    night = client.get(f"/n/{world['night']}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<h2>{word}</h2>" in night
    match = client.get(f"/m/{world['finished']}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"· {word}</a>" in match
    form = client.get(
        f"/n/{world['night']}/matches/new?game=tressette4&players=4", HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert f">{word}</option>" in form
    other = "Table 2" if language == "it" else "Tavolo 2"
    assert other not in night + match + form
