"""Server settings from defaults, a TOML file, ``PATIENCE_*`` variables and flags, in that order.

Later sources win: a flag beats an environment variable, which beats the
file, which beats the default. Names are the same everywhere: the field
``rate_burst`` is ``rate_burst`` (or ``rate-burst``) in TOML,
``PATIENCE_RATE_BURST`` in the environment and ``--rate-burst`` as a flag.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from server.arenas.schedule import ScheduleError
from server.arenas.schedule import parse as parse_schedule
from server.games.hint_shares import HintShares
from server.net.addresses import AddressSettingError, ClientAddresses, parse_networks
from server.net.origins import OriginPolicy, parse_origins
from server.storage.engine import DEFAULT_URL
from shared.protocol.games import DIFFICULTIES
from shared.record import MAX_ACTIONS

ENV_PREFIX = "PATIENCE_"


class ConfigError(ValueError):
    """A setting that cannot be used; the message names it."""


@dataclass(frozen=True, slots=True)
class Config:
    host: str = "127.0.0.1"
    port: int = 8765
    #: SQLAlchemy URL; an SQLite file's directory is created and the schema migrated at start
    db: str = DEFAULT_URL
    name: str = "Patience Club"
    #: messages per second per connection, and the burst above it (token bucket)
    rate_limit: float = 50.0
    rate_burst: int = 100
    max_connections: int = 4096
    #: connections at once from one client address (an IPv6 client's /``ipv6_prefix`` network)
    max_connections_per_ip: int = 64
    #: IPv6 clients are counted by their network of this many bits (a host is given a /64)
    ipv6_prefix: int = 64
    #: comma-separated addresses or networks of reverse proxies whose ``proxy_header`` is
    #: believed (empty: the peer's address is the client's)
    trusted_proxies: str = ""
    #: the header a trusted proxy writes the client's address in
    proxy_header: str = "X-Forwarded-For"
    #: comma-separated origins (``https://play.example.org``) whose pages may open /ws besides
    #: the server's own (a browser's handshake from any other page is refused with 403)
    allowed_origins: str = ""
    #: inbound frames above this close the connection with 1009
    max_message_bytes: int = 16 * 1024
    #: client mistakes per connection; the last one is answered, then 1008
    max_errors: int = 20
    #: messages waiting for a slow reader before it is disconnected
    send_queue: int = 256
    #: seconds one send may wait for the reader before it is disconnected
    send_timeout: float = 10.0
    #: milliseconds the writer waits to gather more moves into one commit (0: natural grouping)
    commit_delay_ms: float = 0.0
    #: seconds the solver may spend on one hint
    hint_budget: float = 1.0
    #: hints computed at once in the process (threads); more at the same moment wait their turn
    hint_concurrency: int = 2
    #: hints one player may ask in a row, and the seconds after which one more may be asked
    hint_burst: int = 3
    hint_refill_s: float = 10.0
    #: seconds a hint may wait for a thread (turns by need) before it is ``busy``
    hint_wait_s: float = 3.0
    #: registrations from one address per hour (``too_many_accounts`` past it; 0: no limit)
    registration_limit: int = 20
    #: actions one game may hold; past it only ``resign`` is taken (``too_many_actions``)
    max_actions: int = 5000
    #: worker processes for the engine's stuck searches (0: search in the server's process)
    stuck_workers: int = 2
    #: winnable deals kept ready per variant, option set and difficulty (server/deals/pool.py)
    deal_pool_size: int = 20
    #: worker processes filling the pools of winnable deals (0: none; requests solve then)
    deal_pool_workers: int = 1
    #: seconds a request for a winnable deal may solve when its pool is empty, then ``busy``
    deal_pool_wait_s: float = 10.0
    #: seconds of solver for one ``could_win`` answer in all, and answers computed at once
    could_win_budget_s: float = 5.0
    could_win_concurrency: int = 2
    #: seconds a code that moves an account to another device (``transfer_code``) lasts
    transfer_code_s: int = 300
    log_level: str = "INFO"
    #: where ``GET /metrics`` is served, apart from the game's port (empty host: not served)
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 8766
    # -- a community's server: races, daily challenges --
    #: shown to players in ``welcome`` (server.motd) when not empty
    motd: str = ""
    #: a race room's time limit when ``create_room`` names none, and the countdown before a race
    race_time_limit_s: int = 1800
    race_countdown_ms: int = 3000
    #: how often races are checked against their time limit
    race_tick_ms: int = 1000
    #: seconds a racer may be gone (every connection closed) during a race before they are
    #: resigned
    race_abandon_s: int = 120
    #: seconds an unranked game's clock runs on once no connection of its player has it open;
    #: then it pauses until the game is opened again (server/games/opened.py)
    idle_pause_s: int = 30
    #: how far behind a room with delayed boards shows its racers' boards to watchers
    board_delay_s: int = 60
    #: ranked results (daily attempts, race games) of at least ``review_min_actions`` actions
    #: are held for review for each limit they cross (docs/fair-play.md; 0 turns one off):
    #: the median, 25th and 10th percentile gaps between actions, the first action on a deal
    #: never seen, the physical floor (``review_key_ms`` a key press), and a win on a
    #: solver's line (no undo, nothing revisited, at most ``review_slack`` times the solver's
    #: moves) with fewer than ``review_pauses`` pauses of ``review_pause_ms``
    review_min_actions: int = 20
    review_median_ms: int = 200
    review_p25_ms: int = 120
    review_p10_ms: int = 60
    review_first_ms: int = 1000
    review_key_ms: int = 80
    review_pause_ms: int = 2000
    review_pauses: int = 2
    review_slack: float = 1.25
    #: seconds of solver (in review's thread) for a won deal's line
    review_solve_s: float = 5.0
    #: cap on the seconds of solver per daily candidate seed (the variant's daily_positions
    #: decide first)
    daily_budget_s: float = 10.0
    #: a floor on a daily's difficulty: a candidate the solver proves in fewer positions is
    #: passed over (0: the first candidate proven winnable)
    daily_min_positions: int = 0
    #: compute today's and tomorrow's dailies in the background at start and every hour
    daily_ahead: bool = True
    # -- arenas (server/arenas/, docs/operating.md "Arenas") --
    #: the operators' arenas: ``DAY HH:MM VARIANT MINUTES [NAME]`` entries (UTC) separated by
    #: ``;``, DAY a weekday or ``daily`` (server/arenas/schedule.py)
    arena_schedule: str = ""
    #: hours before its start that a scheduled arena is created (and listed)
    arena_ahead_h: int = 24
    #: an arena's standings are pushed at most once per this many milliseconds
    arena_push_ms: int = 1000
    #: followers a standings push writes to per turn of the event loop (moves go in between)
    arena_push_chunk: int = 500
    #: how often arenas are checked: deals out of time, arenas ending, the schedule
    arena_tick_ms: int = 1000
    #: the difficulty of the deals arenas draw from the pool (easy, medium, hard)
    arena_difficulty: str = "medium"
    # -- several nodes on one database, joined by Redis --
    #: Redis URL (``redis://host:6379/0``) for room leases and fan-out; empty: one node alone
    redis: str = ""
    #: this node's name, unique among the live nodes (empty: the machine's host name and port)
    node_id: str = ""
    #: put before every Redis key and channel, so that several servers can share one Redis
    redis_prefix: str = "pc:"

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)

    def hint_shares(self) -> HintShares:
        """How the hint threads are shared between players (server/games/hint_shares.py)."""
        return HintShares(
            self.hint_concurrency,
            burst=self.hint_burst,
            refill_s=self.hint_refill_s,
            wait_s=self.hint_wait_s,
        )

    def client_addresses(self) -> ClientAddresses:
        """How connections' addresses are counted, from ``ipv6_prefix`` and the proxy settings."""
        return ClientAddresses(
            self.ipv6_prefix, parse_networks(self.trusted_proxies), self.proxy_header
        )

    def origins(self) -> OriginPolicy:
        """The pages whose browsers may open /ws besides the server's own."""
        return OriginPolicy(parse_origins(self.allowed_origins))


def _convert(name: str, kind: type, value: object) -> object:
    try:
        if kind is bool:
            if isinstance(value, str):
                return value.strip().lower() in ("1", "true", "yes", "on")
            return bool(value)
        if kind is int and isinstance(value, float | bool):
            raise TypeError
        return kind(value)
    except (TypeError, ValueError):
        raise ConfigError(f"setting {name!r}: {value!r} is not a {kind.__name__}") from None


_TYPES: MappingProxyType[str, type] = MappingProxyType(
    {"str": str, "int": int, "float": float, "bool": bool}
)


def _field_types() -> dict[str, type]:
    return {f.name: _TYPES[str(f.type)] for f in fields(Config)}


def load(
    path: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, object] | None = None,
) -> Config:
    """The configuration: defaults, then the TOML file, ``env`` and ``overrides`` (flags).

    ``overrides`` with the value None are ignored (a flag that was not given).
    """
    types = _field_types()
    values: dict[str, object] = {}
    env = os.environ if env is None else env
    path = path or env.get(ENV_PREFIX + "CONFIG")
    if path:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"config file {str(path)!r}: {exc}") from None
        section = data.get("server", data)
        for key, value in section.items():
            name = key.replace("-", "_")
            if name not in types:
                if isinstance(value, dict):
                    continue  # another component's section
                raise ConfigError(f"config file {str(path)!r}: unknown setting {key!r}")
            values[name] = _convert(name, types[name], value)
    for name, kind in types.items():
        raw = env.get(ENV_PREFIX + name.upper())
        if raw is not None:
            values[name] = _convert(name, kind, raw)
    for name, value in (overrides or {}).items():
        if value is not None:
            values[name] = _convert(name, types[name], value)
    config = Config(**values)  # type: ignore[arg-type]
    check(config)
    return config


def check(config: Config) -> None:
    positive = (
        "rate_limit",
        "rate_burst",
        "max_connections",
        "max_connections_per_ip",
        "max_message_bytes",
        "max_errors",
        "send_queue",
        "send_timeout",
        "hint_concurrency",
        "max_actions",
        "race_abandon_s",
        "board_delay_s",
        "deal_pool_size",
        "could_win_concurrency",
        "transfer_code_s",
        "idle_pause_s",
        "arena_push_ms",
        "arena_push_chunk",
        "arena_tick_ms",
    )
    for name in positive:
        if getattr(config, name) <= 0:
            raise ConfigError(f"setting {name!r} must be positive, not {getattr(config, name)!r}")
    if config.max_actions > MAX_ACTIONS:
        raise ConfigError(
            f"setting 'max_actions' must be at most {MAX_ACTIONS} (what a game record replays)"
        )
    for name in ("port", "metrics_port"):
        if not 0 <= getattr(config, name) <= 65535:
            raise ConfigError(
                f"setting {name!r} must be from 0 to 65535, not {getattr(config, name)}"
            )
    if not 1 <= config.ipv6_prefix <= 128:
        raise ConfigError(f"setting 'ipv6_prefix' must be from 1 to 128, not {config.ipv6_prefix}")
    try:
        parse_networks(config.trusted_proxies)
    except AddressSettingError as exc:
        raise ConfigError(f"setting 'trusted_proxies': {exc}") from None
    if not config.proxy_header.strip():
        raise ConfigError("setting 'proxy_header' cannot be empty")
    not_negative = (
        "commit_delay_ms",
        "hint_budget",
        "hint_burst",
        "hint_refill_s",
        "hint_wait_s",
        "stuck_workers",
        "deal_pool_workers",
        "deal_pool_wait_s",
        "could_win_budget_s",
        "registration_limit",
        "review_min_actions",
        "review_median_ms",
        "review_p25_ms",
        "review_p10_ms",
        "review_first_ms",
        "review_key_ms",
        "review_pause_ms",
        "review_pauses",
        "review_slack",
        "review_solve_s",
        "daily_min_positions",
    )
    for name in not_negative:
        if getattr(config, name) < 0:
            raise ConfigError(f"setting {name!r} cannot be negative, not {getattr(config, name)!r}")
    if config.arena_ahead_h < 0:
        raise ConfigError(f"setting 'arena_ahead_h' cannot be negative, not {config.arena_ahead_h}")
    if config.arena_difficulty not in DIFFICULTIES:
        raise ConfigError(
            f"setting 'arena_difficulty' must be one of {', '.join(DIFFICULTIES)}, "
            f"not {config.arena_difficulty!r}"
        )
    try:
        parse_schedule(config.arena_schedule)
    except ScheduleError as exc:
        raise ConfigError(f"setting {exc}") from None
    if config.redis and not config.redis.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError(
            f"setting 'redis' must be a redis://, rediss:// or unix:// URL, not {config.redis!r}"
        )
    if config.redis and not config.redis_prefix:
        raise ConfigError("setting 'redis_prefix' cannot be empty when 'redis' is set")
