"""A plain reference for Freecell's stuck search, and its witnesses as engine moves."""

from __future__ import annotations

from shared.position import Position
from shared.variants.base import InternalMove
from shared.variants.freecell import FreecellRules
from shared.variants.freecell.witness import Witness
from tests.shared.positions import as_move

MANUAL = FreecellRules({"autoplay": False})


def key(pos: Position) -> tuple[object, ...]:
    """Positions alike up to which free cell or column holds what (foundations left out)."""
    piles = pos.piles
    return (sorted(piles[0] + piles[1] + piles[2] + piles[3]), sorted(map(tuple, piles[8:])))


def explore(rules: FreecellRules, start: Position, budget: int) -> tuple[bool | None, int]:
    """The reference: breadth-first on the engine's own moves, a key per position seen.
    (True when some line adds a foundation card, False when every reachable position
    was seen within ``budget`` without one, None when there were more), and how many
    keys were seen, the start included."""
    target = rules.foundation_count(start)
    seen = {repr(key(start))}
    queue = [start]
    for current in queue:
        for move in rules.legal(current):
            child = current.copy()
            rules.apply(child, move)
            rules.after_move(child)
            if rules.foundation_count(child) > target:
                return True, len(seen)
            child_key = repr(key(child))
            if child_key not in seen:
                if len(seen) >= budget:
                    return None, len(seen)
                seen.add(child_key)
                queue.append(child)
    return False, len(seen)


def plain_progress(rules: FreecellRules, start: Position, budget: int) -> bool | None:
    """The reference verdict (see :func:`explore`)."""
    return explore(rules, start, budget)[0]


def reachable_count(rules: FreecellRules, start: Position) -> int:
    """How many keys the positions reachable without progress have (the start included);
    ``start`` must be dead."""
    verdict, seen = explore(rules, start, 10**9)
    assert verdict is False
    return seen


def engine_line(pos: Position, witness: Witness) -> list[InternalMove]:
    """The witness as the engine's moves, each checked to be listed when it is played;
    asserts that the line ends with a card that can go home."""
    rules = MANUAL
    pos = pos.copy()
    line = []
    for step in witness:
        move = as_move(pos, step)
        assert move in rules.legal(pos), (rules.position_text(pos), move)
        rules.apply(pos, move)
        line.append(move)
    assert rules.can_progress_now(pos, rules.legal(pos)), rules.position_text(pos)
    return line
