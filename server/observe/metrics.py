"""``GET /metrics``: the server's counters in Prometheus text format (prometheus-client).

Each :class:`App` gets its own registry (tests run several apps in one
process). Counters move with the app's events, game listeners and writer
observers (subscribed in :func:`server.app.wire`); gauges (connections,
rooms, races) are read from the app when scraped, so they are never out of
date. Commit latency is the time from handing a game
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
from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from websockets.http11 import Response

from server.net.http import response
from server.races.state import RACING

if TYPE_CHECKING:
    from server.games.live import LiveGame
    from server.net.connection import Connection
    from server.races.race import RaceRunner
    from server.races.state import RoomState

#: upper bounds (seconds) of the commit latency buckets
COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0)


class _Gauges(Collector):
    """Values read from the app's parts at scrape time."""

    def __init__(
        self,
        connections: Collection[Connection],
        players: Mapping[int, set[Connection]],
        rooms: Mapping[str, RoomState],
        race: RaceRunner,
    ) -> None:
        self.connections = connections
        self.players = players
        self.rooms = rooms
        self.race = race

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "patience_connections", "Open WebSocket connections", value=len(self.connections)
        )
        yield GaugeMetricFamily("patience_players_online", "Players connected", len(self.players))
        open_rooms = list(self.rooms.values())
        yield GaugeMetricFamily("patience_rooms", "Race rooms open", value=len(open_rooms))
        racing = sum(1 for room in open_rooms if room.state == RACING)
        yield GaugeMetricFamily("patience_races_running", "Races being run", value=racing)
        yield GaugeMetricFamily(
            "patience_races_started",
            "Races started since the server started",
            value=self.race.started,
        )
        ratings = self.race.ratings
        yield CounterMetricFamily(
            "patience_rated_races", "Rated races this node rated", value=ratings.rated_races
        )
        yield CounterMetricFamily(
            "patience_rating_updates",
            "Ratings changed by rated races (one per racer rated)",
            value=ratings.updates,
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
    def __init__(
        self,
        connections: Collection[Connection],
        players: Mapping[int, set[Connection]],
        rooms: Mapping[str, RoomState],
        race: RaceRunner,
    ) -> None:
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
        self.registry.register(_Gauges(connections, players, rooms, race))

    def committed(self, seconds: float) -> None:
        """One write waited ``seconds`` from the writer's submit() to its commit."""
        self.commit_counts[bisect.bisect_left(COMMIT_BUCKETS, seconds)] += 1
        self.commit_sum += seconds

    def counted(self, _live: LiveGame, _action: str) -> None:
        """One game action acknowledged (a game listener)."""
        self.actions += 1

    def message(self, _connection: Connection) -> None:
        self.messages += 1

    def refused(self, _connection: Connection, code: str) -> None:
        self.errors.labels(code=code).inc()

    async def serve(self) -> Response:
        """``GET /metrics``."""
        body = generate_latest(self.registry)
        return response(http.HTTPStatus.OK, CONTENT_TYPE_LATEST, body)
