"""A player's profile in the terminal: ratings with their history as a line of bars and the
figures beside it, games per variant (win rate, best and median time, streaks), daily places,
arenas, and the recent games, numbered: a digit opens that game's replay here (the browser
opens it at ``/replay/<id>``).

Asked over the connection it is given; ``h`` hides or shows the player's own profile; Esc
dismisses it.
"""

from __future__ import annotations

import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from client.catalog import Catalog
from client.clock import format_ms
from client.connection import Connection, describe
from client.footer import Footer
from client.home_facts import state_word
from client.i18n import known, t
from client.screens.replay import ReplayScreen
from client.widgets import TitleBar
from shared.errors import ProtocolError
from shared.protocol import (
    Ok,
    ProfileRating,
    ProfileReply,
    ProfileRequest,
    ProfileSettings,
    RatingPoint,
)

#: the recent games listed, each opened by its digit
REPLAY_KEYS = 9
#: the rated races listed under each game's rating, and the width of its trend in characters
RECENT_RATINGS = 5
TREND_WIDTH = 12

BARS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"


def bars(points: tuple[RatingPoint, ...], width: int = 40) -> str:
    """The latest ``width`` ratings as a line of block characters, lowest to highest."""
    values = [p.rating for p in points[-width:]]
    if not values:
        return ""
    low, high = min(values), max(values)
    span = max(1, high - low)
    return "".join(BARS[round((v - low) / span * (len(BARS) - 1))] for v in values)


def day(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).date().isoformat()


def ratings_table(ratings: tuple[ProfileRating, ...], name_of: Catalog) -> list[str]:
    """Each game's rating now ("1500?" while provisional) and its latest rated races, latest
    first: the day, the rating after it and the change it made (``-`` for the oldest the
    history holds: what came before it is not sent), the trend (oldest to latest, left to
    right) drawn beside the first line. A compact table: the browser's chart and its table in
    a few lines of 80 columns."""
    if not ratings:
        return [t("profile.ratings.none"), t("profile.no_ratings")]
    col = {k: t(f"profile.col.{k}") for k in ("game", "now", "races", "date", "rating", "change")}
    lines = [
        t("profile.ratings", n=RECENT_RATINGS),
        f"  {col['game']:<16}{col['now']:>6}{col['races']:>8}  {col['date']:<10}"
        f"{col['rating']:>8}{col['change']:>8}  {t('profile.col.trend')}",
    ]
    for rating in ratings:
        history = rating.history
        shown = list(enumerate(history))[-RECENT_RATINGS:][::-1]
        head = f"  {name_of.name(rating.variant):<16}{rating.rating.label():>6}{rating.games:>8}"
        if not shown:
            lines.append(head)
            continue
        for row, (n, point) in enumerate(shown):
            change = f"{point.rating - history[n - 1].rating:+d}" if n else "-"
            start = head if row == 0 else " " * len(head)
            trend = f"  {bars(history, TREND_WIDTH)}" if row == 0 and len(history) > 1 else ""
            lines.append(f"{start}  {day(point.at_ms):<10}{point.rating:>8}{change:>8}{trend}")
    return lines


def profile_text(reply: ProfileReply, name_of: Catalog) -> str:
    """Everything a profile shows, as lines of text (the screen's body; tests read it)."""
    player = reply.player
    lines = [player.name + (t("race.bot") if player.bot else "")]
    if reply.hidden and not reply.mine:
        return "\n".join([*lines, t("profile.private", name=player.name)])
    if reply.mine:
        lines.append(t("profile.hidden") if reply.hidden else t("profile.shown"))
    lines += ["", *ratings_table(reply.ratings, name_of)]
    lines += ["", t("profile.games", streak=reply.streak, best=reply.best_streak)]
    for v in reply.variants:
        rate = f"{round(100 * v.won / v.played)}%" if v.played else "-"
        best = "-" if v.best_ms is None else format_ms(v.best_ms)
        median = "-" if v.median_ms is None else format_ms(v.median_ms)
        lines.append(
            t(
                "profile.variant",
                name=name_of.name(v.variant),
                played=v.played,
                won=v.won,
                rate=rate,
                best=best,
                median=median,
                streak=v.streak,
                best_streak=v.best_streak,
            )
        )
    if not reply.variants:
        lines.append(t("profile.no_games"))
    lines += ["", t("profile.dailies")]
    for d in reply.dailies:
        place = "-" if d.place is None else f"#{d.place}"
        name = name_of.name(d.variant)
        state = state_word(d.state)
        lines.append(
            t("profile.daily", date=d.date, name=name, state=state, place=place, points=d.points)
        )
    if not reply.dailies:
        lines.append(t("profile.no_dailies"))
    if reply.arenas:
        lines += ["", t("profile.arenas")]
        lines += [
            t("profile.arena", day=day(a.ended_ms), name=a.name, game=name_of.name(a.variant),
              place=a.place, points=a.points)
            for a in reply.arenas
        ]  # fmt: skip
    lines += ["", t("profile.recent")]
    lines += [
        t("profile.game", n=n, id=g.id, name=name_of.name(g.variant), kind=kind_word(g.kind),
          state=state_word(g.state), time=format_ms(g.elapsed_ms), moves=g.moves,
          day=day(g.ended_ms))
        for n, g in enumerate(reply.recent[:REPLAY_KEYS], 1)
    ]  # fmt: skip
    if not reply.recent:
        lines.append(t("profile.no_recent"))
    return "\n".join(lines)


def kind_word(kind: str) -> str:
    key = f"gamekind.{kind}"
    return t(key) if known(key) else kind


class ProfileScreen(Screen[None]):
    BINDINGS = [
        Binding("h", "hide", "key.hide_mine"),
        *(Binding(str(n), f"replay({n})", "key.replay", show=n == 1) for n in range(1, 10)),
        Binding("escape", "back", "key.back"),
    ]

    def __init__(self, conn: Connection, name: str) -> None:
        super().__init__()
        self.conn = conn
        self.catalog = Catalog(lambda: conn.server_info)
        self.name_asked = name
        self.reply: ProfileReply | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar(classes="titlebar")
        with VerticalScroll(id="profile-scroll"):
            yield Static(id="profile", classes="panel")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    def load(self) -> None:
        self.run_worker(self._load(), group="profile", exclusive=True)

    async def _load(self) -> None:
        body = self.query_one("#profile", Static)
        try:
            self.reply = await self.conn.request(ProfileRequest(name=self.name_asked), ProfileReply)
        except (ProtocolError, ConnectionError) as exc:
            body.update(Text(describe(exc), style="bold red"))
            return
        body.update(profile_text(self.reply, self.catalog))
        self.refresh_bindings()

    def action_hide(self) -> None:
        if self.reply is None or not self.reply.mine:
            return
        self.run_worker(self._hide(not self.reply.hidden), group="profile", exclusive=True)

    async def _hide(self, hidden: bool) -> None:
        try:
            await self.conn.request(ProfileSettings(hidden=hidden), Ok)
        except (ProtocolError, ConnectionError) as exc:
            self.query_one("#profile", Static).update(Text(describe(exc), style="bold red"))
            return
        await self._load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A digit acts (and ``1 Replay`` is listed) while a recent game is listed for it."""
        if action == "replay":
            count = 0 if self.reply is None else len(self.reply.recent)
            return isinstance(parameters[0], int) and parameters[0] <= min(count, REPLAY_KEYS)
        if action == "hide":
            return self.reply is not None and self.reply.mine
        return True

    def action_replay(self, number: int) -> None:
        """The ``number``-th recent game, replayed move by move."""
        if self.reply is not None and 0 < number <= len(self.reply.recent):
            self.app.push_screen(ReplayScreen(self.conn, self.reply.recent[number - 1].id))

    def action_back(self) -> None:
        self.dismiss()
