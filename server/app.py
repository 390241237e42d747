"""The server: WebSocket connections in, messages dispatched, errors answered in one place.

``App`` owns the database engine, the group-commit writer, the game service
and the websockets server. The connection handler holds no rules and no SQL:
it enforces the transport limits of protocol.md, decodes, dispatches through
:data:`server.handlers.ROUTES` and turns every refusal into an ``error``.
"""

from __future__ import annotations

import asyncio
import http
import importlib
import importlib.metadata
import itertools
import json
import logging
import time
from collections import Counter
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from server import db, hooks
from server.config import Config
from server.handlers import ROUTES
from server.live import Clock, GameService
from server.migrate import upgrade
from server.searches import StuckSearches
from server.session import WRITE_LIMIT, Session
from server.writer import Writer
from shared import protocol as p
from shared.errors import ProtocolError

log = logging.getLogger("server")

#: handler modules imported at start; extensions (races, daily...) append theirs
EXTENSIONS: list[str] = ["server.handlers.session", "server.handlers.games"]
# issue 5: races, daily challenges, statistics, metrics (they register in server.hooks)
EXTENSIONS += ["server.handlers.races", "server.handlers.daily", "server.handlers.stats"]
EXTENSIONS += ["server.metrics"]

WS_PATH = "/ws"
CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def load_handlers() -> None:
    for name in EXTENSIONS:
        importlib.import_module(name)


def server_version() -> str:
    try:
        return importlib.metadata.version("patience-club")
    except importlib.metadata.PackageNotFoundError:
        return "0"


class App:
    def __init__(self, config: Config, *, clock: Clock = wall_clock_ms) -> None:
        self.config = config
        self.clock = clock
        self.engine = db.create_engine(config.db)
        self.sessions = db.sessionmaker(self.engine)
        self.writer = Writer(
            db.create_sync_engine(config.db, autocheckpoint=False),
            delay_s=config.commit_delay_ms / 1000,
        )
        self.checkpointer = db.Checkpointer(config.db)
        self.searches = StuckSearches(config.stuck_workers)
        self.games = GameService(
            self.sessions,
            self.writer,
            clock,
            hint_budget=config.hint_budget,
            searches=self.searches,
        )
        #: open connections, and the welcomed ones by player id (for pushes)
        self.connections: set[Session] = set()
        self.players: dict[int, set[Session]] = {}
        self._per_ip: Counter[str] = Counter()
        self._numbers = itertools.count(1)
        self._server: Server | None = None
        self._stopped = asyncio.Event()

    # -- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        """Migrate the database, start the writer, listen."""
        load_handlers()
        await upgrade(self.engine)
        self.writer.start()
        self.checkpointer.start()
        self.searches.start()
        await hooks.started(self)
        self._server = await serve(
            self._connection,
            self.config.host,
            self.config.port,
            process_request=self._http,
            max_size=self.config.max_message_bytes,
            compression=None,  # deflate costs ~100 KiB per connection; views are small
            max_queue=4,
            write_limit=WRITE_LIMIT,
            close_timeout=2,
            ping_interval=20,
            ping_timeout=20,
        )
        log.info(
            "serving %r on ws://%s:%d%s (database %s)",
            self.config.name,
            self.config.host,
            self.port,
            WS_PATH,
            self.engine.url.render_as_string(hide_password=True),
        )

    @property
    def port(self) -> int:
        assert self._server is not None
        port: int = next(iter(self._server.sockets)).getsockname()[1]
        return port

    async def stop(self) -> None:
        """Stop accepting, close connections with 1001, commit what is queued."""
        if self._server is not None:
            log.info("shutting down: closing %d connections", len(self.connections))
            self._server.close(close_connections=True)
            await self._server.wait_closed()
            self._server = None
        await hooks.stopping(self)
        await self.games.drain()
        await self.writer.stop()
        self.checkpointer.stop()
        self.searches.close()
        await self.engine.dispose()
        log.info(
            "stopped; %d commits of %d writes; stuck searches: %d in workers, %d here",
            self.writer.commits,
            self.writer.writes,
            self.searches.in_workers,
            self.searches.in_process,
        )
        self._stopped.set()

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    # -- HTTP on the same port ---------------------------------------------------------

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == WS_PATH:
            return None
        if path == "/healthz":
            ok = await asyncio.wait_for(db.ping(self.engine), 5)
            status = http.HTTPStatus.OK if ok else http.HTTPStatus.SERVICE_UNAVAILABLE
            return _json(status, {"status": "ok" if ok else "unavailable"})
        if path in hooks.HTTP:
            return await hooks.HTTP[path](self)
        return _json(http.HTTPStatus.NOT_FOUND, {"status": "not found", "websocket": WS_PATH})

    # -- connections ----------------------------------------------------------------------

    async def _connection(self, ws: ServerConnection) -> None:
        session = Session(self, ws, next(self._numbers))
        ip = session.ip
        if len(self.connections) >= self.config.max_connections:
            log.warning("%r refused: server at %d connections", session, len(self.connections))
            await ws.close(CLOSE_TRY_AGAIN, "the server is full; try again later")
            return
        if self._per_ip[ip] >= self.config.max_connections_per_ip:
            log.warning("%r refused: %d connections from %s", session, self._per_ip[ip], ip)
            await ws.close(CLOSE_TRY_AGAIN, "too many connections from your address")
            return
        self.connections.add(session)
        self._per_ip[ip] += 1
        session.start()
        log.info("%r connected", session)
        try:
            async for frame in ws:
                await self.dispatch(session, frame)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(session)
            self._per_ip[ip] -= 1
            if not self._per_ip[ip]:
                del self._per_ip[ip]
            if session.player is not None:
                mine = self.players.get(session.player.id)
                if mine is not None:
                    mine.discard(session)
                    if not mine:
                        del self.players[session.player.id]
            hooks.closed(session)
            await session.stop()
            log.info("%r closed: code %s %s", session, ws.close_code, ws.close_reason or "")

    def welcomed(self, session: Session) -> None:
        assert session.player is not None
        self.players.setdefault(session.player.id, set()).add(session)
        log.info("%r welcomed as %r", session, session.player.name)
        hooks.welcomed(session)

    def server_info(self) -> dict[str, Any]:
        variants = self.games.variants.info()
        info = {"name": self.config.name, "version": server_version(), "variants": variants}
        if self.config.motd:
            info["motd"] = self.config.motd  # the message of the day
        return info

    async def dispatch(self, session: Session, frame: bytes | str) -> None:
        """Answer one frame; every refusal becomes an ``error`` here and nowhere else."""
        re: int | None = None
        hooks.message(session)
        try:
            limited = not session.bucket.take()
            m = p.unpack(frame)
            re = p.envelope_id(m)
            if limited:
                raise ProtocolError(
                    p.RATE_LIMITED,
                    f"more than {self.config.rate_limit:g} messages/s "
                    f"(burst {self.config.rate_burst}); slow down",
                )
            kind = m.get("type")
            route = ROUTES.get(kind) if isinstance(kind, str) else None
            if route is not None and route.needs_hello and session.player is None:
                raise ProtocolError(p.HELLO_FIRST, "send hello first")
            if route is None:
                p.decode_map(m, {})  # raises invalid_field for 'type'/'id', else unknown_type
                raise ProtocolError(p.UNKNOWN_TYPE, "unknown message type")
            message = p.decode_map(m, {route.message.type: route.message})
            reply = await route.handler(session, message)
        except ProtocolError as exc:
            self._refuse(session, exc, re)
            return
        except Exception:
            log.exception("%r: message failed", session)
            self._refuse(session, ProtocolError(p.INTERNAL, "the server failed; try again"), re)
            return
        if reply is not None:
            session.send(reply)
            if isinstance(reply, p.Error):  # answered, not raised: stale_ply
                hooks.refused(session, reply.code)

    def _refuse(self, session: Session, exc: ProtocolError, re: int | None) -> None:
        session.send(p.Error(code=exc.code, message=exc.message, re=re))
        hooks.refused(session, exc.code)
        if exc.code not in p.CLIENT_FAULTS:
            return
        session.faults += 1
        log.info("%r: %s: %s", session, exc.code, exc.message)
        if session.faults >= self.config.max_errors:
            log.warning("%r closed after %d client errors", session, session.faults)
            session.close_after_sending(CLOSE_POLICY, f"{session.faults} bad messages")


def _json(status: http.HTTPStatus, body: dict[str, Any]) -> Response:
    data = json.dumps(body).encode()
    headers = Headers([("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
    return Response(status.value, status.phrase, headers, data)
