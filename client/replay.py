"""A replay in the terminal: the id typed (alone or as its ``/replay/ID`` link), the board at
every step rebuilt from the server's ``replay`` answer, and each step in the board's names.

The server sends the whole board as dealt, then after each action only the piles it
changed (docs/protocol.md, ``replay``): the client needs no engine to step back and forth.
Plain functions over protocol messages, apart from any screen (tested on their own).
"""

from __future__ import annotations

import re

from client.clock import format_ms
from client.home_facts import state_word
from client.i18n import t
from client.names import move_name
from shared.notation import UNDO, parse_action
from shared.protocol import PileView, ReplayReply

#: a game's id: the end of its replay link (``https://host/replay/ID``) or the id alone
_ID = re.compile(r"(?:^|/replay/)([A-Za-z0-9_-]{1,16})/?$")

#: moves a second while a replay plays by itself (+ and - step through them)
SPEEDS = (1, 2, 4, 8, 16)

#: refusals of ``replay`` in words (the browser's words): the tables' keys
REFUSED = {
    "not_found": "replay.none",
    "secret": "replay.secret",
    "forbidden": "replay.still_playing",
    "race_locked": "replay.race_locked",
}


def refusal(code: str, message: str) -> str | None:
    """Why a replay cannot open, in words; None for a refusal of another kind."""
    if code == "forbidden" and "secret" in message:
        return t(REFUSED["secret"])
    key = REFUSED.get(code)
    return None if key is None else t(key)


def game_id(typed: str) -> str | None:
    """The game's id in what was typed or pasted; None when there is none."""
    found = _ID.search(typed.strip())
    return None if found is None else found.group(1)


def boards(reply: ReplayReply) -> list[tuple[PileView, ...]]:
    """Every pile at every step: ``[as dealt, after action 1, ...]``."""
    first = reply.boards[0].piles
    order = [pile.id for pile in first]
    current = {pile.id: pile for pile in first}
    steps = [tuple(first)]
    for changed in reply.boards[1:]:
        for pile in changed.piles:
            if pile.id not in current:
                order.append(pile.id)
            current[pile.id] = pile
        steps.append(tuple(current[pid] for pid in order))
    return steps


def action_words(action: str) -> str:
    """One recorded action as the board names it: ``4→F1``, ``deal (space)``, ``undo``."""
    if action == UNDO:
        return t("replay.undo")
    try:
        return move_name(parse_action(action))
    except ValueError:
        return action


def step_text(reply: ReplayReply, step: int) -> str:
    """Where the replay stands: ``As dealt · 87 moves in all``, ``Move 3 of 87: 4→F1``."""
    total = len(reply.actions)
    if step == 0:
        return t("replay.start", n=total)
    return t("replay.at", i=step, n=total, words=action_words(reply.actions[step - 1]))


def heading(reply: ReplayReply, variant_name: str) -> str:
    """``<game> · replay of alice's game g7Qx2bPa · won in 3:11, 87 moves``."""
    end = state_word(reply.state)
    if reply.state == "won":
        end = t("replay.won_in", time=format_ms(reply.elapsed_ms))
    return t(
        "replay.heading",
        name=variant_name,
        player=reply.player,
        game=reply.game,
        end=end,
        n=len(reply.actions),
        score=reply.score,
    )
