"""The arena figures of ``GET /metrics``, read from the arenas' parts when scraped."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from server.arenas.catalogue import ArenaCatalogue
from server.arenas.play import ArenaPlay
from server.arenas.settlement import ArenaSettlement
from server.arenas.standings import ArenaStandings
from shared import protocol as p


class ArenaMetrics(Collector):
    def __init__(
        self,
        catalogue: ArenaCatalogue,
        play: ArenaPlay,
        settlement: ArenaSettlement,
        standings: ArenaStandings,
    ) -> None:
        self.catalogue = catalogue
        self.playing = play
        self.settlement = settlement
        self.standings = standings

    def collect(self) -> Iterator[Metric]:
        a = self.standings
        now = self.catalogue.clock()
        running = [x for x in self.catalogue.arenas.values() if x.state(now) == p.RUNNING]
        yield GaugeMetricFamily("patience_arenas_running", "Arenas running", value=len(running))
        following = sum(len(a.following.get(x.code, ())) for x in running)
        yield GaugeMetricFamily(
            "patience_arena_followers",
            "Players following a running arena's standings on this node",
            value=following,
        )
        yield CounterMetricFamily(
            "patience_arenas_created", "Arenas this node created", value=self.catalogue.created
        )
        yield CounterMetricFamily(
            "patience_arena_deals_dealt", "Arena deals this node dealt", value=self.playing.dealt
        )
        yield CounterMetricFamily(
            "patience_arena_deals_scored",
            "Arena deals this node scored",
            value=self.settlement.scored,
        )
        yield CounterMetricFamily(
            "patience_arena_standings_pushes",
            "arena_standings and arena_place messages this node sent",
            value=a.standings_pushes,
        )
        yield CounterMetricFamily(
            "patience_arena_standings_flushes",
            "Pushes of an arena's standings to its followers (one frame for all, and the places"
            " that changed)",
            value=a.standings_flushes,
        )
        yield CounterMetricFamily(
            "patience_arena_standings_flush_seconds",
            "Time from the start of each standings push to its last write (its chunks of"
            " followers go out a turn of the event loop each, other work in between)",
            value=a.flush_seconds,
        )
        yield CounterMetricFamily(
            "patience_arena_standings_flush_cpu_seconds",
            "CPU of the event loop's thread in those pushes (the frames and their writes)",
            value=a.flush_cpu_seconds,
        )
        yield GaugeMetricFamily(
            "patience_arena_standings_flush_max_seconds",
            "The longest standings push (start to last write) since the server started",
            value=a.flush_max_seconds,
        )
