"""Load on the real server over loopback, next to a bare websockets + msgpack echo server.

The same client code runs against both: connect, ``hello``, ``start_game``,
then moves (a random legal move of the last view, with the ply rule). The
echo server answers every request with a canned GameView of the same size,
so it measures what this stack (asyncio, websockets, msgpack, loopback) can
do at best; the ratios say what the server's own work costs.

``--db`` names the databases (bench/databases.py: ``sqlite``, ``postgresql``
made for the run, or a URL), one server on each; every phase measures each
server in turn, then the echo server.

``--two-nodes`` measures instead one node and then two nodes (joined by
Redis, the clients split between them) on one PostgreSQL database made for
the run, beside the echo server: what a second node adds.

Phases (each bounded by ``--duration``): paced (N clients x R moves/s),
saturated (N clients, back-to-back moves), and idle memory (``--idle``
welcomed connections doing nothing: server RSS growth per connection), plus
the engine alone on the same kind of play (CPU per move, for comparison
with the server's CPU per move).

The server's CPU is its process and its worker processes (the stuck-search
pool), split into the event loop's thread and the workers: moving work into
a worker does not make it free. ``--stall-trace FILE`` has the server
time its event loop's turns, garbage collections and commits (see
server/observe/stalls.py). ``--server-profile FILE`` samples the
server's main thread while it is measured (see :class:`Sampler`).

    python -m bench load                          # 200 clients x 2/s, 10 s per phase
    python -m bench load --db sqlite,postgresql   # a server on each, measured in turn
    python -m bench load --clients 500 --phases paced
    python -m bench load --phases saturated --server-profile /tmp/server.txt
    python -m bench load --two-nodes --phases paced,saturated   # PostgreSQL + Redis
    python -m bench.load --echo-server            # the echo server alone (used internally)
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve

from bench import databases

PHASES = ("paced", "saturated", "engine", "idle")


# -- the echo server ------------------------------------------------------------------


def canned_view() -> dict[str, Any]:
    from shared.games import new_game

    view = new_game("freecell", seed=617).view()
    view.update(id="echo0000", elapsed_ms=0)
    return view


async def echo_server() -> None:
    view = canned_view()

    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            m = msgpack.unpackb(bytes(frame, "utf-8") if isinstance(frame, str) else frame)
            await ws.send(msgpack.packb({"type": "game", "re": m.get("id"), "game": view}))

    async with serve(handler, "127.0.0.1", 0, compression=None, max_size=16384) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"listening on ws://127.0.0.1:{port}/ws", flush=True)
        await asyncio.Future()


class Sampler:
    """A sampling profiler of the server's main thread: one sample per 0.5 ms of process CPU.

    SIGPROF fires on CPU time, not wall time, so a loaded machine does not
    charge a function for the time the scheduler gave to other processes, and
    the cost per sample is small enough not to change what is measured (a
    deterministic profiler doubles the cost of the server's small calls). Time
    in C calls counts for the Python function that made them; CPU of the
    writer thread lands wherever the main thread was.
    """

    INTERVAL_S = 0.0005

    def __init__(self) -> None:
        self.own: collections.Counter[str] = collections.Counter()
        self.inclusive: collections.Counter[str] = collections.Counter()
        self.samples = 0

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.INTERVAL_S, self.INTERVAL_S)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def _sample(self, _signum: int, frame: Any) -> None:
        self.samples += 1
        seen: set[str] = set()
        first = True
        while frame is not None:
            code = frame.f_code
            name = f"{code.co_filename.removeprefix(os.getcwd() + '/')}:{code.co_firstlineno}"
            key = f"{name} {code.co_name}"
            if first:
                self.own[key] += 1
                first = False
            if key not in seen:
                seen.add(key)
                self.inclusive[key] += 1
            frame = frame.f_back

    def report(self, top: int = 150) -> str:
        lines = [f"{self.samples} samples, {self.INTERVAL_S * 1000:g} ms of CPU each"]
        for title, counts in (("own", self.own), ("inclusive", self.inclusive)):
            lines.append(f"\n-- {title} --")
            for key, n in counts.most_common(top):
                lines.append(f"{100 * n / max(self.samples, 1):6.2f}%  {key}")
        return "\n".join(lines) + "\n"


def profiled_server(path: str, argv: list[str]) -> int:
    """``patience-club ARGV`` sampled (:class:`Sampler`) from SIGUSR1 to its exit; the report
    goes to ``path``.

    The benchmark sends SIGUSR1 once its clients are connected, so the profile
    holds the measured phases, not the start, migrations and registrations.
    """
    from server.cli import main as cli_main

    sampler = Sampler()
    signal.signal(signal.SIGUSR1, lambda *_: sampler.start())
    try:
        return cli_main(argv)
    finally:
        sampler.stop()
        Path(path).write_text(sampler.report())


# -- processes ----------------------------------------------------------------------------


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (field 3 onwards)."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class Target:
    """A server process and its worker processes (the server's stuck-search pool)."""

    name: str
    process: asyncio.subprocess.Process
    port: int
    peak_rss_kib: int = 0
    #: peak of the process and its descendants together
    peak_tree_rss_kib: int = 0
    #: runs under cProfile, which SIGUSR1 switches on
    profiled: bool = False

    def descendants(self) -> list[int]:
        """The process's live descendants (worker processes), found by parent id in /proc."""
        parents: dict[int, int] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    parents[int(entry.name)] = int(_stat(int(entry.name))[1])
                except (OSError, IndexError, ValueError):
                    continue
        found: list[int] = []
        frontier = [self.process.pid]
        while frontier:
            parent = frontier.pop()
            children = [pid for pid, ppid in parents.items() if ppid == parent]
            found += children
            frontier += children
        return found

    def rss_kib(self) -> int:
        return _rss_kib(self.process.pid)

    def cpu_seconds(self) -> tuple[float, float, float]:
        """User + system CPU time so far: of the process, of its main thread (the event loop),
        and of its live descendants."""
        tick = os.sysconf("SC_CLK_TCK")

        def cpu(path: str) -> float:
            with open(path) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick

        pid = self.process.pid
        workers = 0.0
        for child in self.descendants():
            try:
                workers += cpu(f"/proc/{child}/stat")
            except OSError:
                continue  # ended meanwhile
        return cpu(f"/proc/{pid}/stat"), cpu(f"/proc/{pid}/task/{pid}/stat"), workers

    async def watch_rss(self) -> None:
        workers: list[int] = []
        for tick in itertools.count():
            if tick % 20 == 0:  # scanning /proc costs the clients' CPU: every 2 s is enough
                workers = self.descendants()
            own = self.rss_kib()
            tree = own
            for pid in workers:
                try:
                    tree += _rss_kib(pid)
                except OSError:
                    continue
            self.peak_rss_kib = max(self.peak_rss_kib, own)
            self.peak_tree_rss_kib = max(self.peak_tree_rss_kib, tree)
            await asyncio.sleep(0.1)

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


async def start(name: str, *command: str) -> Target:
    # Solo play only: no daily deals nor winnable deals solved in the background while we
    # measure (their solver's CPU would be counted as the moves'; a tree without a deal pool
    # ignores the setting).
    env = os.environ | {"PATIENCE_DAILY_AHEAD": "0", "PATIENCE_DEAL_POOL_WORKERS": "0"}
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, env=env
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 60)
    match = re.search(rb":(\d+)/ws", line)
    if not match:
        raise RuntimeError(f"{name} did not start: {line!r}")
    return Target(name, process, int(match.group(1)))


async def start_server(
    db_dir: str,
    profile: str | None = None,
    *,
    url: str | None = None,
    name: str = "server",
    cluster: list[str] | None = None,
) -> Target:
    """The real server, on an SQLite file in ``db_dir`` or on database ``url``; with
    ``profile``, profiled (see :func:`profiled_server`) into that file; ``cluster``: the
    flags of a node of several (Redis, its prefix, the node's id)."""
    script = Path(sys.executable).parent / "patience-club"
    runner = (
        [sys.executable, "-m", "bench.load", "--profiled-server", profile]
        if profile
        else [str(script)]
    )
    if os.environ.get("PATIENCE_BENCH_CPROFILE"):
        # call counts, not times: cProfile doubles the cost of small calls
        runner = [sys.executable, "-m", "cProfile", "-o", os.environ["PATIENCE_BENCH_CPROFILE"]]
        runner.append(str(script))
    return await start(
        name,
        *runner,
        "serve",
        "--port", "0",
        "--metrics-port", "0",
        "--db", url or f"sqlite+aiosqlite:///{db_dir}/load.db",
        "--rate-limit", "1000000",
        "--rate-burst", "1000000",
        "--max-connections", "20000",
        "--max-connections-per-ip", "20000",
        "--registration-limit", "0",  # every simulated player registers from loopback
        "--log-level", "WARNING",
        *(cluster or ()),  # (a later --db wins)
    )  # fmt: skip


async def start_echo() -> Target:
    return await start("echo", sys.executable, "-m", "bench.load", "--echo-server")


# -- the client ---------------------------------------------------------------------------


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    errors: int = 0
    failed_clients: int = 0


class Player:
    """One client: the same code against the server and the echo server."""

    def __init__(self, port: int, number: int) -> None:
        self.port = port
        self.number = number
        self.rng = random.Random(number)
        self.ws: ClientConnection | None = None
        self.next_id = 0
        self.game: dict[str, Any] = {}

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.ws is not None
        self.next_id += 1
        message["id"] = self.next_id
        await self.ws.send(msgpack.packb(message))
        while True:
            data = await self.ws.recv()
            reply: dict[str, Any] = msgpack.unpackb(
                data.encode() if isinstance(data, str) else data
            )
            if reply.get("re") == self.next_id:
                return reply

    async def open(self, run: str) -> None:
        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws", compression=None, max_size=None, open_timeout=60
        )
        name = f"{run}{self.number}"
        reply = await self.request(
            {"type": "hello", "protocol": 2, "client": "bench/1", "name": name}
        )
        if reply.get("type") == "error":
            raise RuntimeError(f"hello refused: {reply}")
        await self.new_game()

    async def new_game(self) -> None:
        seed = self.rng.randint(1, 1_000_000)
        reply = await self.request({"type": "start_game", "variant": "freecell", "seed": seed})
        if "game" not in reply:
            raise RuntimeError(f"start_game refused: {reply}")
        self.game = reply["game"]

    async def move(self, stats: Stats) -> None:
        game = self.game
        if game.get("state") != "playing" or not game.get("legal"):
            await self.new_game()
            return
        move = self.rng.choice(game["legal"])
        started = time.perf_counter()
        reply = await self.request(
            {"type": "move", "game": game["id"], "ply": game["ply"], "move": move}
        )
        stats.rtts.append(time.perf_counter() - started)
        if reply["type"] == "game":
            self.game = reply["game"]
        else:
            stats.errors += 1
            if "game" in reply:
                self.game = reply["game"]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def open_players(port: int | list[int], count: int, run: str) -> list[Player]:
    """``count`` players; with several ports, spread over them in turn (one node each)."""
    ports = port if isinstance(port, list) else [port]
    players = [Player(ports[n % len(ports)], n) for n in range(count)]
    # Connect in batches: a burst of thousands of handshakes measures the accept queue.
    for first in range(0, count, 50):
        await asyncio.gather(*(p.open(run) for p in players[first : first + 50]))
    return players


async def drive(players: list[Player], rate: float | None, duration: float) -> Stats:
    """Every player moves at ``rate`` per second (None: back to back) for ``duration``."""
    stats = Stats()
    deadline = time.perf_counter() + duration

    async def loop(player: Player) -> None:
        interval = 1 / rate if rate else 0.0
        if interval:
            await asyncio.sleep(player.rng.random() * interval)
        next_at = time.perf_counter()
        try:
            while time.perf_counter() < deadline:
                await player.move(stats)
                if interval:
                    next_at += interval
                    delay = next_at - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
        except Exception:
            stats.failed_clients += 1

    await asyncio.gather(*(loop(p) for p in players))
    return stats


def summary(stats: Stats, duration: float) -> dict[str, float]:
    rtts = sorted(stats.rtts)
    if not rtts:
        return {"moves_per_s": 0.0, "errors": stats.errors, "failed": stats.failed_clients}
    q = statistics.quantiles(rtts, n=100, method="inclusive")
    return {
        "moves_per_s": len(rtts) / duration,
        "p50_ms": q[49] * 1000,
        "p95_ms": q[94] * 1000,
        "p99_ms": q[98] * 1000,
        "errors": stats.errors,
        "failed": stats.failed_clients,
    }


async def measure(
    target: Target | list[Target], clients: int, rate: float | None, duration: float, run: str
) -> dict[str, float]:
    """One measurement; with several targets (nodes) the clients are split between them and
    CPU and memory are their sums."""
    targets = target if isinstance(target, list) else [target]
    players = await open_players([t.port for t in targets], clients, run)
    watchers = [asyncio.create_task(t.watch_rss()) for t in targets]
    for t in targets:
        if t.profiled:
            t.process.send_signal(signal.SIGUSR1)
    before = [t.cpu_seconds() for t in targets]
    try:
        stats = await drive(players, rate, duration)
    finally:
        for watcher in watchers:
            watcher.cancel()
        after = [t.cpu_seconds() for t in targets]
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    own = sum(a[0] - b[0] for a, b in zip(after, before, strict=True))
    loop = sum(a[1] - b[1] for a, b in zip(after, before, strict=True))
    workers = sum(a[2] - b[2] for a, b in zip(after, before, strict=True))
    moves = max(len(stats.rtts), 1)
    result = summary(stats, duration)
    result["peak_rss_mib"] = sum(t.peak_rss_kib for t in targets) / 1024
    result["peak_rss_with_workers_mib"] = sum(t.peak_tree_rss_kib for t in targets) / 1024
    # CPU counts the worker processes too: moving work into them is not making it free.
    result["cpu_percent"] = 100 * (own + workers) / duration
    result["cpu_ms_per_move"] = 1000 * (own + workers) / moves
    result["worker_cpu_ms_per_move"] = 1000 * workers / moves
    result["loop_cpu_ms_per_move"] = 1000 * loop / moves
    return result


async def idle_memory(target: Target, count: int) -> float:
    """KiB of server RSS per welcomed, idle connection."""
    await asyncio.sleep(0.5)
    before = target.rss_kib()
    players = [Player(target.port, n) for n in range(count)]
    for first in range(0, count, 50):
        await asyncio.gather(*(idle_open(p) for p in players[first : first + 50]))
    await asyncio.sleep(1.0)
    after = target.rss_kib()
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    return (after - before) / count


async def idle_open(player: Player) -> None:
    player.ws = await connect(
        f"ws://127.0.0.1:{player.port}/ws", compression=None, max_size=None, open_timeout=60
    )
    name = f"idle{player.number}"
    await player.request({"type": "hello", "protocol": 2, "client": "bench/1", "name": name})


# -- main -----------------------------------------------------------------------------------


def engine_cpu_per_move(games: int, seconds: float = 3.0) -> float:
    """Milliseconds of CPU the engine alone spends per move (play + view) on the clients' kind
    of play: random legal moves in ``games`` Freecell games taken in turn, a new deal when one
    ends, as the server sees them."""
    from shared.games import new_game

    rng = random.Random(7)
    boards = [new_game("freecell", seed=rng.randint(1, 1_000_000)) for _ in range(games)]
    views = [b.view() for b in boards]
    moves = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        for i, view in enumerate(views):
            if view["state"] != "playing" or not view["legal"]:
                boards[i] = new_game("freecell", seed=rng.randint(1, 1_000_000))
            else:
                boards[i].play(rng.choice(view["legal"]))
                moves += 1
            views[i] = boards[i].view()
    return 1000 * (time.process_time() - started) / max(moves, 1)


def row(name: str, r: dict[str, float]) -> str:
    return (
        f"  {name:<18} {r['moves_per_s']:9.0f}/s  p50 {r.get('p50_ms', 0):7.2f} ms  "
        f"p95 {r.get('p95_ms', 0):7.2f} ms  p99 {r.get('p99_ms', 0):7.2f} ms  "
        f"errors {r['errors']:.0f}  failed {r['failed']:.0f}  "
        f"CPU {r['cpu_percent']:.0f}% ({r['cpu_ms_per_move']:.2f} ms/move: "
        f"loop {r['loop_cpu_ms_per_move']:.2f}, workers {r['worker_cpu_ms_per_move']:.2f})  "
        f"peak RSS {r['peak_rss_mib']:.0f} MiB ({r['peak_rss_with_workers_mib']:.0f} with workers)"
    )


async def run_nodes(args: argparse.Namespace) -> dict[str, Any]:
    """One node, then two nodes, on one PostgreSQL database (made for the run) and Redis."""
    results: dict[str, Any] = {
        "load_average": os.getloadavg()[0],
        "clients": args.clients,
        "rate": args.rate,
        "duration_s": args.duration,
    }
    prefix = f"bench{os.getpid()}:"
    stack = contextlib.ExitStack()
    url = stack.enter_context(databases.temporary("postgresql", "", "nodes"))
    echo = await start_echo()
    nodes: list[Target] = []
    try:
        for count in (1, 2):
            for node in nodes:
                await node.stop()
            flags = ["--redis", args.redis, "--redis-prefix", prefix]
            nodes = []
            for n in range(count):  # one after the other: the first migrates the database
                flags_n = [*flags, "--node-id", f"n{n}"]
                nodes.append(await start_server("", url=url, name=f"node {n}", cluster=flags_n))
            label = f"{count} node{'s' * (count > 1)}"
            for phase, clients, rate in (
                ("paced", args.clients, args.rate),
                ("saturated", args.saturate_clients, None),
            ):
                if phase not in args.phases:
                    continue
                how = f"{clients} clients x {rate:g} moves/s" if rate else f"{clients} clients"
                print(f"{phase}, {label} on PostgreSQL: {how}, {args.duration:g} s", flush=True)
                r = await measure(nodes, clients, rate, args.duration, f"{phase[:3]}{count}n")
                print(row(label, r))
                results.setdefault(phase, {})[label] = r
        for phase, clients, rate in (
            ("paced", args.clients, args.rate),
            ("saturated", args.saturate_clients, None),
        ):
            if phase in args.phases:
                e = await measure(echo, clients, rate, args.duration, phase[:3])
                print(row(f"echo ({phase})", e))
                results[phase]["echo"] = e
    finally:
        for node in nodes:
            await node.stop()
        await echo.stop()
        stack.close()  # the database dropped
    return results


async def run(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {
        "load_average": os.getloadavg()[0],
        "clients": args.clients,
        "rate": args.rate,
        "duration_s": args.duration,
        "databases": [databases.label(spec) for spec in args.db],
    }
    with contextlib.ExitStack() as stack:
        db_dir = stack.enter_context(tempfile.TemporaryDirectory(prefix="patience-load-"))
        servers: list[Target] = []
        try:
            for n, spec in enumerate(args.db):
                url = stack.enter_context(databases.temporary(spec, db_dir, f"load{n}"))
                # (the profile, when asked for, is of the first server)
                profile = args.server_profile if n == 0 else None
                name = f"server {databases.label(spec)}"
                server = await start_server(db_dir, profile, url=url, name=name)
                server.profiled = profile is not None
                servers.append(server)
            echo = await start_echo()
            servers_and_echo = [*servers, echo]
            try:
                await phases(args, servers_and_echo, results)
            finally:
                await echo.stop()
        finally:
            for server in servers:
                await server.stop()
    return results


async def phases(args: argparse.Namespace, targets: list[Target], results: dict[str, Any]) -> None:
    """Each phase on every server in turn, then on the echo server (the last target)."""
    *servers, echo = targets
    if "paced" in args.phases:
        print(f"paced: {args.clients} clients x {args.rate:g} moves/s, {args.duration:g} s")
        e = await measured(servers, echo, args.clients, args.rate, args.duration, "paced")
        results["paced"] = e
        for server in servers:
            p99 = e[server.name].get("p99_ms", 0) / max(e["echo"].get("p99_ms", 1e-9), 1e-9)
            print(f"  p99 ratio {server.name}/echo: {p99:.2f} (target < 3)")
            e[server.name]["p99_ratio"] = p99
    if "saturated" in args.phases:
        n = args.saturate_clients
        print(f"saturated: {n} clients, back-to-back moves, {args.duration:g} s")
        e = await measured(servers, echo, n, None, args.duration, "sat")
        results["saturated"] = e
        for server in servers:
            ratio = e[server.name]["moves_per_s"] / max(e["echo"]["moves_per_s"], 1e-9)
            print(f"  throughput ratio {server.name}/echo: {ratio:.2f} (target >= 0.5)")
            e[server.name]["throughput_ratio"] = ratio
    if "engine" in args.phases:
        ms = engine_cpu_per_move(args.saturate_clients)
        print(
            f"engine alone ({args.saturate_clients} games in turn, play + view): "
            f"{ms:.2f} ms CPU per move"
        )
        results["engine_cpu_ms_per_move"] = ms
    if "idle" in args.phases:
        for server in servers:
            kib = await idle_memory(server, args.idle)
            print(
                f"idle: {args.idle} welcomed connections on {server.name}: "
                f"{kib:.1f} KiB each (target < 100)"
            )
            results.setdefault("idle_kib_per_connection", {})[server.name] = kib


async def measured(
    servers: list[Target],
    echo: Target,
    clients: int,
    rate: float | None,
    duration: float,
    run: str,
) -> dict[str, dict[str, float]]:
    """One measurement of every server in turn, then of the echo server, printed."""
    figures: dict[str, dict[str, float]] = {}
    for n, target in enumerate([*servers, echo]):
        # a run name of its own per server: the players it registers are new on each
        figures[target.name] = await measure(target, clients, rate, duration, f"{run}{n}x")
        print(row(target.name, figures[target.name]))
    return figures


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--profiled-server"]:
        # (the server's own flags follow, ``--db`` among them: not this parser's to read)
        return profiled_server(argv[1], argv[2:])
    parser = argparse.ArgumentParser(
        prog="bench/load.py", description=__doc__.split("\n")[0], allow_abbrev=False
    )
    parser.add_argument("--clients", type=int, default=200, help="paced clients (default 200)")
    parser.add_argument("--rate", type=float, default=2.0, help="moves/s per paced client")
    parser.add_argument("--saturate-clients", type=int, default=None, help="default: --clients")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per measurement")
    parser.add_argument("--idle", type=int, default=1000, help="idle connections to weigh")
    parser.add_argument("--phases", default=",".join(PHASES), help=",".join(PHASES))
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--db",
        default="sqlite",
        help="the servers' databases, comma-separated: sqlite, postgresql (made for the run) "
        "or SQLAlchemy URLs; one server on each (default sqlite)",
    )
    parser.add_argument(
        "--server-profile", help="sample the server's CPU while it is measured, into this file"
    )
    parser.add_argument(
        "--stall-trace",
        help="the server traces its event loop's stalls, commits and collections into this file "
        "(server/observe/stalls.py; written when the server stops)",
    )

    parser.add_argument(
        "--two-nodes",
        action="store_true",
        help="one node, then two nodes joined by Redis (clients split), on a PostgreSQL "
        "database made for the run (at PATIENCE_BENCH_POSTGRES)",
    )
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="for --two-nodes")

    parser.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.echo_server:
        asyncio.run(echo_server())
        return 0
    args.phases = [p for p in args.phases.split(",") if p]
    args.db = [d for d in args.db.split(",") if d]
    if args.stall_trace:
        os.environ["PATIENCE_STALL_TRACE"] = os.path.abspath(args.stall_trace)

    args.saturate_clients = args.saturate_clients or args.clients
    load = os.getloadavg()[0]
    print(f"bench/load.py on {os.cpu_count()} CPUs, loopback, load average {load:.1f}", flush=True)
    results = asyncio.run(run_nodes(args) if args.two_nodes else run(args))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
