"""Instructions per move on the server's move path, counted by callgrind: the load cannot move them.

One Freecell game after another (random legal moves, a fixed seed), each
move taken the way the server takes it, without sockets, database or event
loop: the request's frame decoded as the Router decodes it, the ply rule,
the engine's play, the game's state settled (a stuck search answered in
this process, where the server asks a worker), the row the writer would
store, then the player's view and its ``game`` frame encoded. ``--no-view``
leaves the view and its frame out; the difference is what they cost.

    python -m bench.per_move --callgrind               # the table (three valgrind runs)
    python -m bench.per_move --moves 401 [--no-view]   # one run (what valgrind runs)
    python -m bench.per_move --server                  # the whole server, per move

``--server`` counts the whole server instead: ``patience-club serve`` under
callgrind (SQLite in a temporary directory, stuck searches in its own process,
``--stuck-workers 0``, so that they are counted), and ``--clients`` clients
over loopback playing as bench/load.py's clients do (a random legal move of
the last view, a new deal when a game ends). After ``--warm`` moves each the
counters are zeroed (``callgrind_control -z``); after ``--moves`` more each
they are dumped (``-d``): instructions of everything the server did for those
moves (decode, handlers, engine, view, frames, websockets, the writer
thread's SQL and SQLite), divided by the moves. One client plays one move at
a time, as in the paced phase of bench/load.py; under valgrind's slowness 20
clients keep the server saturated (moves batched as in the saturated phase).

    python -m bench.per_move --server --clients 20 --moves 20

``--app`` counts the server's own move path in one process, without sockets
and without what is paid per second (the periodic polls are held off): the
app built and started as ``serve`` starts it (its interpreter settings
included), ``--clients`` clients calling ``Router.dispatch`` with their frames
on connections whose transport hands the written frame back (websockets'
protocol object and the server's framing run as in the server), the writer
thread committing to SQLite in a temporary directory. Two valgrind runs, with
no moves and with ``--moves`` each, are subtracted: dispatch, handlers, engine,
view, frame, the writer thread's statements and commits, and the clients' own
encoding and decoding of each frame (about 139,000 instructions a move; the
same in every tree).

    python -m bench.per_move --app --clients 20 --moves 60
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import msgpack

MOVES = 401
SEED = 7


def mover(view: bool) -> Callable[[int], None]:
    """A function that plays ``n`` moves as the server would (see the module's docstring)."""
    from server.games import live as live_module
    from server.games.ply import is_retry, judge
    from server.games.service import GameService
    from shared import protocol as p
    from shared.games import new_game
    from shared.stuck import StuckProver
    from shared.variants import STANDARD

    prover = StuckProver(STANDARD)
    rng = random.Random(SEED)
    typed = hasattr(live_module.LiveGame, "take")
    decode = p.REQUESTS.decode_map

    def deal(n: int) -> Any:
        game = new_game("freecell", seed=rng.randint(1, 1_000_000), prover=prover)
        settle(game)
        return live_module.LiveGame(id=f"g{n:07d}", owner=1, game=game, started_ms=0)

    def settle(game: Any) -> None:
        question = game.stuck_question()
        if question is not None:
            game.answer_stuck(question, prover.answer(question))

    if typed:

        def at(live: Any) -> Any:
            return live.at()

        def take(live: Any, action: Any) -> str:
            return str(live.take(action))

        def reply(live: Any, re: int) -> bytes:
            return p.encode(p.GameReply(game=live.view(0), re=re))

    else:
        from server.games import service as service_module

        def at(live: Any) -> Any:
            return service_module._at(live)  # type: ignore[attr-defined]

        def take(live: Any, action: Any) -> str:
            return str(service_module._take(live, action))  # type: ignore[attr-defined]

        def reply(live: Any, re: int) -> bytes:
            game_view = p.GameView.of(live.view(0))  # type: ignore[attr-defined]
            return p.encode(p.GameReply(game=game_view, re=re))

    def play(n: int) -> None:
        games = 0
        live = deal(games)
        for number in range(1, n + 1):
            legal = live.game.legal_moves()
            if live.state != "playing" or not legal:
                games += 1
                live = deal(games)
                legal = live.game.legal_moves()
            frame = msgpack.packb(
                {
                    "type": "move",
                    "id": number,
                    "game": live.id,
                    "ply": live.game.ply,
                    "move": rng.choice(legal),
                }
            )
            message: Any = decode(p.unpack(frame))
            action, ply = message.move, message.ply
            if is_retry(action, ply, at(live)):
                raise AssertionError("no retry in this play")
            judge(action, ply, at(live))
            text = take(live, action)
            settle(live.game)
            GameService._write(live, ply, text, number)
            if view:
                reply(live, number)

    return play


def instructions(moves: int, view: bool) -> int:
    """Instructions of one run of this script under callgrind."""
    with tempfile.TemporaryDirectory(prefix="per-move-") as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "bench.per_move",
            "--moves",
            str(moves),
            *(() if view else ("--no-view",)),
        ]
        env = os.environ | {"PYTHONHASHSEED": "0"}
        subprocess.run(command, check=True, env=env, capture_output=True)
        with open(out) as f:
            text = f.read()
    found = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
    if found is None:
        raise RuntimeError("no total in callgrind's output")
    return int(found.group(1))


def table(moves: int) -> str:
    base = instructions(0, False)
    played = instructions(moves, False)
    viewed = instructions(moves, True)
    play = (played - base) / moves
    view = (viewed - played) / moves
    return (
        f"instructions per move, {moves} Freecell moves (callgrind, PYTHONHASHSEED=0):\n"
        f"  decode, ply rule, play, legal moves, state, row: {play:,.0f}\n"
        f"  the view and its game frame:                     {view:,.0f}\n"
        f"  in all:                                          {play + view:,.0f}\n"
    )


async def _clients(port: int, clients: int, warm: int, moves: int, pid: int) -> None:
    """Each client plays ``warm`` moves; the server's counters are zeroed; each plays
    ``moves`` more, all at once; the counters are dumped."""
    from websockets.asyncio.client import connect

    async def player(number: int, start: asyncio.Event, warmed: asyncio.Barrier) -> None:
        rng = random.Random(SEED + number)
        url = f"ws://127.0.0.1:{port}/ws"
        async with connect(url, compression=None, max_size=None, open_timeout=600) as ws:
            sent = 0

            async def request(message: dict[str, Any]) -> dict[str, Any]:
                nonlocal sent
                sent += 1
                message["id"] = sent
                await ws.send(msgpack.packb(message))
                while True:
                    reply: dict[str, Any] = msgpack.unpackb(await ws.recv())
                    if reply.get("re") == sent:
                        return reply

            async def new_game() -> dict[str, Any]:
                seed = rng.randint(1, 1_000_000)
                reply = await request({"type": "start_game", "variant": "freecell", "seed": seed})
                game: dict[str, Any] = reply["game"]
                return game

            name = f"permove{number}"
            await request({"type": "hello", "protocol": 2, "client": "bench/1", "name": name})
            game = await new_game()
            for n in range(warm + moves):
                if n == warm:
                    await warmed.wait()
                    await start.wait()
                if game["state"] != "playing" or not game["legal"]:
                    game = await new_game()
                move = rng.choice(game["legal"])
                message = {"type": "move", "game": game["id"], "ply": game["ply"], "move": move}
                reply = await request(message)
                if reply["type"] != "game":
                    raise RuntimeError(f"move refused: {reply}")
                game = reply["game"]

    start = asyncio.Event()
    warmed = asyncio.Barrier(clients + 1)
    players = [asyncio.create_task(player(n, start, warmed)) for n in range(clients)]
    await warmed.wait()
    _control("-z", pid)
    start.set()
    await asyncio.gather(*players)
    _control("-d", pid)
    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:  # the dump is taken when it next runs
        await ws.send(msgpack.packb({"type": "ping", "id": 1}))
        await ws.recv()


def _control(flag: str, pid: int) -> None:
    subprocess.run(["callgrind_control", flag, str(pid)], check=True, capture_output=True)


def server_instructions(clients: int, warm: int, moves: int, keep: str | None = None) -> float:
    """Instructions per move of the whole server (see the module's docstring)."""
    import glob
    import shutil
    import time

    script = os.path.join(os.path.dirname(sys.executable), "patience-club")
    with tempfile.TemporaryDirectory(prefix="per-move-") as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            # (each dump names its functions itself: callgrind_annotate reads it alone)
            "--compress-strings=no", "--compress-pos=no",
            sys.executable, script, "serve", "--port", "0",
            "--db", f"sqlite+aiosqlite:///{tmp}/per_move.db",
            "--stuck-workers", "0", "--log-level", "WARNING",
        ]  # fmt: skip
        env = os.environ | {
            "PYTHONHASHSEED": "0",
            "PATIENCE_DAILY_AHEAD": "0",
            "PATIENCE_DEAL_POOL_WORKERS": "0",
            "PATIENCE_METRICS_HOST": "",
        }
        server = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline().decode()
            found = re.search(r":(\d+)/ws", line)
            if found is None:
                raise RuntimeError(f"the server did not start: {line!r}")
            asyncio.run(_clients(int(found.group(1)), clients, warm, moves, server.pid))
            for _ in range(600):  # the dump lands beside the output file, numbered
                dumps = [d for d in glob.glob(out + ".*") if os.path.getsize(d) > 0]
                if dumps:
                    break
                time.sleep(0.1)
            time.sleep(1)
            dump = max(dumps, key=os.path.getmtime)
            with open(dump) as f:
                text = f.read()
            if keep:
                shutil.copy(dump, keep)  # for callgrind_annotate
        finally:
            server.terminate()
            server.wait(60)
            shutil.rmtree(tmp, ignore_errors=True)
    total = re.search(r"^(?:summary|totals): (\d+)", text, re.MULTILINE)
    if total is None:
        raise RuntimeError("no total in callgrind's dump")
    return int(total.group(1)) / (moves * clients)


class _Transport:
    """A transport that hands each frame written back to its connection's list, unframed."""

    def __init__(self, out: list[bytes]) -> None:
        self.out = out

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, _name: str, default: Any = None) -> Any:
        return default

    def write(self, frame: bytes) -> None:
        size = frame[1]
        self.out.append(frame[2:] if size < 126 else frame[4:] if size == 126 else frame[10:])

    def abort(self) -> None:
        pass


class _Socket:
    """What the server's :class:`Connection` reads of websockets' connection."""

    remote_address = ("127.0.0.1", 1)
    send_in_progress = None
    request = None

    def __init__(self) -> None:
        from websockets.protocol import State
        from websockets.server import ServerProtocol

        self.out: list[bytes] = []
        self.protocol = ServerProtocol()
        self.protocol.state = State.OPEN
        self.transport = _Transport(self.out)

    def send_data(self) -> None:  # as websockets' connection does
        for data in self.protocol.data_to_send():
            self.transport.write(data)


async def _app_moves(moves: int, clients: int) -> None:
    """``clients`` players each play ``moves`` moves through the app's router (``--app``)."""
    from server.app import App
    from server.config import Config
    from server.net.connection import Connection
    from server.observe import runtime
    from server.players import changes

    changes.POLL_S = 3600.0  # nothing paid per second in the count: the moves alone
    with tempfile.TemporaryDirectory(prefix="per-move-app-") as tmp:
        config = Config(
            host="127.0.0.1", port=0, db=f"sqlite+aiosqlite:///{tmp}/app.db",
            daily_ahead=False, stuck_workers=0, deal_pool_workers=0, metrics_port=0,
            rate_limit=1e9, rate_burst=10**9, registration_limit=0,
            arena_tick_ms=3_600_000, race_tick_ms=3_600_000,
        )  # fmt: skip
        app = App(config)
        await app.start()
        runtime.tune()
        router = app.router

        async def player(number: int) -> None:
            rng = random.Random(SEED + number)
            ws = _Socket()
            connection = Connection(ws, 1000 + number, config)  # type: ignore[arg-type]
            sent = 0

            async def request(message: dict[str, Any]) -> dict[str, Any]:
                nonlocal sent
                sent += 1
                message["id"] = sent
                await router.dispatch(connection, msgpack.packb(message))
                reply: dict[str, Any] = msgpack.unpackb(ws.out.pop())
                if reply.get("re") != sent or reply["type"] == "error":
                    raise RuntimeError(f"refused: {reply}")
                return reply

            async def new_game() -> dict[str, Any]:
                seed = rng.randint(1, 1_000_000)
                reply = await request({"type": "start_game", "variant": "freecell", "seed": seed})
                return reply["game"]  # type: ignore[no-any-return]

            name = f"app{number}"
            await request({"type": "hello", "protocol": 2, "client": "bench/1", "name": name})
            game = await new_game()
            for _ in range(moves):
                if game["state"] != "playing" or not game["legal"]:
                    game = await new_game()
                move = rng.choice(game["legal"])
                message = {"type": "move", "game": game["id"], "ply": game["ply"], "move": move}
                game = (await request(message))["game"]

        try:
            await asyncio.gather(*(player(n) for n in range(clients)))
        finally:
            await app.stop()


def app_instructions(clients: int, moves: int) -> float:
    """Instructions per move of the app's own path (``--app``): two valgrind runs."""
    counts = []
    for played in (0, moves):
        with tempfile.TemporaryDirectory(prefix="per-move-") as tmp:
            out = os.path.join(tmp, "callgrind.out")
            command = [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                sys.executable, "-m", "bench.per_move", "--app-run",
                "--clients", str(clients), "--moves", str(played),
            ]  # fmt: skip
            env = os.environ | {"PYTHONHASHSEED": "0"}
            subprocess.run(command, check=True, env=env, capture_output=True)
            with open(out) as f:
                found = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.MULTILINE)
            if found is None:
                raise RuntimeError("no total in callgrind's output")
            counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) / (clients * moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/per_move.py", description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=MOVES)
    parser.add_argument("--no-view", action="store_true", help="leave the view and frame out")
    parser.add_argument(
        "--callgrind", action="store_true", help="run under valgrind: 0 moves, moves, views"
    )
    parser.add_argument(
        "--server", action="store_true", help="the whole server under callgrind, per move"
    )
    parser.add_argument("--warm", type=int, default=50, help="moves before counting (--server)")
    parser.add_argument(
        "--clients", type=int, default=1, help="clients playing at once (--server; 1: paced)"
    )
    parser.add_argument("--keep", help="copy the callgrind dump here (--server)")
    parser.add_argument(
        "--app", action="store_true", help="the app's own path in one process, per move"
    )
    parser.add_argument("--app-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.app_run:
        asyncio.run(_app_moves(args.moves, args.clients))
        return 0
    if args.app:
        per_move = app_instructions(args.clients, args.moves)
        print(
            f"the app's own path, {args.clients} client(s) x {args.moves} Freecell moves "
            f"(callgrind, no sockets): {per_move:,.0f} instructions per move"
        )
        return 0
    if args.server:
        per_move = server_instructions(args.clients, args.warm, args.moves, args.keep)
        print(
            f"the whole server, {args.clients} client(s) x {args.moves} Freecell moves after "
            f"{args.warm} (callgrind): {per_move:,.0f} instructions per move"
        )
        return 0
    if args.callgrind:
        print(table(args.moves), end="")
        return 0
    play = mover(not args.no_view)
    play(args.moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
