"""Holds ranked results played faster or straighter than a person plays (:mod:`server.review.rule`).

The daily service and the races ask, when a ranked result ends, whether it
is held; a held result gets a pending ``reviews`` row for an operator, with
its reasons (``patience-club admin held --why``, ``clear``, ``confirm``).
Every ranked result long enough to judge also leaves an ``assessments`` row,
held or not: ``patience-club admin efficient`` reads them across results.
Bot accounts are never ranked, so their results are neither held nor kept.

A win without an undo is replayed and its deal solved (:mod:`server.review.line`)
in a thread of the service's own, within ``review_solve_s`` seconds and
:data:`LINE_BUDGET_FACTOR` times the positions the variant's daily proof may
take (a deal dealt without that proof, or one the proof barely won, still
gets its line; the seconds bound the cost); the solver's line for a deal is
kept for the next result on it (a daily's players, a race's racers).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Config
from server.games.live import LiveGame
from server.review.line import line_of, solver_line
from server.review.rule import Line, Played, Review, Rule
from server.storage.models import Assessment
from server.storage.queries import assessments, players
from server.storage.queries import reviews as store
from shared.states import WON
from shared.variants import Variants

log = logging.getLogger(__name__)

#: solver lines kept, by deal (a day's dailies and the races of the last while)
#: the positions review's solver may take for a deal's line, in daily proofs' budgets
LINE_BUDGET_FACTOR = 4
KEPT_LINES = 64


def rule_of(config: Config) -> Rule:
    """The rule the settings make (``review_*``)."""
    return Rule(
        min_actions=config.review_min_actions,
        median_ms=config.review_median_ms,
        p25_ms=config.review_p25_ms,
        p10_ms=config.review_p10_ms,
        first_ms=config.review_first_ms,
        key_ms=config.review_key_ms,
        pause_ms=config.review_pause_ms,
        pauses=config.review_pauses,
        slack=config.review_slack,
    )


class ReviewService:
    def __init__(
        self,
        db_sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], int],
        config: Config,
        variants: Variants,
    ) -> None:
        self.db_sessions = db_sessions
        self.clock = clock
        self.rule = rule_of(config)
        #: seconds the solver may take for a deal's line (``review_solve_s``)
        self.solve_s = config.review_solve_s
        #: the variants the server plays (to replay and solve a result)
        self.variants = variants
        self._threads: ThreadPoolExecutor | None = None
        #: a deal's solver line (None: none found in budget), by variant, options and deal
        self._lines: OrderedDict[str, asyncio.Future[tuple[str, ...] | None]] = OrderedDict()

    async def stop(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None

    async def check(self, live: LiveGame, what: str, *, since_ms: int | None = None) -> bool:
        """Whether ``live``'s result is held (stored as such if so); its gaps are measured
        from ``since_ms`` (a race's start), else from the game's start."""
        await live.settled()
        async with self.db_sessions() as db:
            actions = await store.received_actions(db, game_id=live.id)
        start = live.started_ms if since_ms is None else since_ms
        fresh = live.keyed is not None and not live.key_open
        record = live.game.record(reveal_key=True)
        won = live.state == WON
        return await self.hold(live.id, live.owner, what, actions, start, record, fresh, won)

    async def hold(
        self,
        game_id: str,
        player_id: int,
        what: str,
        actions: Sequence[tuple[str, int]],
        start_ms: int,
        record: Mapping[str, Any],
        fresh: bool,
        won: bool,
    ) -> bool:
        """Whether the result of these actions (each with the time it was received) is held;
        if so, its review is stored. ``record``: the game's record with its key (its
        deal), ``fresh``: a deal its player had never seen."""
        played = Played(
            tuple(action for action, _ in actions),
            tuple(ms for _, ms in actions),
            start_ms,
            fresh=fresh,
            won=won,
        )
        if not self.rule.judged(played):
            return False
        async with self.db_sessions() as db:
            player = await players.by_id(db, player_id=player_id)
        if player is None or player.bot:
            return False
        line = None
        if self.rule.wants_line(played):
            line = await self._line({**record, "actions": list(played.actions)})
        review = self.rule.judge(played, line)
        await self._store(game_id, player_id, what, review, line, won)
        return review.held

    async def _store(
        self, game_id: str, player_id: int, what: str, review: Review, line: Line | None, won: bool
    ) -> None:
        f = review.figures
        now = self.clock()
        async with self.db_sessions() as db, db.begin():
            row = Assessment(
                game_id=game_id,
                player_id=player_id,
                what=what,
                won=won,
                actions=f.actions,
                undos=f.undos,
                solver_moves=None if line is None else line.solver_moves,
                revisits=None if line is None else line.revisits,
                efficient=review.efficient,
                median_ms=f.median_ms,
                p10_ms=f.p10_ms,
                elapsed_ms=f.elapsed_ms,
                floor_ms=f.floor_ms,
                pauses=f.pauses,
                held=review.held,
                created_ms=now,
            )
            await assessments.store(db, row)
            if not review.held:
                return
            held = await store.hold(
                db,
                game_id=game_id,
                player_id=player_id,
                what=what,
                actions=f.actions,
                median_gap_ms=f.median_ms,
                reasons=review.text(),
                now_ms=now,
            )
        text = review.text()
        log.warning(
            "review %d: %s of player %d (game %s) held: %s", held, what, player_id, game_id, text
        )

    async def _line(self, record: Mapping[str, Any]) -> Line | None:
        """The result's :class:`Line`, worked out in the review thread; None if that fails."""
        loop = asyncio.get_running_loop()
        if self._threads is None:
            self._threads = ThreadPoolExecutor(1, thread_name_prefix="review")
        variants = self.variants
        try:
            solver = await self._solver_line(record)
            job = functools.partial(line_of, record, solver, variants)
            return await loop.run_in_executor(self._threads, job)
        except Exception:
            log.exception("review could not replay or solve game record %s", record["variant"])
            return None

    async def _solver_line(self, record: Mapping[str, Any]) -> tuple[str, ...] | None:
        deal = {k: record.get(k) for k in ("variant", "options", "seed", "key")}
        name = json.dumps(deal, sort_keys=True)
        known = self._lines.get(name)
        if known is None:
            assert self._threads is not None
            variants = self.variants
            positions = LINE_BUDGET_FACTOR * variants.get(record["variant"]).daily_positions
            seconds = self.solve_s
            job = functools.partial(solver_line, record, positions, seconds, variants)
            known = asyncio.ensure_future(
                asyncio.get_running_loop().run_in_executor(self._threads, job)
            )
            self._lines[name] = known
            while len(self._lines) > KEPT_LINES:
                self._lines.popitem(last=False)
            known.add_done_callback(functools.partial(self._forget_failed, name))
        self._lines.move_to_end(name)
        return await asyncio.shield(known)

    def _forget_failed(self, name: str, done: asyncio.Future[tuple[str, ...] | None]) -> None:
        """A search that failed is not kept: the next result on the deal tries again."""
        if done.cancelled() or done.exception() is not None:
            self._lines.pop(name, None)
