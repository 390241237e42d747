"""A scripted player for demos, tests and load: it plays the server's hints, greedily.

When the server has no hint (the hint is only a suggestion, and may be null
while moves remain), the bot picks among the legal moves of the view: cards to
the foundations first, then moves that turn a face-down card, then the stock,
then anything it has not just undone, at random from its own seeded
generator. It resigns when the game is stuck or after ``max_actions``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from client.connection import Connection
from client.race import RaceState
from client.session import GameSession, GameView
from shared.errors import InvalidNotation, ProtocolError
from shared.notation import Move

Log = Callable[[str], None]


def _quiet(_: str) -> None:
    """No log."""


def fallback_move(view: GameView, rng: random.Random, recent: list[str]) -> str | None:
    """A legal move chosen greedily when the server gives no hint.

    In order: a card to a foundation; a move that turns a face-down card; a
    build onto a non-empty pile; the stock; anything else not just played.
    """
    legal: list[str] = list(view["legal"])
    if not legal:
        return None
    piles = {p["id"]: p for p in view["piles"]}
    ranked: list[list[str]] = [[], [], [], []]
    for text in legal:
        if text == "deal":
            continue
        try:
            move = Move.parse(text)
        except InvalidNotation:
            continue
        src = piles.get(move.src, {"down": 0, "up": []})
        dst = piles.get(move.dst, {"down": 0, "up": []})
        if move.dst.startswith("f") and not move.src.startswith("f"):
            ranked[0].append(text)
        elif move.src.startswith("t") and src["down"] and move.count == len(src["up"]):
            ranked[1].append(text)
        elif text in recent or move.src.startswith("f"):
            continue
        elif dst["up"] and move.dst.startswith("t"):
            ranked[2].append(text)
        else:
            ranked[3].append(text)
    for group in ranked[:3]:
        if group:
            return group[0] if group is ranked[0] else rng.choice(group)
    if "deal" in legal:
        return "deal"
    return rng.choice(ranked[3]) if ranked[3] else None


@dataclass
class Bot:
    """One bot player on one connection."""

    conn: Connection
    seed: int = 1
    delay: float = 0.0
    max_actions: int = 400
    log: Log = _quiet
    session: GameSession = field(init=False)

    def __post_init__(self) -> None:
        self.session = GameSession(self.conn)
        self.rng = random.Random(self.seed)

    async def play_current(self) -> GameView:
        """Play the session's game to its end (won, or resigned when hopeless)."""
        recent: list[str] = []
        refused: set[tuple[int, str]] = set()
        actions = 0
        while True:
            view = self.session.view
            assert view is not None
            if view["state"] != "playing":
                if view["state"] == "stuck":
                    view = await self.session.resign()
                return view
            if actions >= self.max_actions:
                return await self.session.resign()
            try:
                move = await self.session.hint()
            except ProtocolError as exc:
                # A hint is only advice: without one the bot plays its own greedy choice.
                self.log(f"no hint: {exc.message}")
                move = None
            if move is None or (view["ply"], move) in refused:
                move = fallback_move(view, self.rng, recent)
            if move is None:
                return await self.session.resign()
            try:
                await self.session.move(move)
            except ProtocolError as exc:
                if exc.code in ("game_over", "forbidden", "not_found"):
                    return self.session.view or view
                self.log(f"refused {move}: {exc.message}")
                refused.add((view["ply"], move))
            actions += 1
            recent = [*recent[-8:], move]
            if self.delay:
                await asyncio.sleep(self.delay)

    async def play_solo(self, variant: str, seed: int | None = None) -> GameView:
        await self.session.start(variant, seed)
        self.log(f"started {variant} seed {self.session.view and self.session.view['seed']}")
        view = await self.play_current()
        self.log(f"{variant}: {view['state']} score {view['score']} in {view['moves']} moves")
        return view

    async def play_race(self, code: str, races: int = 1, timeout: float = 600.0) -> list[GameView]:
        """Join room ``code`` and play each race started there, ``races`` times."""
        race = RaceState(asyncio.get_running_loop().time)
        started: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def on_push(message: dict[str, Any]) -> None:
            race.apply(message)
            if message.get("type") == "race_started" and isinstance(message.get("game"), dict):
                started.put_nowait(message["game"])

        self.conn.on_push = on_push
        reply = await self.conn.request("join_room", code=code)
        race.apply(reply)
        self.log(f"joined room {code}")
        results = []
        for _ in range(races):
            game = await asyncio.wait_for(started.get(), timeout)
            self.session.adopt(game)
            view = await self.play_current()
            self.log(f"race {code}: {view['state']} score {view['score']}")
            results.append(view)
        return results
