"""Scorebook's rules engine: pure Python, no Django.

Validates an entered deal of any Tressette-family game against the house rules, explains
every rejection in Italian and English, scores it, and folds deals into a match.
"""

from .engine import (
    MatchReport,
    describe_games,
    games,
    get_game,
    packs,
    play_match,
    resume_match,
    score_deal,
    start_match,
)
from .errors import Problem, Rejection
from .houserules import Rules
from .result import DealResult, Line, MatchState, Outcome
from .table import Pack

__all__ = [
    "DealResult",
    "Line",
    "MatchReport",
    "MatchState",
    "Outcome",
    "Pack",
    "Problem",
    "Rejection",
    "Rules",
    "describe_games",
    "games",
    "get_game",
    "packs",
    "play_match",
    "resume_match",
    "score_deal",
    "start_match",
]
