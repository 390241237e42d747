"""What is stored of a challenge's round and its match: new ids, a game's result, the sides
compared (outcome.py) and the match's score after a round. Pure: the lifecycle
(lifecycle.py) and the live matches of race rooms (matches.py) both record rounds so."""

from __future__ import annotations

import secrets
from typing import Any

from server.challenges.outcome import Score, Side
from server.games.live import LiveGame
from server.storage.models import Match
from shared import protocol as p


def new_id() -> str:
    """Ten URL-safe characters (60 random bits): a link nobody guesses."""
    return secrets.token_urlsafe(8)[:10]


def result_of(live: LiveGame, held: bool) -> dict[str, Any]:
    """How a game of a challenge ended, as stored (ChallengeSide's fields, and review)."""
    ended = live.ended_ms if live.ended_ms is not None else live.started_ms
    return {
        "game": live.id,
        "state": live.state,
        "elapsed_ms": live.elapsed_ms(ended),
        "moves": live.game.ply,
        "home": live.game.foundation_cards,
        "hints": live.hints,
        "undos": live.undos,
        "held": held,
    }


def new_match(match_id: str, best_of: int, first: int, second: int | None, now: int) -> Match:
    return Match(
        id=match_id,
        best_of=best_of,
        first_id=first,
        second_id=second,
        first_wins=0,
        second_wins=0,
        draws=0,
        rounds=0,
        state=p.MATCH_PLAYING,
        created_ms=now,
        updated_ms=now,
    )


def side(result: dict[str, Any], bot: bool) -> Side:
    return Side(
        state=str(result["state"]),
        elapsed_ms=int(result["elapsed_ms"]),
        home=int(result["home"]),
        hints=int(result["hints"]),
        bot=bot,
        held=bool(result.get("held")),
    )


def score(match: Match, challenger: int, won_by: str, ranked: bool, now: int) -> None:
    """The match's score after a round (a match of one round is over after it)."""
    first_won = (
        None if won_by == p.DRAW else (won_by == p.CHALLENGER) == (challenger == match.first_id)
    )
    score = Score(match.first_wins, match.second_wins, match.draws, match.rounds).after(
        first_won=first_won, ranked=ranked
    )
    match.first_wins, match.second_wins = score.first_wins, score.second_wins
    match.draws, match.rounds, match.updated_ms = score.draws, score.rounds, now
    decided = score.decided(match.best_of)
    if decided is not None or match.best_of == 1:
        match.state = p.MATCH_OVER
        match.winner_id = {1: match.first_id, 2: match.second_id}.get(decided or 0)
