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
from textual.screen import Screen
from textual.widgets import Footer, Static

from client import selection
from client.clock import Clock, GameClock, format_ms
from client.connection import describe
from client.layout import (
    FOUNDATION_KEYS,
    RESERVE_KEYS,
    TABLEAU_KEYS,
    WASTE_KEY,
    layout_from,
)
from client.played_game import PlayedGame
from client.widgets import BoardWidget, PileWidget
from shared.errors import ProtocolError
from shared.notation import AUTO, DEAL, Action, Move
from shared.protocol import GameView, PileView, VariantInfo

_PILE_BINDINGS = [
    *(Binding(k, f"pick('t{i}')", show=False) for i, k in enumerate(TABLEAU_KEYS)),
    *(Binding(k, f"pick('r{i}')", show=False) for i, k in enumerate(RESERVE_KEYS)),
    *(Binding(k, f"pick('f{i}')", show=False) for i, k in enumerate(FOUNDATION_KEYS)),
    Binding(WASTE_KEY, "pick('w')", show=False),
]

STATE_TEXT = {
    "won": "won! every card is home",
    "stuck": "stuck: no card can reach a foundation any more; undo (u) or resign (R)",
    "resigned": "resigned",
    "timeout": "time is up",
}


class BoardScreen(Screen[None]):
    """A game on the board, laid out as ``variant`` (the server's VariantInfo of its variant)
    says. ``played`` None makes it read-only (watching a racer)."""

    BINDINGS = [
        Binding("space", "deal", "Deal"),
        Binding("u", "undo", "Undo"),
        Binding("h", "hint", "Hint"),
        Binding("enter", "play_hint", "Play hint", show=False),
        Binding("a", "auto", "Auto"),
        Binding("f", "to_foundation", "To foundation"),
        Binding("plus,equals_sign", "count(1)", "More", show=False),
        Binding("minus", "count(-1)", "Fewer", show=False),
        Binding("R", "resign", "Resign"),
        Binding("escape", "cancel", "Cancel/Back"),
        *_PILE_BINDINGS,
    ]

    def __init__(
        self,
        view: GameView,
        *,
        variant: VariantInfo | None,
        played: PlayedGame | None,
        clock: Clock,
        title: str = "",
        side: Static | None = None,
    ) -> None:
        super().__init__()
        self.view = view
        self.variant = variant
        self.played = played
        self.title_text = title
        self.side = side
        self.pick = selection.Selection()
        self.hinted: Action | None = None
        self._resign_armed = False
        #: composed and mounting: pushes that arrive earlier only store the view
        self._ready = False
        self.game_clock = GameClock(clock)
        self._lock = asyncio.Lock()
        self.board = BoardWidget(layout_from(variant, [p.id for p in view.piles]), id="board")

    # -- drawing -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="game-info")
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
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        self.query_one("#game-info", Static).update(self.info_text())

    def set_view(self, view: GameView, message: str | None = None) -> None:
        self.view = view
        if not self._ready:
            return  # on_mount draws self.view
        self.game_clock.set(view.elapsed_ms, view.state == "playing")
        if self.pick.src is not None and not self._has_cards(self.pick.src):
            self.pick.clear()
        self.redraw()
        if message is not None:
            self.say(message)
        elif view.state == "won":
            self.say(
                f"won in {format_ms(view.elapsed_ms)} with {view.moves} moves: every card is home!"
            )
        elif view.state != "playing":
            self.say(STATE_TEXT.get(view.state, view.state))

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
        deal = v.deal
        text.append(f"  seed {deal.seed}" if deal.seed else f"  deal {deal.commitment or ''}"[:15])
        text.append(f"  score {v.score}/{v.max_score}", style="bold")
        text.append(f"  moves {v.moves}")
        text.append(f"  ⏱ {format_ms(self.game_clock.now_ms())}")
        stock, waste = v.pile("s"), v.pile("w")
        if stock is not None:
            text.append(f"  stock {stock.count}")
        if waste is not None:
            text.append(f"  waste {len(waste.up)}")
        if stock is not None:
            redeals = v.redeals_left
            text.append(f"  redeals {'∞' if redeals is None else redeals}")
        if v.state != "playing":
            text.append(f"  {v.state.upper()}", style="bold reverse")
        return text

    def say(self, message: str, *, error: bool = False) -> None:
        if not self._ready:
            return
        widget = self.query_one("#message", Static)
        widget.update(Text(message, style="bold red" if error else ""))
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
                self.say(f"nothing to pick up on {pile_id}", error=True)
                return
            self.pick.src = pile_id
            self.pick.count = count if count and count > 1 else None
            if count == 1:
                self.pick.count = 1
            self.say(f"from {pile_id}: pick a destination (+/- for more or fewer cards)")
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
        self.say(f"from {self.pick.src}: {self.pick.count} card(s)")
        self.redraw()

    def action_cancel(self) -> None:
        if self.pick.src is None and self.hinted is None:
            self.app.pop_screen()
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
            self.say("pick a card first (or press a to send every card that can go)", error=True)
            return
        self.pick.clear()
        self.send_move(Move(src, 1, "f"))

    def action_undo(self) -> None:
        self.pick.clear()
        self.submit(PlayedGame.undo)

    def action_resign(self) -> None:
        # One stray key must not end a game (a ranked daily, a race): ask for it twice.
        self.pick.clear()
        if not self._resign_armed:
            self._resign_armed = True
            self.say("press R again to resign this game; any other key keeps playing")
            return
        self._resign_armed = False
        self.submit(PlayedGame.resign)

    def on_key(self, event: Key) -> None:
        # Key events reach the screen before its bindings run: any key but R disarms.
        if event.key != "R":
            self._resign_armed = False

    def action_hint(self) -> None:
        self.run_worker(self._hint(), group="actions")

    def action_play_hint(self) -> None:
        if self.hinted is not None:
            move, self.hinted = self.hinted, None
            self.pick.clear()
            self.send_move(move)

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
            self.say("no hint: the game has ended")
            return
        if isinstance(hint, Move) and self._has_cards(hint.src):
            # Show it on the board as if the player had picked the source.
            self.pick.src = hint.src
            self.pick.count = hint.count
            self.redraw()
        self.say(f"hint: {hint} (enter plays it)")

    def send_move(self, move: Action) -> None:
        self.submit(lambda played: played.move(move))

    def submit(self, act: Callable[[PlayedGame], Awaitable[GameView]]) -> None:
        """Send one action (a move, undo, resign) on our game and show what comes back."""
        if self.played is None:
            self.say("you are watching: this board is not yours to play", error=True)
            return
        self.hinted = None
        self.run_worker(self._act(act), group="actions")

    async def _act(self, act: Callable[[PlayedGame], Awaitable[GameView]]) -> None:
        assert self.played is not None
        async with self._lock:
            try:
                view = await act(self.played)
            except ProtocolError as exc:
                if self.played.view is not None:
                    self.set_view(self.played.view)
                self.say(describe(exc), error=True)
                return
            except (ConnectionError, TimeoutError) as exc:
                self.say(describe(exc), error=True)
                return
            self.set_view(view, None if view.state != "playing" else "")
