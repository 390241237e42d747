"""What each player may see of a challenge, read on request or pushed to every node.

A view carries the deal's commitment, never its key; the challenger's result
to the challenger alone until the challenge is done, both results to anyone
after (docs/fair-play.md). A push goes to the player's connections on this
node and through the cluster to every other (``Cluster.fan_out``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.cluster.node import Cluster
from server.errors import NotFound
from server.net.connection import Connection
from server.storage.models import Match
from server.storage.queries import challenges as store
from shared import protocol as p


class ChallengeViews:
    """Loads challenges, shows them as each asker may see them, and pushes them."""

    def __init__(
        self,
        cluster: Cluster,
        players: dict[int, set[Connection]],
        db_sessions: async_sessionmaker[AsyncSession],
    ) -> None:
        self.cluster = cluster
        #: this node's connections by player (pushes)
        self.players = players
        self.db_sessions = db_sessions

    async def loaded(self, challenge_id: str) -> store.Loaded:
        async with self.db_sessions() as db:
            loaded = await store.load(db, challenge_id=challenge_id)
        if loaded is None:
            raise NotFound(f"no challenge {challenge_id!r}")
        return loaded

    async def about(self, challenge_id: str) -> dict[str, Any] | None:
        """What anyone may know of a challenge without signing in (its landing page)."""
        if not challenge_id or len(challenge_id) > p.MAX_CHALLENGE_ID:
            return None
        try:
            seen = await self.view(None, challenge_id)
        except NotFound:
            return None
        return {
            "id": seen.id,
            "challenger": seen.challenger_name,
            "variant": seen.variant,
            "best_of": seen.match.best_of,
            "round": seen.round,
            "state": seen.state,
        }

    async def view(self, asker: int | None, challenge_id: str) -> p.ChallengeView:
        return view_of(asker, await self.loaded(challenge_id))

    async def listed(self, player: int, limit: int) -> tuple[p.ChallengeView, ...]:
        async with self.db_sessions() as db:
            rows = await store.listed(db, player_id=player, limit=limit)
            loaded = await store.complete(db, rows)
        return tuple(view_of(player, one) for one in loaded)

    async def push(self, challenge_id: str, players: Sequence[int]) -> None:
        """Each player's view of the challenge, to their connections on every node."""
        loaded = await self.loaded(challenge_id)
        for pid in players:
            self.send(p.encode(p.ChallengeReply(challenge=view_of(pid, loaded))), [pid])

    def send(self, data: bytes, players: Sequence[int]) -> None:
        """An encoded message to the players' connections on every node."""
        for pid in players:
            for connection in list(self.players.get(pid, ())):
                connection.send_encoded(data)
            self.cluster.fan_out(data, to=[pid])


def shown_side(
    result: dict[str, Any] | None, player: int | None, names: dict[int, str]
) -> p.ChallengeSide | None:
    if result is None or player is None:
        return None
    return p.ChallengeSide(
        player=player,
        name=names.get(player, "?"),
        game=str(result["game"]),
        state=str(result["state"]),
        elapsed_ms=int(result["elapsed_ms"]),
        moves=int(result["moves"]),
        home=int(result["home"]),
        hints=int(result["hints"]),
        undos=int(result["undos"]),
    )


def match_view(match: Match, names: dict[int, str]) -> p.MatchView:
    return p.MatchView(
        id=match.id,
        best_of=match.best_of,
        first=match.first_id,
        first_name=names.get(match.first_id, "?"),
        second=match.second_id,
        second_name=None if match.second_id is None else names.get(match.second_id, "?"),
        first_wins=match.first_wins,
        second_wins=match.second_wins,
        draws=match.draws,
        rounds=match.rounds,
        state=match.state,
        winner=match.winner_id,
    )


def view_of(asker: int | None, loaded: store.Loaded) -> p.ChallengeView:
    """The challenge as ``asker`` may see it: the challenger's result to the challenger, both
    results to anyone once it is done; never the deal's key."""
    row, match, game, names = loaded.challenge, loaded.match, loaded.game, loaded.names
    done = row.state == p.CHALLENGE_DONE
    assert game.commitment is not None
    mine = row.challenger_game if asker == row.challenger_id else None
    if asker is not None and asker == row.opponent_id:
        mine = row.opponent_game
    return p.ChallengeView(
        id=row.id,
        kind=game.kind,
        variant=game.variant,
        options=dict(game.options),
        commitment=game.commitment,
        round=row.round,
        state=row.state,
        challenger=row.challenger_id,
        challenger_name=names.get(row.challenger_id, "?"),
        match=match_view(match, names),
        opponent=row.opponent_id,
        opponent_name=None if row.opponent_id is None else names.get(row.opponent_id, "?"),
        game=mine,
        result=row.result if done else None,
        ranked=row.ranked if done else None,
        unranked=row.unranked if done else None,
        challenger_result=shown_side(
            row.challenger_result if done or asker == row.challenger_id else None,
            row.challenger_id,
            names,
        ),
        opponent_result=shown_side(row.opponent_result if done else None, row.opponent_id, names),
    )
