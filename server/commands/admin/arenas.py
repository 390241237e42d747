"""Arenas: ``arenas list``, ``arenas create``, ``arenas cancel CODE``.

The command writes the ``arenas`` table; every running node reads the arenas
changed there each ``arena_tick_ms`` (server/arenas/catalogue.py), so a new
arena is listed, and a cancelled one ends (its followers told, the points
scored kept), within about a second. Deals are drawn by the server when the
first player reaches them, never by this command.
"""

from __future__ import annotations

import argparse
import datetime
import json
import secrets
import time
from types import MappingProxyType

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from server.commands.admin.common import Action, AdminError
from server.storage.models import Arena
from server.storage.queries import arenas as store
from shared import protocol as p
from shared.variants import STANDARD

#: arenas over for longer than this are not listed
LISTED_MS = 86_400_000


def _when(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).strftime("%Y-%m-%d %H:%M")


def _moment(text: str) -> int:
    try:
        moment = datetime.datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=datetime.UTC)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not 'YYYY-MM-DD HH:MM' (UTC)") from None
    return int(moment.timestamp() * 1000)


def _code(text: str) -> str:
    code = text.strip().upper()
    if len(code) != p.CODE_LENGTH or any(c not in p.CODE_ALPHABET for c in code):
        raise argparse.ArgumentTypeError(f"{text!r} is not an arena code")
    return code


def _state(row: Arena, now: int) -> str:
    if row.cancelled_ms is not None:
        return p.CANCELLED
    if now < row.starts_ms:
        return p.UPCOMING
    return p.RUNNING if now < row.ends_ms else p.FINISHED


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", choices=("list", "create", "cancel"), help="what to do")
    parser.add_argument("code", nargs="?", type=_code, help="the arena to cancel")
    parser.add_argument("--variant", choices=STANDARD.ids, help="create: the variant")
    parser.add_argument(
        "--minutes",
        type=int,
        default=45,
        help=f"create: how long ({p.MIN_ARENA_MINUTES} to {p.MAX_ARENA_MINUTES}; default 45)",
    )
    parser.add_argument(
        "--starts", type=_moment, default=None, help="create: 'YYYY-MM-DD HH:MM' UTC (now)"
    )
    parser.add_argument("--name", default=None, help="create: its name")


async def arenas(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    if args.what == "create":
        return await _create(db, args)
    if args.what == "cancel":
        return await _cancel(db, args)
    return await _list(db)


async def _list(db: AsyncSession) -> list[str]:
    now = int(time.time() * 1000)
    rows = await store.listed(db, ends_after_ms=now - LISTED_MS)
    if not rows:
        return ["no arenas"]
    counts = await store.counts(db, codes=[row.code for row in rows])
    lines = [f"{'code':<6}  {'variant':<15}  {'state':<9}  {'starts (UTC)':<16}  minutes  "
             "players  by        name"]  # fmt: skip
    for row in rows:
        minutes = (row.ends_ms - row.starts_ms) // 60_000
        by = "schedule" if row.schedule else "operator" if row.host_id is None else "player"
        lines.append(
            f"{row.code:<6}  {row.variant:<15}  {_state(row, now):<9}  {_when(row.starts_ms)}  "
            f"{minutes:<7}  {counts.get(row.code, 0):<7}  {by:<8}  {row.name}"
        )
    return lines


async def _create(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    if args.variant is None:
        raise AdminError("arenas create needs --variant")
    if not p.MIN_ARENA_MINUTES <= args.minutes <= p.MAX_ARENA_MINUTES:
        raise AdminError(f"--minutes must be from {p.MIN_ARENA_MINUTES} to {p.MAX_ARENA_MINUTES}")
    now = int(time.time() * 1000)
    starts = now if args.starts is None else args.starts
    if starts + args.minutes * 60_000 <= now:
        raise AdminError("that arena would be over already: choose a later --starts")
    rules = STANDARD.get(args.variant)
    name = (args.name or f"{rules.name} arena").strip()[: p.MAX_ARENA_NAME]
    options = json.dumps(dict(rules.option_defaults), sort_keys=True, separators=(",", ":"))
    for _ in range(5):
        code = "".join(secrets.choice(p.CODE_ALPHABET) for _ in range(p.CODE_LENGTH))
        row = Arena(
            code=code,
            name=name,
            variant=args.variant,
            options=options,
            starts_ms=starts,
            ends_ms=starts + args.minutes * 60_000,
            host_id=None,
            private=False,
            schedule=None,
            cancelled_ms=None,
            created_ms=now,
            updated_ms=now,
        )
        try:
            db.add(row)
            await db.commit()
        except IntegrityError:
            await db.rollback()
            continue
        return [
            f"arena {code} created: {name}, {args.variant}, {args.minutes} minutes from "
            f"{_when(starts)} UTC (link: /arena/{code})"
        ]
    raise AdminError("no free arena code was found; try again")


async def _cancel(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    if args.code is None:
        raise AdminError("arenas cancel needs the arena's CODE (see 'admin arenas list')")
    row = await store.arena(db, code=args.code)
    if row is None:
        raise AdminError(f"no arena {args.code!r} (see 'patience-club admin arenas list')")
    now = int(time.time() * 1000)
    state = _state(row, now)
    if state in (p.FINISHED, p.CANCELLED):
        raise AdminError(f"arena {row.code} is {state} already")
    row.cancelled_ms = now
    row.updated_ms = now
    await db.commit()
    return [f"arena {row.code} cancelled: it ends within a second, points scored are kept"]


ACTIONS = MappingProxyType({
    "arenas": Action("arenas: list, create (--variant, --minutes, --starts, --name), "
                     "cancel CODE", arguments, arenas),
})  # fmt: skip
