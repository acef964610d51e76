"""Every house-rule switch of every game, and every value it takes, has words a player
reads on the match form, in English and Italian (issue 13): a new switch in the engine
cannot reach the page as a code."""

import re

from django.utils import translation

from scorebook.rules.engine import describe_games
from scorebook.web.switches import PROFILES, SWITCHES, VALUES, profile_label, value_label


def _is_code(value):
    """Numbers and the tags of rule books (DOS, PEN, 1/2/4/8/16) are shown as they are."""
    return re.fullmatch(r"[A-Z0-9/\-]+", str(value)) is not None


def _catalogue():
    for game in describe_games()["games"]:
        for switch in game["switches"]:
            yield game["key"], switch


def test_every_switch_has_words():
    missing = sorted({s["key"] for _, s in _catalogue() if s["key"] not in SWITCHES})
    assert not missing, f"switches without words in scorebook/web/switches.py: {missing}"


def test_every_value_has_words():
    missing = sorted(
        {
            f"{s['key']}={v}"
            for _, s in _catalogue()
            for v in s.get("values") or ()
            if str(v) not in VALUES and not _is_code(v)
        }
    )
    assert not missing, f"values without words in scorebook/web/switches.py: {missing}"


def test_the_words_are_italian_in_italian():
    untranslated = []
    with translation.override("it"):
        for key, label in SWITCHES.items():
            with translation.override("en"):
                english = str(label)
            if str(label) == english and not key.endswith(".deck"):
                untranslated.append(key)
        assert value_label("t4.cappotto_points", "double") == "doppi (22)"
    assert not untranslated, untranslated


def test_every_profile_has_words_in_english_and_italian():
    """The match form offered the bare codes ("accuso_41", "pe", "gg_torneo")."""
    profiles = [(g["key"], p) for g in describe_games()["games"] for p in g["profiles"]]
    missing = sorted(f"{g}:{p}" for g, p in profiles if (g, p) not in PROFILES)
    assert not missing, f"profiles without words in scorebook/web/switches.py: {missing}"
    with translation.override("it"):
        assert profile_label("tressette4", "accuso_41") == "41 con l'accuso"
        assert profile_label("traversone_pairs", "bis_21") == "a 21"


def test_the_match_form_names_the_profiles_and_keeps_the_table(people, world):
    from tests.web.test_pages import client_for

    client = client_for(people, "director")
    url = f"/n/{world['night']}/matches/new?game=tressette4&players=4&table=7&profile=accuso_41"
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<option value="accuso_41" selected>41 con l&#x27;accuso</option>' in body
    assert ">accuso_41<" not in body and ">pe<" not in body
    assert "Regole della casa: 41 con l&#x27;accuso (cambiale una per una)" in body
    # choosing the house rules reloads the form: the table it was started from stays chosen
    assert '<input type="hidden" name="table" value="7">' in body


def test_terziglios_stake_tables_say_what_each_contract_pays():
    """'Fiches per ogni contratto' offered '1/2/4/8/16 / 1/2/3/6/12 / PE'."""
    from scorebook.web.switches import choice_label

    switch = next(s for _, s in _catalogue() if s["key"] == "terz.amounts")
    with translation.override("it"):
        assert choice_label(switch, "PE") == (
            "PE: chiamo 1, solo 1, solissimo 1, solissimo dividete 2, solissimo scegliete 2"
        )


def _shapes():
    """The table of every game of the registry: default rules at each number of players,
    and each profile at its default number."""
    from scorebook.rules import games, get_game, start_match

    for key, game in sorted(games().items()):
        specs = [(None, n) for n in game.player_counts]
        specs += [({"profile": p}, None) for p in game.profiles]
        for rules, players in specs:
            _, resolved, state = start_match(key, rules, players)
            values = resolved.as_dict()["values"]
            yield key, get_game(key).table_shape(values, state.seats)


def test_every_table_code_has_words():
    """Issue 25: a game's words are all in scorebook/web/switches.py. The contracts of its
    auction, its sides' role codes and its kinds of declaration (what the engine's
    description of its table names) each have an entry there, so a new game whose table
    names a new one fails here rather than showing a code on the deal form."""
    from scorebook.web.switches import BID_LABELS, DECLARATION_TYPES, SIDE_LABELS

    missing, seen = set(), {"contracts": 0, "sides": 0, "declarations": 0}
    for key, shape in _shapes():
        sides = [*(shape.scorers if shape.scored_by == "sides" else ()), *shape.members]
        auction, declarations = shape.part("auction"), shape.part("declarations")
        contracts = auction.get("contracts", ()) if auction else ()
        kinds = declarations.get("kinds", ()) if declarations else ()
        for what, codes, words in (
            ("sides", sides, SIDE_LABELS),
            ("contracts", contracts, BID_LABELS),
            ("declarations", kinds, DECLARATION_TYPES),
        ):
            seen[what] += len(codes)
            missing |= {(key, what, code) for code in codes if code not in words}
    assert all(seen.values()), f"the registry's tables named none of some kind: {seen}"
    assert not missing, f"codes without words in scorebook/web/switches.py: {sorted(missing)}"


def test_every_rule_books_code_says_what_it_sets():
    """A value that names a rule book (DOS, PKW, 1/2/4/8/16...) reads as what it sets, from
    the engine's own table (Switch.tables): Rovescino's deal tables and Spinado's antes
    and kings still offered 'DOS / PAG-CIA / OAS / 37NO' and 'DNX / PKW / CAS / PCG'."""
    from scorebook.web.switches import choice_label

    bare = []
    with translation.override("it"):
        for game, switch in _catalogue():
            for value in switch.get("values") or ():
                if not _is_code(value) or str(value).isdigit():
                    continue
                label = choice_label(switch, value)
                if label == str(value):
                    bare.append(f"{game} {switch['key']}={value}")
    assert not bare, f"rule-book codes shown bare on the match form: {bare}"


def test_rovescino_and_spinado_tables_in_words():
    from scorebook.web.switches import choice_label

    switch = {s["key"]: s for _, s in _catalogue()}
    with translation.override("it"):
        assert choice_label(switch["rov.deal_table"], "37NO") == (
            "37NO: in 3: 13 carte a testa, via il quattro di spade"
        )
        assert choice_label(switch["rov.deal_table"], "DOS").startswith(
            "DOS: in 3: 13 carte a testa, via un 4 (lo indica la smazzata); in 4: 10 carte a testa;"
        )
        assert "in 6: 6 carte a testa, 4 al monte" in choice_label(switch["rov.deal_table"], "DOS")
        assert choice_label(switch["spin.antes"], "PKW") == (
            "PKW: il mazziere 12 al matrimonio, 6 all'intrigo, 6 al gioco; ciascuno degli "
            "altri 3 al gioco"
        )
        assert choice_label(switch["spin.antes"], "DNX") == (
            "DNX: tutti 1 al matrimonio, 1 all'intrigo, 1 al gioco"
        )
        assert choice_label(switch["spin.king_payments"], "PKW") == (
            "PKW: re di quadri 2, gli altri re 1"
        )
        assert choice_label(switch["spin.king_payments"], "none") == "nessuno"
    with translation.override("en"):
        assert choice_label(switch["spin.antes"], "PCG") == (
            "PCG: the dealer 2 to the matrimony, 1 to the intrigue; each of the others 1 to "
            "the game"
        )


def test_the_tables_are_the_ones_the_engine_plays():
    """The words come from the tables the engine deals and scores with, not a copy."""
    from scorebook.rules import start_match
    from scorebook.rules.games import rovescino

    switch = {s["key"]: s for _, s in _catalogue()}
    for code, layouts in rovescino.TABLES.items():
        for players, layout in layouts.items():
            assert switch["rov.deal_table"]["tables"][code][str(players)]["each"] == layout.each
    for code in switch["spin.antes"]["values"]:
        game, rules, state = start_match("spinado", {"spin.antes": code}, 4)
        antes = game.antes(rules, state)
        table = switch["spin.antes"]["tables"][code]
        assert antes[state.dealer] == table["dealer"]
        assert all(antes[p] == table["others"] for p in state.seats if p != state.dealer)


def test_the_match_form_offers_the_tables_in_words(people, world):
    from tests.web.test_pages import client_for

    client = client_for(people, "director")
    url = f"/n/{world['night']}/matches/new?game=spinado&players=4"
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<option value="CAS">CAS: il mazziere 12 al matrimonio, 6 all&#x27;intrigo' in body
    assert '<option value="PCG">PCG: ogni re 1</option>' in body
    url = f"/n/{world['night']}/matches/new?game=rovescino&players=4"
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<option value="37NO">37NO: in 3: 13 carte a testa, via il quattro di spade' in body
    assert ">DOS<" not in body and ">DNX<" not in body
