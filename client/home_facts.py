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
from client.i18n import known, t, tn
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

#: a game's kind -> the key of the word home shows beside it (a solo game shows none)
KIND_TEXT = {
    "solo": "",
    "daily": "kind.daily",
    "practice": "kind.practice",
    "race": "kind.race",
    "challenge": "kind.challenge",
}


def state_word(state: str) -> str:
    """A game's state in words (one the tables do not know, as the server wrote it)."""
    key = f"state.{state}"
    return t(key) if known(key) else state


def option_word(option: str) -> str:
    """A variant's option in words: the tables' ``option.<id>``, else its id made readable."""
    key = f"option.{option}"
    return t(key) if known(key) else option.replace("_", " ")


def variant_line(name: str, daily: str, chosen: dict[str, bool]) -> str:
    """One game of home's list: its name, today's daily, the options chosen away from the
    server's defaults (``+deal three``)."""
    flags = " ".join(("+" if value else "-") + option_word(o) for o, value in chosen.items())
    return " ".join(part for part in (f"{name:<15}", daily, flags) if part.strip())


def rule_label(rule: str) -> str:
    """The button that names the rule of the races home creates (``b`` changes it)."""
    if rule == "rated":
        return t("home.rated_race")
    return t("home.boards_rule", rule=t(f"rule.{rule}"))


def daily_text(entry: Standing | None, known: bool) -> str:
    """Today's daily of one variant, as the home screen lists it."""
    if not known:
        return ""
    if entry is None:
        return t("daily.not_finished")
    rank = t("daily.held") if entry.rank is None else f"#{entry.rank}"
    state = state_word(entry.state)
    return t(
        "daily.line", rank=rank, state=state, time=format_ms(entry.elapsed_ms), moves=entry.moves
    )


def unfinished_text(entry: GameEntry, name: Callable[[str], str] = str) -> str:
    """One unfinished game as home lists it: variant, deal, moves, time, and its kind."""
    key = KIND_TEXT.get(entry.kind, entry.kind)
    kind = t(key) if key and known(key) else key
    return t(
        "home.unfinished",
        name=name(entry.variant),
        deal=deal_name(entry.deal),
        moves=tn("moves", entry.ply),
        time=format_ms(entry.elapsed_ms),
        kind=t("home.kind", kind=kind) if kind else "",
    )


def stats_text(
    stats: StatsReply | None,
    name: Callable[[str], str] = str,
    unfinished: Sequence[GameEntry] = (),
) -> Text:
    """The ``stats`` reply: one line per variant played (``name`` gives a variant's name),
    then the daily streak. The server counts a game in play as played; the games listed as
    unfinished are told apart, so that a game left to finish later is not read as lost."""
    if stats is None:
        return Text(t("stats.none_here"), style="dim")
    open_games: dict[str, int] = {}
    for entry in unfinished:
        open_games[entry.variant] = open_games.get(entry.variant, 0) + 1
    text = Text()
    for row in stats.variants:
        going = min(open_games.get(row.variant, 0), row.played - row.won)
        finished = row.played - going
        parts = [t("stats.won", won=row.won, finished=finished)] if finished else []
        if going:
            parts.append(t("stats.unfinished", n=going))
        line = t("stats.line", name=name(row.variant), parts=", ".join(parts))
        if row.best_ms is not None:
            line += t("stats.best", time=format_ms(row.best_ms))
        if row.fewest_moves is not None:
            line += t("stats.fewest", n=row.fewest_moves)
        text.append(line + "\n")
    if not text:
        text.append(t("stats.no_games") + "\n", style="dim")
    text.append(t("stats.streak", n=stats.daily_streak))
    text.append(t("stats.dailies_won", n=stats.dailies_won))
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


__all__ = [
    "KIND_TEXT",
    "daily_text",
    "home_facts",
    "option_word",
    "rule_label",
    "state_word",
    "stats_text",
    "unfinished_text",
    "variant_line",
]


#: what the home screen's ``v`` cycles through: any deal, then a winnable one of each difficulty
DEALS = (None, "easy", "medium", "hard")

#: the rules a race created from home may have, in the order ``b`` goes through them, and what each
#: means for the player choosing
RACE_RULES = {
    "live": "rule.said.live",
    "delayed": "rule.said.delayed",
    "hidden": "rule.said.hidden",
    "rated": "rule.said.rated",
}


def deal_kind_text(difficulty: str | None) -> str:
    """The games panel's title: the kind of secret deal ``v`` chose (None: any deal), and
    the key of replays (the footer, full at 80 columns, does not list it)."""
    if difficulty is None:
        kind = t("home.any_deal")
    else:
        kind = t("home.winnable", difficulty=t(f"difficulty.{difficulty}"))
    return t("home.games", kind=kind)
