"""The board's keys beyond playing a card: hints, redo, restart, the move list, and what a
finished game offers (verify its deal, could I have won, its replay, a challenge).

A base class of :class:`client.screens.board.BoardScreen`, kept apart so that
each module stays small; it acts on the board's attributes declared here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from client.connection import describe
from client.footer import Footer
from client.i18n import t
from client.move_line import MoveLine
from client.names import move_name
from client.played_game import PlayedGame
from client.screens.challenge import SendScreen
from client.screens.hindsight import HindsightScreen
from client.screens.replay import ReplayScreen
from client.screens.verify import VerifyScreen
from client.selection import Selection
from shared.errors import ProtocolError
from shared.notation import Action, Move
from shared.protocol import GameView, VariantInfo

#: games that may be dealt again from the start (a daily attempt or a race is played once)
RESTARTABLE = frozenset({"solo"})
#: games that may not be sent as a challenge (the server says why for the others)
NOT_SENT = frozenset({"race", "challenge"})


class MovesScreen(Screen[None]):
    """The move list of the current game, in the board's names."""

    BINDINGS = [Binding("escape,m", "app.pop_screen", "key.close")]

    def __init__(self, names: list[str]) -> None:
        super().__init__()
        self.names = names

    def compose(self) -> ComposeResult:
        shown = "\n".join(self.names[-200:]) or t("board.no_move")
        yield Static(Text(t("board.moves_title", moves=shown)), id="moves", classes="dialog")
        yield Footer()


class BoardTools(Screen[None]):
    """What the board offers besides moving cards (see the module's docstring)."""

    view: GameView
    variant: VariantInfo | None
    played: PlayedGame | None
    pick: Selection
    hinted: Action | None
    #: what the game is: solo, daily, practice, race, challenge (what restart and send allow)
    kind: str
    line: MoveLine
    _lock: asyncio.Lock
    _restart_armed: bool

    def say(self, message: str, *, error: bool = False) -> None:
        raise NotImplementedError

    def redraw(self) -> None:
        raise NotImplementedError

    def set_view(self, view: GameView, message: str | None = None) -> None:
        raise NotImplementedError

    def submit(
        self, act: Callable[[PlayedGame], Awaitable[GameView]], action: Action | None = None
    ) -> None:
        raise NotImplementedError

    def _has_cards(self, pile_id: str) -> bool:
        raise NotImplementedError

    def tool_allowed(self, action: str) -> bool | None:
        """Whether one of these keys acts now (None: not one of them)."""
        view = self.view
        ended = view.state not in ("playing", "stuck")
        if action == "redo":
            return self.played is not None and view.state == "playing" and bool(self.line.undone)
        if action == "restart":
            return self.played is not None and self.kind in RESTARTABLE
        if action == "replay":
            return ended
        if action == "challenge":
            keyed = view.deal.commitment is not None
            return self.played is not None and ended and keyed and self.kind not in NOT_SENT
        if action == "moves":
            return True
        return None

    def action_moves(self) -> None:
        self.app.push_screen(MovesScreen(self.line.names()))

    def action_replay(self) -> None:
        if self.played is not None:
            self.app.push_screen(ReplayScreen(self.played.conn, self.view.id))

    def action_challenge(self) -> None:
        if self.played is not None:
            self.app.push_screen(SendScreen(self.played.conn, self.view.id))

    def action_verify(self) -> None:
        self.app.push_screen(VerifyScreen(self.view))

    def action_could_win(self) -> None:
        if self.played is not None:
            self.app.push_screen(HindsightScreen(self.played.conn, self.view, self.variant))

    def action_redo(self) -> None:
        action = self.line.redo()
        if action is None:
            self.say(t("board.nothing_to_redo"))
            return
        self.pick.clear()
        self.submit(lambda played: played.move(action), action)

    def action_restart(self) -> None:
        """The same deal from the start: a game still on is resigned first (asked twice)."""
        self.pick.clear()
        playing = self.view.state in ("playing", "stuck")
        if playing and not self._restart_armed:
            self._restart_armed = True
            self.say(t("board.restart_again"))
            return
        self._restart_armed = False
        self.run_worker(self._restart(), group="actions")

    async def _restart(self) -> None:
        played = self.played
        if played is None:
            return
        try:
            async with self._lock:
                view = self.view
                if view.state in ("playing", "stuck"):
                    view = await played.resign()
                    self.set_view(view)
                deal = view.deal
                if deal.seed is None and deal.key is None:
                    self.say(t("board.still_secret"), error=True)
                    return
                fresh = await played.start(view.variant, deal.seed, view.options, key=deal.key)
        except (ProtocolError, ConnectionError, TimeoutError) as exc:
            self.say(describe(exc), error=True)
            return
        self.line = MoveLine(fresh.ply)
        self.set_view(fresh, t("board.dealt_again"))

    def action_hint(self) -> None:
        self.run_worker(self._hint(), group="actions")

    def action_play_hint(self) -> None:
        if self.hinted is not None:
            move, self.hinted = self.hinted, None
            self.pick.clear()
            self.submit(lambda played: played.move(move), move)

    async def _hint(self) -> None:
        if self.played is None:
            return
        try:
            hint = await self.played.hint()
        except (ProtocolError, ConnectionError) as exc:
            self.say(describe(exc), error=True)
            return
        self.hinted = hint
        if hint is None:
            self.say(t("board.no_hint"))
            return
        if isinstance(hint, Move) and self._has_cards(hint.src):
            # Show it on the board as if the player had picked the source.
            self.pick.src = hint.src
            self.pick.count = hint.count
            self.redraw()
        self.say(t("board.hint", move=move_name(hint)))
