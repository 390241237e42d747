"""Who won a challenge, whether it is ranked, and what it does to the match's score.

Between the two games the rule of a race's pair (server/ratings/races.py):
the one who won beats the one who did not; both won, the faster (equal times
draw); neither, more cards home (equal is a draw). Resigning sooner never
helps: time counts only between two wins.

A result is ranked (counts in the match's score) only between two people: a
bot on either side never is. Nor is one whose challenger could know the deal
before playing it (a key they named), one played with hints, or one whose
result review holds (docs/fair-play.md). A match is won by the first player
to win more than half its rounds; draws and unranked rounds do not count
towards it, so a match goes on until someone has.

Pure: the challenge service reads and stores what these decide.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.ratings.races import Finish, score
from shared import protocol as p
from shared.states import WON


@dataclass(frozen=True, slots=True)
class Side:
    """One side's game as the rules read it, and what ranking asks of its player."""

    state: str
    elapsed_ms: int
    home: int
    hints: int
    bot: bool
    held: bool

    def finish(self) -> Finish:
        return Finish(won=self.state == WON, time_ms=self.elapsed_ms, cards_home=self.home)


def winner(challenger: Side, opponent: Side) -> str:
    """``challenger``, ``opponent`` or ``draw``."""
    mine = score(challenger.finish(), opponent.finish())
    if mine == 1.0:
        return p.CHALLENGER
    if mine == 0.0:
        return p.OPPONENT
    return p.DRAW


def unranked(challenger: Side, opponent: Side, *, key_chosen: bool) -> str | None:
    """Why the result counts in no score (None: it is ranked)."""
    if challenger.bot or opponent.bot:
        return p.UNRANKED_BOT
    if key_chosen:
        return p.UNRANKED_KEY
    if challenger.hints or opponent.hints:
        return p.UNRANKED_HINTS
    if challenger.held or opponent.held:
        return p.UNRANKED_REVIEW
    return None


@dataclass(frozen=True, slots=True)
class Score:
    """A match's running score: the first player's wins, the second's, draws, rounds."""

    first_wins: int
    second_wins: int
    draws: int
    rounds: int

    def after(self, *, first_won: bool | None, ranked: bool) -> Score:
        """The score after a round; ``first_won`` None: a draw."""
        if not ranked:
            return Score(self.first_wins, self.second_wins, self.draws, self.rounds + 1)
        if first_won is None:
            return Score(self.first_wins, self.second_wins, self.draws + 1, self.rounds + 1)
        if first_won:
            return Score(self.first_wins + 1, self.second_wins, self.draws, self.rounds + 1)
        return Score(self.first_wins, self.second_wins + 1, self.draws, self.rounds + 1)

    def decided(self, best_of: int) -> int | None:
        """1 the first player has won the match, 2 the second, None not yet."""
        need = best_of // 2 + 1
        if self.first_wins >= need:
            return 1
        if self.second_wins >= need:
            return 2
        return None
