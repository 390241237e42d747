"""The race room: its code to share, who is in, the countdown, progress and standings.

The room screen draws the :class:`~client.race.RaceState` it is given and
posts what the player asks (start, watch, leave...) as its messages, which
the app handles; it knows no app.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Key
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from client.challenges import match_text
from client.clock import format_ms
from client.footer import Footer
from client.home_facts import state_word
from client.i18n import known, t
from client.race import RaceState
from client.screens.leaderboard import COLUMNS, entry_row, rated_name
from client.widgets import TitleBar
from shared.protocol import (
    COUNTDOWN,
    OVER,
    RACING,
    SPECTATOR,
    WAITING,
    GameView,
    Progress,
    RoomView,
    Standing,
)


def standings_table(standings: Sequence[Standing], *, compact: bool = False) -> Table:
    """The race's result; ``compact`` for the narrow panel beside a board: rank, player, and
    the time of a win or how the game ended, then the moves (every column read in full)."""
    table = Table(
        title=t("race.standings"), expand=False, box=None, header_style="bold", padding=(0, 1, 0, 0)
    )
    if not compact:
        for column in COLUMNS:
            table.add_column(t(column), no_wrap=True)
        for row in standings:
            table.add_row(*entry_row(row))
        return table
    table.add_column(t("col.rank"), no_wrap=True)
    table.add_column(t("col.player"), max_width=16, overflow="fold")
    table.add_column(t("col.result"), no_wrap=True)
    table.add_column(t("col.moves"), no_wrap=True, justify="right")
    for row in standings:
        result = format_ms(row.elapsed_ms) if row.state == "won" else state_word(row.state)
        if row.review:
            result += t("board.held")
        table.add_row(
            str(row.rank or "-"), rated_name(row.name, row.rating), result, str(row.moves)
        )
    return table


def own_progress(code: str, me: int, view: GameView) -> Progress:
    """Our own line of progress, from our board (the server pushes progress to the others)."""
    return Progress(
        code=code,
        player=me,
        ply=view.ply,
        foundation=view.foundation_cards,
        score=view.score,
        state=view.state,
    )


def race_text(
    race: RaceState, me: int | None, mine: GameView | None = None, *, compact: bool = False
) -> Table | Text | Group:
    """The room as a few lines: code, state, each racer's progress, or the standings."""
    room = race.room
    if room is None:
        return Text(t("race.no_room"))
    if race.standings is not None:
        return standings_table(race.standings, compact=compact)
    table = Table(
        box=None, expand=False, header_style="bold", show_edge=False, padding=(0, 1, 0, 0)
    )
    table.add_column(t("col.player"), max_width=16 if compact else None, overflow="fold")
    for column in (t("col.home"), t("col.score")):
        table.add_column(column, no_wrap=True, min_width=len(column), justify="right")
    table.add_column(t("col.state"), no_wrap=True, min_width=8)
    for player in room.players:
        pid = player.id
        if player.role == SPECTATOR:
            continue
        progress = race.progress.get(pid)
        if pid == me and mine is not None and race.game is not None:
            progress = own_progress(room.code, pid, mine)
        # ★ host, ○ disconnected, ◂ you
        mark = "★" if pid == room.host else (" " if player.connected else "○")
        shown = rated_name(player.name, player.rating)
        name = Text(mark + shown + (t("race.bot") if player.bot else ""))
        if pid == me:
            name.append(" ◂")
        if not player.connected:
            name.stylize("dim")
        if progress is None:
            table.add_row(name, "-", "-", "")
        else:
            state = state_word(progress.state)
            table.add_row(name, str(progress.foundation), str(progress.score), state)
    watchers = [
        rated_name(p.name, p.rating) + (" ◂" if p.id == me else "")
        for p in room.players
        if p.role == SPECTATOR
    ]
    if not watchers:
        return table
    return Group(table, Text(t("race.watchers", names=", ".join(watchers)), style="dim"))


def difficulty_word(difficulty: str) -> str:
    key = f"difficulty.{difficulty}"
    return t(key) if known(key) else difficulty


def room_state_word(state: str) -> str:
    key = f"room.{state}"
    return t(key) if known(key) else state


def counting_down(race: RaceState) -> bool:
    """Whether the room shows a countdown: the only part of it that changes with time alone
    (pushes redraw the rest), so the only time a screen's timer redraws it. A redraw costs a
    layout and the footer's bindings: twice a second, it kept a terminal client busy."""
    return race.room is not None and race.room.state == COUNTDOWN


def room_heading(race: RaceState, name: Callable[[str], str] = str) -> Text:
    """The room's line: its code, its variant (``name`` gives the variant's name), its state."""
    room = race.room
    if room is None:
        return Text("")
    text = Text()
    text.append(" " + t("race.room", code=room.code) + " ", style="bold reverse")
    text.append(f"  {name(room.variant)}")
    if room.seed is not None:
        text.append(f" #{room.seed}")  # a numbered deal (keyed deals show on the board)
    if room.rated:
        text.append("  " + t("race.rated"))
    if room.difficulty is not None:
        text.append("  " + t("home.winnable", difficulty=difficulty_word(room.difficulty)))
    left = race.countdown_left()
    if room.state == "countdown" and left is not None:
        text.append("  " + t("race.starting_in", s=f"{left:.0f}"), style="bold")
    else:
        text.append(f"  {room_state_word(room.state)}", style="bold")
    racers = len(race.racers())
    text.append("  " + t("race.racers", n=racers, max=room.max_players))
    text.append("  " + t("race.limit", time=format_ms(room.time_limit_s * 1000)), style="dim")
    text.append("  " + (t("race.hints_on") if room.hints else t("race.hints_off")), style="dim")
    return text


def board_rule(room: RoomView) -> str:
    """Which rule the room's boards follow, in words (RoomView's ``rated`` and ``boards``)."""
    if room.rated:
        return t("race.boards_rated")
    key = f"race.boards.{room.boards}"
    return t(key) if known(key) else t("race.boards_other", rule=room.boards)


class RacePanel(Static):
    """The side panel of a racing board: the others' progress, then the standings."""

    def __init__(
        self,
        race: RaceState,
        me: int | None,
        mine: Callable[[], GameView | None] | None = None,
        variant_name: Callable[[str], str] = str,
    ) -> None:
        super().__init__(id="side")
        self._ready = False
        self.race = race
        self.me = me
        self.mine = mine
        self.variant_name = variant_name

    def on_mount(self) -> None:
        self._ready = True
        self.set_interval(1.0, self._tick)
        self.redraw()

    def _tick(self) -> None:
        if counting_down(self.race):
            self.redraw()

    def redraw(self) -> None:
        if not self._ready:
            return
        mine = self.mine() if self.mine is not None else None
        self.update(
            Group(
                room_heading(self.race, self.variant_name),
                Text(""),
                race_text(self.race, self.me, mine, compact=True),
            )
        )


class RaceIntent(Message):
    """What the player asked on the room screen, for the app to do; ``screen`` is the room
    screen that asked, where the app says why it could not."""

    def __init__(self, screen: RaceScreen) -> None:
        super().__init__()
        self.screen = screen

    @property
    def control(self) -> RaceScreen:
        return self.screen


class RaceScreen(Screen[None]):
    """A room: share its code, wait for friends, start (host), watch, rematch.

    ``race`` is the room as the server's pushes left it, ``me`` the player,
    ``mine`` our game's latest view (None when we race no game), ``variant_name``
    a variant's name as the server gives it.
    """

    class Start(RaceIntent):
        """Start the race, or a rematch (the host)."""

    class ShowBoard(RaceIntent):
        """Show our board in the running race."""

    class Watch(RaceIntent):
        """Watch ``player``'s board."""

        def __init__(self, screen: RaceScreen, player: int) -> None:
            super().__init__(screen)
            self.player = player

    class Leave(RaceIntent):
        """Leave the room."""

    class Match(RaceIntent):
        """A best-of-``best_of`` match with the room's other racer (3 or 5)."""

        def __init__(self, screen: RaceScreen, best_of: int) -> None:
            super().__init__(screen)
            self.best_of = best_of

    BINDINGS = [
        Binding("s", "start", "key.start_race"),
        Binding("m", "rematch", "key.rematch"),
        Binding("b", "board", "key.my_board"),
        Binding("w", "watch", "key.watch_racer"),
        Binding("l", "leave", "key.leave_room"),
        Binding("3", "match(3)", "key.best_of_3"),
        Binding("5", "match(5)", "key.best_of_5"),
        Binding("escape", "back", "key.home"),
    ]

    def __init__(
        self,
        race: RaceState,
        me: int | None,
        mine: Callable[[], GameView | None] = lambda: None,
        variant_name: Callable[[str], str] = str,
    ) -> None:
        super().__init__()
        self.race = race
        self.me = me
        self.mine = mine
        self.variant_name = variant_name
        self._watch_index = 0
        self._ready = False

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        yield Static(id="room-heading", classes="title")
        yield Static(id="room-body", classes="panel")
        yield Static(id="room-help")
        yield Static(id="room-message")
        yield Footer()

    def on_mount(self) -> None:
        self._ready = True
        self.set_interval(1.0, self._tick)
        self.redraw()

    def on_screen_resume(self) -> None:
        self.redraw()  # back from a board: our own progress moved meanwhile

    def _tick(self) -> None:
        if counting_down(self.race):
            self.redraw()

    def on_unmount(self) -> None:
        self._ready = False  # popped: a late push or timer must not look for its widgets

    def redraw(self) -> None:
        if not self._ready:
            return  # a push arrived before the screen was built (on_mount draws it) or after
        race = self.race
        self.query_one("#room-heading", Static).update(room_heading(race, self.variant_name))
        self.query_one("#room-body", Static).update(race_text(race, self.me, self.mine()))
        watching = race.spectating(self.me)
        help_text = t("race.help_watching") if watching else t("race.help_share")
        if race.room is not None:
            help_text += "\n" + board_rule(race.room)
        match = race.room_match()
        if match is not None:
            help_text += "\n" + t("race.match", match=match_text(match))
        elif self.check_action("match", (3,)):
            help_text += "\n" + t("race.match_keys")
        self.query_one("#room-help", Static).update(help_text)
        self.refresh_bindings()

    def say(self, message: str, *, error: bool = False) -> None:
        self.query_one("#room-message", Static).update(
            Text(message, style="bold red" if error else "")
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer lists what acts now: start while the room waits and rematch once a race
        is over (the host only), our board while we have a race game, watching while there
        is another racer to watch."""
        race = self.race
        room = race.room
        me = self.me
        if room is None:
            return action in ("back", "leave")
        host = room.host == me
        if action == "start":
            return host and room.state == WAITING
        if action == "rematch":
            return host and room.state == OVER
        if action == "board":
            return race.game is not None and self.mine() is not None
        if action == "watch":
            return any(p.id != me for p in race.racers())
        if action == "match":
            racers = race.racers()
            two = len(racers) == 2 and any(p.id == me for p in racers)
            match = race.room_match()
            free = match is None or match.state == "over"
            return two and room.state in (WAITING, OVER) and free
        return True

    def on_key(self, event: Key) -> None:
        """``s`` or ``m`` pressed when they do not act (the footer does not list them then):
        say why instead of doing nothing."""
        if event.key in ("s", "m"):
            action = "start" if event.key == "s" else "rematch"
            if not self.check_action(action, ()):
                self.say(self.why_not(action), error=True)
                event.stop()

    def why_not(self, action: str) -> str:
        race = self.race
        room = race.room
        if room is None:
            return t("race.not_in_room")
        if room.host != self.me:
            host = race.names().get(room.host, t("race.the_host"))
            return t("race.only_host", host=host)
        if room.state in (COUNTDOWN, RACING):
            return t("race.running")
        if action == "rematch":
            return t("race.none_yet")
        return t("race.first_over")

    def action_start(self) -> None:
        self.post_message(self.Start(self))

    def action_rematch(self) -> None:
        self.post_message(self.Start(self))

    def action_board(self) -> None:
        self.post_message(self.ShowBoard(self))

    def action_watch(self) -> None:
        race = self.race
        others = [p.id for p in race.racers() if p.id != self.me]
        if not others:
            self.say(t("race.nobody"), error=True)
            return
        target = others[self._watch_index % len(others)]
        self._watch_index += 1
        self.post_message(self.Watch(self, target))

    def action_leave(self) -> None:
        self.post_message(self.Leave(self))

    def action_match(self, best_of: int) -> None:
        self.post_message(self.Match(self, best_of))

    def action_back(self) -> None:
        self.dismiss()
