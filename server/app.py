"""The server: builds every part, wires them together, and accepts WebSocket connections.

``App`` owns the database engine and its session factory, the group-commit
writer, the stuck-search workers, the game, room and daily services, the
metrics and the websockets server. :func:`wire` is the one place where the
parts learn of each other: which handler answers which message, who hears
of game actions, starts, stops, welcomes and closes. Nothing is registered
by importing a module, so two apps in one process share nothing.

Every part names in its constructor the parts it uses, and only this module
builds them: no other module of server/ imports :class:`App`. What the
cluster hears from the other nodes reaches the parts as typed events
(:mod:`server.cluster.news`) they subscribe to in :func:`wire`.

What is not assembling lives beside it: the doorway every connection comes
through (server/net/doorway.py), the binding of the ports (server/net/listening.py),
what the server says of itself (server/about.py), and running in the foreground until
a signal (server/running.py).
"""

from __future__ import annotations

import asyncio
import logging
import time

from websockets.asyncio.server import Server

from server.about import server_info
from server.arenas.catalogue import ArenaCatalogue
from server.arenas.deals import ArenaDeals
from server.arenas.handlers import ArenaHandlers
from server.arenas.metrics import ArenaMetrics
from server.arenas.play import ArenaPlay
from server.arenas.seats import ArenaSeats
from server.arenas.service import ArenaService
from server.arenas.settlement import ArenaSettlement
from server.arenas.standings import ArenaStandings
from server.arenas.sweep import ArenaSweep
from server.challenges.handlers import ChallengeHandlers
from server.challenges.lifecycle import ChallengeService
from server.challenges.matches import LiveMatches
from server.challenges.views import ChallengeViews
from server.cluster import news
from server.cluster.node import Cluster
from server.config import Config
from server.daily.handlers import DailyHandlers
from server.daily.service import DailyService
from server.deals.handlers import DealHandlers
from server.deals.hindsight import Hindsight
from server.deals.pool import DealPool
from server.events import Events
from server.games.handlers import GameHandlers
from server.games.live import Clock
from server.games.opened import OpenGames
from server.games.searches import StuckSearches
from server.games.service import GameService
from server.games.store import GameStore
from server.net.connection import Connection
from server.net.doorway import Doorway
from server.net.front import Fronts
from server.net.http import WS_PATH, HttpPaths
from server.net.listening import bind_game, bind_metrics, bound_port
from server.net.routing import Router
from server.net.static import StaticSite
from server.observe.metrics import Metrics
from server.players.accounts import Accounts
from server.players.bots import BotRemoval
from server.players.changes import OperatorChanges
from server.players.hello import HelloHandler
from server.players.stats import StatsHandler
from server.players.transfers import TransferHandler, Transfers
from server.profiles.handlers import ProfileHandlers
from server.profiles.service import ProfileService
from server.races.handlers import RoomHandlers
from server.races.invitations import InvitationHandler
from server.races.owners import Owners
from server.races.presence import Presence
from server.races.race import RaceRunner
from server.races.rooms import RoomTable
from server.races.service import RoomService
from server.races.watchers import Watchers
from server.ratings.handlers import RatingsHandler
from server.ratings.service import RatingService
from server.replays.handlers import ReplayHandlers
from server.review.service import ReviewService
from server.running import run_until_signalled
from server.seasons.handlers import SeasonHandlers
from server.seasons.service import SeasonService
from server.storage.engine import Checkpointer, create_engine, create_sync_engine, sessionmaker
from server.storage.migrate import upgrade
from server.storage.reader import BoardReader
from server.storage.writer import Writer
from shared.variants import STANDARD, Variants

log = logging.getLogger("server")


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class App:
    """One server: its database, writer, workers, services and listening socket.

    Everything an app uses is its own attribute, built here; ``clock`` is the
    server's time in milliseconds (tests pass one they move by hand).
    """

    def __init__(
        self, config: Config, *, clock: Clock = wall_clock_ms, variants: Variants = STANDARD
    ) -> None:
        self.config = config
        self.clock = clock
        self.engine = create_engine(config.db)
        #: the SQLAlchemy session factory of the database (``async with app.db_sessions()``)
        self.db_sessions = sessionmaker(self.engine)
        sync_engine = create_sync_engine(config.db, autocheckpoint=False)
        self.writer = Writer(sync_engine, delay_s=config.commit_delay_ms / 1000)
        self.checkpointer = Checkpointer(config.db)
        #: open connections, and the welcomed ones by player id (for pushes)
        self.connections: set[Connection] = set()
        self.players: dict[int, set[Connection]] = {}
        #: this node among the others (one node alone without a ``redis`` setting)
        self.cluster = Cluster(config, self.players, clock)
        self.searches = StuckSearches(config.stuck_workers, variants)
        #: the games in memory, rebuilt and reloaded as stored
        self.game_store = GameStore(
            self.db_sessions, self.searches, variants, self.cluster.enabled, config.idle_pause_s
        )
        self.games = GameService(
            self.game_store,
            self.db_sessions,
            self.writer,
            clock,
            hint_budget=config.hint_budget,
            hint_concurrency=config.hint_concurrency,
            hint_shares=config.hint_shares(),
            max_actions=config.max_actions,
        )
        self.opened = OpenGames(self.game_store, self.db_sessions, clock, config.idle_pause_s)
        sessions, cluster, players = self.db_sessions, self.cluster, self.players
        #: the pools of winnable deals and their fillers
        self.deal_pool = DealPool(sessions, variants, clock, config)
        self.hindsight = Hindsight(variants, config)  # could_win's answers
        self.accounts = Accounts(
            sessions, clock, cluster.registering, limit=config.registration_limit
        )
        #: codes that move an account to another device
        self.transfers = Transfers(sessions, clock, config)
        self.review = ReviewService(sessions, clock, config, variants)
        self.daily = DailyService(
            self.games, self.game_store, self.review, cluster, sessions, config, clock
        )
        #: challenges: a finished game sent to a friend, answered on the same deal
        self.challenge_views = views = ChallengeViews(cluster, players, sessions)
        #: live matches in race rooms: their rounds are the races of its two racers
        self.matches = LiveMatches(views, sessions, clock)
        self.challenges = ChallengeService(
            self.games, self.game_store, self.review, views, self.matches, sessions, clock
        )
        #: the rooms this node runs, shared by the race, presence, the rules and the owners
        self.room_table = RoomTable(sessions, clock, cluster, players, Watchers())
        #: the reads of the season and rating boards, in a thread of their own
        self.board_reader = BoardReader(config.db)
        self.ratings = ratings = RatingService(sessions, clock, self.board_reader)
        #: the week's, month's and all-time boards of points per daily; profiles
        self.seasons = SeasonService(self.daily, sessions, self.board_reader, clock)
        self.profiles = ProfileService(sessions, self.seasons, clock)
        table, games = self.room_table, self.games
        self.race = RaceRunner(
            table, games, self.game_store, self.review, ratings, cluster, sessions, config, clock
        )
        self.presence = Presence(table, self.race, games, cluster, players, sessions, config, clock)
        self.rooms = RoomService(
            table, self.race, self.presence, games, self.deal_pool, ratings, cluster, sessions,
            config, clock,
        )  # fmt: skip
        #: which node runs each room; requests on a room go there
        self.owners = Owners(self.rooms, self.room_table, self.race, cluster, sessions)
        ranks_changed = self.daily.ranks.clear
        self.bots = BotRemoval(
            sessions,
            players,
            self.room_table,
            self.owners,
            self.presence,
            self.game_store,
            cluster,
            ranks_changed,
        )
        #: arenas: timed tournaments, on every node
        self.arena_catalogue = catalogue = ArenaCatalogue(self.game_store, sessions, config, clock)
        self.arena_deals = deals = ArenaDeals(self.deal_pool, sessions, config, clock)
        self.arena_standings = standings = ArenaStandings(
            catalogue, deals, cluster, players, sessions, config, clock
        )
        self.arena_seats = seats = ArenaSeats()
        self.arena_settlement = settlement = ArenaSettlement(
            catalogue, deals, standings, seats, self.review, sessions, config, clock
        )
        self.arena_play = play = ArenaPlay(
            catalogue, deals, standings, seats, settlement, games, self.game_store, sessions, clock
        )
        self.arena_sweep = sweep = ArenaSweep(
            settlement, standings, games, self.game_store, cluster, sessions, clock
        )
        self.arenas = ArenaService(
            catalogue, deals, standings, settlement, play, sweep, config, clock
        )
        self.changes = OperatorChanges(
            sessions, players, self.rooms, self.presence, self.owners, self.bots, ranks_changed,
            settlement.refresh,
        )  # fmt: skip
        self.metrics = Metrics(self.connections, players, self.room_table.rooms, self.race)
        self.events = Events()
        self.router, self.http = wire(self)
        #: every connection comes through it: the limits, the frames to the router
        self.doorway = Doorway(config, self.connections, players, self.router, self.events)
        self._server: Server | None = None
        self._fronts: Fronts | None = None
        self._metrics_server: Server | None = None
        self._stopped = asyncio.Event()

    # -- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        """Bind the ports, migrate the database, join the other nodes (if any), start the
        writer and the workers, then accept connections.

        The ports are bound first: one that cannot be raises ``ListenError`` (one line)
        before any thread, worker or node has started.
        """
        self._fronts = Fronts(self.http.file_answer)
        self._server = await bind_game(
            self.config, self.doorway.accept, self.http.answer, self._fronts
        )
        try:
            self._metrics_server = await bind_metrics(self.config, self.metrics.serve)
            await upgrade(self.engine)
            await self.cluster.start()
        except BaseException:
            await self._close_listeners()
            await self.engine.dispose()
            raise
        self.writer.start()
        self.checkpointer.start()
        self.searches.start()
        await self.events.started()
        await self._server.start_serving()
        if self._metrics_server is not None:
            await self._metrics_server.start_serving()
        log.info(
            "serving %r on ws://%s:%d%s (database %s%s)%s",
            self.config.name,
            self.config.host,
            self.port,
            WS_PATH,
            self.engine.url.render_as_string(hide_password=True),
            f"; node {self.cluster.node_id}" if self.cluster.enabled else "",
            f"; metrics on http://{self.config.metrics_host}:{self.metrics_port}/metrics"
            if self._metrics_server is not None
            else "",
        )

    async def _close_listeners(self) -> None:
        if self._fronts is not None:
            self._fronts.close()  # connections kept alive for the client's files
        for server in (self._server, self._metrics_server):
            if server is not None:
                server.close()
                await server.wait_closed()
        self._server = self._metrics_server = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return bound_port(self._server)

    @property
    def metrics_port(self) -> int | None:
        """The port ``GET /metrics`` is served on (None: not served)."""
        return None if self._metrics_server is None else bound_port(self._metrics_server)

    async def stop(self) -> None:
        """Stop accepting, close connections with 1001, let go of the rooms (their leases
        released, so that another node takes them at once), commit what is queued."""
        if self._server is not None:
            log.info("shutting down: closing %d connections", len(self.connections))
        await self._close_listeners()  # (closing a server closes its connections)
        await self.events.stopping()
        self.board_reader.close()
        await self.games.drain()
        await self.games.hints.close()
        await self.hindsight.close()
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

    # -- connections ----------------------------------------------------------------------

    def welcomed(self, connection: Connection) -> None:
        player = connection.welcomed_player
        self.players.setdefault(player.id, set()).add(connection)
        log.info("%r welcomed as %r", connection, player.name)
        self.events.welcomed(connection)


def wire(app: App) -> tuple[Router, HttpPaths]:
    """The router and HTTP paths, and every subscription between the app's parts: made here only.

    The router answers with the routes of each feature's handlers. The order
    of each list is the order of the calls: after a game action the daily
    attempt is settled first, then the race hears of it, then the metrics
    count it; at stop (reverse order) the operators' changes stop being read
    first, then rooms, then dailies. What the other nodes tell (and what the
    cluster sees of them) goes to the parts subscribed to its type here.
    """
    games, daily, rooms, metrics, events = app.games, app.daily, app.rooms, app.metrics, app.events
    table, race, presence, owners, cluster = (
        app.room_table,
        app.race,
        app.presence,
        app.owners,
        app.cluster,
    )
    games.start_guards.append(rooms.race_lock)
    arenas = app.arenas
    games.hints.guards.extend((daily.daily_lock, rooms.hint_lock, arenas.hint_lock))
    games.write_hooks.append(app.arena_settlement.with_result)
    games.listeners.extend(
        (
            daily.on_action,
            race.on_action,
            arenas.on_action,
            app.challenges.on_action,
            metrics.counted,
        )
    )
    metrics.registry.register(
        ArenaMetrics(app.arena_catalogue, app.arena_play, app.arena_settlement, app.arena_standings)
    )
    daily.finished.append(app.seasons.finished)
    app.writer.observers.append(metrics.committed)
    table.saved.append(presence.recheck)
    events.on_start.extend(
        (
            app.deal_pool.start,
            daily.start,
            app.seasons.start,
            rooms.start,
            owners.claim_at_start,
            app.changes.start,
            arenas.start,
        )
    )
    # (called in reverse order: the cluster's leases are released once the rooms have stopped)
    # (review's thread once the races and dailies that ask it have)
    stops = (
        cluster.stop,
        app.review.stop,
        daily.stop,
        app.seasons.stop,
        rooms.stop,
        app.changes.stop,
        arenas.stop,
    )
    events.on_stop.extend((app.deal_pool.stop, app.opened.drain, *stops))
    events.on_welcome.append(presence.connection_welcomed)
    events.on_close.extend((presence.connection_closed, app.opened.closed))
    events.on_message.append(metrics.message)
    events.on_refusal.append(metrics.refused)

    def ranks_lost(_back: news.RedisBack) -> None:
        daily.ranks.clear()  # finishes told while Redis was lost: read them again

    race.over_listeners.append(app.matches.race_over)
    cluster.rooms_held = table.codes
    cluster.serve = owners.serve
    cluster.subscribe(news.PresenceChanged, presence.remote_changed)
    cluster.subscribe(news.BoardPushed, table.board_pushed)
    cluster.subscribe(news.Unwatched, table.unwatched)
    cluster.subscribe(news.RaceActed, race.remote_action)
    cluster.subscribe(news.RaceGames, race.race_games)
    cluster.subscribe(news.Ranked, daily.ranked_elsewhere)
    cluster.subscribe(news.BotsRemoved, app.bots.removed_elsewhere)
    cluster.subscribe(news.GamesForgotten, lambda told: app.game_store.forget_all(told.games))
    cluster.subscribe(news.ClaimDue, owners.claim_due)
    cluster.subscribe(news.LeaseLost, owners.lease_lost)
    cluster.subscribe(news.Resync, owners.resync_told)
    cluster.subscribe(news.RedisBack, ranks_lost)
    cluster.subscribe(news.RedisBack, owners.resync_told)
    challenges = ChallengeHandlers(
        app.challenges, app.challenge_views, app.matches, games, app.opened
    )
    cluster.subscribe(news.ArenaLine, arenas.line_told)
    cluster.subscribe(news.RedisBack, arenas.forget_tables)
    about = server_info(app.config, app.game_store.variants)
    handlers = (
        HelloHandler(app.accounts, app.transfers, about, app.welcomed),
        TransferHandler(app.transfers),
        InvitationHandler(app.db_sessions, {v.id: v.name for v in about.variants}),
        GameHandlers(games, app.game_store, app.deal_pool, app.db_sessions, app.clock, app.opened),
        RoomHandlers(rooms, table, owners, games),
        DailyHandlers(daily, games, app.ratings, app.opened),
        DealHandlers(app.hindsight, app.game_store, app.clock),
        ReplayHandlers(app.game_store, app.db_sessions, app.clock, games.start_guards),
        StatsHandler(app.db_sessions, daily.today),
        RatingsHandler(app.ratings, app.game_store.variants),
        challenges,
        ArenaHandlers(app.arena_catalogue, app.arena_play, app.arena_standings),
        SeasonHandlers(app.seasons),
        ProfileHandlers(app.profiles),
    )
    routes = [route for handler in handlers for route in handler.routes()]
    router = Router(routes, config=app.config, events=events)
    redis = (lambda: cluster.redis_up) if cluster.enabled else None
    paths = HttpPaths(
        app.engine,
        {},
        StaticSite.load(options={v.id: dict(v.options) for v in about.variants}),
        redis=redis,
        origins=app.config.origins(),
        prefixes={"/challenge/": challenges.about},
    )
    return router, paths


async def serve_until_signalled(config: Config) -> None:
    """Run one app until SIGTERM or SIGINT (``patience-club serve``)."""
    await run_until_signalled(App(config), config)
