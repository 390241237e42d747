"""One ``--flag`` per setting of :class:`~server.config.Config`, made from its fields.

The flags follow the dataclass: a field ``race_time_limit_s`` is
``--race-time-limit-s``, its type the field's (``int``, ``float``, ``str``),
a ``bool`` field both ``--daily-ahead [true|false]`` and ``--no-daily-ahead``.
A field added to Config has its flag at once, with no line to add here; its
help text comes from :data:`HELP` (the one place for them), or says which
setting it sets until HELP has a line for it. Every help ends with the
field's default, read from the dataclass, so that no text repeats it.
"""

from __future__ import annotations

import argparse
import dataclasses
import typing
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from server.config import Config

#: setting -> what its flag's help says (the default is added from Config)
HELP: Mapping[str, str] = MappingProxyType({
    "host": "address to listen on (0.0.0.0: every interface)",
    "port": "port for WebSocket /ws and HTTP (0: any free port)",
    "db": "SQLAlchemy URL of the database (async driver)",
    "name": "server name shown to players",
    "rate_limit": "messages per second per connection",
    "rate_burst": "burst above the rate (token bucket size)",
    "max_connections": "connections in all; past it new ones are closed with 1013",
    "max_connections_per_ip": "connections per client address (IPv6: per network of ipv6_prefix)",
    "ipv6_prefix": "bits of an IPv6 address that name one client for the per-address limits",
    "trusted_proxies": "comma-separated reverse proxies whose proxy_header is believed",
    "proxy_header": "the header a trusted proxy writes the client's address in",
    "allowed_origins": "comma-separated origins whose pages may open /ws besides the server's",
    "max_message_bytes": "largest inbound frame; larger ones close the connection with 1009",
    "max_errors": "client mistakes per connection before a close with 1008",
    "send_queue": "messages queued for a slow reader before it is disconnected",
    "send_timeout": "seconds one send may wait for a reader before it is disconnected",
    "commit_delay_ms": "milliseconds to wait to group commits (0: natural grouping)",
    "hint_budget": "seconds of solver per hint",
    "hint_concurrency": "hints computed at once; more at the same moment wait their turn",
    "hint_burst": "hints one player may ask in a row (0: no rate per player)",
    "hint_refill_s": "seconds after which a player may ask one more hint",
    "hint_wait_s": "seconds a hint may wait for a thread before it is busy",
    "registration_limit": "registrations per address per hour (0: no limit)",
    "max_actions": "actions one game may hold; past it only resign is taken",
    "stuck_workers": "processes for stuck searches (0: search in the server process)",
    "deal_pool_size": "winnable deals kept ready per variant, option set and difficulty",
    "deal_pool_workers": "processes filling the pools of winnable deals (0: none)",
    "deal_pool_wait_s": "seconds a request solves when its pool of winnable deals is empty",
    "could_win_budget_s": "seconds of solver for one could_win answer in all",
    "could_win_concurrency": "could_win answers computed at once; more are busy",
    "transfer_code_s": "seconds a code that moves an account to another device lasts",
    "log_level": "DEBUG, INFO, WARNING or ERROR",
    "metrics_host": "address GET /metrics is served on (empty: not served)",
    "metrics_port": "port of GET /metrics (0: any free port)",
    "motd": "message of the day, sent in welcome when not empty",
    "race_time_limit_s": "a race's time limit in seconds when create_room names none",
    "race_countdown_ms": "milliseconds of countdown between start_race and the race",
    "race_tick_ms": "how often races are checked against their time limit (ms)",
    "race_abandon_s": "seconds a racer may be gone during a race before being resigned",
    "idle_pause_s": "seconds an unranked game's clock runs once nobody has it open, then pauses",
    "board_delay_s": "seconds behind that a room with delayed boards shows them to watchers",
    "review_min_actions": "ranked results with fewer actions are never held for review",
    "review_median_ms": "ranked results whose median gap is below this are held (0: none)",
    "review_p25_ms": "ranked results whose 25th percentile gap is below this are held (0: none)",
    "review_p10_ms": "ranked results whose 10th percentile gap is below this are held (0: none)",
    "review_first_ms": "held when the first action on a deal never seen comes sooner (ms)",
    "review_key_ms": "one key press in the physical floor (ms; 0: no floor)",
    "review_pause_ms": "a gap this long (ms) is a pause, a person's hesitation",
    "review_pauses": "a win on a solver's line with fewer pauses is held (0: never)",
    "review_slack": "a solver's line: at most this many times the solver's moves",
    "review_solve_s": "seconds of solver for a won deal's line in review",
    "daily_budget_s": "cap on seconds of solver per daily candidate deal",
    "daily_min_positions": "a daily's deal takes the solver at least this many positions",
    "daily_ahead": "compute today's and tomorrow's dailies in the background",
    "arena_schedule": "operators' arenas: 'DAY HH:MM VARIANT MINUTES [NAME]; ...' in UTC",
    "arena_ahead_h": "hours before its start that a scheduled arena is created and listed",
    "arena_push_ms": "an arena's standings are pushed at most once per this many ms",
    "arena_push_chunk": "followers a standings push writes to per turn of the event loop",
    "arena_tick_ms": "how often arenas are checked: deals out of time, ends, the schedule (ms)",
    "arena_difficulty": "difficulty of the deals arenas draw: easy, medium or hard",
    "redis": "Redis URL joining several nodes on one database (empty: one node alone)",
    "node_id": "this node's name among the nodes, unique (empty: host name:port)",
    "redis_prefix": "put before every Redis key and channel",
})  # fmt: skip

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def flag_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def setting_types() -> dict[str, type]:
    """Each Config field and its type (the annotations are strings: resolve them)."""
    hints = typing.get_type_hints(Config)
    return {f.name: hints[f.name] for f in dataclasses.fields(Config)}


def parse_bool(text: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise argparse.ArgumentTypeError(f"{text!r} is not true or false")


class _BoolFlag(argparse.Action):
    """``--x`` (true), ``--x VALUE`` (true/false, yes/no, on/off, 1/0) and ``--no-x`` (false)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        negated = option_string is not None and option_string.startswith("--no-")
        if negated and values is not None:
            parser.error(f"{option_string} takes no value")
        value = not negated if values is None else values
        setattr(namespace, self.dest, value)


def _default_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return "empty" if value == "" else str(value)


def add_setting_flags(parser: argparse.ArgumentParser) -> None:
    """Add a flag for every Config field; a flag not given leaves its setting to the other
    sources (its value stays None)."""
    defaults = Config()
    for name, kind in setting_types().items():
        text = HELP.get(name, f"the {name} setting (docs/operating.md)")
        text = f"{text} (default {_default_text(getattr(defaults, name))})".replace("%", "%%")
        flag = flag_name(name)
        if kind is bool:
            parser.add_argument(
                flag,
                "--no-" + flag[2:],
                dest=name,
                nargs="?",
                type=parse_bool,
                default=None,
                action=_BoolFlag,
                metavar="true|false",
                help=text,
            )
        else:
            metavar = name.upper() if kind is str else kind.__name__.upper()
            parser.add_argument(
                flag, dest=name, type=kind, default=None, metavar=metavar, help=text
            )


def overrides(args: argparse.Namespace) -> dict[str, object]:
    """The settings the flags gave (None for a flag not given), for :func:`server.config.load`."""
    return {name: getattr(args, name, None) for name in setting_types()}
