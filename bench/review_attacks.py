"""The scripted attacks on the ranked daily, run again against a real server in real time.

    .venv/bin/python -m bench.review_attacks [--variant freecell] [--jitter-s 60] [--human]

Starts a server (an SQLite file of its own, the real clock), lets it choose
and prove today's daily deal, and has one account per attack open its ranked
attempt and play the line our own solver finds for the deal (Freecell shows
every card, so a client can solve the board it is shown; here the line is
solved from the deal's key, which gives the same board): at machine speed;
the median trick (205 ms before just over half of the actions, none before
the rest); a steady 205 ms; a human-like jitter around the line (a look of
8 s, then 300 ms to 2 s between actions, ``--jitter-s`` seconds in all,
never a pause); with ``--human``, the synthetic human-model pace of
tests/server/review/human_model.py on the same line (think pauses,
explorations undone; minutes of real time). Prints what each got: its time,
whether it is held, its rank, and review's reasons. Not part of ``make
bench``: it measures no speed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from server.app import App
from server.config import Config
from server.daily.deals import utc_date
from server.review.line import solver_line
from server.storage.queries import reviews


class Player:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        rid = next(self.ids)
        await self.ws.send(msgpack.packb({"type": kind, "id": rid, **fields}))
        while True:
            reply = msgpack.unpackb(await self.ws.recv())
            if reply.get("re") == rid:
                return dict(reply)


def paces(n: int, jitter_s: float, rng: random.Random) -> dict[str, list[int]]:
    """Milliseconds before each of ``n`` actions, per attack."""
    per = max(300, min(1_999, int((jitter_s * 1000 - 8_000) / max(1, n - 1))))
    jitter = [8_000] + [min(1_999, max(300, int(rng.gauss(per, per / 4)))) for _ in range(n - 1)]
    return {
        "machine speed": [0] * n,
        "median trick": [205 if k % 2 == 0 or k == n - 1 else 0 for k in range(n)],
        "steady 205 ms": [205] * n,
        "jitter around the line": jitter,
    }


async def play(player: Player, variant: str, timed: list[tuple[str, int]]) -> tuple[str, float]:
    """Play ``timed`` (action, ms from the start): wait each action's gap after the reply
    to the one before, then send it; the game's state and its seconds."""
    game = (await player.request("daily", start=True, variant=variant))["game"]
    start, last = time.monotonic(), 0
    for action, at in timed:
        # the wait before each action, from the reply to the one before (as the attacks did)
        await asyncio.sleep((at - last) / 1000)
        last = at
        if action == "undo":
            reply = await player.request("undo", game=game["id"], ply=game["ply"])
        else:
            reply = await player.request("move", game=game["id"], ply=game["ply"], move=action)
        assert reply["type"] == "game", reply
        game = reply["game"]
    return str(game["state"]), time.monotonic() - start


def timed(line: tuple[str, ...], gaps: list[int]) -> list[tuple[str, int]]:
    return list(zip(line, itertools.accumulate(gaps), strict=True))


async def run(variant: str, jitter_s: float, human: bool) -> None:
    folder = Path(tempfile.mkdtemp(prefix="review-attacks-"))
    config = Config(port=0, db=f"sqlite+aiosqlite:///{folder / 'club.db'}", daily_ahead=False)
    app = App(config)
    await app.start()
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        date = utc_date(app.clock())
        first = Player(await connect(url, max_size=None))
        await first.request("hello", protocol=2, client="attack/1", name="prover")
        started = time.monotonic()
        await app.daily.deal(variant, date)
        print(f"today's {variant} daily proven in {time.monotonic() - started:.1f} s")
        key = app.daily.deals[(variant, date)].key
        assert key is not None
        record = {"variant": variant, "options": {}, "key": key.hex()}
        line = solver_line(record, positions=500_000, seconds=60.0)
        assert line is not None, "the solver found no line"
        attacks = {
            name: timed(line, gaps)
            for name, gaps in paces(len(line), jitter_s, random.Random(7)).items()
        }
        if human:
            from tests.server.review.human_model import play as model

            attacks["human-model pace (synthetic)"] = list(
                model(variant, {"key": key.hex()}, line, "terminal", 1).actions
            )
        print(f"the solver's line: {len(line)} moves\n")
        results = []
        for n, (name, actions) in enumerate(attacks.items()):
            player = Player(await connect(url, max_size=None))
            await player.request("hello", protocol=2, client="attack/1", name=f"attacker{n}")
            state, seconds = await play(player, variant, actions)
            await asyncio.sleep(0.5)  # review runs once the last action is stored
            me = (await player.request("leaderboard", variant=variant))["me"] or {}
            results.append((name, len(actions), state, seconds, me.get("rank"), me.get("review")))
            await player.ws.close()
        async with app.db_sessions() as db:
            held = {name: review.reasons for review, name in await reviews.listed(db, every=True)}
        for n, (name, count, state, seconds, rank, review) in enumerate(results):
            print(f"{name}: {count} actions, {state} in {seconds:.1f} s; rank {rank}, "
                  f"review {review or 'none'}")  # fmt: skip
            for reason in held.get(f"attacker{n}", "").split("; "):
                if reason:
                    print(f"    {reason}")
        await first.ws.close()
    finally:
        await app.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review_attacks")
    parser.add_argument("--variant", default="freecell")
    parser.add_argument("--jitter-s", type=float, default=60.0, help="the jittered game's length")
    parser.add_argument("--human", action="store_true", help="also the human-model pace (slow)")
    args = parser.parse_args(argv)
    asyncio.run(run(args.variant, args.jitter_s, args.human))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
