"""Stakes as the tournament code lists them (issue 16, "Stakes as the code lists them").

Source: Codice del tressette (Enucatl/tressette), ``regolamento.tex``, chapter "Il tressette
classico", subsection "Le Poste e il Piatto" (the same two articles in ``regole``), and
"Norme che regolano la chiamata fuori" for a cappotto made after the game was won. Each
test quotes the words it checks.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorebook.rules import Rejection
from scorebook.rules.engine import start_match
from scorebook.rules.games.tressette4 import MULTIPLIERS
from scorebook.rules.stakes import POT, PotMatch, piatto, pot_balance

CAPPOTTO_A = {
    "sides": {"A": {"thirds": 32, "tricks": 10}, "B": {"thirds": 0, "tricks": 0}},
    "last_trick": "A",
}
A_WINS = {
    "sides": {"A": {"thirds": 20, "tricks": 6}, "B": {"thirds": 12, "tricks": 4}},
    "last_trick": "A",
}  # 7 - 4


def play(rules, totals, deal):
    game, resolved, state = start_match("tressette4", rules)
    state.totals.update(totals)
    result = game.add_deal(state, deal, resolved)
    return state, result


def units(state):
    return dict(state.outcome.units)


def paid(n):
    return {"N": n, "S": n, "E": -n, "W": -n}


# -- the kinds of stake -------------------------------------------------------------------


def test_default_keeps_the_event_multipliers():
    state, _ = play({}, {"A": 5, "B": 3}, CAPPOTTO_A)
    assert state.outcome.reason == "event" and units(state) == paid(2)  # PEN cappotto x2
    assert "stake" not in state.outcome.detail and "piatto" not in state.outcome.detail


def test_posta_unica_pays_one_stake_even_for_a_cappotto():
    """ "Posta unica, qualora venga stabilito che essa sarà sempre tale sia che la partita
    si vinca ordinariamente e sia che si concluda per cappotto." """
    state, _ = play({"t4.stake": "single_stake"}, {"A": 5, "B": 3}, CAPPOTTO_A)
    assert state.outcome.reason == "event" and units(state) == paid(1)
    state, _ = play({"t4.stake": "single_stake"}, {"A": 18, "B": 3}, A_WINS)
    assert state.outcome.reason == "target" and units(state) == paid(1)


def test_posta_semplice_o_doppia():
    """ "Posta semplice o doppia ... si paghi semplice (cioè una sola posta) quando la
    partita è vinta ordinariamente, e si paghi doppia (cioè due poste) quando la partita è
    vinta per cappotto." A stramazzo, which the code does not know, pays single."""
    rules = {"t4.stake": "single_or_double"}
    state, _ = play(rules, {"A": 5, "B": 3}, CAPPOTTO_A)
    assert units(state) == paid(2)
    state, _ = play(rules, {"A": 18, "B": 3}, A_WINS)
    assert units(state) == paid(1)
    stramazzo = {
        "sides": {"A": {"thirds": 32, "tricks": 9}, "B": {"thirds": 0, "tricks": 1}},
        "last_trick": "B",
    }
    state, result = play(rules, {"A": 5, "B": 3}, stramazzo)
    assert result.event == "stramazzo" and result.multiplier == 3
    assert units(state) == paid(1)


def test_posta_variabile_with_the_point_difference():
    """ "Posta variabile, qualora venga stabilito che la stessa vari in funzione della
    differenza punti": one stake per t4.stake_step points of difference, at least one."""
    state, _ = play({"t4.stake": "point_difference"}, {"A": 18, "B": 3}, A_WINS)
    assert state.totals == {"A": 25, "B": 7} and units(state) == paid(18)
    state, _ = play({"t4.stake": "point_difference", "t4.stake_step": 5}, {"A": 18, "B": 3}, A_WINS)
    assert units(state) == paid(3)  # 18 // 5
    # A cappotto won from behind still pays one stake.
    state, _ = play({"t4.stake": "point_difference"}, {"A": 0, "B": 20}, CAPPOTTO_A)
    assert state.totals == {"A": 11, "B": 20} and units(state) == paid(1)


@pytest.mark.parametrize(
    ("losers", "ordinary", "cappotto"),
    [(11, 1, 2), (15, 1, 2), (10, 2, 3), (4, 2, 3)],
)
def test_marcio_e_batuffa(losers, ordinary, cappotto):
    """ "Se la partita si conclude ordinariamente, i perditori pagano posta semplice ... se
    hanno sbatuffato (ossia se i loro punti stanno a 11 o più) e pagano posta doppia ... in
    caso contrario; se la partita si conclude per cappotto, i vincitori si dividono in
    parti uguali il piatto ed esigono posta doppia se gli avversari hanno sbatuffato e
    posta tripla (ossia tre poste) in caso contrario." """
    rules = {"t4.stake": "marcio_e_batuffa"}
    state, _ = play(rules, {"A": 18, "B": losers - 4}, A_WINS)  # the losers end on `losers`
    assert state.totals["B"] == losers
    assert state.outcome.reason == "target" and units(state) == paid(ordinary)
    assert "piatto" not in state.outcome.detail
    state, _ = play(rules, {"A": 5, "B": losers}, CAPPOTTO_A)
    assert state.outcome.reason == "event" and units(state) == paid(cappotto)
    assert state.outcome.detail["piatto"] == "won"
    assert state.outcome.detail["stake"] == "marcio_e_batuffa"


def test_the_batuffa_line_is_a_value():
    """Games to 31 or 41 ("si può prevedere un punteggio maggiore purché multiplo di
    sette") may draw the line elsewhere: t4.batuffa."""
    rules = {"t4.stake": "marcio_e_batuffa", "t4.batuffa": 16, "t4.target": 31}
    state, _ = play(rules, {"A": 28, "B": 11}, A_WINS)  # B ends on 15
    assert units(state) == paid(2)
    state, _ = play(rules, {"A": 28, "B": 12}, A_WINS)  # B ends on 16
    assert units(state) == paid(1)


# -- a cappotto after the game was won ------------------------------------------------------

AFTER_WIN = {"t4.stake": "marcio_e_batuffa", "t4.cappotto_after_win": "ordinary_stake"}


def test_cappotto_after_the_game_was_won_pays_the_ordinary_stake_and_wins_the_pot():
    """ "La coppia che consegue il cappotto dopo aver già vinto la partita ordinaria, anche
    se gli avversari non la abbiano chiamata fuori, vince il piatto ma non ha più il diritto
    di incassare la posta tripla, bensì la posta semplice o la posta doppia a seconda che
    gli avversari abbiano o meno sbatuffato." """
    deal = {**CAPPOTTO_A, "cappotto_after_win": True}
    state, result = play(AFTER_WIN, {"A": 18, "B": 4}, deal)
    assert result.facts["cappotto_after_win"] is True
    assert units(state) == paid(2)  # not triple: the losers had not sbatuffato
    assert state.outcome.detail["piatto"] == "won"
    assert state.outcome.detail["cappotto_after_win"] is True
    state, _ = play(AFTER_WIN, {"A": 18, "B": 12}, deal)
    assert units(state) == paid(1)  # not double
    # Without the field the cappotto pays as one.
    state, _ = play(AFTER_WIN, {"A": 18, "B": 4}, CAPPOTTO_A)
    assert units(state) == paid(3)
    # Under single/double it pays single.
    rules = {"t4.stake": "single_or_double", "t4.cappotto_after_win": "ordinary_stake"}
    state, _ = play(rules, {"A": 18, "B": 4}, deal)
    assert units(state) == paid(1)


def test_cappotto_after_win_is_checked():
    deal = {**CAPPOTTO_A, "cappotto_after_win": True}
    with pytest.raises(Rejection) as off:
        play({"t4.stake": "marcio_e_batuffa"}, {"A": 18, "B": 4}, deal)
    assert [p.code for p in off.value.problems] == ["t4.after_win_off"]
    with pytest.raises(Rejection) as no_cappotto:
        play(AFTER_WIN, {"A": 18, "B": 4}, {**A_WINS, "cappotto_after_win": True})
    assert [p.code for p in no_cappotto.value.problems] == ["t4.after_win_no_cappotto"]
    with pytest.raises(Rejection) as too_far:
        play(AFTER_WIN, {"A": 5, "B": 4}, deal)  # 5 + 10 card points < 21
    problem = too_far.value.problems[0]
    assert problem.code == "t4.after_win_not_reached"
    assert "15" in problem.en and "15" in problem.it


def _cappotto_record(dealer="E"):
    """A play record in which N leads and takes every trick (all the 3s and 2s, two aces)."""
    north = ["3d", "2d", "Ad", "3c", "2c", "Ac", "3s", "2s", "3b", "2b"]
    rest = [c for c in _deck() if c not in north]
    rng = random.Random(7)
    rng.shuffle(rest)
    hands = {"N": north, "E": rest[:10], "S": rest[10:20], "W": rest[20:]}
    order = ["N", "W", "S", "E"]  # anticlockwise, the default direction
    held = {p: list(h) for p, h in hands.items()}
    tricks = []
    for card in north:
        trick = [card]
        held["N"].remove(card)
        for player in order[1:]:
            same = [c for c in held[player] if c[-1] == card[-1]]
            chosen = (same or held[player])[0]
            held[player].remove(chosen)
            trick.append(chosen)
        tricks.append(trick)
    return {"dealer": dealer, "hands": hands, "tricks": tricks}


def _deck():
    return [r + s for s in "dcsb" for r in ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4")]


def test_a_play_record_finds_the_cappotto_after_the_win_trick_by_trick():
    game, resolved, state = start_match("tressette4", AFTER_WIN, first_dealer="E")
    record = _cappotto_record()
    state.totals.update({"A": 19, "B": 4})  # 21 reached long before the tenth trick
    result = game.add_deal(state, record, resolved)
    assert result.event == "cappottone"  # N alone took every trick: a cappotto by one
    assert result.facts["cappotto_after_win"] is True
    assert units(state) == paid(2)
    game, resolved, state = start_match("tressette4", AFTER_WIN, first_dealer="E")
    state.totals.update({"A": 10, "B": 4})  # 10 + 10 = 20: only the last trick reaches 21
    result = game.add_deal(state, record, resolved)
    assert result.event == "cappottone" and "cappotto_after_win" not in result.facts
    assert units(state) == paid(3)


def test_a_cappotto_laid_down_is_never_after_the_win():
    """ "La coppia che consegue il cappotto con la messa a terra non può essere chiamata
    fuori ed avrà quindi il diritto di esigere posta doppia o posta tripla." """
    game, resolved, state = start_match("tressette4", AFTER_WIN, first_dealer="E")
    record = _cappotto_record()
    record = {**record, "tricks": record["tricks"][:6], "laid_down": {"player": "N"}}
    state.totals.update({"A": 19, "B": 4})
    result = game.add_deal(state, record, resolved)
    assert result.event == "cappottone" and "cappotto_after_win" not in result.facts
    assert units(state) == paid(3)


# -- the defaults are today's stakes --------------------------------------------------------


def _todays_units(outcome):
    """What a finished match paid before the stake switches: the event's multiplier
    (t4.multipliers, PEN by default) when an event ended it, one stake otherwise."""
    event = outcome.detail.get("event")
    m = MULTIPLIERS["PEN"][event] if outcome.reason == "event" and event else 1
    return {
        **dict.fromkeys(outcome.winners, m),
        **dict.fromkeys(outcome.losers, -m),
    }


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    target=st.sampled_from([11, 21, 31]),
    level=st.sampled_from(["totals", "cards", "play"]),
)
def test_the_defaults_give_exactly_todays_units(seed, target, level):
    rng = random.Random(seed)
    game, resolved, state = start_match("tressette4", {"t4.target": target})
    explicit = start_match(
        "tressette4",
        {
            "t4.target": target,
            "t4.stake": "event_multipliers",
            "t4.cappotto_after_win": "cappotto_stake",
        },
    )
    other = explicit[2]
    while not state.finished:
        deal = game.random_deal(rng, resolved, state, level)
        game.add_deal(state, deal, resolved)
        game.add_deal(other, deal, explicit[1])
    assert dict(state.outcome.units) == _todays_units(state.outcome)
    assert state.outcome.as_dict() == other.outcome.as_dict()
    assert not {"stake", "piatto", "cappotto_after_win"} & set(state.outcome.detail)


# -- the pot ---------------------------------------------------------------------------------

FOUR = ("1", "2", "3", "4")


def test_the_pot_is_fed_one_stake_then_a_quarter_and_a_cappotto_takes_it():
    """ "Il piatto si alimenta con la messa da parte di ciascun giocatore di una posta prima
    di dar inizio alla prima partita (o alla prima partita successiva ad un cappotto) e di
    un quarto di posta prima dell'inizio di ciascuna partita successiva." """
    stake = Decimal("1.00")
    matches = [
        PotMatch(FOUR, ("1", "3"), stake),
        PotMatch(FOUR, ("2", "4"), stake),
        PotMatch(FOUR, ("1", "3"), stake, takes_pot=True),
        PotMatch(FOUR, ("2", "4"), stake),
    ]
    moves = piatto(matches)
    assert [m.amount for m in moves[0]] == [Decimal("1.00")] * 4
    assert [m.amount for m in moves[1]] == [Decimal("0.25")] * 4
    assert pot_balance(moves[:2]) == Decimal("5.00")
    # The cappotto's winners share 1 + 0.25 + 0.25 each, four players: 6.00.
    out = [(m.payee, m.amount) for m in moves[2] if m.payer == POT]
    assert out == [("1", Decimal("3.00")), ("3", Decimal("3.00"))]
    assert pot_balance(moves[:3]) == 0
    # The first match after a cappotto feeds a whole stake again.
    assert [m.amount for m in moves[3]] == [Decimal("1.00")] * 4
    assert pot_balance(moves) == Decimal("4.00")


def test_who_sat_out_the_cappotto_takes_back_what_he_put_in():
    """ "Se all'incontro partecipano più di quattro giocatori il giocatore o i giocatori che
    riposavano in occasione della partita conclusasi per cappotto hanno diritto a ritirare
    quanto dagli stessi versato nel piatto." """
    stake = Decimal("0.50")
    matches = [
        PotMatch(("1", "2", "3", "4"), ("1", "3"), stake),
        PotMatch(("5", "2", "3", "4"), ("2", "4"), stake, takes_pot=True),
    ]
    moves = piatto(matches)
    out = {m.payee: m.amount for m in moves[1] if m.payer == POT}
    # 1 put in 0.50 and sat out: he takes it back; 5 put in 0.13 (a quarter, rounded).
    assert out["1"] == Decimal("0.50")
    shared = Decimal("0.50") * 3 + Decimal("0.13") * 4
    assert out["2"] + out["4"] == shared and abs(out["2"] - out["4"]) <= Decimal("0.01")
    assert pot_balance(moves) == 0


def test_a_pot_left_at_the_close_goes_back_to_who_fed_it():
    stake = Decimal("0.50")
    matches = [PotMatch(FOUR, ("1", "3"), stake), PotMatch(FOUR, ("2", "4"), stake)]
    moves = piatto(matches, closed=True)
    back = {m.payee: m.amount for m in moves[1] if m.payer == POT}
    assert back == dict.fromkeys(FOUR, Decimal("0.63"))  # 0.50 + 0.13
    assert pot_balance(moves) == 0


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from("123456"), min_size=4, max_size=4, unique=True),
            st.booleans(),
            st.sampled_from(["0.10", "0.25", "0.50", "1.00", "0.33"]),
            st.sampled_from(["EUR", "pts"]),
        ),
        max_size=12,
    ),
    st.booleans(),
)
def test_the_pot_never_goes_below_zero_and_a_cappotto_or_the_close_empties_it(spec, closed):
    matches = [
        PotMatch(tuple(seated), (seated[0], seated[2]), Decimal(stake), purse, takes)
        for seated, takes, stake, purse in spec
    ]
    moves = piatto(matches, closed=closed)
    for purse in {m.purse for m in matches}:
        held = Decimal(0)
        for match, moved in zip(matches, moves, strict=True):
            if match.purse != purse:
                continue
            for move in moved:
                assert move.amount > 0 and move.payer != move.payee
                held += move.amount if move.payee == POT else -move.amount
                assert held >= 0
            if match.takes_pot:
                assert held == 0
        if closed:
            assert held == 0


# -- with the call-out ----------------------------------------------------------------------

CALLED_OUT = {"t4.claim_by": "opponents", **AFTER_WIN}


def test_a_cappotto_made_after_a_right_call_out_was_made_after_the_win():
    """ "La coppia che consegue il cappotto dopo aver già vinto la partita ordinaria ...
    vince il piatto ma non ha più il diritto di incassare la posta tripla": A, rightly
    called out after seven tricks of its own, went for cappotto and made it."""
    deal = {
        "sides": {"A": {"thirds": 20, "tricks": 7}, "B": {"thirds": 0, "tricks": 0}},
        "claim": {"side": "A", "by": "B", "after_trick": 7, "cappotto": "made"},
    }
    state, _ = play(CALLED_OUT, {"A": 15, "B": 3}, deal)
    assert state.outcome.reason == "claim"
    assert units(state) == paid(2)  # ordinary under marcio e batuffa: B under 11 pays double
    assert state.outcome.detail["piatto"] == "won"
    assert state.outcome.detail["cappotto_after_win"] is True
    full = {**CALLED_OUT, "t4.cappotto_after_win": "cappotto_stake"}
    state, _ = play(full, {"A": 15, "B": 3}, deal)
    assert units(state) == paid(3)


def test_a_failed_andata_per_cappotto_doubles_the_pot():
    """ "La coppia che non consegue il cappotto dopo averlo dichiarato, esige la posta
    semplice o doppia vinta prima della dichiarazione, ma raddoppia la somma che si trova
    nel piatto." """
    stake = Decimal("1.00")
    matches = [
        PotMatch(FOUR, ("2", "4"), stake),
        PotMatch(FOUR, ("1", "3"), stake, doubled_by=("1", "3")),
        PotMatch(FOUR, ("2", "4"), stake, takes_pot=True),
    ]
    moves = piatto(matches)
    assert pot_balance(moves[:1]) == Decimal("4.00")
    doubled = [(m.payer, m.amount) for m in moves[1] if m.amount == Decimal("2.50")]
    assert doubled == [("1", Decimal("2.50")), ("3", Decimal("2.50"))]  # (4 + 1) / 2 each
    assert pot_balance(moves[:2]) == Decimal("10.00")
    shares = {m.payee: m.amount for m in moves[2] if m.payer == POT}
    assert shares == {"2": Decimal("5.50"), "4": Decimal("5.50")}  # (10 + 1) / 2
