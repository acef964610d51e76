"""House-rule switches in words, in the user's language.

The engine names each switch and value by a stable code (``t4.target``, ``clockwise``) and
explains some in English; these are the words a player reads on the match form. A switch
or value without an entry here is shown by its code made readable."""

from typing import Any

from django.utils.translation import gettext_lazy as _

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
