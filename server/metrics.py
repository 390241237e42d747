"""``GET /metrics``: the server's counters in Prometheus text format (prometheus-client).

Each :class:`App` gets its own registry (tests run several apps in one
process). Counters move through :mod:`server.hooks` and the game listeners;
gauges (connections, rooms, races) are read from the app when scraped, so
they are never out of date. Commit latency is the time from handing a game
write to the group-commit writer until it is committed: what a move waits
for before it is acknowledged.
"""

from __future__ import annotations

import asyncio
import http
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from websockets.datastructures import Headers
from websockets.http11 import Response

from server import hooks, services
from server.live import LiveGame
from server.room_state import RACING
from server.store.games import GameWrite

if TYPE_CHECKING:
    from server.app import App
    from server.session import Session


class _Gauges(Collector):
    """Values read from the app at scrape time."""

    def __init__(self, app: App) -> None:
        self.app = app

    def collect(self) -> Iterator[GaugeMetricFamily]:
        app = self.app
        yield GaugeMetricFamily(
            "patience_connections", "Open WebSocket connections", value=len(app.connections)
        )
        yield GaugeMetricFamily("patience_players_online", "Players connected", len(app.players))
        rooms = services._ROOMS.get(app)
        open_rooms = list(rooms.rooms.values()) if rooms else []
        yield GaugeMetricFamily("patience_rooms", "Race rooms open", value=len(open_rooms))
        racing = sum(1 for room in open_rooms if room.state == RACING)
        yield GaugeMetricFamily("patience_races_running", "Races being run", value=racing)
        started = rooms.races_started if rooms else 0
        yield GaugeMetricFamily(
            "patience_races_started", "Races started since the server started", value=started
        )


class Metrics:
    def __init__(self, app: App) -> None:
        self.registry = CollectorRegistry()
        self.messages = Counter(
            "patience_messages", "Inbound WebSocket messages", registry=self.registry
        )
        self.actions = Counter(
            "patience_moves",
            "Game actions acknowledged (moves, deals, undos, ends)",
            registry=self.registry,
        )
        self.errors = Counter(
            "patience_errors", "Error replies by code", ["code"], registry=self.registry
        )
        self.commit = Histogram(
            "patience_commit_seconds",
            "Time from handing a game write to the writer until it is committed",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0),
            registry=self.registry,
        )
        self.registry.register(_Gauges(app))


_METRICS: WeakKeyDictionary[App, Metrics] = WeakKeyDictionary()


def metrics_of(app: App) -> Metrics | None:
    return _METRICS.get(app)


def _timed(
    submit: Callable[[GameWrite], asyncio.Future[None]], histogram: Histogram
) -> Callable[[GameWrite], asyncio.Future[None]]:
    def timed(item: GameWrite) -> asyncio.Future[None]:
        started = time.perf_counter()
        future = submit(item)
        future.add_done_callback(lambda _: histogram.observe(time.perf_counter() - started))
        return future

    return timed


async def _start(app: App) -> None:
    metrics = _METRICS[app] = Metrics(app)

    def counted(_live: LiveGame, _action: str) -> None:
        metrics.actions.inc()

    app.games.listeners.append(counted)
    # The writer's own submit() (write() goes through it too), timed: the instance attribute
    # shadows the method. A hook in the Writer would be cleaner; it is not this module's file.
    setattr(app.writer, "submit", _timed(app.writer.submit, metrics.commit))  # noqa: B010


async def _stop(app: App) -> None:
    _METRICS.pop(app, None)


def _message(session: Session) -> None:
    metrics = _METRICS.get(session.app)
    if metrics is not None:
        metrics.messages.inc()


def _refused(session: Session, code: str) -> None:
    metrics = _METRICS.get(session.app)
    if metrics is not None:
        metrics.errors.labels(code=code).inc()


async def serve_metrics(app: App) -> Response:
    metrics = _METRICS.get(app)
    body = generate_latest(metrics.registry) if metrics is not None else b""
    headers = Headers([("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body)))])
    return Response(http.HTTPStatus.OK.value, http.HTTPStatus.OK.phrase, headers, body)


hooks.register(hooks.ON_START, _start)
hooks.register(hooks.ON_STOP, _stop)
if _message not in hooks.ON_MESSAGE:
    hooks.ON_MESSAGE.append(_message)
if _refused not in hooks.ON_REFUSAL:
    hooks.ON_REFUSAL.append(_refused)
hooks.HTTP["/metrics"] = serve_metrics
