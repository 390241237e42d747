"""The messages of challenges: send, look, answer, the ghost, rematch, the list.

Who may do what is the challenge service's (server/challenges/lifecycle.py), what each
may see the views' (views.py), live matches in race rooms matches.py's;
here each request becomes its reply. The game a challenge deals is opened on
the asking connection, as ``start_game``'s is (its clock pauses when nobody
has it open).
"""

from __future__ import annotations

import http

from websockets.http11 import Response

from server.challenges.lifecycle import ChallengeService
from server.challenges.matches import LiveMatches
from server.challenges.views import ChallengeViews
from server.games.opened import OpenGames
from server.games.service import GameService
from server.net.connection import Connection
from server.net.http import json_response
from server.net.routing import Route
from shared import protocol as p


class ChallengeHandlers:
    def __init__(
        self,
        challenges: ChallengeService,
        views: ChallengeViews,
        matches: LiveMatches,
        games: GameService,
        opened: OpenGames,
    ) -> None:
        self.challenges = challenges
        self.views = views
        self.matches = matches
        self.games = games
        self.opened = opened

    def routes(self) -> tuple[Route, ...]:
        return (
            Route(p.ChallengeCreate, self.create),
            Route(p.ChallengeGet, self.get),
            Route(p.ChallengeAccept, self.accept),
            Route(p.ChallengeGhost, self.ghost),
            Route(p.ChallengeRematch, self.rematch),
            Route(p.ChallengesRequest, self.listed),
            Route(p.MatchStart, self.start_match),
        )

    async def about(self, challenge_id: str) -> Response:
        """``GET /challenge/CID/about``: who challenges, on what, for the landing page before
        its visitor has signed in; nothing of any result, nor of the deal but its variant."""
        found = await self.views.about(challenge_id)
        if found is None:
            return json_response(http.HTTPStatus.NOT_FOUND, {"status": "not found"})
        return json_response(http.HTTPStatus.OK, found)

    async def create(self, connection: Connection, message: p.ChallengeCreate) -> p.Reply:
        player = connection.welcomed_player.id
        view = await self.challenges.create(player, message.game, message.best_of)
        return p.ChallengeReply(challenge=view, re=message.id)

    async def get(self, connection: Connection, message: p.ChallengeGet) -> p.Reply:
        view = await self.views.view(connection.welcomed_player.id, message.challenge)
        return p.ChallengeReply(challenge=view, re=message.id)

    async def accept(self, connection: Connection, message: p.ChallengeAccept) -> p.Reply:
        view, live = await self.challenges.accept(connection.welcomed_player.id, message.challenge)
        self.opened.open(connection.number, live)
        return p.ChallengeGameReply(challenge=view, game=self.games.view(live), re=message.id)

    async def ghost(self, connection: Connection, message: p.ChallengeGhost) -> p.Reply:
        found = await self.challenges.ghost(connection.welcomed_player.id, message.challenge)
        return p.GhostReply(
            found.challenge, found.elapsed_ms, found.moves, found.home, found.state, re=message.id
        )

    async def rematch(self, connection: Connection, message: p.ChallengeRematch) -> p.Reply:
        view, live = await self.challenges.rematch(connection.welcomed_player.id, message.challenge)
        self.opened.open(connection.number, live)
        return p.ChallengeGameReply(challenge=view, game=self.games.view(live), re=message.id)

    async def listed(self, connection: Connection, message: p.ChallengesRequest) -> p.Reply:
        views = await self.views.listed(connection.welcomed_player.id, message.limit)
        return p.ChallengesReply(challenges=views, re=message.id)

    async def start_match(self, connection: Connection, message: p.MatchStart) -> p.Reply:
        reply = await self.matches.start_match(
            connection.welcomed_player.id, message.room.upper(), message.best_of
        )
        return p.MatchReply(reply.room, reply.match, re=message.id)
