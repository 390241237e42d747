"""``could_win``: whether a finished game's deal was winnable, and where it stopped being so.

Asked once a game is over (won, resigned, out of time, or stuck) and its deal
is shown, so the answer tells nothing the player cannot already work out. The
work is :func:`hindsight_job`: the game's record taken on the event loop, the
solving in a thread, within ``could_win_budget_s`` in all. It solves the deal
from its start, then looks for the last ply whose position the solver still
wins, by bisection over the plies: along a line of play winnability only goes
from yes to no (a position from which a won one can be reached is itself
won), so the first solve of the end and a handful in between find it. A game
with undos is searched the same way over its plies; where an undo went back
to a winnable position after a losing move, the ply found is the point where
the game last went from winnable to not. Bounded as hints are: one question
per connection, ``could_win_concurrency`` at once in the process (``busy``
beyond), each within its budget.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from server.config import Config
from server.errors import Busy
from server.games.live import LiveGame
from shared import protocol as p
from shared.game import Game
from shared.games import replay
from shared.solver import WON, Budget, Result, solve_position
from shared.states import WON as GAME_WON
from shared.variants import Variants


def board(game: Game) -> p.Board:
    """The piles as the player sees them (face-down cards as counts)."""
    return p.Board(piles=game.board().piles)


def hindsight_job(game: Game, variants: Variants, budget_s: float) -> Callable[[], p.CouldWinReply]:
    """What the answer needs of ``game``, taken now (on the loop), and the work that answers
    from it in a thread."""
    record = game.record(reveal_key=True)
    actions: list[str] = list(record["actions"])
    won = game.state == GAME_WON

    def at(ply: int) -> Game:
        return replay({**record, "actions": actions[:ply], "resigned": False}, variants=variants)

    def job() -> p.CouldWinReply:
        if won:
            return p.CouldWinReply(deal=p.WINNABLE, ply=None, line=(), boards=())
        # the start, the end, then the bisection: at most 2 + log2(plies) solves
        solves = 2 + max(1, math.ceil(math.log2(len(actions) + 1)))
        deadline = time.monotonic() + budget_s
        results: dict[int, Result] = {}

        def solved(ply: int) -> Result:
            if ply not in results:
                left = max(0.05, (deadline - time.monotonic()) / max(1, solves - len(results)))
                budget = Budget(positions=None, seconds=left, clock=time.monotonic)
                results[ply] = solve_position(at(ply), budget)
            return results[ply]

        start = solved(0)
        if start.verdict != WON:
            return p.CouldWinReply(deal=start.verdict, ply=None, line=(), boards=())
        last, lost = 0, len(actions)
        if solved(lost).verdict == WON:
            last = lost
        while lost - last > 1:
            middle = (last + lost) // 2
            if solved(middle).verdict == WON:
                last = middle
            else:
                lost = middle
        line = solved(last).line
        game = at(last)
        boards = [board(game)]
        for action in line:
            game.play(action)
            boards.append(board(game))
        return p.CouldWinReply(deal=p.WINNABLE, ply=last, line=line, boards=tuple(boards))

    return job


class Hindsight:
    """The ``could_win`` questions being answered: at most one per connection, a few at once."""

    def __init__(self, variants: Variants, config: Config) -> None:
        self.variants = variants
        self.budget_s = config.could_win_budget_s
        self.concurrency = config.could_win_concurrency
        self._asking: set[object] = set()
        self._computing: set[asyncio.Future[Any]] = set()
        self._threads: ThreadPoolExecutor | None = None

    def ask(self, live: LiveGame, asker: object) -> asyncio.Future[p.CouldWinReply]:
        """The answer for ``live`` (ended, its deal shown: the handler checked), being
        computed for ``asker``; ``busy`` while the asker's last question or ``concurrency``
        questions are being answered."""
        if asker in self._asking:
            raise Busy("your last question on a deal is still being answered")
        if len(self._computing) >= self.concurrency:
            raise Busy(f"the server is answering {self.concurrency} such questions; ask again")
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.concurrency, thread_name_prefix="hindsight")
        job = hindsight_job(live.game, self.variants, self.budget_s)
        future = asyncio.get_running_loop().run_in_executor(self._threads, job)
        self._asking.add(asker)
        self._computing.add(future)

        def done(_: asyncio.Future[p.CouldWinReply]) -> None:
            self._asking.discard(asker)
            self._computing.discard(future)

        future.add_done_callback(done)
        return future

    async def close(self) -> None:
        for future in list(self._computing):
            future.cancel()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
