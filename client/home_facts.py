"""What the home screen says and asks: today's daily of each variant, the games left
unfinished, the player's statistics, and the requests that fetch them.

Plain functions over protocol messages, apart from any screen, so that they
are tested on their own and the home screen holds only its widgets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text

from client.clock import format_ms
from client.connection import Connection
from client.names import deal_name
from shared.errors import ProtocolError
from shared.protocol import (
    GameEntry,
    GamesReply,
    GamesRequest,
    LeaderboardReply,
    LeaderboardRequest,
    Standing,
    StatsReply,
    StatsRequest,
)

KIND_TEXT = {"solo": "", "daily": "daily", "practice": "practice", "race": "race"}


def daily_text(entry: Standing | None, known: bool) -> str:
    """Today's daily of one variant, as the home screen lists it."""
    if not known:
        return ""
    if entry is None:
        return "daily: not finished yet"
    rank = "held" if entry.rank is None else f"#{entry.rank}"
    return f"daily: {rank} {entry.state} {format_ms(entry.elapsed_ms)} {entry.moves} moves"


def unfinished_text(entry: GameEntry, name: Callable[[str], str] = str) -> str:
    """One unfinished game as home lists it: variant, deal, moves, time, and its kind."""
    kind = KIND_TEXT.get(entry.kind, entry.kind)
    parts = [
        f"{name(entry.variant)} {deal_name(entry.deal)}",
        f"{entry.ply} move{'' if entry.ply == 1 else 's'}",
        format_ms(entry.elapsed_ms),
    ]
    return " ".join(parts) + (f" ({kind})" if kind else "")


def stats_text(
    stats: StatsReply | None,
    name: Callable[[str], str] = str,
    unfinished: Sequence[GameEntry] = (),
) -> Text:
    """The ``stats`` reply: one line per variant played (``name`` gives a variant's name),
    then the daily streak. The server counts a game in play as played; the games listed as
    unfinished are told apart, so that a game left to finish later is not read as lost."""
    if stats is None:
        return Text("statistics are not available on this server", style="dim")
    open_games: dict[str, int] = {}
    for entry in unfinished:
        open_games[entry.variant] = open_games.get(entry.variant, 0) + 1
    text = Text()
    for row in stats.variants:
        going = min(open_games.get(row.variant, 0), row.played - row.won)
        finished = row.played - going
        parts = [f"{row.won}/{finished} won"] if finished else []
        if going:
            parts.append(f"{going} unfinished")
        line = f"{name(row.variant)}: " + ", ".join(parts)
        if row.best_ms is not None:
            line += f", best {format_ms(row.best_ms)}"
        if row.fewest_moves is not None:
            line += f", fewest {row.fewest_moves} moves"
        text.append(line + "\n")
    if not text:
        text.append("no games yet\n", style="dim")
    text.append(f"daily streak: {stats.daily_streak}")
    text.append(f"  dailies won: {stats.dailies_won}")
    return text


async def home_facts(
    conn: Connection, variant_ids: Sequence[str]
) -> tuple[dict[str, Standing | None], StatsReply | None, tuple[GameEntry, ...] | None]:
    """Today's daily entry of each variant (None: not finished), the player's stats, and
    the player's unfinished games (None when the server did not answer)."""
    dailies: dict[str, Standing | None] = {}
    for variant in variant_ids:
        try:
            # No date: the server's today, which is what its dailies follow.
            request = LeaderboardRequest(variant=variant, limit=1)
            board = await conn.request(request, LeaderboardReply)
        except (ProtocolError, ConnectionError):
            continue
        dailies[variant] = board.me
    stats: StatsReply | None
    try:
        stats = await conn.request(StatsRequest(), StatsReply)
    except (ProtocolError, ConnectionError):
        stats = None
    unfinished: tuple[GameEntry, ...] | None
    try:
        listed = await conn.request(GamesRequest(state="playing"), GamesReply)
        unfinished = listed.games
    except (ProtocolError, ConnectionError):
        unfinished = None
    return dailies, stats, unfinished


__all__ = ["KIND_TEXT", "daily_text", "home_facts", "stats_text", "unfinished_text"]


#: what the home screen's ``v`` cycles through: any deal, then a winnable one of each difficulty
DEALS = (None, "easy", "medium", "hard")

#: the rules a race created from home may have, in the order ``b`` goes through them, and what each
#: means for the player choosing
RACE_RULES = {
    "live": "friendly race: spectators see the boards live",
    "delayed": "friendly race: spectators see the boards late (a minute, by default)",
    "hidden": "friendly race: spectators see progress only, boards once it is over",
    "rated": "rated race: a keyed deal, people only, no board shown until it is over",
}


def deal_kind_text(difficulty: str | None) -> str:
    """The games panel's title: the kind of secret deal ``v`` chose (None: any deal), and
    the key of replays (the footer, full at 80 columns, does not list it)."""
    kind = "any deal" if difficulty is None else f"winnable, {difficulty}"
    return f"Games (v: {kind}; y: a replay)"
