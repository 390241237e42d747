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

from client.connection import Connection
from client.played_game import PlayedGame
from client.race import RaceState
from shared.errors import InvalidNotation, ProtocolError
from shared.notation import DEAL, Action, Move
from shared.protocol import (
    RACING,
    GameReply,
    GameView,
    GetGame,
    JoinRoom,
    PileView,
    RaceStarted,
    Reply,
    RoomReply,
    RoomView,
)

Log = Callable[[str], None]

#: the bot's default pause between actions, in seconds (``--delay``)
HUMAN_DELAY = 1.5


def _quiet(_: str) -> None:
    """No log."""


def fallback_move(view: GameView, rng: random.Random, recent: list[str]) -> Action | None:
    """A legal move chosen greedily when the server gives no hint.

    In order: a card to a foundation; a move that turns a face-down card; a
    build onto a non-empty pile; the stock; anything else not just played.
    """
    legal = view.legal
    if not legal:
        return None
    piles = {p.id: p for p in view.piles}
    ranked: list[list[Move]] = [[], [], [], []]
    for text in legal:
        if text == DEAL:
            continue
        try:
            move = Move.parse(text)
        except InvalidNotation:
            continue
        src = piles.get(move.src, PileView(move.src, 0, ()))
        dst = piles.get(move.dst, PileView(move.dst, 0, ()))
        if move.dst.startswith("f") and not move.src.startswith("f"):
            ranked[0].append(move)
        elif move.src.startswith("t") and src.down and move.count == len(src.up):
            ranked[1].append(move)
        elif text in recent or move.src.startswith("f"):
            continue
        elif dst.up and move.dst.startswith("t"):
            ranked[2].append(move)
        else:
            ranked[3].append(move)
    for group in ranked[:3]:
        if group:
            return group[0] if group is ranked[0] else rng.choice(group)
    if DEAL in legal:
        return DEAL
    return rng.choice(ranked[3]) if ranked[3] else None


def running_game(room: RoomView, me: int | None) -> str | None:
    """Our game in the race that ``room`` is running, when we rejoined it mid-race."""
    if room.state != RACING:
        return None  # in a countdown a member's game is still the last race's
    member = next((p for p in room.players if p.id == me), None)
    return None if member is None else member.game


@dataclass
class Bot:
    """One bot player on one connection."""

    conn: Connection
    seed: int = 1
    #: seconds between the bot's actions: a person's pace by default, so that a race against
    #: it can be won and its results are not held for review as played too fast
    delay: float = HUMAN_DELAY
    max_actions: int = 400
    log: Log = _quiet
    played: PlayedGame = field(init=False)

    def __post_init__(self) -> None:
        self.played = PlayedGame(self.conn)
        self.rng = random.Random(self.seed)

    async def play_current(self) -> GameView:
        """Play the current game to its end (won, or resigned when hopeless)."""
        recent: list[str] = []
        refused: set[tuple[int, Action]] = set()
        actions = 0
        #: the server gives hints in this game: once it says they are off, the bot stops asking
        hints = True
        while True:
            view = self.played.view
            assert view is not None
            if view.state != "playing":
                if view.state == "stuck":
                    view = await self.played.resign()
                return view
            if actions >= self.max_actions:
                return await self.played.resign()
            move: Action | None = None
            try:
                if hints:
                    move = await self.played.hint()
            except ProtocolError as exc:
                # A hint is only advice: without one the bot plays its own greedy choice.
                self.log(f"no hint: {exc.message}")
                hints = exc.code != "hints_off"  # off for the whole game: said once
            if move is None or (view.ply, move) in refused:
                move = fallback_move(view, self.rng, recent)
            if move is None:
                return await self.played.resign()
            try:
                await self.played.move(move)
            except ProtocolError as exc:
                if exc.code in ("game_over", "forbidden", "not_found"):
                    return self.played.view or view
                self.log(f"refused {move}: {exc.message}")
                refused.add((view.ply, move))
            actions += 1
            recent = [*recent[-8:], str(move)]
            if self.delay:
                await asyncio.sleep(self.delay)

    async def play_solo(self, variant: str, seed: int | None = None) -> GameView:
        view = await self.played.start(variant, seed)
        self.log(f"started {variant} " + (f"seed {view.seed}" if view.seed else "a keyed deal"))
        view = await self.play_current()
        self.log(f"{variant}: {view.state} score {view.score} in {view.moves} moves")
        return view

    async def play_race(self, code: str, races: int = 1, timeout: float = 600.0) -> list[GameView]:
        """Join room ``code`` and play each race started there, ``races`` times."""
        race = RaceState(asyncio.get_running_loop().time)
        started: asyncio.Queue[GameView] = asyncio.Queue()

        def on_push(message: Reply) -> None:
            race.apply(message)
            if isinstance(message, RaceStarted) and message.game is not None:
                started.put_nowait(message.game)

        self.conn.on_push = on_push
        joined = await self.conn.request(JoinRoom(code=code), RoomReply)
        race.apply(joined)
        self.log(f"joined room {code}")
        results = []
        running = running_game(joined.room, self.conn.player.id if self.conn.player else None)
        for _ in range(races):
            if running is not None:
                # Back in a room whose race is on (a restart, a lost link): play that game.
                game = (await self.conn.request(GetGame(game=running), GameReply)).game
                running = None
                self.log(f"race {code}: back in the race already running")
            else:
                game = await asyncio.wait_for(started.get(), timeout)
            self.played.adopt(game)
            view = await self.play_current()
            self.log(f"race {code}: {view.state} score {view.score}")
            results.append(view)
        return results
