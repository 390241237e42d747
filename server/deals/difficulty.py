"""How hard a won deal is for a player who cannot see the face-down cards.

The measure (:func:`measure`, docs/solver.md "Difficulty") is the variant's
own search (``shared.solver``), run twice over:

- on the deal itself, within the budget the dailies use
  (``Rules.daily_positions``): a deal it does not win is never pooled, so
  "hard" means hard but proven winnable;
- on ``ARRANGEMENTS`` arrangements of what the player sees at the deal: the
  unseen cards dealt anew into the face-down places (as the players' hint
  does, ``shared.solver.hints.Arrangements``), each searched within an
  eighth of that budget. ``blind`` counts the arrangements won.

A deal most of whose arrangements are won plays well whatever lies face
down: a player (or the players' hint) who guesses is rarely punished. A deal
won only as dealt hangs on where the hidden cards lie. ``hardness`` is the
arrangements lost, plus the share of the daily budget the deal's own search
took (less than one: it orders deals that lose as many arrangements, and is
all there is in Freecell, where nothing is hidden). The positions measure
alone, the first one, did not predict what the players' hint wins; this one
is checked by play in ``python -m bench difficulty --play`` (docs/solver.md
gives the run). The thresholds are per variant, the thirds of the won deals
of a measured run.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from shared.protocol import games as pg

if TYPE_CHECKING:
    from shared.game import Game
    from shared.variants.base import Rules


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Hardness (:func:`hardness_of`): at most ``easy`` is easy, at most ``medium``
    medium, more hard. ``arrangements``: what each arrangement lost weighs against the
    share of the daily budget (1 unless told): 0 orders by positions alone, where the
    arrangements do not predict the players' wins (Thumb and Pouch: docs/solver.md)."""

    easy: float
    medium: float
    arrangements: float = 1.0


#: per variant, from the measured run of docs/solver.md ("Difficulty")
THRESHOLDS: Mapping[str, Thresholds] = MappingProxyType(
    {
        "osmosis": Thresholds(easy=4.004, medium=5.006),
        "thumb_and_pouch": Thresholds(easy=0.049, medium=0.074, arrangements=0.0),
        "gypsy": Thresholds(easy=6.28, medium=7.037),
        "freecell": Thresholds(easy=0.025, medium=0.045),
        "westhaven": Thresholds(easy=1.02, medium=2.026),
    }
)
#: a variant the table does not name (one added later): these until it is measured
DEFAULT_THRESHOLDS = Thresholds(easy=2.5, medium=6.5)
#: arrangements of the unseen cards searched per deal
ARRANGEMENTS = 8


def hardness_of(variant: str, measured: Measure) -> float:
    """The hardness ``variant``'s thresholds are on: the arrangements lost, weighed by
    :attr:`Thresholds.arrangements`, plus the share of the daily budget the deal's search
    took."""
    limits = THRESHOLDS.get(variant, DEFAULT_THRESHOLDS)
    lost = ARRANGEMENTS - measured.blind
    return limits.arrangements * lost + measured.positions / (measured.budget + 1)


def difficulty_of(variant: str, hardness: float) -> str:
    """easy, medium or hard for a won deal of ``variant`` of this ``hardness``."""
    limits = THRESHOLDS.get(variant, DEFAULT_THRESHOLDS)
    if hardness <= limits.easy:
        return pg.EASY
    if hardness <= limits.medium:
        return pg.MEDIUM
    return pg.HARD


@dataclass(frozen=True, slots=True)
class Measure:
    """A won deal's measures: the positions its search took, its line's length, and the
    arrangements of the unseen cards won (``blind``, of :data:`ARRANGEMENTS`)."""

    positions: int
    line: int
    blind: int
    #: the daily budget the positions are a share of
    budget: int

    @property
    def hardness(self) -> float:
        """The arrangements lost, plus the share of the daily budget the deal's search took."""
        return ARRANGEMENTS - self.blind + self.positions / (self.budget + 1)


def measure(game: Game, seconds: float, clock: Callable[[], float]) -> Measure | None:
    """The measures of ``game``'s deal (at its start), or None when its search does not win
    it within the daily budget and ``seconds`` (each search's clock)."""
    from shared.player_view import PlayerView
    from shared.solver import WON, Budget, solve_position, solve_rules
    from shared.solver.hints import Arrangements

    rules = game.rules
    daily = rules.daily_positions
    result = solve_position(game, Budget(positions=daily, seconds=seconds, clock=clock))
    if result.verdict != WON:
        return None
    each = max(1, daily // ARRANGEMENTS)
    view = PlayerView.of(game)
    if not view.unseen:  # nothing hidden: every arrangement is the deal itself
        blind = ARRANGEMENTS if result.positions <= each else 0
    else:
        arrangements = Arrangements(view, 0)
        budget = Budget(positions=each, seconds=seconds, clock=clock)
        blind = sum(
            solve_rules(rules, arrangements.next(), budget).verdict == WON
            for _ in range(ARRANGEMENTS)
        )
    return Measure(result.positions, len(result.line), blind, daily)


@dataclass(frozen=True, slots=True)
class Found:
    """A keyed deal the solver won: its key, difficulty, positions searched, line length."""

    key: bytes
    difficulty: str
    positions: int
    line: int


def find(
    rules: type[Rules], options: Mapping[str, bool | int], tries: int, seconds: float
) -> list[Found]:
    """In a worker process: ``tries`` fresh random keys (as unpredictable as any keyed deal's:
    the operating system's randomness), each measured (:func:`measure`, ``seconds`` of this
    process's CPU at most per search); the deals won, each with its difficulty. CPU time, not
    wall time: on a loaded machine a wall cap would stop searches before their positions
    budget, and a deal's difficulty (even whether it is pooled) would depend on the load."""
    from shared.games import new_game
    from shared.variants import Variants

    parent = os.getppid()

    def clock() -> float:
        if os.getppid() != parent:  # the server died: stop searching
            os._exit(0)
        return time.process_time()

    variants = Variants((rules,))
    found = []
    for _ in range(tries):
        key = secrets.token_bytes(32)
        game = new_game(rules.id, key=key, options=dict(options), variants=variants)
        measured = measure(game, seconds, clock)
        if measured is not None:
            difficulty = difficulty_of(rules.id, hardness_of(rules.id, measured))
            found.append(Found(key, difficulty, measured.positions, measured.line))
    return found
