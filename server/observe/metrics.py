"""``GET /metrics``: the server's counters in Prometheus text format (prometheus-client).

Each :class:`App` gets its own registry (tests run several apps in one
process). Counters move through :mod:`server.hooks` and the game listeners;
gauges (connections, rooms, races) are read from the app when scraped, so
they are never out of date. Commit latency is the time from handing a game
write to the group-commit writer until it is committed: what a move waits
for before it is acknowledged.

The counts that move with every message (messages, moves, commit latency)
are plain integers and bucket counts, turned into metric families when
scraped: prometheus-client's own counters take a lock on every increment,
which the hot path of a one-threaded event loop does not need.
"""

from __future__ import annotations

import bisect
import http
from collections.abc import Iterator
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from prometheus_client import CollectorRegistry, Counter, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from websockets.datastructures import Headers
from websockets.http11 import Response

from server import events as hooks
from server import services
from server.games.service import LiveGame
from server.races.state import RACING

if TYPE_CHECKING:
    from server.app import App
    from server.net.connection import Session

#: upper bounds (seconds) of the commit latency buckets
COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0)


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


class _Counts(Collector):
    """The hot-path counts of :class:`Metrics`, as families at scrape time."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        yield CounterMetricFamily("patience_messages", "Inbound WebSocket messages", m.messages)
        yield CounterMetricFamily(
            "patience_moves", "Game actions acknowledged (moves, deals, undos, ends)", m.actions
        )
        cumulative, buckets = 0, []
        for bound, count in zip((*COMMIT_BUCKETS, float("inf")), m.commit_counts, strict=True):
            cumulative += count
            buckets.append((_bound(bound), cumulative))
        yield HistogramMetricFamily(
            "patience_commit_seconds",
            "Time from handing a game write to the writer until it is committed",
            buckets=buckets,
            sum_value=m.commit_sum,
        )


def _bound(bound: float) -> str:
    return "+Inf" if bound == float("inf") else repr(bound)


class Metrics:
    def __init__(self, app: App) -> None:
        self.registry = CollectorRegistry()
        self.messages = 0
        self.actions = 0
        #: commit latencies per bucket of COMMIT_BUCKETS (the last one: above them all)
        self.commit_counts = [0] * (len(COMMIT_BUCKETS) + 1)
        self.commit_sum = 0.0
        self.errors = Counter(
            "patience_errors", "Error replies by code", ["code"], registry=self.registry
        )
        self.registry.register(_Counts(self))
        self.registry.register(_Gauges(app))

    def committed(self, seconds: float) -> None:
        """One write waited ``seconds`` from the writer's submit() to its commit."""
        self.commit_counts[bisect.bisect_left(COMMIT_BUCKETS, seconds)] += 1
        self.commit_sum += seconds


_METRICS: WeakKeyDictionary[App, Metrics] = WeakKeyDictionary()


def metrics_of(app: App) -> Metrics | None:
    return _METRICS.get(app)


async def _start(app: App) -> None:
    metrics = _METRICS[app] = Metrics(app)

    def counted(_live: LiveGame, _action: str) -> None:
        metrics.actions += 1

    app.games.listeners.append(counted)
    app.writer.observers.append(metrics.committed)


async def _stop(app: App) -> None:
    metrics = _METRICS.pop(app, None)
    if metrics is not None:
        app.writer.observers.remove(metrics.committed)


def _message(session: Session) -> None:
    metrics = _METRICS.get(session.app)
    if metrics is not None:
        metrics.messages += 1


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
