"""The share block on the match, night, settlement and standings pages: the text in the
reader's language, the WhatsApp link and the text to copy, the link it points to; no money
on anything public (the share texts and the Open Graph tags of the public pages)."""

import html
import re
from urllib.parse import unquote

import pytest
from django.test import Client

from scorebook.clubs.models import Club
from scorebook.matches.models import Night
from scorebook.sharing import texts
from tests.web.test_deal_pages import as_

#: Money as any page could write it: the stake (0.50 EUR) and the words of paying.
MONEY = re.compile(r"EUR|€|0[.,]50|\bpays?\b|\bpaga\b|owes|deve", re.IGNORECASE)


def shared(body: str) -> dict[str, str]:
    """The share block's text, link, WhatsApp address and text to copy, as sent."""
    box = re.search(r"<section class=\"share\"(.*?)</section>", body, re.S)
    assert box, "no share block"
    found = {}
    for key, pattern in (
        ("text", r'data-share-text="([^"]*)"'),
        ("url", r'data-share-url="([^"]*)"'),
        ("whatsapp", r'href="(https://wa\.me/[^"]*)"'),
        ("copy", r'data-copy="([^"]*)"'),
    ):
        match = re.search(pattern, box.group(1), re.S)
        assert match, key
        found[key] = html.unescape(match.group(1))
    return found


def og(body: str) -> dict[str, str]:
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<meta property="og:(\w+)" content="([^"]*)"', body)
    }


@pytest.fixture
def public(club):
    Club.objects.filter(pk=club.pk).update(public=True)
    return club


def test_the_match_page_shares_the_score_in_the_readers_language(people, world):
    member = as_(people, "member")
    url = "/m/{finished}/".format(**world)
    english = shared(member.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert english["text"] == (
        "Circolo San Rocco, 20 Nov, Tressette, 4 players in pairs: "
        "Nino & Salvo 25–19 Walter & Ettore"
    )
    italian = shared(member.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode())
    assert italian["text"] == (
        "Circolo San Rocco, 20/11, Tressette a coppie: Nino & Salvo 25–19 Walter & Ettore"
    )
    # a private club's link is the members' page; WhatsApp and the copy carry text and link
    assert italian["url"] == f"http://testserver{url}"
    assert italian["copy"] == f"{italian['text']}\n{italian['url']}"
    assert unquote(italian["whatsapp"].removeprefix("https://wa.me/?text=")) == italian["copy"]
    playing = member.get("/m/{match}/".format(**world), HTTP_ACCEPT_LANGUAGE="it")
    assert shared(playing.content.decode())["text"].endswith("11–11 Walter & Ettore (in corso)")


def test_the_night_page_shares_every_match(people, world):
    body = as_(people, "scorer").get("/n/{night}/".format(**world), HTTP_ACCEPT_LANGUAGE="it")
    text = shared(body.content.decode())["text"]
    assert text == (
        "Circolo San Rocco, serata del 20/11: "
        "Tressette a coppie: Nino & Salvo 11–11 Walter & Ettore (in corso); "
        "Tressette a coppie: Nino & Salvo 25–19 Walter & Ettore"
    )
    assert not MONEY.search(text)


def test_the_settlement_share_says_who_pays_whom_to_members_only(people, world):
    night = Night.objects.get(pk=world["night"])
    body = as_(people, "member").get(
        "/n/{night}/settlement".format(**world), HTTP_ACCEPT_LANGUAGE="it"
    )
    share = shared(body.content.decode())
    assert share["text"] == (
        "Circolo San Rocco, conti del 20/11: "
        "Ettore paga 0,50 EUR a Nino; Walter paga 0,50 EUR a Salvo"
    )
    assert share["url"] == "http://testserver/n/{night}/settlement".format(**world)
    # the same night shared for the public: results, no money
    public_text = texts.settlement_text(night, for_members=False)
    assert "Nino & Salvo 25–19 Walter & Ettore" in public_text
    assert not MONEY.search(public_text)


def test_the_settlement_share_of_a_private_club_never_points_at_a_public_page(
    people, world, public
):
    body = as_(people, "member").get("/n/{night}/settlement".format(**world)).content.decode()
    assert "/public/" not in shared(body)["url"]


def test_the_standings_share_names_the_first_players(people, world, season):
    member = as_(people, "member")
    url = f"/c/{people.club.slug}/standings/"
    text = shared(member.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode())["text"]
    assert text.startswith("Circolo San Rocco, classifica 2026-27: 1. ")
    # the finished match's winners (Nino and Salvo) rank first, one match won each
    assert "Nino (1 partita vinta)" in text and "Salvo (1 partita vinta)" in text
    english = shared(member.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())["text"]
    assert english.startswith("Circolo San Rocco, standings 2026-27: 1. ")
    assert "Nino (1 match won)" in english
    assert not MONEY.search(text + english)


def test_a_public_club_shares_its_public_pages(people, world, season, public):
    member = as_(people, "member")
    match = shared(member.get("/m/{finished}/".format(**world)).content.decode())
    assert match["url"] == "http://testserver/public/{slug}/m/{finished}".format(**world)
    night = shared(member.get("/n/{night}/".format(**world)).content.decode())
    assert night["url"] == "http://testserver/public/{slug}/".format(**world)
    board = shared(member.get("/c/{slug}/standings/".format(**world)).content.decode())
    assert board["url"].startswith(
        "http://testserver/public/{slug}/standings/?season=".format(**world)
    )


@pytest.mark.parametrize("language", ["it", "en"])
def test_public_pages_carry_open_graph_tags_without_money(people, world, season, public, language):
    anyone = Client()
    for url in ("/public/{slug}/", "/public/{slug}/m/{finished}", "/public/{slug}/standings/"):
        body = anyone.get(url.format(**world), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        tags = og(body)
        assert {"title", "description", "url", "type"} <= set(tags), url
        assert tags["url"].startswith("http://testserver/public/{slug}/".format(**world))
        assert "Circolo San Rocco" in tags["description"]
        # the card: an absolute address of a 1200 x 630 PNG the app ships
        assert re.fullmatch(r"http://testserver/static/web/og-card\.png", tags["image"])
        head = body.split("</head>")[0]
        assert not MONEY.search(head), (url, head)
        share = shared(body)
        assert not MONEY.search(share["text"] + share["copy"] + unquote(share["whatsapp"]))


def test_the_preview_card_is_a_1200_by_630_png():
    from django.contrib.staticfiles import finders
    from PIL import Image

    with Image.open(finders.find("web/og-card.png")) as card:
        assert (card.format, card.size) == ("PNG", (1200, 630))


def test_members_pages_carry_no_open_graph_tags(people, world):
    """A members' page is behind the login: a preview of it would show the login page."""
    body = as_(people, "member").get("/m/{finished}/".format(**world)).content.decode()
    assert "og:description" not in body


def test_names_are_text_in_the_share_block(people, world):
    """A name with markup is escaped in the attributes and the copy text, as anywhere."""
    nino = people.seated[0]
    nino.name = 'Nino "<b>'
    nino.save()
    body = as_(people, "member").get("/m/{finished}/".format(**world)).content.decode()
    assert "<b>" not in body.split('class="share"')[1].split("</section>")[0]
    assert shared(body)["text"].count('Nino "<b>') == 1
