"""Players: ``list-players``, ``rename``, ``ban``, ``unban``, ``reset-token``.

A ban takes effect at once on a running server: it closes the player's
connections, treats them as having left their rooms and leaves their results
out of leaderboards; ``unban`` restores the results. A new token is printed
once and never stored in clear; the connections that said hello with the old
one are closed. Each change bumps the player's ``updated_ms``, which is what
the server reads.
"""

from __future__ import annotations

import argparse
import datetime
import secrets
from types import MappingProxyType

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.commands.admin.common import Action, AdminError, find_player
from server.storage.models import Game, Player
from server.storage.queries import players
from shared.names import skeleton
from shared.protocol import NAME_RE


def _who(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("player", help="id or name")


def _nothing(_parser: argparse.ArgumentParser) -> None:
    pass


async def list_players(db: AsyncSession, _args: argparse.Namespace) -> list[str]:
    counts = select(Game.player_id, func.count().label("games")).group_by(Game.player_id).subquery()
    rows = await db.execute(
        select(Player, func.coalesce(counts.c.games, 0))
        .outerjoin(counts, counts.c.player_id == Player.id)
        .order_by(Player.id)
    )
    lines = [f"{'id':>6}  {'name':<24}  {'games':>6}  {'since':<10}  banned  bot"]
    for player, games in rows:
        since = datetime.datetime.fromtimestamp(player.created_ms / 1000, tz=datetime.UTC).date()
        banned = "yes" if player.banned else ""
        bot = "yes" if player.bot else ""
        lines.append(f"{player.id:>6}  {player.name:<24}  {games:>6}  {since}  {banned:<6}  {bot}")
    return lines


async def rename(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    player = await find_player(db, args.player)
    new = args.new_name
    if not NAME_RE.fullmatch(new):
        raise AdminError(f"name {new!r} is not 1 to 24 ASCII letters, digits, _ or -")
    clash = await players.holder(db, new, besides=player.id)
    if clash is not None:
        other, same = clash
        if same:
            raise AdminError(f"name {new!r} is taken by player {other.id}")
        raise AdminError(
            f"name {new!r} looks too much like {other.name!r}, player {other.id} "
            "(name_looks_taken: the same confusable skeleton)"
        )
    old = player.name
    player.name, player.name_key, player.name_skeleton = new, new.lower(), skeleton(new)
    await players.touch(db, player)
    await db.commit()
    return [f"player {player.id} renamed from {old!r} to {new!r}"]


async def ban(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    return await _set_ban(db, args.player, True)


async def unban(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    return await _set_ban(db, args.player, False)


async def _set_ban(db: AsyncSession, who: str, banned: bool) -> list[str]:
    player = await find_player(db, who)
    player.banned = banned
    await players.touch(db, player)
    await db.commit()
    return [f"player {player.id} ({player.name}) {'banned' if banned else 'unbanned'}"]


async def reset_token(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    player = await find_player(db, args.player)
    token = secrets.token_urlsafe(24)
    player.token_hash = players.hash_token(token)
    await players.touch(db, player)
    await db.commit()
    return [f"player {player.id} ({player.name}) has a new token: {token}"]


def _rename_arguments(parser: argparse.ArgumentParser) -> None:
    _who(parser)
    parser.add_argument("new_name", help="the new name")


ACTIONS = MappingProxyType({
    "list-players": Action("list the players: id, name, games, since, banned, bot", _nothing,
                           list_players),
    "rename": Action("rename a player", _rename_arguments, rename),
    "ban": Action("ban a player: closes their connections, hides their results", _who, ban),
    "unban": Action("lift a player's ban: their results are listed again", _who, unban),
    "reset-token": Action("give a player a new token (printed once)", _who, reset_token),
})  # fmt: skip
