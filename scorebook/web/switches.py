"""House-rule switches in words, in the user's language.

The engine names each switch and value by a stable code (``t4.target``, ``clockwise``) and
explains some in English; these are the words a player reads on the match form. Every
switch and value of the catalogue has an entry (a test checks it); codes that name a rule
book (DOS, PEN, PKW...) and plain numbers are shown as they are.

The table's words follow: the contracts of an auction, the sides' role codes and the kinds
of declaration the engine's description of a table names (``Game.table_shape``); a test
checks that every game's have theirs. A new game's words are all in this module."""

from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from scorebook.rules.cards import parse_card

SWITCHES = {
    "core.rounding": _("How captured thirds become points"),
    "core.direction": _("Direction of play"),
    "core.french_court_order": _("French cards: queen or jack higher"),
    "core.first_lead": _("Who leads to the first trick"),
    "core.revoke": _("A revoke shown by a play record"),
    "core.revoke_penalty": _("Points to each opponent of a revoking player"),
    "t4.target": _("Points to win the game"),
    "t4.declarations": _("Declarations (accusi) are played"),
    "t4.decl_window": _("Until when a declaration may be made"),
    "t4.decl_shared_card": _("One card may serve two declarations"),
    "t4.annul_rule": _("When a poor hand may cancel the deal"),
    "t4.multipliers": _("Multipliers for special events"),
    "t4.cappotto_def": _("What counts as cappotto"),
    "t4.stramazzo_def": _("What counts as stramazzo"),
    "t4.claim_mode": _("Claiming the game mid-deal (chiamarsi fuori)"),
    "t4.false_claim": _("A false claim"),
    "t4.both_reach_target": _("Both sides reach the target in the same deal"),
    "t4i.target": _("Points to win the match"),
    "t2.target": _("Points to win the match"),
    "t3.target": _("Points to win the match"),
    "t2.mode": _("How the cards are dealt"),
    "t3.mode": _("How the cards are dealt"),
    "cdt.target": _("Points to win the match"),
    "rov.target": _("Points that lose the match"),
    "terz.target": _("Points to win the race"),
    "terz.amounts": _("Chips for each contract"),
    "terz.settlement": _("How the match is settled"),
    "terz.deals": _("Deals in the match (0: open)"),
    "spin.deals": _("Deals in the match (0: open)"),
    "cav.deals": _("Deals in the session (0: open)"),
    "trap.target": _("Points to win (0: each deal is a game)"),
    "cav.double_70_condition": _("When a contract scores double (70)"),
    "cav.lead": _("Who leads to the first trick"),
    "cav.deal_packets": _("Cards dealt at a time"),
    "cav.min_discard": _("Fewest cards the bidder must discard"),
    "cav.callable": _("Which card the bidder may call"),
    "cav.revoke_floor": _("A revoke penalty may take a score below zero"),
    "cav.revoke_both": _("Both sides revoke"),
    "cdt.call": _("What the caller calls"),
    "cdt.caller_holds_called": _("The caller calls a card he holds"),
    "cdt.all_threes_held": _("The caller holds all four threes"),
    "cdt.scoring": _("How each player's total grows"),
    "cdt.deals": _("Deals in the match with WB's scoring (0: open)"),
    "cdt.annul_rule": _("When a poor hand may cancel the deal"),
    "cdt.both_reach_target": _("Several players reach the target in the same deal"),
    "rov.last_trick": _("What the last trick is worth"),
    "rov.cappotto": _("One player takes all the points"),
    "rov.end": _("How the match ends"),
    "rov.deals": _("Deals in the match (fixed number of deals)"),
    "rov.deal_table": _("Cards dealt per player count (rule book)"),
    "core.penalty_points": _("Points of one penalty"),
    "core.penalty_to": _("Whom a penalty hits"),
    "core.penalty_floor": _("A penalty may take a total below zero"),
    "core.out_of_turn": _("A lead out of turn shown by a play record"),
    "spin.deck": _("Cards in the deck"),
    "spin.antes": _("What each player puts in the pots"),
    "spin.intrigue": _("The intrigue pair"),
    "spin.spin_payment": _("Chips for playing the spinado"),
    "spin.king_payments": _("Payments for kings"),
    "spin.first_out_extra": _("Extra for going out first"),
    "spin.unplayed_spin_penalty": _("The spinado left in hand"),
    "spin.winner_skips_next_ante": _("The winner skips the next ante"),
    "terz.cappotto": _("Who can make a cappotto"),
    "terz.cappotto_def": _("What counts as cappotto"),
    "terz.stramazzo": _("Who can make a stramazzo"),
    "terz.stramazzo_def": _("What counts as stramazzo"),
    "terz.lead": _("Who leads to the first trick"),
    "terz.pass_out": _("Everybody passes"),
    "terz.auction": _("How many turns each player has in the auction"),
    "terz.monte_shown_in_solo": _("The monte is shown in a solo"),
    "terz.solissimo_monte_peek": _("In a solissimo the bidder may look at the monte"),
    "terz.called_card": _("Which card may be called"),
    "terz.tie": _("Several players reach the target together"),
    "terz.four_players_dealer": _("With four players, the dealer"),
    "trap.form": _("Form of the game"),
    "trap.final_twos": _("The twos in the last tricks"),
    "t2.show_drawn_card": _("Both show the card they draw"),
    "t2.two_rounds_last_trick": _("Last-trick point with two rounds"),
    "t2.declarations": _("Declarations from the first ten cards"),
    "t4i.declarations": _("Declarations (accusi), each for its own player"),
    "t2.both_reach_target": _("Both players reach the target in the same deal"),
    "t3.removed_four": _("The 4 taken out of the deck"),
    "t3.morto_partner": _("Who partners the dummy (morto)"),
    "t3.both_reach_target": _("Several players reach the target in the same deal"),
    "t4.decl_coda": _("Declaring the coda (the cards that follow)"),
    "t4.decl_error_penalty": _("A wrong declaration"),
    "t4.decl_void_on_cappotto": _("Declarations of a side that suffers cappotto"),
    "t4.stramazzo_last_trick": _("The last-trick point in a stramazzo"),
    "t4.special_event_effect": _("What a cappotto or stramazzo does"),
    "t4.cappotto_points": _("Points of a cappotto"),
    "t4.collatondrione_points": _("Points of a collatondrione"),
    "t4.deals": _("Deals in the match (0: play to the target)"),
    "t4.implied_declarations": _("Combinations implied by three declared ones"),
    "t4.reaching_target": _("Both sides reach the target in one deal"),
    "t4.carry_over_excess": _("Points over the target carry to the next game"),
    "t4.decl_anomalies": _("An incomplete, wrong, early or late declaration"),
    "t4.claim_by": _("Who may call a side out (chiamata fuori)"),
    "t4.callout_limit": _("Two wrong call-outs are counted"),
    "t4.stake": _("What a match pays (the stake)"),
    "t4.stake_step": _("Points of difference per stake (variable stake)"),
    "t4.batuffa": _("Losers below this many points pay one stake more (marcio e batuffa)"),
    "t4.cappotto_after_win": _("A cappotto made after the game was already won"),
    "t4i.both_reach_target": _("Several players reach the target in the same deal"),
}

VALUES = {
    "anticlockwise": _("anticlockwise"),
    "clockwise": _("clockwise"),
    "eldest": _("the player after the dealer"),
    "floor_per_scorer": _("whole points only, each side rounds down"),
    "remainder_to_last_trick": _("the odd thirds go to the last trick"),
    "round_two_thirds_up": _("two thirds round up to a point"),
    "True": _("yes"),
    "False": _("no"),
    "never": _("never"),
    "none": _("none"),
    "refuse": _("refuse the deal"),
    "penalty": _("a penalty"),
    "11_deck_points_to_opponents": _("the 11 points go to the opponents"),
    "26_52_78_104_replacing_bonuses": _("26, 52, 78 or 104 instead of the bonuses"),
    "39_cards_13_each": _("39 cards, 13 each"),
    "39_cards_rounds_7_then_6": _("39 cards, 7 then 6 each"),
    "J_above_Q": _("jack above queen"),
    "Q_above_J": _("queen above jack"),
    "KJ_diamonds": _("king and jack of diamonds"),
    "QJ_diamonds": _("queen and jack of diamonds"),
    "after_first_card": _("until the first card is played"),
    "all_35_points": _("all 35 points"),
    "all_points": _("all the points"),
    "all_reaching_win": _("all who reach it win"),
    "all_tricks": _("all the tricks"),
    "allow_negative": _("yes, below zero"),
    "allowed_across_types": _("yes, for different kinds"),
    "alone_against_three": _("he plays alone against three"),
    "announced": _("the one the deal names"),
    "any_3_or_2_or_non_ace": _("a 3, a 2 or any card but an ace"),
    "any_announced": _("any one, named in the deal"),
    "any_card": _("any card"),
    "any_card_lacking": _("any card he lacks"),
    "any_time": _("at any time"),
    "before_lead_scored_after_trick1": _("before the first lead, scored after trick 1"),
    "below_zero": _("yes, below zero"),
    "bidder_LHO": _("the bidder's left-hand opponent"),
    "bidder_RHO": _("the bidder's right-hand opponent"),
    "both_directions": _("either side"),
    "call_a_two": _("he calls a 2 he lacks"),
    "cancel_out": _("the penalties cancel out"),
    "cardano_2p": _("Cardano's, for two"),
    "chips_zero_sum": _("chips every deal"),
    "claimant_loses_game": _("the claimant loses the game"),
    "col_morto": _("with the dummy (col morto)"),
    "deal_points": _("the deal's points (11)"),
    "dealer": _("the dealer"),
    "double": _("double (22)"),
    "during_trick1_own_turn": _("during trick 1, on one's own turn"),
    "each_round": _("one per round"),
    "eldest_always": _("always the player after the dealer"),
    "eldest_except_solissimo_soloist": _(
        "the player after the dealer (the soloist in a solissimo)"
    ),
    "elimination_until_three_remain": _("players drop out until three remain"),
    "ends_game_with_multiplier": _("ends the game, stake multiplied"),
    "first_to_target_loses": _("the first to the target loses"),
    "fixed_number_of_deals": _("a fixed number of deals"),
    "floor_at_zero": _("no, it stops at zero"),
    "higher_total_wins": _("the higher total wins"),
    "holder_of_4d": _("whoever holds the 4 of coins"),
    "holder_of_4d_first_deal_only": _("the 4 of coins, in the first deal only"),
    "kept": _("they count"),
    "void": _("they do not count"),
    "less_than_one_point": _("less than one point"),
    "lt_one_point": _("less than one point"),
    "loser_point_to_winner": _("goes to the winners"),
    "loser_point_void": _("is lost"),
    "losers_lt_one_point_ignoring_last_trick": _("the losers under one point (last trick aside)"),
    "lowest_when_target_reached_wins": _("when someone reaches the target, the lowest wins"),
    "next_dealer": _("the next player deals"),
    "one_round": _("one turn each, the highest bid stands"),
    "until_all_others_pass": _("round and round until the others have passed"),
    "no_carico_and_lt3_figures": _("no 3, 2 or ace and fewer than three figures"),
    "normally_a_3": _("normally a 3"),
    "off": _("off"),
    "offenders_lose": _("the side at fault loses the points"),
    "opponents_gain": _("the others gain the points"),
    "on_except_won_by_declarations_alone": _("yes, unless won by declarations alone"),
    "on_first_trick_won": _("on taking a first trick"),
    "on_own_and_partner_cards": _("on one's own and the partner's cards"),
    "on_own_cards": _("on one's own cards"),
    "once_per_deal": _("one per deal"),
    "one_per_card_left": _("one per card the others hold"),
    "only_when_on_lead": _("only when on lead"),
    "play_another_deal": _("another deal is played"),
    "plus_one_and_all_leftovers": _("one point and all the leftovers"),
    "plus_one_floor_rest": _("one point, the rest rounded down"),
    "race_points": _("points in a race to the target"),
    "redeal_same_dealer_min_solo": _("the same dealer deals again, at least a solo"),
    "reject": _("refuse the deal"),
    "rejected": _("refused"),
    "score_points_only": _("only its points count"),
    "side_points_to_each_member": _("each member adds the side's points"),
    "wb_plus_minus": _(
        "plus or minus every deal (WB): each winner takes 1 from each opponent, doubled for "
        "a cappotto or a caller alone"
    ),
    "sits_out_no_share": _("sits out and shares nothing"),
    "sits_out_shares_with_coalition": _("sits out and shares with the coalition"),
    "soloist_always": _("always the soloist"),
    "soloist_only": _("only the soloist"),
    "stands_if_uncontested": _("stands unless contested"),
    "stock": _("with a stock"),
    "strict_zero_counters": _("no card that counts"),
    "suit_whose_3_caller_lacks": _("the suit of a 3 he lacks"),
    "taker_zero_others_plus_11": _("he scores 0, the others 11"),
    "team_zero_other_team_plus_11": _("that team 0, the other 11"),
    "three_or_two_if_all_threes": _("a 3 (a 2 when holding all the 3s)"),
    "two_per_card_to_winner": _("two per card to the winner"),
    "two_rounds_no_stock": _("two rounds, no stock"),
    "up_to_trick2": _("up to trick 2"),
    "up_to_trick3": _("up to trick 3"),
    "within_trick1": _("within trick 1"),
    "winner_takes_all_11": _("the winner takes all 11"),
    "zero": _("no, it stops at zero"),
    "not_counted": _("do not count"),
    "counted": _("count as declared"),
    "compare_totals": _("the higher total wins"),
    "first_in_trick_order": _("the first to reach it, trick by trick, wins"),
    "zero_counters": _("no card that counts"),
    "refused": _("refused: enter it as made right"),
    "code": _("scored as the tournament code says"),
    "claiming_side": _("only the side itself claims"),
    "opponents": _("the opponents may call it out"),
    "play_on": _("a wrong call-out by the opponents: play goes on"),
    "per_deal": _("in the same deal"),
    "per_game": _("over the whole game"),
    "event_multipliers": _("one stake, times the special event's multiplier"),
    "single_stake": _("always one stake, cappotto or not (posta unica)"),
    "single_or_double": _("one stake, two for a cappotto (semplice o doppia)"),
    "point_difference": _("varies with the point difference (posta variabile)"),
    "marcio_e_batuffa": _("marcio e batuffa: double under the line, a pot for cappotto"),
    "cappotto_stake": _("pays as a cappotto"),
    "ordinary_stake": _("pays the ordinary stake (still wins the pot)"),
    "4b": _("4 of batons"),
    "4s": _("4 of swords"),
}


def switch_label(switch: dict[str, Any]) -> str:
    """The switch's name in words (the engine's help when we have no words of our own)."""
    key = switch["key"]
    if key in SWITCHES:
        return str(SWITCHES[key])
    return switch.get("help") or key.split(".", 1)[-1].replace("_", " ").capitalize()


def value_label(key: str, value: Any) -> str:
    text = str(value)
    if text in VALUES:
        return str(VALUES[text])
    return text.replace("_", " ")


#: A value whose meaning depends on its switch (a rule book's code names a different rule
#: in each switch it sets), by switch and value.
SWITCH_VALUES = {
    ("t4.decl_error_penalty", "PE"): _(
        "as the Piccola Enciclopedia says (PE): the declaration counts nothing and its side "
        "loses its card points"
    ),
}
#: How one line of a value's table reads (``Switch.tables``), by switch.
TABLE_LINES = {
    "t4.multipliers": _("%(item)s ×%(number)s"),
    "terz.amounts": _("%(item)s %(number)s"),
}


#: Spinado's pots, as "12 to the matrimony" says them.
POTS = {
    "matrimony": _("to the matrimony"),
    "intrigue": _("to the intrigue"),
    "game": _("to the game"),
}
KINGS = {
    "Kd": _("king of diamonds"),
    "Kc": _("king of hearts"),
    "Ks": _("king of spades"),
    "Kb": _("king of clubs"),
}


def _deal_table(table: dict[str, Any]) -> str:
    """Rovescino's deal table by number of players: 'in 3: 13 each, a 4 out; in 6: 6 each,
    4 to the monte; ...'."""
    parts = []
    for players, layout in table.items():
        said = [str(_("%(players)s players: %(each)s cards each") % {"players": players, **layout})]
        if layout.get("monte"):
            said.append(str(_("%(monte)s to the monte") % layout))
        out = list(layout.get("out") or ())
        if len(out) == 4 and len({c[:-1] for c in out}) == 1:
            said.append(str(_("the four %(rank)ss out") % {"rank": out[0][:-1]}))
        elif out:
            names = ", ".join(_card(c) for c in out)
            said.append(str(_("%(cards)s out") % {"cards": names}))
        for rank, count in (("4", layout.get("fours_out")), ("5", layout.get("fives_out"))):
            if count:
                said.append(
                    ngettext(
                        "a %(rank)s out (the deal names it)",
                        "%(count)d %(rank)ss out (the deal names them)",
                        count,
                    )
                    % {"rank": rank, "count": count}
                )
        parts.append(", ".join(said))
    return "; ".join(parts)


def _antes(table: dict[str, Any]) -> str:
    """Spinado's antes: 'the dealer 12 to the matrimony, ...; the others 3 to the game'."""
    who = {"dealer": _("the dealer"), "others": _("each of the others")}
    if len({str(pots) for pots in table.values()}) == 1:  # the dealer as the others
        who = {side: _("everyone") for side in table}
        table = dict(list(table.items())[:1])
    return "; ".join(
        f"{who.get(side, side)} "
        + ", ".join(f"{n} {POTS.get(pot, pot)}" for pot, n in pots.items())
        for side, pots in table.items()
    )


def _kings(table: dict[str, Any]) -> str:
    """Spinado's payments for kings: 'king of diamonds 2, the other kings 1'."""
    amounts = list(table.values())
    if len(set(amounts)) == 1:
        return str(_("each king %(chips)s") % {"chips": amounts[0]})
    first, *rest = table.items()
    said = [f"{KINGS.get(first[0], first[0])} {first[1]}"]
    if len({n for _k, n in rest}) == 1:
        said.append(str(_("the other kings %(chips)s") % {"chips": rest[0][1]}))
    else:
        said += [f"{KINGS.get(k, k)} {n}" for k, n in rest]
    return ", ".join(said)


#: How a whole table of a value reads where one line per item is not enough, by switch.
TABLE_WORDS = {
    "rov.deal_table": _deal_table,
    "spin.antes": _antes,
    "spin.king_payments": _kings,
}


def _card(code: str) -> str:
    card = parse_card(code)
    if card is None:
        return code
    return card.name("it" if (get_language() or "en").startswith("it") else "en")


def choice_label(switch: dict[str, Any], value: Any) -> str:
    """A value of ``switch`` in words: its own words, or a rule book's code with what it
    sets ('PEN: cappotto ×2, cappottone ×6, ...', from the engine's table), or the code."""
    key = switch["key"]
    if (key, str(value)) in SWITCH_VALUES:
        return str(SWITCH_VALUES[(key, str(value))])
    table = (switch.get("tables") or {}).get(str(value))
    if table and key in TABLE_WORDS:
        return f"{value}: {TABLE_WORDS[key](table)}"
    if table and key in TABLE_LINES:
        line = str(TABLE_LINES[key])
        items = ", ".join(
            line % {"item": value_label(key, item), "number": number}
            for item, number in table.items()
        )
        return f"{value}: {items}"
    return value_label(key, value)


#: Each game's house-rule profiles by what they play (the form offered the bare codes:
#: "accuso_41", "pe", "gg_torneo"). Keyed by game and profile, as two games share a code.
PROFILES = {
    ("tressette4", "classic_21"): _("to 21, no declarations"),
    ("tressette4", "accusi_31"): _("to 31 with declarations"),
    ("tressette4", "accuso_41"): _("41 with declarations (41 con l'accuso)"),
    ("tressette4", "torneo_31"): _("tournament: to 31, no declarations, no calling out"),
    ("tressette4", "pe"): _("Piccola Enciclopedia: stramazzo, cappotto, collatondrione"),
    ("tressette2", "classic_21"): _("to 21 with the stock, drawn card shown"),
    ("tressette2", "ti_two_rounds"): _("two rounds, no stock, one last trick"),
    ("tressette2", "two_rounds_point_each_round"): _(
        "two rounds, no stock, a last trick each round"
    ),
    ("tressette3", "vc_13_each"): _("13 cards each, the 4 of batons out"),
    ("tressette3", "ti_two_rounds"): _("two rounds (7 then 6 cards), a 4 out as announced"),
    ("tressette3", "col_morto"): _("col morto: the dealer plays with the dummy"),
    ("tressette4i", "floor"): _("thirds rounded down for each player"),
    ("tressette4i", "ti_leftover"): _("leftover thirds to the last trick"),
    ("chiamata", "pen"): _("to 21, the caller calls the suit of a 3 he lacks"),
    ("chiamata", "gg_torneo"): _("Genoa tournament: call a 3, a 2 or any card but an ace"),
    ("rovescino", "pen_21"): _("to 21 (Parlett)"),
    ("rovescino", "traversone_31"): _("Traversone to 31, leftovers to the last trick"),
    ("rovescino", "oas_41"): _("to 41, a cappotto gives 11 to the others"),
    ("rovescino", "37no"): _("37no: the lowest wins when someone reaches the target"),
    ("traversone_pairs", "bis_11"): _("to 11"),
    ("traversone_pairs", "bis_21"): _("to 21"),
    ("traversone_pairs", "bis_31"): _("to 31"),
    ("spinado", "DNX"): _("Denexa"),
    ("spinado", "PKW"): _("pokerwiner: the dealer's pool of 12, 6 and 6"),
    ("spinado", "CAS"): _("Cassell's: Intrigue is king and jack of diamonds"),
    ("spinado", "PCG"): _("Spin: 2 of hearts and 8 of diamonds out"),
    ("terziglio", "race_21"): _("a race to 21 points"),
    ("terziglio", "chips_1_2_4_8_16"): _("chips every deal: 1, 2, 4, 8, 16"),
    ("terziglio", "dma_1_2_3_6_12"): _("stakes 1, 2, 3, 6, 12"),
    ("terziglio", "pen_redeal"): _("Parlett: when all pass the same dealer deals again"),
    ("calabrasella", "cavendish"): _("Cavendish (Foster)"),
    ("calabrasella", "pagat_summary"): _("pagat.com's summary"),
    ("trappola", "cardano_single_deal"): _("a single deal"),
    ("trappola", "cardano_to_101"): _("to 101"),
}


def profile_label(game: str, profile: str) -> str:
    """A house-rule profile in words; a profile with no words yet shows its code."""
    label = PROFILES.get((game, profile))
    return str(label) if label is not None else profile.replace("_", " ")


# -- the table's words (Game.table_shape's codes) ------------------------------------

#: An auction's contracts.
BID_LABELS = {
    "pass": _("all passed"),
    "chiamo": _("chiamo (calls a card)"),
    "solo": _("solo"),
    "solissimo": _("solissimo"),
    "solissimo_dividete": _("solissimo aggravato, dividete"),
    "solissimo_scegliete": _("solissimo aggravato, scegliete"),
}

#: The kinds of declaration.
DECLARATION_TYPES = {
    "napoletana": _("napoletana (3, 2, A of a suit)"),
    "three": _("three of a kind"),
    "four": _("four of a kind"),
    "decima": _("decima"),
}

#: The sides' role codes of the engine's description, in words.
SIDE_LABELS = {
    "soloist": _("the soloist"),
    "coalition": _("the other two"),
    "bidder": _("the bidder"),
    "opponents": _("the opponents"),
    "callers": _("caller and partner"),
    "others": _("the other two"),
    "A": _("side A"),
    "B": _("side B"),
}
