"""A refused import's problems are typed (the ``ImportProblemParams`` component): every
value a problem's words are filled with has its field, typed, in the OpenAPI schema, and
the problems the API gives for the file fuzzer's hostile files (deploy/checks/fuzz_files.py)
have no key the schema does not name, each of the named type."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from api.serializers.history import ImportProblemParamsSerializer
from deploy.checks.fuzz_files import files
from scorebook.core.refusals import Refusal
from scorebook.history import checker, template
from scorebook.history.models import Import, PlannedMatch
from scorebook.matches.models import Night
from tests.api.common import api
from tests.api.shapes import live_schema, validate

pytestmark = pytest.mark.usefixtures("eager_tasks")

#: What a row's problem names (checker.problem_errors).
ROW_PARAMS = {"row", "column", "letter"}
#: JSON Schema's type for each of the component's OpenAPI types.
PYTHON = {"integer": (int,), "number": (int, float), "string": (str,)}


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def file_refusals() -> list[type[Refusal]]:
    """Every refusal the check records as a problem of the whole file: the template's,
    and nothing new to import."""
    return [*_subclasses(template.TemplateRefusal), checker.NothingNew]


def named_params(refusals: list[type[Refusal]]) -> set[str]:
    """The values the refusals' messages name, and a row's."""
    named = set(ROW_PARAMS)
    for refusal in refusals:
        named |= set(re.findall(r"%\((\w+)\)", str(refusal.message)))
    return named


def test_every_param_a_problem_can_hold_is_typed():
    fields = set(ImportProblemParamsSerializer().fields)
    named = named_params(file_refusals())
    assert named - fields == set(), "a problem's params name a value the schema does not type"
    assert fields - named == set(), "the schema types a param no problem has"


def test_the_check_finds_an_untyped_param():
    class Colour(template.TemplateRefusal):
        message = "The %(colour)s of row %(row)s."

    missing = named_params([*file_refusals(), Colour]) - set(ImportProblemParamsSerializer().fields)
    assert missing == {"colour"}


def test_a_size_is_a_number_in_the_params_and_words_in_the_message(settings):
    settings.IMPORT_MAX_BYTES = 10 * 1024 * 1024
    with pytest.raises(template.TooLarge) as refused:
        template.check_size(int(10.54 * 1024 * 1024))
    assert refused.value.params == {"size": 10.5, "limit": 10}
    assert refused.value.errors("en")[0]["message"] == (
        "The file is 10.5 MB: the most an import takes is 10 MB."
    )
    template.check_size(10 * 1024 * 1024)  # at the limit: taken


def _typed(schema, params: dict) -> list[str]:
    """Each param's value against its field's type in the live schema."""
    fields = schema["components"]["schemas"]["ImportProblemParams"]["properties"]
    wrong = [f"{key} is not in the schema" for key in set(params) - set(fields)]
    for key, value in params.items():
        kind = fields.get(key, {}).get("type", "string")
        if isinstance(value, bool) or not isinstance(value, PYTHON[kind]):
            wrong.append(f"{key}={value!r} is not {kind}")
    return wrong


def test_the_fuzzers_refused_files_answer_in_the_typed_shape(
    people, django_capture_on_commit_callbacks
):
    schema = live_schema()
    director = api(people, "director")
    codes: set[str] = set()
    keys: set[str] = set()
    for name, data in files():
        if len(data) > 512 * 1024:  # the sizes are the nginx and fuzz-pages checks'
            continue
        with django_capture_on_commit_callbacks(execute=True):
            answer = director.post(
                "/api/v1/imports",
                {"club": people.club.pk, "file": SimpleUploadedFile(name, data)},
                format="multipart",
            )
        assert answer.status_code in (202, 400, 413), (name, answer.status_code)
        if answer.status_code != 202:
            continue
        body = director.get(f"/api/v1/imports/{answer.json()['id']}").json()
        validate(schema, "Import", body)
        for problem in body["problems"]:
            assert _typed(schema, problem["params"]) == [], (name, problem)
            codes.add(problem["code"])
            keys |= set(problem["params"])
    # the hostile files reach many of the check's refusals, rows and whole files alike
    assert {"import.bad_character", "import.not_a_template", "import.formula"} <= codes
    assert {"import.unsafe_xml", "import.bad_number"} & codes, codes
    assert ROW_PARAMS | {"char", "detail"} <= keys, keys
    refused = Import.objects.filter(status=Import.Status.REFUSED)
    assert refused.exists() and not refused.exclude(upload=None).exists()
    assert not PlannedMatch.objects.filter(batch__in=refused).exists()
    assert not Night.objects.filter(club=people.club).exists()
