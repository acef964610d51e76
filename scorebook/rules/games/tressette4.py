"""Tressette for four players in fixed partnerships (reference 2.1, switches 3.1-3.2).

Sides A = N + S and B = E + W. A deal scores per side: whole points of the captured thirds,
one for the last trick, plus declarations; special events (cappotto, cappottone, stramazzo,
stramazzone, collatondrione) carry a stake multiplier and may end the game; a side may
claim to have reached the target mid-deal; a poor hand may annul the deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..cards import (
    DEAL_POINTS,
    DECK40,
    DECK40_SET,
    SUITS,
    Card,
    strength,
    thirds_of,
)
from ..declarations import (
    GROUP_RANKS,
    Declaration,
    check_declarations,
    implied,
    read_declarations,
)
from ..errors import Localized, Problems, messages
from ..game import Deal, Game, Start
from ..houserules import Rules, Switch, choice
from ..irregularities import PENALTY_SWITCHES
from ..parse import boolean, card_name, cards, integer, join, known_fields, obj, one_of
from ..play import (
    REVOKE_SWITCHES,
    Dealt,
    Replay,
    ReplayOptions,
    Trick,
    codes,
    first_leader,
    play_round,
    read_deal,
)
from ..result import DealResult, Line, MatchState, Outcome
from ..stakes import CAPPOTTO, MARCIO_E_BATUFFA, STAKE_SWITCHES, match_stake
from ..table import Part, TableShape, tally
from ..tricks import (
    ANNUL_RULE,
    CORE_SWITCHES,
    POINTS,
    Capture,
    capture_entry,
    check_captures,
    check_last_trick,
    check_points,
    entered_points,
    may_annul,
    merge_captures,
    over_eleven,
    rank_order,
    read_captures,
    score_thirds,
    uncounted_tricks,
)

SIDES = ("A", "B")
SEATS = ("N", "E", "S", "W")
SIDE_OF = {"N": "A", "S": "A", "E": "B", "W": "B"}
MEMBERS = {"A": ("N", "S"), "B": ("E", "W")}
OTHER = {"A": "B", "B": "A"}
TRICKS = 10
#: The lines that make up a deal's 11 points (cards and last trick), not the extras.
DEAL_LINES = frozenset({"cards", "last_trick", "leftover"})

MULTIPLIERS: dict[str, dict[str, int]] = {
    "PEN": {"cappotto": 2, "cappottone": 6, "stramazzo": 3, "stramazzone": 8, "collatondrione": 16},
    "PE": {"cappotto": 4, "cappottone": 8, "stramazzo": 3, "stramazzone": 6, "collatondrione": 16},
    # SPZ names no single-player events: they pay as the side events they contain.
    "SPZ": {"cappotto": 2, "cappottone": 2, "stramazzo": 3, "stramazzone": 3, "collatondrione": 16},
}
#: The stakes the callers owe on top of a lost game when the side they called out wrongly
#: makes a cappotto by laying its cards down (modern norms: "un'ulteriore posta").
LAID_DOWN_EXTRA = 1

#: E6 precedence when several definitions match (house default; no source gives one).
PRECEDENCE = ("collatondrione", "cappottone", "cappotto", "stramazzone", "stramazzo")
#: How many tricks may have been played when a declaration is made, per t4.decl_window.
WINDOW_LAST_TRICK = {
    "before_lead_scored_after_trick1": 0,
    "during_trick1_own_turn": 1,
    "after_first_card": 1,
    "within_trick1": 1,
    "up_to_trick2": 2,
    "up_to_trick3": 3,
    "on_first_trick_won": 10,
}

SWITCHES: tuple[Switch, ...] = (
    *CORE_SWITCHES,
    Switch("t4.target", 21, between=(1, 1000), help="Points to win the game (21, 31, 41, 51)."),
    choice("t4.declarations", True, False, help="Accusi are played."),
    choice("t4.decl_window", *WINDOW_LAST_TRICK, help="Until when a declaration may be made."),
    choice(
        "t4.decl_shared_card",
        "allowed_across_types",
        help="One card may serve two declarations of different types (no source forbids it).",
    ),
    choice("t4.decl_coda", "off", "on_own_cards", "on_own_and_partner_cards"),
    choice("t4.decl_error_penalty", "none", "PE"),
    choice("t4.decl_void_on_cappotto", "kept", "void"),
    # The tournament code: combinations implied by three or more declared ones count.
    choice("t4.implied_declarations", "not_counted", "counted"),
    # The tournament code's "Anomalie dell'accusa": an incomplete, wrong, early or late
    # declaration is entered with what happened and scored as the code says.
    choice(
        "t4.decl_anomalies",
        "refused",
        "code",
        help="An incomplete, wrong, early or late declaration: refused (it must be entered "
        "as made right), or entered with what happened and scored by the tournament code.",
    ),
    ANNUL_RULE,
    choice("t4.claim_mode", "any_time", "off", "only_when_on_lead"),
    # The tournament code's "chiamata fuori": the opponents call a side out.
    choice(
        "t4.claim_by",
        "claiming_side",
        "opponents",
        help="Who claims a side has reached the target: the side itself, or also its "
        "opponents, who call it out (the tournament code's 'chiamata fuori').",
    ),
    # play_on: the code's traditional norms (a wrong call-out does not end the game).
    choice(
        "t4.false_claim",
        "claimant_loses_game",
        "play_on",
        help="A wrong claim or call-out: the side that made it loses the game (the book; "
        "the code's modern norms), or, after a call-out by the opponents, play goes on "
        "(the code's traditional norms; two wrong call-outs lose the right to a third).",
    ),
    choice(
        "t4.callout_limit",
        "per_deal",
        "per_game",
        help="Where two wrong call-outs are counted before a side loses the right to a "
        "third: in the same deal (the code: 'nella stessa passata') or in the whole game.",
    ),
    choice("t4.cappotto_def", "all_tricks", "all_points"),
    # "off": no stramazzo at all, so the last trick always keeps its point (tournament code).
    choice("t4.stramazzo_def", "strict_zero_counters", "lt_one_point", "off"),
    choice("t4.stramazzo_last_trick", "loser_point_void", "loser_point_to_winner"),
    choice("t4.multipliers", "PEN", "PE", "SPZ", tables=MULTIPLIERS),
    choice("t4.special_event_effect", "ends_game_with_multiplier", "score_points_only"),
    # "double": a cappotto (or cappottone) scores 22, twice the deal's 11, for its side.
    choice("t4.cappotto_points", "deal_points", "double"),
    choice("t4.collatondrione_points", "none", "11_deck_points_to_opponents"),
    choice("t4.carry_over_excess", "off", "on_except_won_by_declarations_alone"),
    choice("t4.both_reach_target", "higher_total_wins", "play_another_deal"),
    # The tournament code: the first side to reach the target wins, in the order of the
    # tricks (a play record shows it; a totals entry names it: ``first_to_target``).
    choice("t4.reaching_target", "compare_totals", "first_in_trick_order"),
    # A match of a fixed number of deals (tournaments): the higher total wins once they are
    # played; a tie plays one more deal at a time. 0: a race to t4.target.
    Switch("t4.deals", 0, between=(0, 100), help="Deals in the match (0: play to the target)."),
    *REVOKE_SWITCHES,
    *PENALTY_SWITCHES,
    *STAKE_SWITCHES,
)

FIELDS = (
    "dealer",
    "level",
    "sides",
    "seats",
    "all_tricks",
    "counters_alone",
    "last_trick",
    "declarations",
    "annulled_by",
    "hand",
    "claim",
    "first_to_target",
    "failed_callouts",
    "cappotto_after_win",
)
PLAY_FIELDS = (
    "dealer",
    "level",
    "hands",
    "tricks",
    "declarations",
    "annulled_by",
    "claim",
    "laid_down",
    "failed_callouts",
)
#: The fields an ordinary deal has none of: an annulment, a claim or call-out, and the
#: tournament code's facts. Without them ``score_entry`` takes the ordinary path.
UNORDINARY = frozenset(
    (
        "annulled_by",
        "hand",
        "claim",
        "failed_callouts",
        "counters_alone",
        "cappotto_after_win",
        "first_to_target",
    )
)
#: Wrong call-outs a side may make before it loses the right to another (the code).
CALLOUTS_ALLOWED_TO_FAIL = 2

messages(
    {
        "t4.sides_or_players": (
            "Enter the captures per side ('sides') or per player ('seats'), not both.",
            "Inserisci le prese per lato ('sides') o per giocatore ('seats'), non entrambi.",
        ),
        "t4.counters_alone_bad_seat": (
            "'counters_alone' names the player who alone took all his side's counters, "
            "one of N, E, S, W, not {value!r}.",
            "'counters_alone' indica il giocatore che da solo ha preso tutti i punti della "
            "sua coppia, uno tra N, E, S, W, non {value!r}.",
        ),
        "t4.counters_alone_with_seats": (
            "Each player's counts already say who took the counters: leave out 'counters_alone'.",
            "Le prese di ogni giocatore dicono già chi ha preso i punti: togli 'counters_alone'.",
        ),
        "t4.counters_alone_with_claim": (
            "A deal stopped by a claim has no stramazzone: leave out 'counters_alone'.",
            "Una smazzata chiusa da una chiamata non ha stramazzone: togli 'counters_alone'.",
        ),
        "t4.counters_alone_off": (
            "These house rules play no stramazzo, so no stramazzone: leave out 'counters_alone'.",
            "Con queste regole della casa non c'è stramazzo, quindi nemmeno stramazzone: "
            "togli 'counters_alone'.",
        ),
        "t4.counters_alone_not_stramazzo": (
            "'counters_alone' names who made a stramazzone alone, and this deal is no "
            "stramazzo of side {side}: the opponents must {test} and take at least one "
            "trick.",
            "'counters_alone' indica chi ha fatto da solo uno stramazzone, e questa "
            "smazzata non è uno stramazzo della coppia {side}: gli avversari devono {test} "
            "e fare almeno una presa.",
        ),
        "t4.declarations_off": (
            "Declarations are not played under these house rules.",
            "Con queste regole della casa non si accusa.",
        ),
        "t4.decl_too_late": (
            "{player} declared at trick {trick}, after the window ({window}) had closed.",
            "{player} ha accusato alla presa {trick}, dopo la chiusura della finestra ({window}).",
        ),
        "t4.annul_off": (
            "These house rules do not allow a deal to be annulled.",
            "Queste regole della casa non permettono di mandare a monte.",
        ),
        "t4.annul_bad_player": (
            "{value!r} is not a seat; seats: N, E, S, W.",
            "{value!r} non è un posto; posti: N, E, S, W.",
        ),
        "t4.annul_hand_size": (
            "The hand of the player who annuls must have 10 cards, not {count}.",
            "La mano di chi manda a monte deve avere 10 carte, non {count}.",
        ),
        "t4.annul_not_allowed": (
            "{player}'s hand ({thirds} thirds) may not be annulled under the rule '{rule}'.",
            "La mano di {player} ({thirds} terzi) non si può mandare a monte con la regola "
            "'{rule}'.",
        ),
        "t4.annul_with_play": (
            "An annulled deal is not played: remove '{field}' (a deal can be annulled only "
            "before the opening lead).",
            "Una smazzata mandata a monte non si gioca: togli '{field}' (si manda a monte "
            "solo prima dell'attacco).",
        ),
        "t4.claim_off": (
            "Claiming out is not allowed under these house rules.",
            "Con queste regole della casa non ci si può chiamare fuori.",
        ),
        "t4.claim_not_on_lead": (
            "Side {side} may claim only when one of its players is on lead.",
            "Il lato {side} può chiamarsi fuori solo quando è di mano.",
        ),
        "t4.laid_down_shape": (
            'A laying down names the player who laid his cards on the table: {{"player": "N"}}.',
            'Una messa a terra indica il giocatore che ha calato le carte: {{"player": "N"}}.',
        ),
        "t4.laid_down_not_on_lead": (
            "{player} laid his cards down after trick {trick}, but {leader} had the lead: "
            "only the player on lead lays his cards down here.",
            "{player} ha messo a terra dopo la presa {trick}, ma era di mano {leader}: "
            "qui mette a terra solo chi è di mano.",
        ),
        "t4.laid_down_invalid": (
            "{player}'s cards laid down do not take every remaining trick whatever the others "
            "hold: the {card} can be beaten by the {higher}, still out. Such cards are "
            "played out: enter the rest of the tricks.",
            "Le carte messe a terra da {player} non fanno tutte le prese rimaste comunque "
            "siano distribuite le altre: il {card} può essere preso dal {higher}, ancora in "
            "gioco. Vanno giocate: inserisci le prese rimaste.",
        ),
        "t4.claim_bad_side": (
            "A claim names side A or B, not {value!r}.",
            "Una chiamata indica il lato A o B, non {value!r}.",
        ),
        "t4.first_to_target_off": (
            "'first_to_target' is read only when the first side to reach the target wins "
            "(t4.reaching_target = first_in_trick_order).",
            "'first_to_target' vale solo quando vince la prima coppia che arriva alla meta "
            "(t4.reaching_target = first_in_trick_order).",
        ),
        "t4.first_to_target_needed": (
            "Both sides reach {target} in this deal: say which reached it first, in the order "
            "of the tricks ('first_to_target').",
            "Entrambe le coppie arrivano a {target} in questa smazzata: indica quale ci è "
            "arrivata prima, nell'ordine delle prese ('first_to_target').",
        ),
        "t4.first_to_target_not_reached": (
            "Side {side} does not reach {target} with this deal ({total}), so it cannot have "
            "reached it first.",
            "La coppia {side} non arriva a {target} con questa smazzata ({total}): non può "
            "esserci arrivata per prima.",
        ),
        "t4.after_win_off": (
            "'cappotto_after_win' is read only when a cappotto completed after the game was "
            "won pays the ordinary stake (t4.cappotto_after_win = ordinary_stake).",
            "'cappotto_after_win' vale solo quando il cappotto fatto a partita già vinta "
            "paga la posta ordinaria (t4.cappotto_after_win = ordinary_stake).",
        ),
        "t4.after_win_no_cappotto": (
            "'cappotto_after_win' says a cappotto was completed after the game was won, "
            "but this deal is not a cappotto.",
            "'cappotto_after_win' dice che il cappotto è stato fatto a partita già vinta, "
            "ma questa smazzata non è un cappotto.",
        ),
        "t4.after_win_not_reached": (
            "Side {side} cannot have reached {target} before its cappotto was complete: "
            "{total} before the deal, its declarations and the cards come to {reach}.",
            "La coppia {side} non può essere arrivata a {target} prima di completare il "
            "cappotto: {total} prima della smazzata, le accuse e le carte fanno {reach}.",
        ),
        "t4.hand_without_annul": (
            "'hand' is the hand of the player who annuls; there is no 'annulled_by'.",
            "'hand' è la mano di chi manda a monte; manca 'annulled_by'.",
        ),
        "t4.decl_not_held": (
            "{player} declared the {declaration}, but was not dealt {cards}.",
            "{player} ha accusato {declaration}, ma non aveva {cards}.",
        ),
        "t4.decl_lead_barred": (
            "Trick {trick}: {player} led the {card}, but after {declarer}'s napoletana was "
            "declared early or late and contested he may not lead its suit until the deal "
            "ends while he holds another (he had the {other}).",
            "Presa {trick}: {player} è uscito con il {card}, ma dopo la napoletana accusata "
            "fuori tempo da {declarer}, e contestata, non può uscire a quel palo fino alla "
            "fine della smazzata finché ne ha un altro (aveva il {other}).",
        ),
        "t4.decl_lead_unknown": (
            "Trick {trick}: {player} led the {card}, but after {declarer}'s wrong "
            "napoletana he may not lead a suit where he cannot rule out a napoletana of "
            "{declarer}'s while he holds another (he had the {other}).",
            "Presa {trick}: {player} è uscito con il {card}, ma dopo la napoletana errata di "
            "{declarer} non può uscire a un palo in cui non può escludere che {declarer} "
            "abbia una napoletana finché ne ha un altro (aveva il {other}).",
        ),
        "t4.decl_partner_barred": (
            "{player} may not declare the {declaration} after the first trick: "
            "{declarer}'s early declaration was contested, which bars his partner from "
            "further declarations.",
            "{player} non può accusare {declaration} dopo la prima mano: l'accuso anticipato "
            "di {declarer} è stato contestato e al compagno sono vietate altre accuse.",
        ),
        "t4.decl_three_of_four": (
            "{player} declared {declaration} but also holds the {card}: holding all four, "
            "a player must declare four of a kind.",
            "{player} ha accusato {declaration} ma ha anche il {card}: chi ha tutte e "
            "quattro deve accusare il buongioco di quattro.",
        ),
        "t4.claim_record": (
            "In a play record a claim names the side called out ('side') and, for a "
            "call-out, the side that called ('by'); the trick it came after and who was on "
            "lead are read from the tricks. Only a side that went for cappotto after it "
            "also names the trick ('after_trick', 'cappotto': true).",
            "In una registrazione delle giocate la chiamata indica il lato chiamato fuori "
            "('side') e, per una chiamata fuori, il lato che ha chiamato ('by'); dopo quale "
            "presa e chi era di mano si ricavano dalle prese. Solo se dopo si è andati per "
            "cappotto indica anche la presa ('after_trick', 'cappotto': true).",
        ),
        "t4.callout_off": (
            "Side {by} called side {side} out, but under these house rules only a side "
            "claims itself out (the opponents' call-out is the switch t4.claim_by).",
            "La coppia {by} ha chiamato fuori la coppia {side}, ma con queste regole della "
            "casa solo una coppia si chiama fuori da sé (la chiamata degli avversari è "
            "l'opzione t4.claim_by).",
        ),
        "t4.callout_no_third": (
            "Side {by} has already called its opponents out wrongly twice{where}: it has "
            "lost the right to a third call-out.",
            "La coppia {by} ha già chiamato fuori gli avversari a torto due volte{where}: ha "
            "perso il diritto a una terza chiamata fuori.",
        ),
        "t4.callouts_not_played": (
            "Under these house rules nobody calls a side out (the opponents' call-out is "
            "the switch t4.claim_by): there are no wrong call-outs to enter.",
            "Con queste regole della casa nessuno chiama fuori gli avversari (la chiamata "
            "fuori è l'opzione t4.claim_by): non ci sono chiamate sbagliate da inserire.",
        ),
        "t4.callouts_off": (
            "Under these house rules a wrong call-out loses the game for the side that made "
            "it, so play does not go on after it: enter it as the claim.",
            "Con queste regole della casa chi chiama fuori a torto perde la partita, quindi "
            "il gioco non prosegue: inseriscila come chiamata ('claim').",
        ),
        "t4.callout_was_right": (
            "Side {side} had {total} of {target} points {when}: calling it out was right "
            "and the game ended there. Enter that call-out as the claim.",
            "La coppia {side} aveva {total} punti su {target} {when}: chiamarla fuori era "
            "giusto e la partita è finita lì. Inserisci quella chiamata come 'claim'.",
        ),
        "t4.callout_wrong_play_on": (
            "The call-out after trick {trick} was wrong: side {side} had {total} of "
            "{target}. Under these house rules play goes on after a wrong call-out: enter "
            "the deal as it was played to the end, with this call under 'failed_callouts'.",
            "La chiamata fuori dopo la presa {trick} era sbagliata: la coppia {side} aveva "
            "{total} punti su {target}. Con queste regole della casa dopo una chiamata "
            "sbagliata si continua a giocare: inserisci la smazzata giocata fino in fondo, "
            "con questa chiamata in 'failed_callouts'.",
        ),
        "t4.cappotto_needs_callout": (
            "Only a side its opponents called out may go on for cappotto after the call "
            "('cappotto' needs 'by', the other side).",
            "Solo la coppia chiamata fuori dagli avversari può andare per cappotto dopo la "
            "chiamata ('cappotto' richiede 'by', l'altra coppia).",
        ),
        "t4.laid_down_needs_wrong_call": (
            "'cappotto': 'laid_down' is the modern norms' extra stake: side {side}, called "
            "out wrongly (t4.false_claim = claimant_loses_game), then made a cappotto by "
            "laying its cards down. Side {side} had {total} of {target} points at the call, "
            "or the wrong call does not end the game under these rules: enter 'made'.",
            "'cappotto': 'laid_down' è la posta in più delle norme moderne: la coppia {side}, "
            "chiamata fuori a torto (t4.false_claim = claimant_loses_game), ha poi fatto "
            "cappotto mettendo le carte a terra. La coppia {side} aveva {total} punti su "
            "{target} alla chiamata, o con queste regole la chiamata sbagliata non chiude la "
            "partita: indica 'made'.",
        ),
        "t4.cappotto_not_made": (
            "Side {by} had already taken tricks before the call-out ({tricks}), so side "
            "{side} cannot have made a cappotto.",
            "La coppia {by} aveva già fatto {tricks} prese prima della chiamata fuori: la "
            "coppia {side} non può aver fatto cappotto.",
        ),
        "t4.callout_after_record": (
            "The call-out after trick {trick} comes after the last trick of the record ({tricks}).",
            "La chiamata fuori dopo la presa {trick} viene dopo l'ultima presa registrata "
            "({tricks}).",
        ),
        "t4.claim_lead_no_trick": (
            "Side {side} cannot have been on lead after trick {after}: it had not won a "
            "trick, and the lead goes to the side that won the last one.",
            "La coppia {side} non poteva essere di mano dopo la presa {after}: non aveva "
            "fatto prese, ed è di mano chi ha vinto l'ultima presa.",
        ),
        "t4.claim_tricks": (
            "The tricks entered add up to {total}, but the claim came after trick {after}: "
            "enter the tricks each side had taken by then.",
            "Le prese inserite sommano {total}, ma la chiamata è venuta dopo la presa "
            "{after}: inserisci le prese che ogni coppia aveva fatto fino a lì.",
        ),
        "t4.hand_bad_cards": (
            "The hand holds the {card} twice.",
            "La mano contiene due volte la carta {card}.",
        ),
    }
)


#: The fields of an ordinary deal a phone may count alone (``TableShape.tally``).
READS = ("sides", "last_trick")


class Tressette4(Game):
    record_fields: ClassVar[tuple[str, ...]] = PLAY_FIELDS
    entry_fields: ClassVar[tuple[str, ...]] = FIELDS
    key: ClassVar[str] = "tressette4"
    name_en: ClassVar[str] = "Tressette, 4 players in pairs"
    name_it: ClassVar[str] = "Tressette a coppie"
    switches: ClassVar[tuple[Switch, ...]] = SWITCHES
    profiles: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "classic_21": {"t4.target": 21, "t4.declarations": False},
        "accusi_31": {"t4.target": 31, "t4.declarations": True},
        "accuso_41": {"t4.target": 41, "t4.declarations": True},
        "torneo_31": {"t4.target": 31, "t4.declarations": False, "t4.claim_mode": "off"},
        "pe": {
            "t4.multipliers": "PE",
            "t4.stramazzo_def": "lt_one_point",
            "t4.decl_error_penalty": "PE",
            "t4.collatondrione_points": "11_deck_points_to_opponents",
        },
    }
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    takes_penalties: ClassVar[bool] = True
    forfeit_points: ClassVar[int | None] = 11  # the whole deal, "per cappotto"

    def seats(self, rules: Rules, players: int) -> tuple[str, ...]:
        if rules["core.direction"] == "clockwise":
            return ("N", "E", "S", "W")
        return ("N", "W", "S", "E")

    def scorers(self, rules: Rules, seats: tuple[str, ...]) -> tuple[str, ...]:
        return SIDES

    def seat_scorer(self, seat: str) -> str:
        return SIDE_OF[seat]

    pot_game: ClassVar[bool] = True

    def plays_for_pot(self, rules: Mapping[str, Any]) -> bool:
        """Under marcio e batuffa a match feeds the table's pot as well as the stake."""
        return rules.get("t4.stake") == MARCIO_E_BATUFFA

    def table_shape(self, rules: Mapping[str, Any], seats: tuple[str, ...]) -> TableShape:
        """Two fixed pairs, ten tricks; declarations, the claim (or call-out), the target
        race and the cappotto after the win only under the switches that play them."""
        # all_tricks may name one player: who took every trick alone (the cappottone, E4);
        # counters_alone, who alone took all his side's points (the stramazzone, E4)
        stramazzo = rules.get("t4.stramazzo_def") != "off"
        parts = [Part("piles", {"all_tricks_alone": True, "counters_alone": stramazzo})]
        if rules.get("t4.declarations"):
            parts.append(
                Part(
                    "declarations",
                    {
                        "kinds": ("napoletana", "three", "four", "decima"),
                        "anomalies": rules.get("t4.decl_anomalies") == "code",
                    },
                )
            )
        if rules.get("t4.claim_mode", "off") != "off":
            by = "opponents" if rules.get("t4.claim_by") == "opponents" else "self"
            parts.append(Part("claim", {"by": by}))
            if by == "opponents" and rules.get("t4.false_claim") == "play_on":
                parts.append(Part("failed_callouts"))
        if rules.get("t4.reaching_target") == "first_in_trick_order":
            parts.append(Part("first_to_target"))
        if rules.get("t4.cappotto_after_win") == "ordinary_stake":
            parts.append(Part("cappotto_after_win"))
        parts.append(Part("annulled"))
        base = super().table_shape(rules, seats)
        return replace(
            base,
            scored_by="sides",
            scorers=SIDES,
            members={side: tuple(s for s in SEATS if SIDE_OF[s] == side) for side in SIDES},
            tricks=TRICKS,
            trick_counts="all_or_none",
            sweep=True,
            parts=tuple(parts),
            # a side below a point may have made the other's stramazzo: the engine's
            tally=tally(rules.get("core.rounding"), READS, least=3 if stramazzo else 0),
        )

    # -- one deal -----------------------------------------------------------------------

    def score_entry(self, deal: Mapping[str, Any], rules: Rules, state: MatchState) -> DealResult:
        problems = Problems()
        known_fields(deal, self.deal_fields(rules), "", problems)
        if UNORDINARY.isdisjoint(deal):
            return self._score_ordinary(deal, rules, state, problems)
        if deal.get("annulled_by") is not None:
            return self._annulled(deal, rules, problems)
        if deal.get("hand") is not None:
            problems.add("t4.hand_without_annul", "hand")
        declarations = self._declarations(deal, rules, problems)
        decima = next((d for d in declarations if d.kind == "decima"), None)
        failed = self._failed_callouts(deal, rules, state, declarations, problems)
        claim = self._claim(deal, rules, problems, state, failed)
        tricks_played = claim["after_trick"] if claim else TRICKS
        complete = tricks_played == TRICKS
        sides, players = self._captures(deal, problems, complete, tricks_played, decima)
        alone = None
        if "counters_alone" in deal:
            alone = self._counters_alone(deal, rules, sides, claim, problems)
        last_trick = None
        if complete and sides:
            last_trick = check_last_trick(
                deal.get("last_trick"),
                sides,
                SIDES,
                TRICKS,
                "last_trick",
                problems,
                required=decima is None or bool(deal.get("sides") or deal.get("seats")),
            )
        entered = entered_points(deal, "sides", SIDES, problems)
        if claim and sides and rules["t4.claim_mode"] == "only_when_on_lead":
            # G4: on lead after a trick means its side won that trick.
            caller = claim.get("by", claim["side"])
            if claim["after_trick"] and not sides[caller].tricks:
                problems.add(
                    "t4.claim_lead_no_trick",
                    "claim.on_lead",
                    side=caller,
                    after=claim["after_trick"],
                )
        problems.raise_if_any()
        result = self._score(
            rules, state, sides, players, last_trick, declarations, decima, claim, alone
        )
        if entered:
            _check_entered(entered, result, sides, last_trick, rules, problems)
        if claim:
            self._check_call(result, sides, rules, problems)
        if failed:
            result = replace(result, facts={**result.facts, "failed_callouts": failed})
        result = self._after_win(result, deal, rules, state)
        return self._first_to_target(result, deal.get("first_to_target"), rules, state)

    def _score_ordinary(
        self, deal: Mapping[str, Any], rules: Rules, state: MatchState, problems: Problems
    ) -> DealResult:
        """:meth:`score_entry` of an ordinary deal, one with none of ``UNORDINARY``'s
        fields (no annulment, claim, call-out nor the tournament code's facts): the same
        steps in the same order, less those that find nothing to do on it (the call-outs,
        the claim, ``counters_alone``, ``cappotto_after_win``; ``first_to_target`` but
        under ``first_in_trick_order``). tests/rules/test_fast_paths.py checks it gives
        what the general path gives."""
        declarations = self._declarations(deal, rules, problems)
        decima = None
        for decl in declarations:
            if decl.kind == "decima":
                decima = decl
                break
        sides, players = self._captures(deal, problems, True, TRICKS, decima)
        last_trick = None
        if sides:
            last_trick = check_last_trick(
                deal.get("last_trick"),
                sides,
                SIDES,
                TRICKS,
                "last_trick",
                problems,
                required=decima is None or bool(deal.get("sides") or deal.get("seats")),
            )
        entered = entered_points(deal, "sides", SIDES, problems)
        problems.raise_if_any()
        result = self._score(rules, state, sides, players, last_trick, declarations, decima, None)
        if entered:
            _check_entered(entered, result, sides, last_trick, rules, problems)
        if rules.values["t4.reaching_target"] == "first_in_trick_order":
            return self._first_to_target(result, None, rules, state)
        return result

    def _check_call(
        self, result: DealResult, sides: dict[str, Capture], rules: Rules, problems: Problems
    ) -> None:
        """A wrong call-out where play goes on is not the deal's claim; a cappotto made after
        a call-out needs every trick before it."""
        claim = result.claim
        assert claim is not None
        side = claim["side"]
        caller = claim.get("by", side)
        if not claim["holds"] and caller != side and rules["t4.false_claim"] == "play_on":
            problems.add(
                "t4.callout_wrong_play_on",
                "claim",
                trick=claim["after_trick"],
                side=side,
                total=claim["total"],
                target=claim["target"],
            )
        if claim.get("cappotto") == "laid_down" and (
            claim["holds"] or rules["t4.false_claim"] != "claimant_loses_game"
        ):
            problems.add(
                "t4.laid_down_needs_wrong_call",
                "claim.cappotto",
                side=side,
                total=claim["total"],
                target=claim["target"],
            )
        made = claim.get("cappotto") in ("made", "laid_down")
        if made and side in sides and sides[caller].tricks:
            problems.add(
                "t4.cappotto_not_made",
                "claim.cappotto",
                by=caller,
                side=side,
                tricks=sides[caller].tricks,
            )
        problems.raise_if_any()

    def _after_win(
        self, result: DealResult, deal: Mapping[str, Any], rules: Rules, state: MatchState
    ) -> DealResult:
        """Under ``t4.cappotto_after_win = ordinary_stake``, whether the side that made
        a cappotto had already reached the target before completing it (entered as
        ``cappotto_after_win``; a play record finds it trick by trick), kept in the facts."""
        if deal.get("cappotto_after_win") is None:
            return result
        problems = Problems()
        if rules["t4.cappotto_after_win"] != "ordinary_stake":
            problems.add("t4.after_win_off", "cappotto_after_win")
            problems.raise_if_any()
        after = boolean(deal, "cappotto_after_win", "", problems, default=False)
        problems.raise_if_any()
        if not after:
            return result
        side = str(result.facts.get("event_side"))
        if result.event not in CAPPOTTO or side not in SIDES:
            problems.add("t4.after_win_no_cappotto", "cappotto_after_win")
            problems.raise_if_any()
        total = state.totals.get(side, 0)
        made = [ln.points for ln in result.breakdown[side] if ln.kind in ("cards", "declaration")]
        reach = total + sum(made)
        if reach < rules["t4.target"]:
            problems.add(
                "t4.after_win_not_reached",
                "cappotto_after_win",
                side=side,
                target=rules["t4.target"],
                total=total,
                reach=reach,
            )
            problems.raise_if_any()
        return replace(result, facts={**result.facts, "cappotto_after_win": True})

    def _first_to_target(
        self, result: DealResult, named: Any, rules: Rules, state: MatchState
    ) -> DealResult:
        """Under ``first_in_trick_order``, which side reached the target first when both
        reach it in this deal (entered, or found by a play record), kept in the facts."""
        if rules["t4.reaching_target"] != "first_in_trick_order":
            if named is not None:
                problems = Problems()
                problems.add("t4.first_to_target_off", "first_to_target")
                problems.raise_if_any()
            return result
        problems = Problems()
        target = rules["t4.target"]
        totals = {s: state.totals.get(s, 0) + result.points[s] for s in SIDES}
        reached = [s for s in SIDES if totals[s] >= target]
        if named is not None and named not in SIDES:
            problems.add(
                "input.bad_choice",
                "first_to_target",
                field="first_to_target",
                value=named,
                allowed=", ".join(SIDES),
            )
        elif named is not None and named not in reached:
            problems.add(
                "t4.first_to_target_not_reached",
                "first_to_target",
                side=named,
                target=target,
                total=totals[named],
            )
        elif named is None and len(reached) == 2 and result.claim is None:
            problems.add("t4.first_to_target_needed", "first_to_target", target=target)
        problems.raise_if_any()
        if named is None and len(reached) == 1:
            named = reached[0]
        if named is None:
            return result
        return replace(result, facts={**result.facts, "first_to_target": named})

    def _first_in_tricks(
        self,
        tricks: Sequence[Trick],
        progress: list[dict[str, int]],
        entry: Deal,
        rules: Rules,
        state: MatchState,
    ) -> str | None:
        """The side whose running total reaches the target first, in the order things
        happen at the table: a declaration counts when it is made, at its maker's turn in
        the trick it is made in (the code, arts. 132-133: "quando giunge il suo primo
        turno di gioco"; art. 73: accusing can win the game "prima che si esaurisca la
        prima battuta"); a trick's card points when the trick is taken; the last trick's
        point with the last trick. Before, every declaration was counted with trick 1's
        cards and side A was looked at first."""
        target = rules["t4.target"]
        scored = self._scored_declarations(
            self._declarations(entry, rules, Problems()), rules, state
        )
        made = [(decl.trick or 1, decl.player, points) for decl, points, _ in scored if points]
        declared = dict.fromkeys(SIDES, 0)
        cards = dict.fromkeys(SIDES, 0)
        for number, (trick, thirds) in enumerate(zip(tricks, progress, strict=True), start=1):
            for player in trick.players:
                side = SIDE_OF[player]
                declared[side] += sum(p for n, who, p in made if n == number and who == player)
                if state.totals.get(side, 0) + declared[side] + cards[side] >= target:
                    return side
            cards = {side: thirds[side] // 3 for side in SIDES}
            last = entry.get("last_trick") if number == TRICKS else None
            taker = SIDE_OF[trick.winner]
            for side in (taker, OTHER[taker]):
                total = state.totals.get(side, 0) + declared[side] + cards[side]
                if total + (1 if last == side else 0) >= target:
                    return side
        return None

    def _won_before_last(
        self, progress: list[dict[str, int]], entry: Deal, rules: Rules, state: MatchState
    ) -> bool:
        """A side that took every trick had reached the target (its total before the deal,
        its declarations and the card points of its tricks) before the last trick: its
        cappotto was completed after the game was won."""
        if len(progress) != TRICKS:  # laid down: "non può essere chiamata fuori"
            return False
        seats = entry.get("seats") or {}
        won = {s: sum(seats.get(p, {}).get("tricks", 0) for p in MEMBERS[s]) for s in SIDES}
        side = next((s for s in SIDES if won[s] == TRICKS), None)
        if side is None:
            return False
        declared = 0
        for decl in self._declarations(entry, rules, Problems()):
            if decl.kind != "decima" and SIDE_OF[decl.player] == side:
                declared += decl.points
        before = state.totals.get(side, 0) + declared
        return any(before + p[side] // 3 >= rules["t4.target"] for p in progress[: TRICKS - 1])

    def read_play(self, deal: Deal, rules: Rules, state: MatchState, problems: Problems) -> Start:
        """Level (c): the four hands and the tricks; a claim may stop the record early."""
        hands, _ = read_deal(deal, SEATS, 10, DECK40, problems)
        annulled_by = deal.get("annulled_by")
        if annulled_by is not None:
            if deal.get("tricks") not in (None, []):
                problems.add("t4.annul_with_play", "tricks", field="tricks")
            if problems:
                return None
            entry = {"annulled_by": annulled_by}
            if annulled_by in hands:
                entry["hand"] = codes(hands[annulled_by])
            return self.score_entry(entry, rules, state)
        if problems:
            return None
        claim = self._record_claim(deal, problems)
        laid = deal.get("laid_down")
        if laid is not None and (
            not isinstance(laid, Mapping)
            or set(laid) != {"player"}
            or laid.get("player") not in SEATS
        ):
            problems.add("t4.laid_down_shape", "laid_down")
            laid = None
        leader = first_leader(rules, state, hands, self.eldest(state))
        may_stop = (claim is not None and "cappotto" not in claim) or laid is not None
        options = ReplayOptions(rank_order(rules), DECK40_SET, TRICKS, may_stop=may_stop)
        return Dealt(
            hands,
            state.seats,
            leader,
            options,
            SIDE_OF.__getitem__,
            facts={"first_leader": leader},
            context={
                "claim": claim,
                "declared": deal.get("declarations"),
                "laid_down": laid["player"] if laid else None,
            },
        )

    def judge_play(self, rules: Rules, dealt: Dealt, found: Replay, problems: Problems) -> None:
        """Revokes, and declarations of cards the declarer was not dealt."""
        super().judge_play(rules, dealt, found, problems)
        laid = dealt.context.get("laid_down")
        if laid is not None and not found.complete and not found.broken:
            self._check_laid_down(laid, rules, dealt, found, problems)
        declared = dealt.context["declared"]
        penalised = self._held_declarations(declared, dealt.hands, rules, problems)
        dealt.facts["mis_declared"] = penalised
        if rules["t4.decl_anomalies"] == "code" and not found.broken:
            self._declaration_bans(declared, rules, dealt, found, problems)

    def _declaration_bans(
        self, raw: Any, rules: Rules, dealt: Dealt, found: Replay, problems: Problems
    ) -> None:
        """The play restrictions the tournament code adds after a declaration anomaly.

        Source: ``regolamento.tex``, "Anomalie dell'accusa". After an early declaration
        contested at the end of the first trick, "per il suo compagno: divieto di
        effettuare nuove accuse, ..., di uscire fino al termine della passata al palo della
        napoletana anticipatamente accusata (se non perché costrettovi dal non possedere
        nessuna carta agli altri pali)". After a wrong napoletana shown by the first
        trick's play, "il compagno di chi ha eseguito l'accusa errata non può mai uscire,
        finché non vi sia costretto, ai pali ai quali non può escludere, in base alle carte
        possedute o conosciute in possesso degli avversari, che il suo compagno abbia una
        napoletana". A lead that breaks either is refused, as is a declaration the partner
        made after the first trick once he was barred.
        """
        if not isinstance(raw, list) or len(dealt.hands) != 4:
            return
        scratch = Problems()
        made = read_declarations(
            raw, SEATS, "declarations", scratch, coda=rules["t4.decl_coda"], anomalies=True
        )
        if scratch:
            return  # the entry's own checks name what is wrong
        partner_of = {p: q for p in SEATS for q in SEATS if p != q and SIDE_OF[p] == SIDE_OF[q]}
        for decl in made:
            partner = partner_of[decl.player]
            early = decl.when == "early" and decl.contested
            if early:
                for other in made:
                    late = other.when == "late" or other.fixed == "after_first_trick"
                    if other.player == partner and late:
                        problems.add(
                            "t4.decl_partner_barred",
                            other.path,
                            player=partner,
                            declarer=decl.player,
                            declaration=other.label(),
                        )
            if decl.kind != "napoletana":
                continue
            late = decl.when == "late" or decl.fixed == "after_first_trick"
            start = 2  # contested at the end of the first trick: the ban runs from the second
            if (early or (late and decl.contested and decl.trick is not None)) and decl.suit:
                barred, reason = {decl.suit}, "early" if early else "late"
                if not early:
                    # made after ``trick`` tricks, contested once the trick in progress ended
                    start = int(decl.trick or 0) + 2
            elif decl.form == "wrong" and decl.fixed == "found_in_play":
                barred, reason = set(SUITS), "wrong"
            else:
                continue
            self._check_barred_leads(
                decl, partner, barred, (reason, start), dealt, found, made, problems
            )

    @staticmethod
    def _check_barred_leads(
        decl: Declaration,
        partner: str,
        barred: set[str],
        why: tuple[str, int],
        dealt: Dealt,
        found: Replay,
        made: Sequence[Declaration],
        problems: Problems,
    ) -> None:
        """Refuse each lead by ``partner``, from the second trick on, of a barred suit while
        he held a card of a suit that is not barred. For a wrong napoletana a suit stops
        being barred once the partner can exclude a napoletana there: he was dealt its 3,
        2 or ace, an opponent played or declared one, or the declarer showed he had none
        of the suit (a discard on a lead of it). ``why``: the anomaly (early, late, wrong)
        and the first trick the ban covers."""
        reason, start = why
        in_hand = set(dealt.hands[partner])
        known = set(in_hand)
        known |= {c for d in made if SIDE_OF[d.player] != SIDE_OF[decl.player] for c in d.cards()}
        void: set[str] = set()
        for number, trick in enumerate(found.tricks, start=1):
            if number >= start and trick.leader == partner:
                suits = barred
                if reason == "wrong":
                    suits = {
                        s
                        for s in barred
                        if s not in void and not any(Card(r, s) in known for r in GROUP_RANKS)
                    }
                led = trick.cards[0]
                others = sorted((c for c in in_hand if c.suit not in suits), key=DECK40.index)
                if led.suit in suits and others:
                    problems.add(
                        "t4.decl_lead_unknown" if reason == "wrong" else "t4.decl_lead_barred",
                        join("tricks", number - 1),
                        player=partner,
                        declarer=decl.player,
                        card=card_name(led),
                        trick=number,
                        other=card_name(others[0]),
                    )
            suit_led = trick.cards[0].suit
            for player, card in zip(trick.players, trick.cards, strict=True):
                if player == partner:
                    in_hand.discard(card)
                elif SIDE_OF[player] != SIDE_OF[decl.player]:
                    known.add(card)
                elif player == decl.player and card.suit != suit_led:
                    void.add(suit_led)

    def play_entry(self, deal: Deal, rules: Rules, dealt: Dealt, found: Replay) -> dict[str, Any]:
        taken = {p: list(found.taken[p]) for p in SEATS}
        won = dict(found.won)
        laid = dealt.context.get("laid_down")
        complete = found.complete
        if laid is not None and not found.complete:
            # A valid messa a terra takes every remaining trick, and the last one.
            rest = [c for p in SEATS for c in sorted(found.remaining[p], key=lambda c: c.code)]
            taken[laid] += rest
            won[laid] += TRICKS - len(found.tricks)
            dealt.facts["laid_down"] = {"player": laid, "after_trick": len(found.tricks)}
            complete = True
        entry: dict[str, Any] = {
            "seats": {p: {"cards": codes(taken[p]), "tricks": won[p]} for p in SEATS},
        }
        if complete:
            last = laid if laid is not None and not found.complete else found.last_winner
            entry["last_trick"] = SIDE_OF[last or dealt.leader]
        running = dict.fromkeys(SIDES, 0)
        progress = []
        for trick in found.tricks:
            running[SIDE_OF[trick.winner]] += sum(c.thirds for c in trick.cards)
            progress.append(dict(running))
        dealt.context["progress"] = progress
        dealt.context["tricks"] = found.tricks
        declared = deal.get("declarations")
        if declared is not None:
            entry["declarations"] = declared
        failed = deal.get("failed_callouts")
        if failed is not None:
            entry["failed_callouts"] = failed
        claim = dealt.context["claim"]
        if claim is not None:
            after = claim.get("after_trick", len(found.tricks))
            caller = claim.get("by", claim["side"])
            if after < len(found.tricks):  # played on for cappotto: the piles at the call
                entry = self._piles_at(entry, found.tricks[:after])
                on_lead = found.tricks[after].leader
            else:
                on_lead = found.next_leader or dealt.leader
            entry["claim"] = {
                "side": claim["side"],
                "after_trick": after,
                "on_lead": SIDE_OF[on_lead] == caller,
            }
            if "by" in claim:
                entry["claim"]["by"] = caller
            if "cappotto" in claim:
                by_laying = laid is not None and not found.complete
                made = (
                    complete
                    and all(SIDE_OF[t.winner] == claim["side"] for t in found.tricks)
                    and (not by_laying or SIDE_OF[str(laid)] == claim["side"])
                )
                entry["claim"]["cappotto"] = "made" if made else "failed"
                if made and by_laying:
                    dealt.context["laid_cappotto"] = len(found.tricks)
        return entry

    @staticmethod
    def _piles_at(entry: dict[str, Any], tricks: Sequence[Trick]) -> dict[str, Any]:
        """The entry's piles as they were after ``tricks`` (no last trick yet)."""
        taken: dict[str, list[Card]] = {p: [] for p in SEATS}
        won = dict.fromkeys(SEATS, 0)
        for trick in tricks:
            taken[trick.winner] += trick.cards
            won[trick.winner] += 1
        piles = {p: {"cards": codes(taken[p]), "tricks": won[p]} for p in SEATS}
        return {**{k: v for k, v in entry.items() if k != "last_trick"}, "seats": piles}

    def score_played(
        self, entry: Deal, rules: Rules, state: MatchState, dealt: Dealt
    ) -> DealResult:
        self._check_failed_callouts(entry, rules, state, dealt.context["progress"])
        if rules["t4.reaching_target"] == "first_in_trick_order" and "claim" not in entry:
            first = self._first_in_tricks(
                dealt.context["tricks"], dealt.context["progress"], entry, rules, state
            )
            if first is not None:
                entry = {**entry, "first_to_target": first}
        if rules["t4.cappotto_after_win"] == "ordinary_stake" and "claim" not in entry:
            if self._won_before_last(dealt.context["progress"], entry, rules, state):
                entry = {**entry, "cappotto_after_win": True}
        entry = self._laid_down_after_wrong_call(entry, rules, state, dealt.context)
        result = self.score_entry(entry, rules, state)
        penalised = dealt.facts["mis_declared"]
        return _penalise_declarations(result, penalised) if penalised else result

    def _laid_down_after_wrong_call(
        self, entry: Deal, rules: Rules, state: MatchState, context: Mapping[str, Any]
    ) -> Deal:
        """Under the modern norms, a side called out wrongly that then makes its cappotto
        by laying its cards down before reaching the target earns the callers' extra
        stake: the record's claim becomes ``"cappotto": "laid_down"``. The side's total
        at the call and at the laying down is its total before the deal, its declarations
        and its card points so far (the last trick's point is not yet taken)."""
        laid_after = context.get("laid_cappotto")
        claim = entry.get("claim")
        if laid_after is None or not isinstance(claim, Mapping):
            return entry
        if rules["t4.false_claim"] != "claimant_loses_game" or claim.get("cappotto") != "made":
            return entry
        side = claim["side"]
        made = self._declarations(entry, rules, Problems())
        progress = context["progress"]

        def total(after: int) -> int:
            scored = [d for d in made if scored_by(d, after)]
            declared = self._declared_points(scored, rules, state)[side]
            return (
                state.totals.get(side, 0)
                + declared
                + (progress[after - 1][side] // 3 if after else 0)
            )

        target = rules["t4.target"]
        if total(claim["after_trick"]) < target and total(laid_after) < target:
            return {**entry, "claim": {**claim, "cappotto": "laid_down"}}
        return entry

    def _check_failed_callouts(
        self, entry: Deal, rules: Rules, state: MatchState, progress: list[dict[str, int]]
    ) -> None:
        """A play record shows each side's total trick by trick: a call-out entered as
        wrong must really have come before the side called out reached the target."""
        raw = entry.get("failed_callouts")
        if not isinstance(raw, list) or not self._may_fail_a_call(rules):
            return  # the entry's own checks say what is wrong
        problems = Problems()
        declared = self._declared_points(self._declarations(entry, rules, Problems()), rules, state)
        for i, call in enumerate(raw):
            if not isinstance(call, Mapping) or call.get("by") not in SIDES:
                continue
            after = call.get("after_trick")
            if type(after) is not int or not 0 < after <= TRICKS:
                continue
            if after > len(progress):
                problems.add(
                    "t4.callout_after_record",
                    join("failed_callouts", i),
                    trick=after,
                    tricks=len(progress),
                )
                continue
            side = OTHER[call["by"]]
            total = state.totals.get(side, 0) + declared[side] + progress[after - 1][side] // 3
            if after == TRICKS and entry.get("last_trick") == side:
                total += 1
            if total >= rules["t4.target"]:
                problems.add(
                    "t4.callout_was_right",
                    join("failed_callouts", i),
                    side=side,
                    total=total,
                    target=rules["t4.target"],
                    when=_after_trick(after),
                )
        problems.raise_if_any()

    def _check_laid_down(
        self, player: str, rules: Rules, dealt: Dealt, found: Replay, problems: Problems
    ) -> None:
        """The code's conditions for a messa a terra by the player on lead: played from the
        top down, his cards must take every remaining trick whatever the unseen cards are
        and wherever they lie, so no card of a suit he holds may be still out above his."""
        after = len(found.tricks)
        leader = found.next_leader or dealt.leader
        if leader != player:
            problems.add(
                "t4.laid_down_not_on_lead", "laid_down", player=player, trick=after, leader=leader
            )
            return
        ranks = rank_order(rules)
        mine = found.remaining[player]
        out = {c for p, hand in found.remaining.items() if p != player for c in hand}
        for card in sorted(mine, key=lambda c: (c.suit, -strength(c, ranks))):
            higher = [
                c for c in out if c.suit == card.suit and strength(c, ranks) > strength(card, ranks)
            ]
            if higher:
                best = max(higher, key=lambda c: strength(c, ranks))
                problems.add(
                    "t4.laid_down_invalid",
                    "laid_down",
                    player=player,
                    card=card_name(card),
                    higher=card_name(best),
                )
                return
        # A player void in a suit another still holds can be led to only by himself: he
        # leads every trick, so the others' suits never matter.

    def _record_claim(self, deal: Mapping[str, Any], problems: Problems) -> dict[str, Any] | None:
        """A play record's claim: the side claimed out, and for a call-out the side that
        called ('by'). A side called out that went on for cappotto ('cappotto': true) has
        the rest of the deal in the record, so the claim names its trick ('after_trick')."""
        raw = deal.get("claim")
        if raw is None:
            return None
        keys = set(raw) if isinstance(raw, Mapping) else set()
        shape = keys - {"by"} in ({"side"}, {"side", "cappotto", "after_trick"})
        if not shape or ("cappotto" in keys and raw["cappotto"] is not True):
            problems.add("t4.claim_record", "claim")
            return None
        for key in ("side", "by"):
            if key in raw and raw[key] not in SIDES:
                problems.add("t4.claim_bad_side", f"claim.{key}", value=raw[key])
                return None
        after = raw.get("after_trick")
        if "cappotto" in keys and (type(after) is not int or not 0 <= after < TRICKS):
            problems.add(
                "input.out_of_range",
                "claim.after_trick",
                field="after_trick",
                low=0,
                high=TRICKS - 1,
                value=after,
            )
            return None
        return dict(raw)

    def _held_declarations(
        self,
        raw: Any,
        hands: Mapping[str, Sequence[Card]],
        rules: Rules,
        problems: Problems,
    ) -> list[dict[str, Any]]:
        """A8: each declaration is in the declarer's dealt hand.

        Under ``t4.decl_error_penalty = PE`` an over-declared combination is scored by rule
        (it counts nothing and the side loses its card points) instead of refused.
        """
        if not isinstance(raw, list) or len(hands) != 4:
            return []
        scratch = Problems()
        found = read_declarations(
            raw,
            SEATS,
            "declarations",
            scratch,
            coda=rules["t4.decl_coda"],
            anomalies=rules["t4.decl_anomalies"] == "code",
        )
        if scratch:
            return []  # the entry's own checks will name what is wrong
        penalised: list[dict[str, Any]] = []
        from_partner = rules["t4.decl_coda"] == "on_own_and_partner_cards"
        for decl in found:
            held = set(hands[decl.player])
            if from_partner and decl.coda:  # PE: the coda may be the partner's cards
                partner = next(p for p in MEMBERS[SIDE_OF[decl.player]] if p != decl.player)
                held |= decl.cards() & set(hands[partner])
            if decl.kind == "three" and decl.missing and Card(str(decl.rank), decl.missing) in held:
                # A3: holding all four, he must declare four. PE: he loses the undeclared
                # point (his three scores 3); otherwise the entry is refused.
                if rules["t4.decl_error_penalty"] == "PE":
                    under = {**decl.as_dict(), "under_declared": f"{decl.rank}{decl.missing}"}
                    penalised.append(under)
                    continue
                problems.add(
                    "t4.decl_three_of_four",
                    decl.path,
                    player=decl.player,
                    declaration=decl.label(),
                    card=card_name(Card(str(decl.rank), str(decl.missing))),
                )
                continue
            lacking = sorted(decl.cards() - held, key=DECK40.index)
            if not lacking:
                continue
            if rules["t4.decl_error_penalty"] == "PE":
                penalised.append({**decl.as_dict(), "lacking": codes(lacking)})
                continue
            problems.add(
                "t4.decl_not_held",
                decl.path,
                player=decl.player,
                declaration=decl.label(),
                cards=_card_names(lacking),
            )
        return penalised

    def _annulled(self, deal: Mapping[str, Any], rules: Rules, problems: Problems) -> DealResult:
        player = deal["annulled_by"]
        rule = rules["t4.annul_rule"]
        if rule == "off":
            problems.add("t4.annul_off", "annulled_by")
        if player not in SEATS:
            problems.add("t4.annul_bad_player", "annulled_by", value=player)
        for field in ("sides", "seats", "last_trick", "declarations", "claim", "failed_callouts"):
            if deal.get(field) is not None:
                problems.add("t4.annul_with_play", field, field=field)
        hand = cards(deal, "hand", "", problems)
        if hand is not None and player in SEATS and rule != "off":
            if len(hand) != 10:
                problems.add("t4.annul_hand_size", "hand", count=len(hand))
            elif len(set(hand)) != 10:
                dup = next(c for c in hand if hand.count(c) > 1)
                from ..parse import card_name

                problems.add("t4.hand_bad_cards", "hand", card=card_name(dup))
            elif not may_annul(hand, rule):
                problems.add(
                    "t4.annul_not_allowed",
                    "hand",
                    player=player,
                    thirds=thirds_of(hand),
                    rule=rule,
                )
        problems.raise_if_any()
        return DealResult(
            game=self.key,
            level="totals" if hand is None else "cards",
            points={"A": 0, "B": 0},
            breakdown={"A": (), "B": ()},
            annulled=True,
            same_dealer=True,
            facts={"annulled_by": player},
        )

    def _declarations(
        self, deal: Mapping[str, Any], rules: Rules, problems: Problems
    ) -> list[Declaration]:
        raw = deal.get("declarations")
        if raw in (None, []):
            return []
        rule = rules.values  # a dict's look-ups: ``Rules[...]`` is a Python call each
        if not rule["t4.declarations"]:
            # A decima (collatondrione) is shown, not declared: it counts even without accusi.
            only_decima = isinstance(raw, list) and all(
                isinstance(d, Mapping) and d.get("type") == "decima" for d in raw
            )
            if not only_decima:
                problems.add("t4.declarations_off", "declarations")
                return []
        found = read_declarations(
            raw,
            ("N", "E", "S", "W"),
            "declarations",
            problems,
            coda=rule["t4.decl_coda"],
            anomalies=rule["t4.decl_anomalies"] == "code",
        )
        check_declarations(
            found,
            problems,
            sides=MEMBERS,
            coda_from_partner=rule["t4.decl_coda"] == "on_own_and_partner_cards",
        )
        window = rule["t4.decl_window"]
        for decl in found:
            late = decl.when == "late" or decl.fixed == "after_first_trick"
            if decl.trick is not None and decl.trick > WINDOW_LAST_TRICK[window] and not late:
                problems.add(
                    "t4.decl_too_late",
                    decl.path,
                    player=decl.player,
                    trick=decl.trick,
                    window=window,
                )
        if rule["t4.implied_declarations"] == "counted" and not problems:
            found = [*found, *implied(found)]
        return found

    def _claim(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        problems: Problems,
        state: MatchState,
        failed: Sequence[Mapping[str, Any]] = (),
    ) -> dict[str, Any] | None:
        raw = deal.get("claim")
        if raw is None:
            return None
        entry = obj(raw, "claim", problems, what="The claim")
        if not isinstance(raw, Mapping):
            return None
        known_fields(entry, ("side", "after_trick", "on_lead", "by", "cappotto"), "claim", problems)
        mode = rules["t4.claim_mode"]
        if mode == "off":
            problems.add("t4.claim_off", "claim")
        side = entry.get("side")
        if side not in SIDES:
            problems.add("t4.claim_bad_side", "claim.side", value=side)
        after = integer(entry, "after_trick", "claim", problems, low=0, high=TRICKS)
        on_lead = boolean(entry, "on_lead", "claim", problems, default=False)
        by = entry.get("by", side)
        if "by" in entry and by not in SIDES:
            problems.add("t4.claim_bad_side", "claim.by", value=by)
        elif by not in SIDES or side not in SIDES or by == side:
            pass  # a side claiming itself out, as the book has it
        elif rules["t4.claim_by"] == "claiming_side":
            problems.add("t4.callout_off", "claim.by", by=by, side=side)
        elif self._failures(by, failed, rules, state) >= CALLOUTS_ALLOWED_TO_FAIL:
            problems.add("t4.callout_no_third", "claim.by", by=by, where=self._where(rules))
        cappotto = one_of(
            entry, "cappotto", ("made", "failed", "laid_down"), "claim", problems, required=False
        )
        if cappotto is not None and (by == side or side not in SIDES):
            problems.add("t4.cappotto_needs_callout", "claim.cappotto")
        if mode == "only_when_on_lead" and not on_lead and by in SIDES:
            problems.add("t4.claim_not_on_lead", "claim.on_lead", side=by)
        if side not in SIDES or by not in SIDES or after is None:
            return None
        claim: dict[str, Any] = {"side": side, "after_trick": after}
        if "by" in entry:
            claim["by"] = by
        if cappotto is not None:
            claim["cappotto"] = cappotto
        return claim

    def _failures(
        self, by: str, failed: Sequence[Mapping[str, Any]], rules: Rules, state: MatchState
    ) -> int:
        """Wrong call-outs side ``by`` has made so far: in this deal, or in the game."""
        count = sum(1 for call in failed if call["by"] == by)
        if rules["t4.callout_limit"] == "per_game":
            count += int(state.extra.get("failed_callouts", {}).get(by, 0))
        return count

    @staticmethod
    def _where(rules: Rules) -> Localized:
        if rules["t4.callout_limit"] == "per_game":
            return Localized(" in this game", " in questa partita")
        return Localized(" in this deal", " in questa smazzata")

    def _failed_callouts(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        state: MatchState,
        declarations: Sequence[Declaration],
        problems: Problems,
    ) -> list[dict[str, Any]]:
        """The code's traditional norms: wrong call-outs after which play went on, each
        ``{"by": side that called, "after_trick": n}``. "La coppia che, nella stessa
        passata, effettui una seconda chiamata fuori e dalla verifica risulti che i 21 punti
        non sono ancora stati raggiunti, perde il diritto ad una terza chiamata fuori"."""
        raw = deal.get("failed_callouts")
        if raw is None:
            return []
        if rules["t4.claim_by"] != "opponents" or rules["t4.claim_mode"] == "off":
            problems.add("t4.callouts_not_played", "failed_callouts")
            return []
        if rules["t4.false_claim"] != "play_on":
            problems.add("t4.callouts_off", "failed_callouts")
            return []
        if not isinstance(raw, list):
            problems.add("input.not_list", "failed_callouts", field="failed_callouts")
            return []
        declared = self._declared_points(declarations, rules, state)
        out: list[dict[str, Any]] = []
        for i, item in enumerate(raw):
            where = join("failed_callouts", i)
            entry = obj(item, where, problems, what="A call-out")
            if not isinstance(item, Mapping):
                continue
            known_fields(entry, ("by", "after_trick"), where, problems)
            by = one_of(entry, "by", SIDES, where, problems)
            after = integer(entry, "after_trick", where, problems, low=0, high=TRICKS)
            if by is None or after is None:
                continue
            if self._failures(by, out, rules, state) >= CALLOUTS_ALLOWED_TO_FAIL:
                problems.add(
                    "t4.callout_no_third", join(where, "by"), by=by, where=self._where(rules)
                )
                continue
            called = OTHER[by]
            # Declarations are made within the first trick: after it they count.
            total = state.totals.get(called, 0) + (declared[called] if after else 0)
            if total >= rules["t4.target"]:
                problems.add(
                    "t4.callout_was_right",
                    where,
                    side=called,
                    total=total,
                    target=rules["t4.target"],
                    when=_after_trick(after),
                )
                continue
            out.append({"by": by, "after_trick": after})
        return out

    def _captures(
        self,
        deal: Mapping[str, Any],
        problems: Problems,
        complete: bool,
        tricks_played: int,
        decima: Declaration | None,
    ) -> tuple[dict[str, Capture], dict[str, Capture]]:
        has_sides = deal.get("sides") is not None
        has_players = deal.get("seats") is not None
        counted = True
        alone = None  # E4: 'all_tricks' names the one player who took every trick
        if has_sides and not has_players:
            if deal.get("all_tricks") in SIDE_OF:
                alone = deal["all_tricks"]
                deal = {**deal, "all_tricks": SIDE_OF[alone]}
            deal, counted = uncounted_tricks(deal, SIDES, TRICKS, complete, problems)
        if has_sides and has_players:
            problems.add("t4.sides_or_players", "seats")
            return {}, {}
        if decima is not None and not has_sides and not has_players:
            return {}, {}  # collatondrione: the hand need not be played
        players: dict[str, Capture] = {}
        if has_players:
            players = read_captures(
                deal, "seats", ("N", "E", "S", "W"), "", problems, what=("player", "giocatore")
            )
            if len(players) == 4:
                sides = {s: _merge(s, [players[p] for p in MEMBERS[s]]) for s in SIDES}
            else:
                sides = {}
        else:
            sides = read_captures(deal, "sides", SIDES, "", problems, extra_fields=POINTS)
            if not counted:
                sides = {s: replace(c, tricks_counted=False) for s, c in sides.items()}
            if alone is not None and len(sides) == 2:
                # who took every trick holds every card: the three others took nothing
                players = {
                    p: Capture(
                        p,
                        f"seats.{p}",
                        sides[SIDE_OF[p]].thirds if p == alone else 0,
                        TRICKS if p == alone else 0,
                    )
                    for p in ("N", "E", "S", "W")
                }
        if len(sides) == 2:
            check_captures(
                players or sides,
                problems,
                tricks_in_deal=tricks_played,
                cards_per_trick=4,
                complete=complete,
                counting_cards=DECK40,
            )
            won = sides["A"].tricks + sides["B"].tricks
            if not complete and won < tricks_played:  # D7 at a claim: the tricks so far
                problems.add("t4.claim_tricks", "", total=won, after=tricks_played)
        return sides, players

    def _counters_alone(
        self,
        deal: Mapping[str, Any],
        rules: Rules,
        sides: dict[str, Capture],
        claim: dict[str, Any] | None,
        problems: Problems,
    ) -> str | None:
        """E4's stramazzone entered without each player's counts: ``counters_alone`` names
        the player who alone took all his side's counters (his partner took none), in a
        deal that is his side's stramazzo (E3). It scores as those counts per player."""
        seat = deal.get("counters_alone")
        if seat is None:
            return None
        if seat not in SIDE_OF:
            problems.add("t4.counters_alone_bad_seat", "counters_alone", value=seat)
            return None
        if deal.get("seats") is not None:
            problems.add("t4.counters_alone_with_seats", "counters_alone")
            return None
        if claim:
            problems.add("t4.counters_alone_with_claim", "counters_alone")
            return None
        if rules["t4.stramazzo_def"] == "off":
            problems.add("t4.counters_alone_off", "counters_alone")
            return None
        side = SIDE_OF[seat]
        # E3 for his side: with no last trick no cappotto 'all_points' comes first
        if len(sides) == 2 and self._event(rules, sides, {}, None, None, seat) == (
            "stramazzone",
            side,
        ):
            return str(seat)
        if len(sides) == 2 or deal.get("sides") is None:
            if rules["t4.stramazzo_def"] == "strict_zero_counters":
                test = Localized("take no counter", "non prendere nessuna carta di punto")
            else:
                test = Localized("take less than a point", "fare meno di un punto")
            problems.add("t4.counters_alone_not_stramazzo", "counters_alone", side=side, test=test)
        return None

    # -- scoring ------------------------------------------------------------------------

    def _score(
        self,
        rules: Rules,
        state: MatchState,
        sides: dict[str, Capture],
        players: dict[str, Capture],
        last_trick: str | None,
        declarations: list[Declaration],
        decima: Declaration | None,
        claim: dict[str, Any] | None,
        alone: str | None = None,
    ) -> DealResult:
        rule = rules.values  # a dict's look-ups: ``Rules[...]`` is a Python call each
        thirds: dict[str, int] = {}
        tricks: dict[str, int | None] = {}
        for s in SIDES:  # a side not entered (a collatondrione not played) took nothing
            got = sides.get(s)
            thirds[s] = got.thirds if got is not None else 0
            tricks[s] = (got.tricks if got.tricks_counted else None) if got is not None else 0
        lines = score_thirds(thirds, last_trick, rule["core.rounding"])  # fresh lists
        if claim:  # a cappotto made after a call-out is the deal's event
            made = claim.get("cappotto") == "made"
            event, winner = ("cappotto", claim["side"]) if made else (None, None)
        else:
            event, winner = self._event(rules, sides, players, last_trick, decima, alone)
        if event in ("stramazzo", "stramazzone") and winner and last_trick == OTHER[winner]:
            loser = OTHER[winner]
            lines[loser] = [ln for ln in lines[loser] if ln.kind != "last_trick"]
            if rule["t4.stramazzo_last_trick"] == "loser_point_to_winner":
                lines[winner].append(Line("last_trick", 1, {"from": loser}))
            else:
                lines[loser].append(Line("last_trick", 0, {"void": event}))
        if declarations:
            self._declaration_lines(lines, declarations, rules, state, event, winner, claim)
        if event is not None:
            self._event_lines(lines, event, winner, rules)
        special = rule["t4.special_event_effect"] == "ends_game_with_multiplier"
        multiplier = MULTIPLIERS[rule["t4.multipliers"]][event] if event else 1
        ends = bool(claim) or (event is not None and (event == "collatondrione" or special))
        # the sides' points, and S5's total of the deal's cards and last trick: rounding
        # two thirds up can make it 12
        points: dict[str, int] = {}
        dealt = 0
        for s in SIDES:
            side_points = 0
            for ln in lines[s]:
                side_points += ln.points
                if ln.kind in DEAL_LINES:
                    dealt += ln.points
            points[s] = side_points
        claim_out = None
        if claim:
            side = claim["side"]
            reached = state.totals.get(side, 0) + points[side]
            good = reached >= rule["t4.target"]
            claim_out = {**claim, "total": reached, "target": rule["t4.target"], "holds": good}
        facts: dict[str, Any] = {
            "thirds": thirds,
            "tricks": tricks,
            "last_trick": last_trick,
            "event_side": winner,
        }
        if alone is not None:
            facts["counters_alone"] = alone
        if players:
            facts["players"] = {
                p: {"thirds": c.thirds, "tricks": c.tricks} for p, c in players.items()
            }
        level = "totals"
        if sides and all(c.cards is not None for c in sides.values()):
            level = "cards"
        return DealResult(
            game=self.key,
            level=level,
            points=points,
            breakdown={"A": tuple(lines["A"]), "B": tuple(lines["B"])},
            event=event,
            multiplier=multiplier if special or event == "collatondrione" else 1,
            ends_match=ends,
            claim=claim_out,
            facts=facts,
            warnings=over_eleven(dealt) if dealt > DEAL_POINTS else (),
        )

    def _declaration_lines(
        self,
        lines: dict[str, list[Line]],
        declarations: list[Declaration],
        rules: Rules,
        state: MatchState,
        event: str | None,
        winner: str | None,
        claim: dict[str, Any] | None,
    ) -> None:
        """Each declaration's line (void on the other side's cappotto under
        ``t4.decl_void_on_cappotto``; not yet scored at a claim before it counts)."""
        for decl, worth, detail in self._scored_declarations(declarations, rules, state):
            side = SIDE_OF[decl.player]
            void = (
                event in ("cappotto", "cappottone")
                and winner is not None
                and side != winner
                and rules["t4.decl_void_on_cappotto"] == "void"
            )
            if claim and not scored_by(decl, claim["after_trick"]):
                # G3: a claim counts the declarations scored so far (2.1.6); PEN scores
                # them once the first trick is complete.
                lines[side].append(Line("declaration", 0, {**detail, "not_yet_scored": True}))
                continue
            lines[side].append(
                Line(
                    "declaration",
                    0 if void else worth,
                    {**detail, "void": True} if void else detail,
                )
            )

    @staticmethod
    def _event_lines(
        lines: dict[str, list[Line]], event: str, winner: str | None, rules: Rules
    ) -> None:
        """The event's own lines: a cappotto's double points, the collatondrione's deck."""
        if (
            event in ("cappotto", "cappottone")
            and winner is not None
            and rules["t4.cappotto_points"] == "double"
        ):
            lines[winner].append(Line("event", DEAL_POINTS, {event: "double points"}))
        if event == "collatondrione" and winner and rules["t4.collatondrione_points"] != "none":
            # PE: "the 11 deck points are credited to the opposing pair": the deal's cards
            # and last trick, if it was played, are theirs, not split by what each took.
            for side in SIDES:
                lines[side] = [x for x in lines[side] if x.kind not in ("cards", "last_trick")]
            lines[OTHER[winner]].append(Line("event", 11, {"collatondrione": "deck points"}))

    def _scored_declarations(
        self, declarations: Sequence[Declaration], rules: Rules, state: MatchState
    ) -> list[tuple[Declaration, int, dict[str, Any]]]:
        """Each declaration (the decima aside) with its points and line detail: under the
        tournament code's handling an anomaly may lose them (:meth:`Declaration.anomaly`).
        Two outcomes need the deal around it: after an early declaration was contested
        its maker has "divieto di effettuare altre possibili accuse"; and a declaration put
        right by its maker during the first trick is not cured "se gli avversari, avendo
        accusato nel frattempo, hanno già vinto la partita"."""
        plain = [d for d in declarations if d.kind != "decima"]
        if not plain:
            return []
        verdicts = [d.anomaly() for d in plain]
        if not any(verdicts):  # every one made as it should be: each keeps its points
            return [(d, d.points, d.as_dict()) for d in plain]
        return self._scored_anomalies(plain, verdicts, rules, state)

    def _scored_anomalies(
        self,
        plain: Sequence[Declaration],
        verdicts: Sequence[dict[str, Any] | None],
        rules: Rules,
        state: MatchState,
    ) -> list[tuple[Declaration, int, dict[str, Any]]]:
        """:meth:`_scored_declarations` when one declaration at least had an anomaly
        (it gives the same answer when none had)."""
        barred = {
            d.player
            for d, v in zip(plain, verdicts, strict=True)
            if v and d.when == "early" and d.contested
        }
        out: list[tuple[Declaration, int, dict[str, Any]]] = []
        for decl, verdict in zip(plain, verdicts, strict=True):
            detail = decl.as_dict()
            if verdict is not None:
                detail.update(verdict)
            elif decl.player in barred:
                detail.update({"barred": "early_contested", "lost": True})
            out.append((decl, 0 if detail.get("lost") else decl.points, detail))
        declared = dict.fromkeys(SIDES, 0)
        for decl, points, _ in out:
            declared[SIDE_OF[decl.player]] += points
        for i, (decl, points, detail) in enumerate(out):
            if decl.fixed != "by_declarer" or not points:
                continue
            other = OTHER[SIDE_OF[decl.player]]
            if state.totals.get(other, 0) + declared[other] >= rules["t4.target"]:
                detail = {k: v for k, v in detail.items() if k != "cured"}
                detail.update(lost=True, opponents_had_won=True)
                out[i] = (decl, 0, detail)
        return out

    def _declared_points(
        self, declarations: Sequence[Declaration], rules: Rules, state: MatchState
    ) -> dict[str, int]:
        declared = dict.fromkeys(SIDES, 0)
        for decl, points, _ in self._scored_declarations(declarations, rules, state):
            declared[SIDE_OF[decl.player]] += points
        return declared

    def _event(
        self,
        rules: Rules,
        sides: dict[str, Capture],
        players: dict[str, Capture],
        last_trick: str | None,
        decima: Declaration | None,
        alone: str | None = None,
    ) -> tuple[str | None, str | None]:
        """E1-E6: the special event of the deal and the side it favours."""
        if decima is not None:
            return "collatondrione", SIDE_OF[decima.player]
        if len(sides) != 2:
            return None, None
        found: dict[str, str] = {}
        by_points = rules.values["t4.cappotto_def"] == "all_points"
        stramazzo = rules.values["t4.stramazzo_def"]
        for side in SIDES:
            loser = sides[OTHER[side]]
            if sides[side].tricks == TRICKS:
                found.setdefault("cappotto", side)
                if players and any(players[p].tricks == TRICKS for p in MEMBERS[side]):
                    found["cappottone"] = side
            if by_points and loser.counters_below_one_point() and last_trick == side:
                found.setdefault("cappotto", side)
            if loser.tricks >= 1 and sides[side].tricks < TRICKS and stramazzo != "off":
                strict = stramazzo == "strict_zero_counters"
                if loser.thirds == 0 if strict else loser.counters_below_one_point():
                    found["stramazzo"] = side
                    if players and any(players[p].thirds == 0 for p in MEMBERS[side]):
                        found["stramazzone"] = side
                    elif alone is not None and SIDE_OF[alone] == side:
                        found["stramazzone"] = side
        if not found:
            return None, None
        for event in PRECEDENCE:
            if event in found:
                return event, found[event]
        return None, None

    # -- the match ----------------------------------------------------------------------

    def finish(self, state: MatchState, result: DealResult, rules: Rules) -> Outcome | None:
        target = rules["t4.target"]
        failed = result.facts.get("failed_callouts")
        if failed:  # remembered for the whole game (t4.callout_limit = per_game)
            counts = dict(state.extra.get("failed_callouts", {}))
            for call in failed:
                counts[call["by"]] = counts.get(call["by"], 0) + 1
            state.extra["failed_callouts"] = counts
        if result.claim is not None:
            return self._claim_outcome(result.claim, state, rules, result)
        if result.ends_match and result.event:
            winner = result.facts["event_side"]
            return self._outcome(
                "event", winner, result.multiplier, state, rules, result, result.event
            )
        a, b = state.totals["A"], state.totals["B"]
        if rules["t4.deals"]:
            # A final score (``Game.record_final``) is the totals after the last deal.
            if state.deals_counted < rules["t4.deals"] and "final_score" not in result.facts:
                return None
            if a == b:  # a tie: one more deal, and one more, until a side leads
                state.extra["playoff"] = state.extra.get("playoff", 0) + 1
                return None
            return self._outcome("deals", "A" if a > b else "B", 1, state, rules, result)
        if a < target and b < target:
            return None
        first = result.facts.get("first_to_target")
        if rules["t4.reaching_target"] == "first_in_trick_order" and first in SIDES:
            return self._outcome("target", first, 1, state, rules, result)
        if a >= target and b >= target:
            overtime = state.extra.get("overtime", False)
            if a == b or (rules["t4.both_reach_target"] == "play_another_deal" and not overtime):
                state.extra["overtime"] = True
                return None
        winner = "A" if a > b else "B"
        return self._outcome("target", winner, 1, state, rules, result)

    def final_undecided(self, state: MatchState, rules: Rules) -> Localized | None:
        """Under ``first_in_trick_order`` the side that reached the target first in the
        order of the tricks wins, whatever its total: when both sides are at or past the
        target (level totals too) the final totals cannot say which."""
        if rules["t4.reaching_target"] != "first_in_trick_order" or rules["t4.deals"]:
            return None
        if min(state.totals.values()) < rules["t4.target"]:
            return None
        return Localized(
            "both sides are at or past the target, and under these house rules the side "
            "that reached it first, in the order of the tricks, wins",
            "entrambe le coppie sono alla meta o oltre, e con queste regole della casa "
            "vince la prima che ci è arrivata, nell'ordine delle prese",
        )

    def final_won_by(
        self, state: MatchState, rules: Rules, winner: str, winner_path: str
    ) -> Outcome:
        """Both sides past the target: the side named reached it first."""
        facts = {"final_score": True}
        nothing = DealResult(self.key, "totals", dict.fromkeys(SIDES, 0), {}, facts=facts)
        return self._outcome("target", winner, 1, state, rules, nothing)

    def _claim_outcome(
        self, claim: Mapping[str, Any], state: MatchState, rules: Rules, result: DealResult
    ) -> Outcome:
        """A claim ends the game: a right one for the side claimed out; a wrong one against
        the side that made it (the claimant itself, or the opponents that called it out:
        the code's modern norms, "perde comunque la partita"). A side called out that
        went on for cappotto wins the game either way: made, with the cappotto's
        multiplier; failed, with the ordinary stake, and "raddoppia la somma che si trova
        nel piatto" (the outcome's ``cappotto_declared``)."""
        side = claim["side"]
        caller = claim.get("by", side)
        good = claim["holds"]
        winner = side if good else OTHER[caller]
        reason = "claim" if good else "false_claim"
        cappotto, called = claim.get("cappotto"), claim.get("by")
        if cappotto is None:
            return self._outcome(reason, winner, 1, state, rules, result, called=called)
        if cappotto == "made":
            return self._outcome(
                reason, winner, result.multiplier, state, rules, result, "cappotto", called=called
            )
        if cappotto == "laid_down":
            # The modern norms: the callers lose anyway and pay the single or double stake
            # their points give, "salvo a dover corrispondere un'ulteriore posta se la
            # coppia chiamata fuori realizzasse il cappotto con una messa a terra eseguita
            # prima di aver raggiunto il punteggio previsto per la vittoria ordinaria".
            outcome = self._outcome(
                reason, winner, 1, state, rules, result, called=called, extra=LAID_DOWN_EXTRA
            )
            return replace(outcome, detail={**outcome.detail, "cappotto_laid_down": True})
        outcome = self._outcome(reason, winner, 1, state, rules, result, called=called)
        detail = {**outcome.detail, "cappotto_declared": "failed", "pot": "doubled"}
        return replace(outcome, detail=detail)

    def _outcome(
        self,
        reason: str,
        winner: str,
        multiplier: int,
        state: MatchState,
        rules: Rules,
        result: DealResult,
        event: str | None = None,
        called: str | None = None,
        extra: int = 0,
    ) -> Outcome:
        loser = OTHER[winner]
        stake = match_stake(
            rules["t4.stake"],
            event=event,
            event_multiplier=multiplier,
            # A cappotto made after a correct call-out was made after the game was won.
            after_win=bool(result.facts.get("cappotto_after_win"))
            or (reason == "claim" and event in CAPPOTTO),
            winner_total=state.totals[winner],
            loser_total=state.totals[loser],
            step=rules["t4.stake_step"],
            batuffa=rules["t4.batuffa"],
            after_win_rule=rules["t4.cappotto_after_win"],
        )
        multiplier = stake.stakes + extra
        units = dict.fromkeys(MEMBERS[winner], multiplier)
        units.update(dict.fromkeys(MEMBERS[loser], -multiplier))
        detail: dict[str, Any] = {"totals": dict(state.totals)}
        if event:
            detail["event"] = event
        if called is not None:
            detail["called_out_by"] = called
        if rules["t4.stake"] != "event_multipliers":
            detail["stake"] = rules["t4.stake"]
        if stake.ordinary:
            detail["cappotto_after_win"] = True
        if stake.takes_pot:
            detail["piatto"] = "won"
        # A final score (no last deal) cannot say whether the game was won by declarations
        # alone, so it records no carry-over rather than guess one.
        final = result.facts.get("final_score", False)
        if rules["t4.carry_over_excess"] != "off" and reason == "target" and not final:
            declared = sum(ln.points for ln in result.breakdown[winner] if ln.kind == "declaration")
            by_declarations = state.totals[winner] - declared < rules["t4.target"]
            if not by_declarations:
                detail["carry_over"] = state.totals[winner] - rules["t4.target"]
        return Outcome(
            reason=reason,
            winners=MEMBERS[winner],
            losers=MEMBERS[loser],
            multiplier=multiplier,
            units=units,
            detail={"winning_side": winner, **detail},
        )

    # -- random legal deals -------------------------------------------------------------

    def random_deal(
        self, rng: random.Random, rules: Rules, state: MatchState, level: str
    ) -> dict[str, Any]:
        seats = state.seats
        hands, taken, tricks, last, record = play_random_deal(
            rng, seats, state.dealer, rules, state
        )
        deal: dict[str, Any] = {"dealer": state.dealer}
        by_player = rng.random() < 0.3
        if level == "play":
            deal["hands"] = {p: codes(h) for p, h in hands.items()}
            deal["tricks"] = [codes(t) for t in record]
        elif by_player:
            deal["seats"] = {
                p: capture_entry(taken[p], tricks[p], level) for p in ("N", "E", "S", "W")
            }
        else:
            deal["sides"] = {
                s: capture_entry(
                    taken[MEMBERS[s][0]] + taken[MEMBERS[s][1]],
                    tricks[MEMBERS[s][0]] + tricks[MEMBERS[s][1]],
                    level,
                )
                for s in SIDES
            }
        if level != "play":
            deal["last_trick"] = SIDE_OF[last]
        if rules["t4.declarations"]:
            decls = possible_declarations(hands)
            if decls:
                deal["declarations"] = decls
        if self._may_fail_a_call(rules) and rng.random() < 0.3:
            # A wrong call-out before the first trick, while the side called is short.
            by = rng.choice(SIDES)
            short = state.totals[OTHER[by]] < rules["t4.target"]
            if short and self._failures(by, [], rules, state) < CALLOUTS_ALLOWED_TO_FAIL:
                deal["failed_callouts"] = [{"by": by, "after_trick": 0}]
        if level != "play" and rules["t4.reaching_target"] == "first_in_trick_order":
            first = self._first_of_both(deal, hands, record, rules, state)
            if first is not None:
                deal["first_to_target"] = first
        return deal

    def _first_of_both(
        self,
        deal: Mapping[str, Any],
        hands: Mapping[str, Sequence[Card]],
        record: Sequence[Sequence[Card]],
        rules: Rules,
        state: MatchState,
    ) -> str | None:
        """When both sides reach the target in a deal played at random, the side that
        reached it first in the order of its tricks (a totals or cards entry names it
        under ``first_in_trick_order``): what the deal's play record shows."""
        played: dict[str, Any] = {
            "dealer": deal["dealer"],
            "hands": {p: codes(h) for p, h in hands.items()},
            "tricks": [codes(t) for t in record],
        }
        played.update({k: deal[k] for k in ("declarations", "failed_callouts") if k in deal})
        result = self.score_deal(played, rules, state)
        target = rules["t4.target"]
        if min(state.totals[s] + result.points[s] for s in SIDES) < target:
            return None
        first = result.facts.get("first_to_target")
        return str(first) if first in SIDES else None

    @staticmethod
    def _may_fail_a_call(rules: Rules) -> bool:
        return bool(
            rules["t4.claim_by"] == "opponents"
            and rules["t4.false_claim"] == "play_on"
            and rules["t4.claim_mode"] != "off"
        )


def scored_by(decl: Declaration, after_trick: int) -> bool:
    """Whether a declaration is scored once ``after_trick`` tricks are complete: after the
    first trick (PEN: stated and scored once it is complete, whoever won it), or after
    the trick it was made in when a later window allows that (VC, TORG, DNX)."""
    return after_trick >= max(1, decl.trick or 0)


def _after_trick(trick: int) -> Localized:
    if trick == 0:
        return Localized("before the first trick", "prima della prima presa")
    return Localized(f"after trick {trick}", f"dopo la presa {trick}")


def _card_names(cards: Sequence[Card]) -> Localized:
    return Localized(", ".join(c.name("en") for c in cards), ", ".join(c.name("it") for c in cards))


def _penalise_declarations(result: DealResult, wrong: list[dict[str, Any]]) -> DealResult:
    """PE: an over-declared combination counts nothing and its side loses its card points;
    an under-declared one (three of a rank while holding four) scores only what was said."""
    breakdown = {s: list(lines) for s, lines in result.breakdown.items()}
    for bad in wrong:
        side = SIDE_OF[bad["player"]]
        kept: list[Line] = []
        for line in breakdown[side]:
            same = line.detail.get("player") == bad["player"] and (
                line.detail.get("type"),
                line.detail.get("suit"),
                line.detail.get("rank"),
            ) == (bad["type"], bad.get("suit"), bad.get("rank"))
            if "under_declared" in bad:  # the three scores as declared: the 4th point is lost
                if line.kind == "declaration" and same:
                    line = Line("declaration", line.points, {**line.detail, **bad})
                kept.append(line)
            elif line.kind == "declaration" and same:
                kept.append(Line("declaration", 0, {**line.detail, "not_held": bad["lacking"]}))
            elif line.kind == "cards" and line.points:
                kept.append(Line("cards", 0, {**line.detail, "forfeited": line.points}))
            else:
                kept.append(line)
        breakdown[side] = kept
    points = {s: sum(line.points for line in lines) for s, lines in breakdown.items()}
    return replace(result, points=points, breakdown={s: tuple(v) for s, v in breakdown.items()})


def _check_entered(
    entered: Mapping[str, int],
    result: DealResult,
    sides: Mapping[str, Capture],
    last_trick: str | None,
    rules: Rules,
    problems: Problems,
) -> None:
    """S3: points entered beside the thirds are the cards' and last trick's."""
    dealt = {
        s: sum(ln.points for ln in result.breakdown[s] if ln.kind in DEAL_LINES) for s in SIDES
    }
    thirds = {s: sides[s].thirds for s in SIDES}
    check_points(entered, dealt, thirds, last_trick, rules["core.rounding"], "sides", problems)
    problems.raise_if_any()


def _merge(side: str, caps: Sequence[Capture]) -> Capture:
    return merge_captures(side, f"sides.{side}", caps)


def play_random_deal(
    rng: random.Random,
    seats: Sequence[str],
    dealer: str,
    rules: Rules,
    state: MatchState | None = None,
) -> tuple[dict[str, list[Card]], dict[str, list[Card]], dict[str, int], str, list[list[Card]]]:
    """Deal the shuffled deck and play it out legally at random (follow suit if able).

    Returns the hands, each player's pile, tricks won, the last winner and the tricks.
    """
    deck = list(DECK40)
    rng.shuffle(deck)
    n = len(seats)
    hands = {p: deck[i * 10 : (i + 1) * 10] for i, p in enumerate(seats)}
    remaining = {p: list(h) for p, h in hands.items()}
    taken: dict[str, list[Card]] = {p: [] for p in seats}
    tricks = dict.fromkeys(seats, 0)
    leader = seats[(seats.index(dealer) + 1) % n]
    if state is not None:
        leader = first_leader(rules, state, hands, leader)
    record: list[list[Card]] = []
    leader = play_round(rng, remaining, seats, leader, taken, tricks, rank_order(rules), record)
    return hands, taken, tricks, leader, record


def possible_declarations(hands: Mapping[str, Sequence[Card]]) -> list[dict[str, Any]]:
    """The accusi each hand really holds (napoletane, three or four 3s, 2s, aces)."""
    out: list[dict[str, Any]] = []
    for player, hand in hands.items():
        held = set(hand)
        for suit in ("d", "c", "s", "b"):
            if all(Card(r, suit) in held for r in ("3", "2", "A")):
                out.append({"player": player, "type": "napoletana", "suit": suit})
        for rank in ("3", "2", "A"):
            suits = [s for s in ("d", "c", "s", "b") if Card(rank, s) in held]
            if len(suits) == 4:
                out.append({"player": player, "type": "four", "rank": rank})
            elif len(suits) == 3:
                missing = next(s for s in ("d", "c", "s", "b") if s not in suits)
                out.append({"player": player, "type": "three", "rank": rank, "missing": missing})
    return out


GAMES = (Tressette4(),)
