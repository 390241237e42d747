"""The board screen: one game, drawn from its GameView, played by keys and clicks.

Picking works as on a desktop: pick a source (key or click), optionally set a
group size (+/-), then pick a destination. Destinations that the view's
``legal`` list allows are highlighted. Every action goes to the server, and
the screen shows whatever view comes back, or the server's reason in words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.widgets import Static

from client import selection
from client.clock import Clock, GameClock, GameClocks, format_ms
from client.connection import CONNECTED, CONNECTING, RECONNECTING, describe
from client.footer import Footer
from client.home_facts import state_word
from client.i18n import t, tn
from client.layout import (
    FOUNDATION_KEYS,
    RESERVE_KEYS,
    TABLEAU_KEYS,
    WASTE_KEY,
    layout_from,
)
from client.move_line import MoveLine
from client.names import deal_name, pile_name, translate
from client.played_game import PlayedGame
from client.screens.board_tools import BoardTools
from client.screens.challenge import GhostPanel
from client.widgets import BoardWidget, PileWidget
from shared.errors import ProtocolError
from shared.notation import AUTO, DEAL, UNDO, Action, Move
from shared.protocol import GameView, PileView, VariantInfo

_PILE_BINDINGS = [
    *(Binding(k, f"pick('t{i}')", show=False) for i, k in enumerate(TABLEAU_KEYS)),
    *(Binding(k, f"pick('r{i}')", show=False) for i, k in enumerate(RESERVE_KEYS)),
    *(Binding(k, f"pick('f{i}')", show=False) for i, k in enumerate(FOUNDATION_KEYS)),
    Binding(WASTE_KEY, "pick('w')", show=False),
]

#: columns of the race panel beside the board (app.tcss, #side)
SIDE_WIDTH = 36

#: what the board says of a game that has ended (the tables' keys)
STATE_TEXT = {
    "won": "board.won",
    "stuck": "board.stuck",
    "resigned": "board.resigned",
    "timeout": "board.timeout",
}


class BoardScreen(BoardTools):
    """A game on the board, laid out as ``variant`` (the server's VariantInfo of its variant)
    says. ``played`` None makes it read-only (watching a racer)."""

    BINDINGS = [
        Binding("space", "deal", "key.deal"),
        Binding("u", "undo", "key.undo"),
        Binding("h", "hint", "key.hint"),
        Binding("enter", "play_hint", "key.play_hint", show=False),
        Binding("a", "auto", "key.auto"),
        Binding("f", "to_foundation", "key.foundation"),
        Binding("plus,equals_sign", "count(1)", "key.more", show=False),
        Binding("minus", "count(-1)", "key.fewer", show=False),
        Binding("U", "redo", "key.redo"),
        Binding("R", "resign", "key.resign"),
        Binding("S", "restart", "key.restart", show=False),
        Binding("m", "moves", "key.moves", show=False),
        Binding("y", "replay", "key.replay"),
        Binding("C", "challenge", "key.challenge"),
        Binding("v", "verify", "key.verify"),
        Binding("W", "could_win", "key.could_win"),
        Binding("escape", "cancel", "key.back"),
        *_PILE_BINDINGS,
    ]

    #: the actions that change the game: none of them act on a watched board
    PLAY_ACTIONS = frozenset(
        {"deal", "undo", "redo", "hint", "play_hint", "auto", "to_foundation", "count", "resign"}
    )

    def __init__(
        self,
        view: GameView,
        *,
        variant: VariantInfo | None,
        played: PlayedGame | None,
        clock: Clock,
        title: str = "",
        side: Static | None = None,
        hints: bool = True,
        game_clocks: GameClocks | None = None,
        kind: str = "solo",
    ) -> None:
        super().__init__()
        self.view = view
        self.kind = kind
        self.line = MoveLine(view.ply)
        self._restart_armed = False
        self.variant = variant
        self.played = played
        self.title_text = title
        self.side = side
        #: the server gives hints in this game (not in a daily attempt, nor in a race whose
        #: room has hints off): the hint key is listed and acts only then
        self.hints = hints
        #: the link's state as the connection last reported it, and its detail
        self.link = CONNECTED
        self.link_detail = ""
        #: actions asked for and not answered yet (sent, or waiting for the link)
        self.waiting = 0
        self.pick = selection.Selection()
        self.hinted: Action | None = None
        self._resign_armed = False
        #: composed and mounting: pushes that arrive earlier only store the view
        self._ready = False
        #: the game's clock, shared with the other boards of it when ``game_clocks`` is given
        self.game_clock = GameClock(clock) if game_clocks is None else game_clocks.of(view.id)
        self._lock = asyncio.Lock()
        self.board = BoardWidget(layout_from(variant, [p.id for p in view.piles]), id="board")

    # -- drawing -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="game-info")
        yield Static(id="link")
        with Horizontal(id="board-area"):
            with Vertical(id="board-column"):
                yield self.board
            if self.side is not None:
                yield self.side
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self._ready = True
        self.set_view(self.view)
        self.show_link(self.link, self.link_detail)
        self.set_interval(1.0, self._tick)

    def on_unmount(self) -> None:
        """The board is closed: the server may pause an unranked game's clock."""
        if self.played is not None:
            self.app.run_worker(self.played.leave(), exit_on_error=False)

    def _tick(self) -> None:
        self.query_one("#game-info", Static).update(self.info_text())

    def on_resize(self) -> None:
        """The side panel stands beside the board when both fit across, else below it."""
        if self.side is None:
            return
        wide = self.size.width >= self.board.board_layout.width + SIDE_WIDTH + 4
        self.query_one("#board-area").set_class(not wide, "stacked")

    def set_view(self, view: GameView, message: str | None = None) -> None:
        """Show ``view``; an older view of the same game (a reply that crossed a newer one)
        is ignored, so the board never steps back. Plies only grow: undo is an action too."""
        if view.id == self.view.id and view.ply < self.view.ply:
            return
        revealed = view.deal.key is not None and self.view.deal.key is None
        self.view = view
        if isinstance(self.side, GhostPanel):
            self.side.follow(view)
        if not self._ready:
            return  # on_mount draws self.view
        self.game_clock.set(view.elapsed_ms, view.state == "playing", view.id)
        if self.pick.src is not None and not self._has_cards(self.pick.src):
            self.pick.clear()
        self.redraw()
        self.refresh_bindings()
        if message is not None:
            self.say(message)
        elif view.state == "won":
            time = format_ms(view.elapsed_ms)
            self.say(t("board.won_in", time=time, moves=view.moves) + self._verify_offer())
        elif view.state != "playing":
            key = STATE_TEXT.get(view.state)
            self.say((view.state if key is None else t(key)) + self._verify_offer())
        elif revealed:
            self.say(self._verify_offer().strip())

    def _verify_offer(self) -> str:
        if self.view.deal.key is None or self.view.deal.commitment is None:
            return ""
        return t("board.verify_offer")

    def show_link(self, state: str, detail: str = "") -> None:
        """The connection's state: while it is not up, a line says so, with the actions
        waiting to be sent once it is back (the ply rule keeps them from being doubled)."""
        self.link, self.link_detail = state, detail
        if not self._ready:
            return
        for line in self.query("#link").results(Static):  # none while the screen goes away
            self._draw_link(line, state, detail)

    def _draw_link(self, line: Static, state: str, detail: str) -> None:
        if state == CONNECTED:
            line.display = False
            return
        reconnecting = state in (RECONNECTING, CONNECTING)
        word = t("link.reconnecting") if reconnecting else t("link.disconnected")
        text = Text(f" {word} ", style="bold reverse red")
        text.append(" " + tn("link.waiting", self.waiting), style="bold")
        if detail:
            text.append(f"  ({detail})", style="dim")
        line.update(text)
        line.display = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that act here are listed in the footer and act: none that change
        the game on a watched board, no deal without a stock, no hint where hints are off,
        no undo or resign once the game has ended, verify once the deal's key is out."""
        view = self.view
        if action in self.PLAY_ACTIONS and self.played is None:
            return False
        tool = self.tool_allowed(action)
        if tool is not None:
            return tool
        playing = view.state == "playing"
        if action == "deal":
            return playing and view.pile("s") is not None
        if action in ("hint", "play_hint"):
            return playing and self.hints
        if action in ("auto", "to_foundation", "count"):
            return playing
        if action in ("undo", "resign"):
            return view.state in ("playing", "stuck")
        if action == "verify":
            return view.deal.key is not None and view.deal.commitment is not None
        if action == "could_win":  # a game over whose deal is shown (docs/protocol.md)
            shown = view.deal.seed is not None or view.deal.key is not None
            return self.played is not None and not playing and shown
        return True

    def redraw(self) -> None:
        targets: set[str] = set()
        count = 0
        if self.pick.src is not None:
            targets = selection.destinations(self.view.legal, self.pick.src, self.pick.count)
            count = self.pick.count or self._default_count(self.pick.src)
        self.board.show(self.view, source=self.pick.src, count=count, targets=targets)
        self._tick()

    def info_text(self) -> Text:
        v = self.view
        name = v.variant if self.variant is None else self.variant.name
        text = Text()
        text.append(f" {self.title_text or name} ", style="bold reverse")
        text.append(f"  {deal_name(v.deal)}")
        text.append(t("board.score", score=v.score, max=v.max_score), style="bold")
        text.append(t("board.moves", n=v.moves))
        text.append(f"  ⏱ {format_ms(self.game_clock.now_ms())}")
        stock, waste = v.pile("s"), v.pile("w")
        if stock is not None:
            text.append(t("board.stock", n=stock.count))
        if waste is not None:
            text.append(t("board.waste", n=len(waste.up)))
        if stock is not None:
            redeals = v.redeals_left
            text.append(t("board.redeals", n="∞" if redeals is None else redeals))
        if v.state != "playing":
            text.append(f"  {state_word(v.state).upper()}", style="bold reverse")
        return text

    def say(self, message: str, *, error: bool = False) -> None:
        """A line for the player; the server's words are translated to the board's names."""
        if not self._ready:
            return
        widget = self.query_one("#message", Static)
        widget.update(Text(translate(message), style="bold red" if error else ""))
        widget.set_class(error, "error")

    def _pile(self, pile_id: str) -> PileView | None:
        return self.view.pile(pile_id)

    def _has_cards(self, pile_id: str) -> bool:
        pile = self._pile(pile_id)
        return pile is not None and bool(pile.up)

    def _default_count(self, src: str) -> int:
        counts = selection.counts_from(self.view.legal, src)
        return max(counts) if counts else 1

    # -- picking -----------------------------------------------------------------

    def action_pick(self, pile_id: str, count: int | None = None) -> None:
        pile = self._pile(pile_id)
        if pile is None:
            return
        src = self.pick.src
        if src is None:
            if pile_id == "s":
                self.action_deal()
                return
            if not pile.up:
                self.say(t("board.nothing_to_pick", pile=pile_name(pile_id)), error=True)
                return
            self.pick.src = pile_id
            self.pick.count = count if count and count > 1 else None
            if count == 1:
                self.pick.count = 1
            self.say(t("board.picked", pile=pile_name(pile_id)))
            self.redraw()
            return
        if pile_id == src:
            self.action_cancel()
            return
        move = selection.choose_move(self.view.legal, src, pile_id, self.pick.count)
        self.pick.clear()
        self.redraw()
        self.send_move(move)

    def on_pile_widget_picked(self, event: PileWidget.Picked) -> None:
        if event.chain >= 2 and event.pile_id not in ("s",):
            # Double click: to the foundation that takes the card (the first click picked it).
            self.pick.clear()
            self.redraw()
            if not event.pile_id.startswith("f"):
                self.send_move(Move(event.pile_id, 1, "f"))
            return
        self.action_pick(event.pile_id, event.count)

    def action_count(self, step: int) -> None:
        if self.pick.src is None:
            return
        pile = self._pile(self.pick.src)
        up = len(pile.up) if pile else 1
        current = self.pick.count or self._default_count(self.pick.src)
        self.pick.count = selection.step_count(self.view.legal, self.pick.src, current, step, up)
        self.say(t("board.count", pile=pile_name(self.pick.src), n=self.pick.count))
        self.redraw()

    def action_cancel(self) -> None:
        if self.pick.src is None and self.hinted is None:
            self.dismiss()
            return
        self.pick.clear()
        self.hinted = None
        self.say("")
        self.redraw()

    # -- actions -----------------------------------------------------------------

    def action_deal(self) -> None:
        self.pick.clear()
        self.send_move(DEAL)

    def action_auto(self) -> None:
        self.pick.clear()
        self.send_move(AUTO)

    def action_to_foundation(self) -> None:
        src = self.pick.src
        if src is None:
            self.say(t("board.pick_first"), error=True)
            return
        self.pick.clear()
        self.send_move(Move(src, 1, "f"))

    def action_undo(self) -> None:
        self.pick.clear()
        self.submit(PlayedGame.undo, UNDO)

    def action_resign(self) -> None:
        # One stray key must not end a game (a ranked daily, a race): ask for it twice.
        self.pick.clear()
        if not self._resign_armed:
            self._resign_armed = True
            self.say(t("board.resign_again"))
            return
        self._resign_armed = False
        self.submit(PlayedGame.resign)

    def on_key(self, event: Key) -> None:
        # Key events reach the screen before its bindings run: any key but R disarms.
        if event.key != "R":
            self._resign_armed = False
        if event.key != "S":
            self._restart_armed = False

    def send_move(self, move: Action) -> None:
        self.submit(lambda played: played.move(move), move)

    def submit(
        self, act: Callable[[PlayedGame], Awaitable[GameView]], action: Action | None = None
    ) -> None:
        """Send one action (a move, undo, resign) on our game and show what comes back;
        ``action``, once the server took it, goes on the move list (resign does not)."""
        if self.played is None:
            self.say(t("board.watching"), error=True)
            return
        self.hinted = None
        self.waiting += 1
        self.show_link(self.link, self.link_detail)
        self.run_worker(self._act(act, action), group="actions")

    async def _act(
        self, act: Callable[[PlayedGame], Awaitable[GameView]], action: Action | None
    ) -> None:
        """One action at a time, in the order asked: each is sent with the ply the last
        one left, once the link is up (a move made while reconnecting waits here)."""
        assert self.played is not None
        try:
            async with self._lock:
                try:
                    view = await act(self.played)
                except ProtocolError as exc:
                    self.line.refused()
                    if self.played.view is not None:
                        self.set_view(self.played.view)
                    self.say(describe(exc), error=True)
                    return
                except (ConnectionError, TimeoutError) as exc:
                    self.line.refused()
                    self.say(describe(exc), error=True)
                    return
                if action is not None:
                    self.line.remember(action)
                self.set_view(view, None if view.state != "playing" else "")
        finally:
            self.waiting -= 1
            self.show_link(self.link, self.link_detail)
