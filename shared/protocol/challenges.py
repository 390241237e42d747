"""Challenges: race a friend who is not online, on the deal of a game already played.

A challenge is made from a finished solo or daily-practice game on a keyed
deal; whoever opens its link (the friend) plays the same deal, with a
"ghost" of the challenger at the same elapsed time (cards home and moves:
nothing about a face-down card), and both see the result side by side once
the friend's game has ended. Every challenge is a round of a match (best of
1, 3 or 5) between the two players, which keeps the running score; a
rematch is the next round, on a new deal the server draws.

What a view carries is the fair-play rule of docs/fair-play.md: the deal's
commitment (fixed before play), never its key (each player's own game view
shows it by the usual rule), and the challenger's result only to the
challenger until the friend's game has ended. The messages that carry them:
challenge_requests.py and challenge_replies.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    MAX_PLY,
    MAX_TEXT,
    Part,
    hex_digest,
    nested,
    opt_int,
    opt_nested,
    opt_str,
    option_map,
    present,
    req_bool,
    req_choice,
    req_count,
    req_int,
    req_str,
)
from shared.protocol.games import GAME_KINDS, SOLO
from shared.protocol.views import GAME_STATES

#: the state of a challenge: ``setting`` (a rematch: its challenger is playing the new deal),
#: ``open`` (waiting for the friend), ``playing`` (the friend is playing it), ``done``
CHALLENGE_SETTING, CHALLENGE_OPEN, CHALLENGE_PLAYING, CHALLENGE_DONE = (
    "setting",
    "open",
    "playing",
    "done",
)
CHALLENGE_STATES = (CHALLENGE_SETTING, CHALLENGE_OPEN, CHALLENGE_PLAYING, CHALLENGE_DONE)
#: who won a challenge that is done
CHALLENGER, OPPONENT, DRAW = "challenger", "opponent", "draw"
RESULTS = (CHALLENGER, OPPONENT, DRAW)
#: why a result that is done is not ranked (counts in no match score)
UNRANKED_BOT, UNRANKED_KEY, UNRANKED_HINTS, UNRANKED_REVIEW = "bot", "key_chosen", "hints", "review"
UNRANKED_REASONS = (UNRANKED_BOT, UNRANKED_KEY, UNRANKED_HINTS, UNRANKED_REVIEW)
#: a match is won by the first to win more than half of this many rounds
BEST_OF = (1, 3, 5)
MATCH_PLAYING, MATCH_OVER = "playing", "over"
MATCH_STATES = (MATCH_PLAYING, MATCH_OVER)
#: the length of a challenge's or a match's id
MAX_CHALLENGE_ID = 16
#: challenges in the ``challenges`` list: by default and at most
DEFAULT_CHALLENGES = 20
MAX_CHALLENGES = 50


def challenge_id(m: Mapping[str, Any], name: str = "challenge") -> str:
    return req_str(m, name, MAX_CHALLENGE_ID)


@dataclass(frozen=True, slots=True)
class ChallengeSide(Part):
    """How one player's game of a challenge ended: their ``game`` (openable as a replay),
    its state, time (the game's clock), moves, cards home, hints and undos."""

    player: int
    name: str
    game: str
    state: str
    elapsed_ms: int
    moves: int
    home: int
    hints: int
    undos: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            player=req_int(m, "player", 1, INT64_MAX),
            name=req_str(m, "name", MAX_TEXT),
            game=req_str(m, "game", MAX_ID_LENGTH),
            state=req_choice(m, "state", GAME_STATES),
            elapsed_ms=req_count(m, "elapsed_ms"),
            moves=req_int(m, "moves", 0, MAX_PLY),
            home=req_int(m, "home", 0, 1000),
            hints=req_count(m, "hints"),
            undos=req_count(m, "undos"),
        )


@dataclass(frozen=True, slots=True)
class MatchView(Part):
    """A match between ``first`` (who sent its first challenge) and ``second`` (who answered
    it; None until someone has): its length, the running score (ranked rounds only), its
    rounds so far, and once ``over`` its ``winner`` (None: a match of one drawn round)."""

    id: str
    best_of: int
    first: int
    first_name: str
    second: int | None
    second_name: str | None
    first_wins: int
    second_wins: int
    draws: int
    rounds: int
    state: str
    winner: int | None = None

    def to_map(self) -> dict[str, Any]:
        m = {
            "id": self.id,
            "best_of": self.best_of,
            "first": self.first,
            "first_name": self.first_name,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
            "draws": self.draws,
            "rounds": self.rounds,
            "state": self.state,
        }
        return present(m, second=self.second, second_name=self.second_name, winner=self.winner)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            id=req_str(m, "id", MAX_CHALLENGE_ID),
            best_of=req_int(m, "best_of", 1, 5),
            first=req_int(m, "first", 1, INT64_MAX),
            first_name=req_str(m, "first_name", MAX_TEXT),
            second=opt_int(m, "second", 1, INT64_MAX),
            second_name=opt_str(m, "second_name", MAX_TEXT),
            first_wins=req_count(m, "first_wins"),
            second_wins=req_count(m, "second_wins"),
            draws=req_count(m, "draws"),
            rounds=req_count(m, "rounds"),
            state=req_choice(m, "state", MATCH_STATES),
            winner=opt_int(m, "winner", 1, INT64_MAX),
        )


@dataclass(frozen=True, slots=True)
class ChallengeView(Part):
    """A challenge as the asker may see it (docs/protocol.md, "Challenges").

    ``commitment`` is the deal's (its key never travels here); ``game`` the
    asker's own game in it, if any; ``mine``/``theirs`` the two results, each
    shown only when the asker may see it (the challenger's own at once, both
    once the challenge is done); ``ranked`` and ``unranked`` once done.
    """

    id: str
    variant: str
    options: Mapping[str, bool | int]
    commitment: str
    round: int
    state: str
    challenger: int
    challenger_name: str
    match: MatchView
    opponent: int | None = None
    opponent_name: str | None = None
    game: str | None = None
    result: str | None = None
    ranked: bool | None = None
    unranked: str | None = None
    challenger_result: ChallengeSide | None = None
    opponent_result: ChallengeSide | None = None
    #: the kind of its games: solo, practice (a daily's deal: its key shows at the end of its
    #: day), race (a live match's round)
    kind: str = SOLO

    def to_map(self) -> dict[str, Any]:
        m = {
            "id": self.id,
            "kind": self.kind,
            "variant": self.variant,
            "options": dict(self.options),
            "commitment": self.commitment,
            "round": self.round,
            "state": self.state,
            "challenger": self.challenger,
            "challenger_name": self.challenger_name,
            "match": self.match.to_map(),
        }
        return present(
            m,
            opponent=self.opponent,
            opponent_name=self.opponent_name,
            game=self.game,
            result=self.result,
            ranked=self.ranked,
            unranked=self.unranked,
            challenger_result=self.challenger_result,
            opponent_result=self.opponent_result,
        )

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            id=req_str(m, "id", MAX_CHALLENGE_ID),
            kind=req_choice(m, "kind", GAME_KINDS),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            options=option_map(m, required=True),
            commitment=hex_digest(m, "commitment"),
            round=req_int(m, "round", 1, MAX_PLY),
            state=req_choice(m, "state", CHALLENGE_STATES),
            challenger=req_int(m, "challenger", 1, INT64_MAX),
            challenger_name=req_str(m, "challenger_name", MAX_TEXT),
            match=nested(m, "match", MatchView.from_map),
            opponent=opt_int(m, "opponent", 1, INT64_MAX),
            opponent_name=opt_str(m, "opponent_name", MAX_TEXT),
            game=opt_str(m, "game", MAX_ID_LENGTH),
            result=req_choice(m, "result", RESULTS) if "result" in m else None,
            ranked=req_bool(m, "ranked") if "ranked" in m else None,
            unranked=req_choice(m, "unranked", UNRANKED_REASONS) if "unranked" in m else None,
            challenger_result=opt_nested(m, "challenger_result", ChallengeSide.from_map),
            opponent_result=opt_nested(m, "opponent_result", ChallengeSide.from_map),
        )


# fmt: off
__all__ = [
    "BEST_OF", "CHALLENGER", "CHALLENGE_DONE", "CHALLENGE_OPEN", "CHALLENGE_PLAYING",
    "CHALLENGE_SETTING", "CHALLENGE_STATES", "DEFAULT_CHALLENGES", "DRAW", "MATCH_OVER",
    "MATCH_PLAYING", "MATCH_STATES", "MAX_CHALLENGES", "MAX_CHALLENGE_ID", "OPPONENT",
    "RESULTS", "UNRANKED_BOT", "UNRANKED_HINTS", "UNRANKED_KEY", "UNRANKED_REASONS",
    "UNRANKED_REVIEW", "ChallengeSide", "ChallengeView", "MatchView",
]
# fmt: on
