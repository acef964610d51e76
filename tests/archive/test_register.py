"""The register of text (scorebook/archive/register.py): every text field of every model is
classified, with a reason; a model that gains a text field nobody classified fails here.
And the names: each of a person's names is found in any case and with any separator."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import models

from scorebook.archive import register
from scorebook.archive.names import rewriter


def test_every_text_field_of_every_model_is_classified():
    assert register.unclassified() == []


def test_every_classification_says_how_and_why():
    for label, texts in register.REGISTER.items():
        for name, text in texts.fields.items():
            assert text.how in register.HOW, (label, name)
            assert len(text.why) >= 8, (label, name)
        rewritten = [t for t in texts.fields.values() if t.how == register.REWRITE]
        if rewritten and texts.club is not None:
            # the club lookup resolves: a query with it compiles
            model = apps.get_model(label)
            str(model._base_manager.filter(**{f"{texts.club}_id": 1}).query)


def test_the_check_sees_a_new_field_and_a_field_gone(monkeypatch):
    """A model that gains a text field, and a register entry whose field is gone."""
    player = apps.get_model("clubs.Player")
    nickname = models.CharField(max_length=20)
    nickname.set_attributes_from_name("nickname")
    monkeypatch.setattr(player._meta, "concrete_fields", [*player._meta.concrete_fields, nickname])
    assert "clubs.Player.nickname" in register.unclassified()
    monkeypatch.undo()
    table = register.REGISTER["matches.Table"]
    monkeypatch.setitem(
        register.REGISTER,
        "matches.Table",
        register.Texts({**table.fields, "colour": register.no("a colour")}, table.club),
    )
    assert register.unclassified() == ["matches.Table.colour (gone)"]


def test_the_personal_fields_the_issue_names_are_rewritten():
    """The leaks found in the crawl of issue 31 are each classified as free text."""
    for label, name in [
        ("standings.FixtureForfeit", "reason"),
        ("matches.Match", "ended_reason"),
        ("tournaments.Pairing", "forfeit_reason"),
        ("core.AuditEvent", "before"),
        ("history.Import", "filename"),
        ("history.Import", "plan"),
        ("core.IdempotencyKey", "response"),
    ]:
        assert register.REGISTER[label].fields[name].how == register.REWRITE, (label, name)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Zebulon Quixote", "X"),
        ("zebulon_quixote.csv", "X.csv"),
        ("ZEBULON-QUIXOTE", "X"),
        ("zebulon.quixote@example.org", "X@example.org"),
        ("ZebulonQuixote", "X"),
        ("zebulonquixote2024.csv", "X2024.csv"),
        ("storia_zebulon_quixote_2016.xlsx", "storia_X_2016.xlsx"),
        ("MrZebulonQuixote", "MrX"),
        ("Zebulon Quixote Jr e Zebulon Quixote", "Zebulon Quixote Jr e X"),
        ("ZebulonQuixoteJr", "ZebulonQuixoteJr"),
        ("zebulonquixotex", "zebulonquixotex"),  # a longer word: another name
        ("Quixote Zebulon", "Quixote Zebulon"),  # the words in another order: not the name
    ],
)
def test_a_name_in_any_case_and_with_any_separator(text, expected):
    rewrite = rewriter(["Zebulon Quixote"], "X", keep=["Zebulon Quixote Jr"])
    assert rewrite(text) == expected


def test_names_in_json_keys_and_values_and_only_there():
    rewrite = rewriter(["Nino", "Nino Bellini"], "X", keep=["Nino B"])
    value = {"seats": {"N": "nino_bellini"}, "Nino": [1, "Nino B e NINO"], "n": None}
    assert rewrite(value) == {"seats": {"N": "X"}, "X": [1, "Nino B e X"], "n": None}
    assert rewrite(12) == 12 and rewrite("Ninotchka") == "Ninotchka"


def test_a_name_ending_in_a_digit_is_not_a_longer_number():
    rewrite = rewriter(["Erased player #1"], "Y")
    assert rewrite("Erased player #12, Erased player #1.") == "Erased player #12, Y."
