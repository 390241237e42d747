"""Challenges on the terminal's screens: sending a finished game to a friend, the ghost of the
challenger beside a challenge game, and the two results side by side with a rematch.

- :class:`SendScreen`: a finished solo (or daily practice) game on a secret deal becomes a
  challenge of 1, 3 or 5 rounds (``challenge_create``); the screen shows the code and the link
  to give the friend, who accepts it on home (here or in the browser).
- :class:`GhostPanel`: beside the answerer's board, where the challenger was at the same
  elapsed time (``challenge_ghost``, asked every second while the game is played): their moves
  and cards home, and once past their end, how they ended.
- :class:`ResultScreen`: a challenge that is done, both games side by side, who won, the
  match's running score, and ``r``: a rematch on a new deal (posted for the app to play).

Each asks over the connection it is given; none knows the app.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from client.challenges import ghost_text, match_text, outcome_text, side_text, web_link
from client.connection import Connection, describe
from client.footer import Footer
from client.i18n import t
from shared.errors import ProtocolError
from shared.protocol import (
    ChallengeCreate,
    ChallengeGhost,
    ChallengeReply,
    ChallengeView,
    GameView,
    GhostReply,
)


class SendScreen(Screen[None]):
    """Send the finished game ``game`` as a challenge: 1, 3 or 5 rounds."""

    BINDINGS = [
        Binding("1", "send(1)", "key.one_game"),
        Binding("3", "send(3)", "key.best_of_3"),
        Binding("5", "send(5)", "key.best_of_5"),
        Binding("escape", "app.pop_screen", "key.close"),
    ]

    def __init__(self, conn: Connection, game: str) -> None:
        super().__init__()
        self.conn = conn
        self.game = game
        self.sent: ChallengeView | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(t("challenge.send_title"), classes="title")
            yield Static(t("challenge.send_text"), id="send-text")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "send" or self.sent is None

    def action_send(self, best_of: int) -> None:
        self.run_worker(self._send(best_of), group="challenge", exclusive=True)

    async def _send(self, best_of: int) -> None:
        text = self.query_one("#send-text", Static)
        try:
            reply = await self.conn.request(
                ChallengeCreate(game=self.game, best_of=best_of), ChallengeReply
            )
        except (ProtocolError, ConnectionError, TimeoutError) as exc:
            text.update(Text(describe(exc), style="bold red"))
            return
        self.sent = reply.challenge
        self.refresh_bindings()
        shown = Text(t("challenge.give_code"))
        shown.append(f" {self.sent.id} ", style="bold reverse")
        shown.append("\n" + t("challenge.or_link", link=web_link(self.conn.url, self.sent.id)))
        shown.append("\n" + t("challenge.they_accept"))
        shown.append(f"\n{match_text(self.sent.match)}", style="dim")
        text.update(shown)


class GhostPanel(Static):
    """Where ``challenger`` was at this game's elapsed time, beside the answerer's board."""

    def __init__(self, conn: Connection, challenge: str, challenger: str) -> None:
        super().__init__(Text(t("ghost.waiting", name=challenger)), id="side")
        self.conn = conn
        self.challenge = challenge
        self.challenger = challenger
        self.ghost: GhostReply | None = None
        self.view: GameView | None = None
        self._asking = False

    def on_mount(self) -> None:
        self.set_interval(1.0, self.ask)
        self.ask()

    def follow(self, view: GameView) -> None:
        """The board's latest view: the panel asks only while the game is played."""
        self.view = view
        self.redraw()

    def ask(self) -> None:
        if self._asking or (self.view is not None and self.view.state != "playing"):
            return
        self._asking = True
        self.run_worker(self._ask(), group="ghost", exclusive=True)

    async def _ask(self) -> None:
        try:
            self.ghost = await self.conn.request(
                ChallengeGhost(challenge=self.challenge), GhostReply, retry=False
            )
        except (ProtocolError, ConnectionError, TimeoutError):
            pass  # the next second asks again; what was shown stays
        finally:
            self._asking = False
        self.redraw()

    def redraw(self) -> None:
        self.update(ghost_text(self.challenger, self.ghost, self.view))


class ResultScreen(Screen[None]):
    """A challenge that is done: both games side by side, and a rematch on a new deal."""

    class Rematch(Message):
        """Play the next round (or a new match) of ``challenge`` on a new deal."""

        def __init__(self, screen: ResultScreen, challenge: str) -> None:
            super().__init__()
            self.screen = screen
            self.challenge = challenge

        @property
        def control(self) -> ResultScreen:
            return self.screen

    BINDINGS = [
        Binding("r", "rematch", "key.rematch_new_deal"),
        Binding("escape", "app.pop_screen", "key.close"),
    ]

    def __init__(self, view: ChallengeView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        view = self.view
        with Vertical(classes="dialog"):
            heading = t(
                "challenge.heading", id=view.id, round=view.round, outcome=outcome_text(view)
            )
            yield Static(heading, classes="title")
            with Horizontal(id="result-sides"):
                for side in (view.challenger_result, view.opponent_result):
                    if side is not None:
                        yield Static(side_text(side).replace(", ", "\n"), classes="result-side")
            note = match_text(view.match)
            if view.ranked is False:
                note += "\n" + t("challenge.not_ranked_line", why=view.unranked)
            yield Static(note, id="result-match")
            yield Static(id="result-message")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A round of a live match (a race) has no rematch here: the room's next race is."""
        return action != "rematch" or self.view.kind != "race"

    def say(self, message: str) -> None:
        self.query_one("#result-message", Static).update(Text(message, style="bold red"))

    def action_rematch(self) -> None:
        self.post_message(self.Rematch(self, self.view.id))
