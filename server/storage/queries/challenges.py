"""Challenges and their matches: create, claim, finish (scoring the match), list, and the
names a view shows.

Every change of a challenge's state is a compare-and-set on the state it
leaves (``WHERE state = ...``), so that two nodes (or two connections of one
player) acting on one challenge at once change it once: the caller reads the
row again when its update matched nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import Challenge, DailyAttempt, Game, Match, Player, Room, RoomMember
from shared import protocol as p


@dataclass(frozen=True, slots=True)
class Loaded:
    """A challenge with what its view reads: its match, the challenger's game, the names."""

    challenge: Challenge
    match: Match
    game: Game
    names: dict[int, str]


def _changed(result: Any) -> int:
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


async def load(session: AsyncSession, *, challenge_id: str) -> Loaded | None:
    found = await session.get(Challenge, challenge_id)
    if found is None:
        return None
    return (await complete(session, [found]))[0]


async def complete(session: AsyncSession, rows: list[Challenge]) -> list[Loaded]:
    """The challenges with their matches, games and the names of everyone they name."""
    if not rows:
        return []
    matches = {
        m.id: m
        for m in (
            await session.execute(select(Match).where(Match.id.in_({r.match_id for r in rows})))
        ).scalars()
    }
    games = {
        g.id: g
        for g in (
            await session.execute(
                select(Game).where(Game.id.in_({r.challenger_game for r in rows}))
            )
        ).scalars()
    }
    ids: set[int] = set()
    for row in rows:
        match = matches[row.match_id]
        ids |= {row.challenger_id, match.first_id}
        ids |= {pid for pid in (row.opponent_id, match.second_id) if pid is not None}
    names = await names_of(session, ids)
    return [Loaded(r, matches[r.match_id], games[r.challenger_game], names) for r in rows]


async def names_of(session: AsyncSession, ids: Iterable[int]) -> dict[int, str]:
    wanted = set(ids)
    if not wanted:
        return {}
    result = await session.execute(select(Player.id, Player.name).where(Player.id.in_(wanted)))
    return {int(pid): str(name) for pid, name in result}


async def bots(session: AsyncSession, ids: Iterable[int]) -> set[int]:
    """Which of these players are bot accounts."""
    result = await session.execute(
        select(Player.id).where(Player.id.in_(set(ids)), Player.bot.is_(True))
    )
    return {int(pid) for pid in result.scalars()}


async def of_game(session: AsyncSession, *, game_id: str) -> list[Challenge]:
    """The challenges waiting on this game's end: the friend's game of one being played, or
    the challenger's game of a rematch being set."""
    result = await session.execute(
        select(Challenge).where(
            or_(
                (Challenge.opponent_game == game_id) & (Challenge.state == p.CHALLENGE_PLAYING),
                (Challenge.challenger_game == game_id) & (Challenge.state == p.CHALLENGE_SETTING),
            )
        )
    )
    return list(result.scalars())


async def pending_round(session: AsyncSession, *, match_id: str) -> Challenge | None:
    """The match's round not yet done, if any."""
    result = await session.execute(
        select(Challenge).where(Challenge.match_id == match_id, Challenge.state != p.CHALLENGE_DONE)
    )
    return result.scalars().first()


async def later_match(
    session: AsyncSession, *, after: Match, players: tuple[int, int]
) -> Match | None:
    """A match between these two players begun since ``after`` ended (a rematch of a match
    that is over, asked for by the other player first)."""
    a, b = players
    result = await session.execute(
        select(Match)
        .where(
            Match.id != after.id,
            Match.created_ms >= after.updated_ms,
            or_(
                (Match.first_id == a) & (Match.second_id == b),
                (Match.first_id == b) & (Match.second_id == a),
            ),
        )
        .order_by(Match.created_ms.desc())
        .limit(1)
    )
    return result.scalars().first()


async def claim(session: AsyncSession, *, challenge_id: str, player_id: int, now_ms: int) -> bool:
    """The open challenge taken by ``player_id`` (whether this call took it)."""
    result = await session.execute(
        update(Challenge)
        .where(
            Challenge.id == challenge_id,
            Challenge.state == p.CHALLENGE_OPEN,
            or_(Challenge.opponent_id.is_(None), Challenge.opponent_id == player_id),
        )
        .values(state=p.CHALLENGE_PLAYING, opponent_id=player_id, accepted_ms=now_ms)
    )
    return _changed(result) == 1


async def second_player(session: AsyncSession, *, match_id: str, player_id: int) -> None:
    """The match's second player is whoever answered its first challenge."""
    await session.execute(
        update(Match)
        .where(Match.id == match_id, Match.second_id.is_(None))
        .values(second_id=player_id)
    )


async def set_game(session: AsyncSession, *, challenge_id: str, game_id: str) -> bool:
    """The friend's game of a claimed challenge (whether it was not set already)."""
    result = await session.execute(
        update(Challenge)
        .where(Challenge.id == challenge_id, Challenge.opponent_game.is_(None))
        .values(opponent_game=game_id)
    )
    return _changed(result) == 1


async def opened(
    session: AsyncSession,
    *,
    challenge_id: str,
    ghost: list[list[int]],
    result: dict[str, Any],
) -> bool:
    """A rematch's challenger game ended: it is open to the friend now."""
    changed = await session.execute(
        update(Challenge)
        .where(Challenge.id == challenge_id, Challenge.state == p.CHALLENGE_SETTING)
        .values(state=p.CHALLENGE_OPEN, ghost=ghost, challenger_result=result)
    )
    return _changed(changed) == 1


async def finished(
    session: AsyncSession,
    *,
    challenge_id: str,
    result: dict[str, Any],
    outcome: str,
    unranked: str | None,
    now_ms: int,
) -> bool:
    """The friend's game ended: the challenge is done (whether this call made it so)."""
    changed = await session.execute(
        update(Challenge)
        .where(Challenge.id == challenge_id, Challenge.state == p.CHALLENGE_PLAYING)
        .values(
            state=p.CHALLENGE_DONE,
            opponent_result=result,
            result=outcome,
            ranked=unranked is None,
            unranked=unranked,
            ended_ms=now_ms,
        )
    )
    return _changed(changed) == 1


async def match_for_update(session: AsyncSession, *, match_id: str) -> Match:
    """The match, locked until the transaction ends (its score is read, then written)."""
    result = await session.execute(select(Match).where(Match.id == match_id).with_for_update())
    return result.scalar_one()


async def listed(session: AsyncSession, *, player_id: int, limit: int) -> list[Challenge]:
    """A player's latest challenges, sent and received, newest first."""
    result = await session.execute(
        select(Challenge)
        .where(or_(Challenge.challenger_id == player_id, Challenge.opponent_id == player_id))
        .order_by(Challenge.created_ms.desc(), Challenge.id)
        .limit(limit)
    )
    return list(result.scalars())


async def daily_attempt_ended(
    session: AsyncSession, *, variant: str, date: str, player_id: int
) -> bool:
    """Whether the player's ranked attempt at that day's daily has ended."""
    attempt = await session.get(DailyAttempt, (variant, date, player_id))
    return attempt is not None and attempt.finished


async def room_racers(session: AsyncSession, *, code: str) -> list[int] | None:
    """The racers of a room (None: no such room), in the order they joined."""
    if await session.get(Room, code) is None:
        return None
    result = await session.execute(
        select(RoomMember.player_id)
        .where(RoomMember.room_code == code, RoomMember.role == p.RACER)
        .order_by(RoomMember.seq)
    )
    return [int(pid) for pid in result.scalars()]


def live_prefix(code: str) -> str:
    """A live match's id begins with its room's code and a dash (a room code has none)."""
    return f"{code}-"


async def live_match(session: AsyncSession, *, code: str, players: set[int]) -> Match | None:
    """The live match being played in room ``code`` between these two players, if any."""
    result = await session.execute(
        select(Match)
        .where(
            Match.id.startswith(live_prefix(code), autoescape=True),
            Match.state == p.MATCH_PLAYING,
        )
        .order_by(Match.created_ms.desc())
    )
    for match in result.scalars():
        if {match.first_id, match.second_id} == players:
            return match
    return None
