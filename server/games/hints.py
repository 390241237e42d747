"""``hint``: a move worth playing, computed in threads of its own, a bounded number at once.

Which hints are allowed is decided before anything is computed: the game's
features refuse theirs (``hints_off``: a daily attempt, a race whose room
has hints off) through :attr:`Hints.guards`. A hint is answered when it is
ready, while its connection goes on with other requests (a move need not
wait for a hint). A connection has at most one hint being computed
(``busy`` for a second), and the process at most ``concurrency``: the
threads are shared between players by :class:`~server.games.hint_shares.HintShares`
(a rate per player, turns by need, a short bounded wait, ``busy`` beyond),
so no flood of hints can grow a queue without bound, hold the event loop,
or keep the threads from other players. The hint itself is :func:`hint_job`: the engine's
hint from the player's view, run in one of ``concurrency`` threads on what it
took of the game; the one function to change for another hint.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from server.errors import Busy
from server.games.hint_shares import HintShares
from server.games.live import LiveGame
from shared.deals import Deal
from shared.game import PLAYING, Game
from shared.player_view import PlayerView
from shared.solver import DEFAULT_HINT_BUDGET, hint
from shared.variants.base import Rules

log = logging.getLogger(__name__)

#: refuses a hint for a game (raises :class:`~server.errors.HintsOff`), or lets it be
HintGuard = Callable[[LiveGame], None]


def hint_job(game: Game, budget_s: float) -> Callable[[], str | None]:
    """What a hint may see of ``game``, taken now (on the event loop, while nothing changes
    the game), and the work that answers from it in a thread.

    What it takes is the player's view (:class:`~shared.player_view.PlayerView`: face-up
    cards, face-down counts, the unseen cards as a multiset; no field for a face-down
    card) and the game's actions so far, and the answer is the engine's view-only hint:
    the move that wins most arrangements of the unseen cards, searched within
    ``budget_s`` seconds at most, told the views the player has been in (``avoid``), so
    that it never undoes the last move nor leads back to a position of this game (each
    hint is a fresh search: without them a player following the hints could be walked
    round a circle, a card moved to a foundation and back for ever). The views are made
    in the thread by replaying the actions (undone positions included): the hint gets
    views only. Sampling seed 0: the hint is a function of what the player sees and has
    seen. This is the one function to change for another hint.
    """
    view = PlayerView.of(game)
    rules = game.rules
    deal = game.deal
    actions = list(game.actions)
    budget = replace(DEFAULT_HINT_BUDGET, seconds=budget_s, clock=time.monotonic)

    def job() -> str | None:
        try:
            been = seen_views(rules, deal, actions)
            return hint(view, rules, sampling_seed=0, budget=budget, avoid=been)
        except Exception:
            log.exception("the solver failed on a hint")
            return None

    return job


def seen_views(rules: Rules, deal: Deal, actions: list[str]) -> set[PlayerView]:
    """The views of every position a game of ``rules`` dealt from ``deal`` has been in
    through ``actions`` (the deal's, each action's, those undone since included): what
    its player has seen, as :class:`~shared.player_view.PlayerView`, state aside."""
    game = Game(rules, deal)
    seen = {PlayerView.seen(rules, game.position)}
    for action in actions:
        game.play(action)
        seen.add(PlayerView.seen(rules, game.position))
    return seen


class Hints:
    def __init__(self, budget_s: float, concurrency: int, shares: HintShares | None = None) -> None:
        #: seconds of solver per hint
        self.budget_s = budget_s
        self.concurrency = concurrency
        #: the threads' turns between players and each player's rate
        self.shares = shares if shares is not None else HintShares(concurrency)
        self.guards: list[HintGuard] = []
        #: who has a hint being computed (connections), and the computations
        self._asking: set[object] = set()
        self._computing: set[asyncio.Task[str | None]] = set()
        self._threads: ThreadPoolExecutor | None = None

    def check(self, live: LiveGame) -> None:
        """``hints_off`` where a feature says so."""
        for guard in self.guards:
            guard(live)

    def ask(self, live: LiveGame, asker: object) -> asyncio.Task[str | None]:
        """A hint for ``live`` being computed for ``asker`` (its connection); refused at once
        with ``hints_off``, or ``busy`` while the asker's last hint or ``concurrency`` hints
        are being computed. The task's result is None once the game has ended."""
        self.check(live)
        if asker in self._asking:
            raise Busy("a hint for this connection is still being computed")
        self.shares.take(live.owner)
        task = asyncio.ensure_future(self._compute(live))
        self._asking.add(asker)
        self._computing.add(task)

        def done(_: asyncio.Task[str | None]) -> None:
            self._asking.discard(asker)
            self._computing.discard(task)

        task.add_done_callback(done)
        return task

    async def _compute(self, live: LiveGame) -> str | None:
        await self.shares.slot(live.owner)
        try:
            await live.settled()
            if live.state != PLAYING:
                return None
            if self._threads is None:
                self._threads = ThreadPoolExecutor(self.concurrency, thread_name_prefix="hints")
            job = hint_job(live.game, self.budget_s)
            return await asyncio.get_running_loop().run_in_executor(self._threads, job)
        finally:
            self.shares.release()

    async def close(self) -> None:
        """Stop: the hints being computed are given up (their threads finish their budget)."""
        for task in list(self._computing):
            task.cancel()
        await asyncio.gather(*self._computing, return_exceptions=True)
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
