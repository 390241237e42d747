"""The app's challenges: a friend's challenge accepted (its game beside the challenger's
ghost), the news of one (a result shown side by side, a round to play), a rematch on a new
deal, and a live match started in a race room.

:class:`ChallengeApp` is a base of :class:`client.app.PatienceApp`, between it and
:class:`client.race_room.RaceRoomApp` (whose boards it opens); the screens it
drives know no app.
"""

from __future__ import annotations

from client.challenges import match_text, outcome_text
from client.connection import describe
from client.i18n import t
from client.race_room import RaceRoomApp
from client.screens.challenge import GhostPanel, ResultScreen
from client.screens.home import HomeScreen
from client.screens.race import RaceScreen
from shared.errors import ProtocolError
from shared.protocol import (
    ChallengeAccept,
    ChallengeGameReply,
    ChallengeRematch,
    ChallengeReply,
    ChallengeView,
    MatchReply,
    MatchStart,
)


class ChallengeApp(RaceRoomApp):
    """Challenges and matches for the app."""

    def _challenge_told(self, message: ChallengeReply) -> None:
        """A challenge's news: its result (both games side by side, with a rematch), a round
        to play, who answered it; home's list shows it when home is back in view."""
        view = message.challenge
        if view.state == "done":
            self.notify(
                t(
                    "challenge.told_done",
                    id=view.id,
                    outcome=outcome_text(view),
                    match=match_text(view.match),
                )
            )
            self.show_result(view)
        elif view.state == "open":
            self.notify(
                t("challenge.told_open", name=view.challenger_name, round=view.round, id=view.id)
            )
        elif view.state == "playing":
            self.notify(t("challenge.told_playing", name=view.opponent_name, id=view.id))
        if isinstance(self.screen, HomeScreen):
            self.screen.action_refresh()

    def show_result(self, view: ChallengeView) -> None:
        """The result of a round, once, over whatever is shown (a result pushed again, after
        a reconnect, replaces the one shown)."""
        if isinstance(self.screen, ResultScreen):
            if self.screen.view.id == view.id:
                return
            self.pop_screen()
        self.push_screen(ResultScreen(view))

    def on_result_screen_rematch(self, event: ResultScreen.Rematch) -> None:
        self.run_worker(self.rematch(event.challenge, event.screen), group="home")

    async def rematch(self, challenge: str, screen: ResultScreen) -> None:
        """The next round of the match (or a new match) on a new deal, which we play first:
        when our game ends the round opens and the other player is told."""
        try:
            reply = await self.conn.request(
                ChallengeRematch(challenge=challenge), ChallengeGameReply
            )
        except (ProtocolError, ConnectionError, TimeoutError) as exc:
            screen.say(describe(exc))
            return
        screen.dismiss()
        self.played.adopt(reply.game)
        view = reply.challenge
        title = t("challenge.first_title", name=self.catalog.name(view.variant), round=view.round)
        await self.push_screen(self.played_board(title, kind="challenge"))

    def on_home_screen_accept_challenge(self, event: HomeScreen.AcceptChallenge) -> None:
        self.run_worker(self.accept_challenge(event.code, event.screen), group="home")

    async def accept_challenge(self, code: str, screen: HomeScreen) -> None:
        """Play a friend's challenge: our game on its deal (the same game again, once
        answered) opens on the board beside the challenger's ghost; its result comes as a
        ``challenge`` push."""
        try:
            reply = await self.conn.request(ChallengeAccept(challenge=code), ChallengeGameReply)
        except (ProtocolError, ConnectionError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.played.adopt(reply.game)
        challenge = reply.challenge
        name = self.catalog.name(challenge.variant)
        title = t("challenge.board_title", name=name, challenger=challenge.challenger_name)
        ghost = GhostPanel(self.conn, challenge.id, challenge.challenger_name)
        # hints are allowed but leave the result unranked: the board's hint key says so
        await self.push_screen(self.played_board(title, ghost, kind="challenge"))

    def on_race_screen_match(self, event: RaceScreen.Match) -> None:
        self.run_worker(self.start_match(event.best_of, event.screen), group="race")

    async def start_match(self, best_of: int, screen: RaceScreen) -> None:
        """A best-of-``best_of`` match with the room's other racer: each race between us
        from now on is a round, its score in the room."""
        code = self.race.code
        if code is None:
            return
        try:
            reply = await self.conn.request(MatchStart(room=code, best_of=best_of), MatchReply)
        except (ProtocolError, ConnectionError, TimeoutError) as exc:
            screen.say(describe(exc), error=True)
            return
        self.match_told(reply)

    def match_told(self, reply: MatchReply) -> None:
        """A match of our room (the reply, or the push to the other racer): its score shows
        in the room and beside the race board."""
        if reply.room != self.race.code:
            return
        self.race.match = reply.match
        self.notify(match_text(reply.match), timeout=5)
        for screen in self.screen_stack:
            if isinstance(screen, RaceScreen):
                screen.redraw()
