"""A player's games set up over the protocol, for browser tests that need a board far into a
game: a player registered over the WebSocket as any client would, browser contexts signed in as
that player, and a line of moves played by the server before the page opens the game.

The lines come from the engine: ``growing_line`` plays the legal move that makes the longest
column (or, for a game without columns, the highest score), never one that leaves the game stuck,
so that a board reaches the long columns its variant comes to in play.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import msgpack
from websockets.sync.client import connect

from shared.games import new_game


class Seat:
    """One player's WebSocket: ``request`` sends and waits for the reply to it."""

    def __init__(self, url: str, name: str) -> None:
        self.ws = connect(url.replace("http://", "ws://") + "/ws").__enter__()
        self.ids = itertools.count(1)
        welcome = self.request("hello", protocol=2, client="tests/1", name=name)
        assert welcome["type"] == "welcome", welcome
        self.token = str(welcome["token"])

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        rid = next(self.ids)
        self.ws.send(msgpack.packb({"type": kind, "id": rid, **fields}))
        while True:
            reply = msgpack.unpackb(self.ws.recv(timeout=30))
            if reply.get("re") == rid:
                return reply  # type: ignore[no-any-return]

    def play(self, variant: str, seed: int, line: list[str], **options: Any) -> dict[str, Any]:
        """A new game of ``variant`` #``seed`` with ``line`` played; its last view."""
        game = self.request("start_game", variant=variant, seed=seed, options=options)["game"]
        for move in line:
            reply = self.request("move", game=game["id"], ply=game["ply"], move=move)
            assert reply["type"] == "game", (move, reply)
            game = reply["game"]
        return game

    def close(self) -> None:
        self.ws.close()


def signed_in(
    url: str,
    token: str,
    lang: str = "en",
    settings: dict[str, Any] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Context options of a browser that holds the player's token, a language choice and, when
    given, the player's settings (as the settings panel keeps them)."""
    storage = [
        {"name": "patience-club.token", "value": token},
        {"name": "patience-club.lang", "value": lang},
    ]
    if settings is not None:
        storage.append({"name": "patience-club.settings", "value": json.dumps(settings)})
    return {
        **options,
        "storage_state": {"cookies": [], "origins": [{"origin": url, "localStorage": storage}]},
    }


def _longest(view: dict[str, Any]) -> int:
    columns = [p["down"] + len(p["up"]) for p in view["piles"] if p["id"][0] == "t"]
    return max(columns) if columns else int(view["score"])


def growing_line(variant: str, seed: int, plies: int) -> list[str]:
    """Up to ``plies`` moves from the deal, each the legal move after which the longest column
    is longest (ties broken by a generator seeded with ``seed``), never one into ``stuck``."""
    rng = random.Random(seed)
    game = new_game(variant, seed=seed)
    line: list[str] = []
    for _ in range(plies):
        scored = []
        for move in game.legal_moves():
            trial = new_game(variant, seed=seed)
            for done in [*line, move]:
                trial.play(done)
            view = trial.view()
            if view["state"] != "stuck":
                scored.append((_longest(view), rng.random(), move))
        if not scored:
            break
        move = max(scored)[2]
        game.play(move)
        line.append(move)
    return line


def stuck_line(variant: str, seed: int, plies: int = 40) -> list[str]:
    """Moves from the deal that make the longest column first, until the game is stuck."""
    game = new_game(variant, seed=seed)
    line: list[str] = []
    for _ in range(plies):
        scored = []
        for move in game.legal_moves():
            trial = new_game(variant, seed=seed)
            for done in [*line, move]:
                trial.play(done)
            scored.append((_longest(trial.view()), move != "deal", move))
        if not scored:
            break
        move = max(scored)[2]
        game.play(move)
        line.append(move)
        if game.view()["state"] == "stuck":
            return line
    raise AssertionError(f"{variant} #{seed} is not stuck after {plies} moves")
