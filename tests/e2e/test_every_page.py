"""Every page on the smallest phone the issue names (360 px wide): axe finds no serious or
critical violation, nothing is wider than the screen, every control is a tap target of at
least 44 px, and each page is photographed (tests/e2e/artifacts/6x-*, 7x-*).

The whole-night test (test_table.py) walks the pages in the order of a club night at
390 px; this one visits every page, including those a night does not pass through
(welcome, login, invitation, members, players, settings, public results, TV, standings,
leagues, the player page, a 404)."""

from __future__ import annotations

import datetime

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SMALL = {"width": 360, "height": 780}
TAP = 44

#: Controls that must be tap targets. Links inside a sentence are exempt (WCAG 2.5.8);
#: a link that is a whole line, a button, a field or a summary is not.
MEASURE = """
(min) => {
  const seen = [];
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  };
  const target = (e) => {
    if (e.matches('input[type=checkbox], input[type=radio]')) {
      // the tap target is its label (a card of the grid, a row with its words)
      const box = e.closest('label, .field.check');
      return box || e;
    }
    return e;
  };
  const standalone = (a) => {
    const parent = a.parentElement;
    const text = (parent.textContent || '').trim();
    return text === (a.textContent || '').trim() && !parent.matches('td, th');
  };
  const controls = document.querySelectorAll(
    'button, select, textarea, summary, .button, nav a, ' +
    'input:not([type=hidden]):not([type=file]), a'
  );
  for (const e of controls) {
    if (e.matches('a') && !e.matches('.button, nav a') && !standalone(e)) continue;
    if (e.closest('.skip, .visually-hidden, pre, svg')) continue;
    const t = target(e);
    if (!visible(t)) continue;
    const r = t.getBoundingClientRect();
    if (r.height < min - 0.5 || r.width < min - 0.5) {
      const label = (e.getAttribute('aria-label') || e.textContent || e.name || '').trim();
      const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
      seen.push(`${e.tagName.toLowerCase()} "${label.slice(0, 30)}" ${size}`);
    }
  }
  return seen;
}
"""

#: Wider than the screen: the page scrolls sideways, or an element reaches past the right
#: edge. An element inside a sideways scroller is on the page all the same (a container
#: of its own with overflow-x auto or scroll, itself within the screen, the page not
#: scrolling sideways; the quick deal form's long rows of chips slid so until they came
#: to wrap, issue 32 item 3). A container that hides (overflow hidden or clip) cuts its
#: words off: wide.
OVERFLOW = """
() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  const scroller = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === 'auto' || x === 'scroll') return p;
    }
    return null;
  };
  const within = (e) => {
    const r = e.getBoundingClientRect();
    return r.left >= -1 && r.right <= width + 1;
  };
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('.table-wide, .scroll, pre, svg, select')) continue;
    const box = scroller(e);
    if (box && within(box)) continue;  // it slides inside a box on the screen
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1) {
      wide.push(`${e.tagName.toLowerCase()}.${e.className} right=${Math.round(r.right)}`);
    }
  }
  for (const e of document.querySelectorAll('.cardbox span, .score .points, .nav a, button')) {
    if (e.scrollWidth > e.clientWidth + 1) {  // its words do not fit inside it
      wide.push(`${e.tagName.toLowerCase()} "${e.textContent.trim()}" does not fit`);
    }
  }
  return [document.documentElement.scrollWidth > width || wide.length > 0, wide.slice(0, 5)];
}
"""


@pytest.fixture
def club_world(night):
    """The San Rocco night of test_table.py, with a table, three deals (one confirmed),
    a season, a league with its fixtures, an invitation, public results."""
    from scorebook.clubs import services as clubs
    from scorebook.clubs.models import Club, Player
    from scorebook.matches import services
    from scorebook.standings import services as standings
    from scorebook.standings.leagues import services as leagues

    people = night.people
    director = people["direttore"]
    club = Club.objects.get(slug="san-rocco")
    club.public = True
    club.save()
    services.table_create(night=night, number=1, name="Vicino al bancone", user=director)
    match = night.tressette
    deal = None
    for number, (a, b, last) in enumerate(((14, 18, "B"), (20, 12, "A"), (11, 21, "B")), 1):
        deal = services.deal_create(
            match=match,
            data={
                "sides": {"A": {"thirds": a, "tricks": 4}, "B": {"thirds": b, "tricks": 6}},
                "last_trick": last,
            },
            expected_number=number,
            user=people["nino"],
        )
    services.deal_confirm(deal=deal, user=people["salvo"])
    standings.season_create(
        club_id=club.pk,
        name="2026-27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=None,
        user=director,
    )
    ids = dict(Player.objects.values_list("name", "pk"))
    league = leagues.league_create(club=club, name="Coppa d'inverno", user=director)
    for name, pair in (
        ("Nino e Salvo", ["Nino", "Salvo"]),
        ("Ettore e Walter", ["Ettore", "Walter"]),
    ):
        leagues.entry_add(
            league=league, name=name, player_ids=[ids[p] for p in pair], user=director
        )
    leagues.league_start(league=league, user=director)
    invitation = clubs.invitation_create(club=club, role="member", user=director)
    return {
        "slug": club.slug,
        "night": night.pk,
        "match": match.pk,
        "deal": deal.pk,
        "league": league.pk,
        "player": ids["Nino"],
        "token": invitation.token,
        "people": people,
    }


#: (screenshot name, who looks, url)
PAGES = [
    ("60-welcome", None, "/"),
    ("61-login", None, "/login"),
    ("62-join", None, "/join/{token}"),
    ("63-members", "direttore", "/c/{slug}/members"),
    ("64-players", "direttore", "/c/{slug}/players"),
    ("65-settings", "direttore", "/c/{slug}/settings"),
    ("66-invite", "direttore", "/c/{slug}/invite"),
    ("67-open-night", "direttore", "/c/{slug}/nights/new"),
    ("68-add-table", "direttore", "/n/{night}/tables/new"),
    ("69-choose-game", "direttore", "/n/{night}/matches/new"),
    ("70-match-form", "direttore", "/n/{night}/matches/new?game=tressette4&players=4"),
    ("71-club-home", "nino", "/c/{slug}/"),
    ("72-night", "nino", "/n/{night}/"),
    ("73-match", "nino", "/m/{match}/"),
    ("74-deal-new", "nino", "/m/{match}/deals/new"),
    ("75-deal-cards", "nino", "/m/{match}/deals/new?level=cards"),
    ("76-deal-play", "nino", "/m/{match}/deals/new?level=play"),
    ("77-deal-page", "walter", "/d/{deal}/"),
    ("78-settlement", "nino", "/n/{night}/settlement"),
    ("79-standings", "nino", "/c/{slug}/standings/"),
    ("80-ratings", "nino", "/c/{slug}/standings/ratings"),
    ("81-leagues", "direttore", "/c/{slug}/leagues/"),
    ("82-league", "direttore", "/c/{slug}/leagues/{league}/"),
    ("83-player", "nino", "/c/{slug}/players/{player}/stats"),
    ("84-public", None, "/public/{slug}/"),
    ("85-public-match", None, "/public/{slug}/m/{match}"),
    ("86-tv", None, "/public/{slug}/tv"),
    ("87-public-ratings", None, "/public/{slug}/standings/ratings"),
    ("88-not-found", "nino", "/n/999999/"),
    ("89-room", "direttore", "/n/{night}/room"),
]


@pytest.mark.parametrize("language", ["it", "en"])
def test_every_page_on_a_360px_phone(club_world, phone, shots, axe, language):
    _every(PAGES, club_world, phone, shots, axe, language)


@pytest.fixture
def federation_world(players):
    """San Rocco (the players' club, its director also a director of the federation's
    pages) and Kalsa in the Comitato, which publishes: a championship under way (two
    tables a fixture, a fixture at San Rocco), one taking entries with San Rocco's team,
    a federal tournament announced at San Rocco with a pair registered, Nino a linked
    person; Kalsa's home fixture played tonight with a deal (San Rocco's director is the
    away club's: its correction list and form)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from scorebook.clubs.models import Club, Membership, Player
    from scorebook.federations.services import championships as champs
    from scorebook.federations.services import federal_tournaments as federal
    from tests import builders as build

    users = get_user_model().objects
    director = players["direttore"]
    club = Club.objects.get(slug="san-rocco")
    Membership.objects.create(club=club, user=users.create_user("padrone"), role="owner")
    kalsa = Club.objects.create(name="Circolo Kalsa", slug="kalsa")
    Membership.objects.create(club=kalsa, user=users.create_user("kalsa"), role="owner")
    away = [Player.objects.create(club=kalsa, name=n) for n in ("Santo", "Turi", "Ciccio", "Pina")]
    fed = build.federation(club, kalsa, slug="comitato", publishes=True)
    officer = users.get(username="comitato-officer")
    ids = dict(Player.objects.filter(club=club).values_list("name", "pk"))
    home = [ids[n] for n in ("Nino", "Ettore", "Salvo", "Walter")]

    def championship(name):
        return champs.championship_create(
            federation=fed,
            name=name,
            season="2026/27",
            game=build.GAME,
            rules_spec=build.RULES,
            substitutes=1,
            user=officer,
        )

    made, entries = championship("Campionato a squadre"), championship("Coppa dei circoli")
    for cup in (made, entries):
        champs.team_enter(
            championship=cup, club=club, name="San Rocco A", player_ids=home, user=director
        )
    champs.team_enter(
        championship=made,
        club=kalsa,
        name="Kalsa A",
        player_ids=[p.pk for p in away],
        user=users.get(username="kalsa"),
    )
    champs.championship_start(championship=made, user=officer)
    fixture = made.fixtures.get(home__club=club)
    # Kalsa's home fixture played at Kalsa's night tonight, a deal entered: San Rocco's
    # director is the away club's, who corrects its deals from the fixture's page
    from scorebook.core.dates import today_in
    from scorebook.matches import services as matches

    host = users.get(username="kalsa")
    matches.night_open(club_id=kalsa.pk, date=today_in(kalsa.zone_name), venue="", user=host)
    at_kalsa = made.fixtures.get(home__club=kalsa)
    champs.fixture_play(fixture=at_kalsa, user=host)
    first = at_kalsa.boards.get(number=1).match
    deal = matches.deal_create(
        match=first,
        data={
            "sides": {"A": {"thirds": 20, "tricks": 5}, "B": {"thirds": 12, "tricks": 5}},
            "last_trick": "A",
        },
        expected_number=1,
        user=host,
    )
    nino = players["nino"]
    build.linked(Player.objects.get(pk=ids["Nino"]), nino)
    build.linked(Player.objects.get(pk=ids["Ettore"]), players["ettore"])
    cup = federal.federal_tournament_announce(
        federation=fed,
        user=officer,
        name="Torneo provinciale",
        date=timezone.localdate(),
        host=club.slug,
        level="provincial",
        game=build.GAME,
        rules=build.RULES,
        format="swiss",
        rounds=1,
        cap=8,
    )
    federal.registration_add(federal_tournament=cup, partner="ettore", user=nino)
    return {
        "fed": fed.slug,
        "championship": made.pk,
        "entries": entries.pk,
        "fixture": fixture.pk,
        "away_fixture": at_kalsa.pk,
        "away_deal": deal.pk,
        "federal": cup.pk,
        "nino": nino.pk,
        "people": {**players, "officer": officer},
    }


#: The federation's pages (issue 34): (screenshot name, who looks, url)
FEDERATION_PAGES = [
    ("90-federations", "direttore", "/f/"),
    ("91-federation", "direttore", "/f/{fed}/"),
    ("92-championships", "officer", "/f/{fed}/championships/"),
    ("93-championship-new", "officer", "/f/{fed}/championships/new"),
    (
        "94-championship-rules",
        "officer",
        "/f/{fed}/championships/new?game=tressette4&profile=classic_21",
    ),
    ("95-championship", "direttore", "/f/{fed}/championships/{championship}/"),
    ("96-championship-enter", "direttore", "/f/{fed}/championships/{entries}/enter"),
    ("97-fixture", "direttore", "/f/{fed}/fixtures/{fixture}/"),
    ("98-fixture-officer", "officer", "/f/{fed}/fixtures/{fixture}/"),
    ("98-fixture-away-director", "direttore", "/f/{fed}/fixtures/{away_fixture}/"),
    ("98-correct-away-deal", "direttore", "/d/{away_deal}/correct"),
    ("99-federal-tournaments", "officer", "/f/{fed}/tournaments"),
    ("9a-federal-tournament", "nino", "/f/{fed}/tournaments/{federal}/"),
    ("9b-ranking", "nino", "/f/{fed}/ranking/"),
    ("9c-person", "nino", "/f/{fed}/ranking/{nino}/"),
    ("9d-public-federation", None, "/public/f/{fed}/"),
    ("9e-public-ranking", None, "/public/f/{fed}/ranking/"),
    ("9f-public-championship", None, "/public/f/{fed}/championships/{championship}/"),
]


@pytest.mark.parametrize("language", ["it", "en"])
def test_every_federation_page_on_a_360px_phone(federation_world, phone, shots, axe, language):
    _every(FEDERATION_PAGES, federation_world, phone, shots, axe, language)


def _every(listed, world, phone, shots, axe, language):
    """Each page of ``listed`` on a 360 px phone of who looks: axe, the tap targets,
    nothing wider than the screen; a photograph of each."""
    problems = []
    pages = {}
    for name, who, url in listed:
        if who not in pages:
            user = world["people"][who] if who else None
            pages[who] = phone(user, language=language)
            pages[who].set_viewport_size(SMALL)
        page = pages[who]
        response = page.goto(url.format(**world))
        expected = 404 if name.endswith("not-found") else 200
        assert response is not None and response.status == expected, (name, response.status)
        page.locator("details:not([open]) > summary").evaluate_all(
            "all => all.forEach(s => s.parentElement.open = true)"
        )
        axe(page, f"{name} ({language})")
        shots(page, f"{name}-{language}")
        small = page.evaluate(MEASURE, TAP)
        if small:
            problems.append(f"{name}: under {TAP} px: " + "; ".join(small[:6]))
        wider, culprits = page.evaluate(OVERFLOW)
        if wider:
            problems.append(f"{name}: wider than {SMALL['width']} px: " + "; ".join(culprits))
    assert not problems, "\n".join(problems)
