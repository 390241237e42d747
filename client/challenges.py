"""Challenges in the terminal: the code a player types (a challenge's id, or its whole link),
and a challenge's result and match in words, for home's list and the notice of a result.

Plain functions over protocol messages, apart from any screen (tested on their own).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich.text import Text

from client.clock import format_ms
from client.home_facts import state_word
from client.i18n import t, tn
from shared.protocol import ChallengeSide, ChallengeView, GameView, GhostReply, MatchView

#: a challenge's id: the end of its link (``https://host/challenge/ID``) or the id alone
_CODE = re.compile(r"(?:^|/challenge/)([A-Za-z0-9_-]{1,16})/?$")


def challenge_code(typed: str) -> str | None:
    """The challenge's id in what was typed or pasted; None when there is none."""
    found = _CODE.search(typed.strip())
    return None if found is None else found.group(1)


def web_link(server: str, challenge: str) -> str:
    """The challenge's link on the server's web side: ``ws://host:8765/ws`` ->
    ``http://host:8765/challenge/ID`` (the browser's landing page; the code alone works too)."""
    base = re.sub(r"^ws", "http", server.strip())
    base = re.sub(r"/ws/?$", "", base)
    return f"{base.rstrip('/')}/challenge/{challenge}"


def ghost_text(challenger: str, ghost: GhostReply | None, view: GameView | None) -> Text:
    """The ghost beside a challenge game: the challenger's moves and cards home at the same
    elapsed time, and ours beside them; how the challenger ended once past their end."""
    text = Text()
    text.append(t("ghost.title", name=challenger) + "\n", style="bold")
    if ghost is None:
        text.append(t("ghost.asking"), style="dim")
        return text
    at = format_ms(ghost.elapsed_ms)
    text.append(t("ghost.at", time=at, moves=ghost.moves, home=ghost.home) + "\n")
    if ghost.state != "playing":
        state = state_word(ghost.state)
        text.append(t("ghost.ended", name=challenger, state=state) + "\n", style="bold")
    if view is not None:
        home = sum(len(p.up) + p.down for p in view.piles if p.id.startswith("f"))
        text.append(t("ghost.you", moves=view.moves, home=home))
    return text


def side_text(side: ChallengeSide) -> str:
    """One side's game: ``alice won 3:12, 87 moves, 52 home``."""
    text = t(
        "challenge.side",
        name=side.name,
        state=state_word(side.state),
        time=format_ms(side.elapsed_ms),
        moves=side.moves,
        home=side.home,
    )
    return text + (tn("challenge.hints", side.hints) if side.hints else "")


def match_text(match: MatchView) -> str:
    """``best of 3: alice 1 - 0 bob, 1 draw`` and its winner once over."""
    second = match.second_name or "?"
    text = t(
        "match.score",
        best_of=match.best_of,
        first=match.first_name,
        first_wins=match.first_wins,
        second_wins=match.second_wins,
        second=second,
    )
    if match.draws:
        text += tn("match.draws", match.draws)
    if match.state == "over":
        winner = {match.first: match.first_name, match.second: second}.get(match.winner)
        text += t("match.won", name=winner) if winner else t("match.level")
    return text


def outcome_text(view: ChallengeView) -> str:
    """Who won a challenge that is done: ``bob wins``, ``a draw``."""
    if view.result == "challenger":
        return t("challenge.wins", name=view.challenger_name)
    if view.result == "opponent":
        return t("challenge.wins", name=view.opponent_name)
    return t("challenge.draw")


def challenge_text(view: ChallengeView, name: Callable[[str], str] = str) -> Text:
    """A challenge as home lists it: who, what, where it stands, and once done both games
    side by side, who won and the match's score."""
    text = Text()
    who = t("challenge.who", first=view.challenger_name, second=view.opponent_name or "?")
    line = t("challenge.line", name=name(view.variant), who=who, round=view.round, id=view.id)
    text.append(line, style="bold")
    if view.state == "done":
        text.append(outcome_text(view))
        if view.ranked is False:
            text.append(t("challenge.not_ranked", why=view.unranked), style="dim")
        for side in (view.challenger_result, view.opponent_result):
            if side is not None:
                text.append(f"\n  {side_text(side)}")
    elif view.state == "open":
        text.append(t("challenge.open"))
    elif view.state == "playing":
        text.append(t("challenge.playing", name=view.opponent_name))
    else:
        text.append(t("challenge.setting", name=view.challenger_name))
    text.append(f"\n  {match_text(view.match)}", style="dim")
    return text


def challenges_text(views: Sequence[ChallengeView], name: Callable[[str], str]) -> Text:
    """Home's panel of challenges: one line each, or what to do when there are none."""
    text = Text()
    for view in views:
        text.append_text(challenge_text(view, name))
        text.append("\n")
    if not views:
        text.append(t("challenge.none_yet"), style="dim")
    return text
