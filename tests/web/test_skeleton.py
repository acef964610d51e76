"""The pages' skeleton: welcome, login through the throttled login, the language switch,
the Content-Security-Policy, static files and the one refusal-to-field mapping."""

from django import forms
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse

from scorebook.core.refusals import Refusal
from scorebook.web.errors import add_refusal, errors_by_field, field_for


def test_welcome_page_has_a_login_form(client, db):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="username"' in body and 'name="password"' in body
    assert 'action="/login"' in body


def test_home_of_a_member_of_one_club_is_the_club(client, people):
    client.force_login(people.member)
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == reverse("web:club", args=[people.club.slug])


def test_home_of_someone_in_no_club_says_how_to_join(client, django_user_model, db):
    client.force_login(django_user_model.objects.create_user("lonely"))
    assert b"invitation" in client.get("/").content


def test_login_and_logout(client, club):
    response = client.post("/login", {"username": "member", "password": "pw-member"})
    assert response.status_code == 302
    assert client.get("/").status_code == 302  # now a member: to the club
    assert client.get("/logout").status_code == 405  # a link cannot log anyone out
    assert client.post("/logout").status_code == 302
    assert client.get("/").status_code == 200


def test_wrong_password_is_shown_on_the_form(client, club):
    response = client.post("/login", {"username": "member", "password": "nope"})
    assert response.status_code == 200
    assert b'class="errors"' in response.content


def test_login_page_is_throttled_like_the_api(client, club):
    form = {"username": "member", "password": "nope"}
    for _ in range(5):
        client.post("/login", form)
    locked = client.post("/login", {"username": "member", "password": "pw-member"})
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) == 15 * 60
    assert b"Too many" in locked.content
    assert not client.session.get("_auth_user_id")


def test_language_choice_is_remembered_and_default_follows_the_browser(client, db):
    assert 'lang="it"' in client.get("/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'lang="en"' in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    response = client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    assert response.status_code == 302
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="it"' in page
    assert "Accedi" in page


def test_language_switch_needs_no_script(client, db):
    body = client.get("/").content.decode()
    assert 'name="language" value="it"' in body
    assert 'type="submit" name="language"' in body


def test_csp_forbids_inline_script(client, db):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy


def test_pages_carry_no_inline_script_or_style(client, people):
    client.force_login(people.owner)
    for url in ("/login", reverse("web:club", args=[people.club.slug])):
        body = client.get(url).content.decode()
        assert "<script>" not in body and "<style" not in body and " style=" not in body
        assert " onchange=" not in body and " onclick=" not in body


def test_htmx_is_served_from_our_static_files(client, db):
    assert finders.find("web/htmx.min.js")
    assert finders.find("web/app.css") and finders.find("web/app.js")
    assert "/static/web/htmx.min.js" in client.get("/").content.decode()


def test_collectstatic_builds_the_compressed_manifest(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    names = {p.name for p in (tmp_path / "web").iterdir()}
    assert "app.css" in names and "htmx.min.js.gz" in names
    assert any(n.startswith("app.") and n.endswith(".css") and n != "app.css" for n in names)
    assert (tmp_path / "staticfiles.json").exists()


def test_club_page_is_404_for_outsiders_and_anonymous_goes_to_login(client, people):
    url = reverse("web:club", args=[people.club.slug])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login")
    client.force_login(people.stranger)
    assert client.get(url).status_code == 404
    client.force_login(people.member)
    assert client.get(url).status_code == 200


class Taken(Refusal):
    code = "player.name_taken"
    status = 409
    message = "The name %(name)s is taken."


class SomeForm(forms.Form):
    name = forms.CharField()
    seats = forms.CharField()


def test_a_refusal_is_shown_next_to_its_field():
    form = SomeForm({"name": "Nino", "seats": "x"})
    assert form.is_valid()
    add_refusal(form, Taken(path="name", name="Nino"))
    add_refusal(form, Taken(path="seats.N", name="N"))
    add_refusal(form, Taken(path="", name="all"))
    assert form.errors["name"] == ["The name Nino is taken."]
    assert form.errors["seats"] == ["The name N is taken."]
    assert form.non_field_errors() == ["The name all is taken."]


def test_refusal_paths_map_to_fields():
    assert field_for("declarations[0].suit", ["declarations"]) == "declarations"
    assert field_for("seats.N", ["seats.N", "seats"]) == "seats.N"
    assert field_for("nothing", ["seats"]) is None
    grouped = errors_by_field(Taken(path="points.A", name="x"), ["points"])
    assert grouped == {"points": ["The name x is taken."]}
