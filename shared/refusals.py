"""Reading an action the rules' table does not name, and the words of every refusal.

A refusal (:class:`~shared.errors.IllegalMove`) is shown to the player as it
is, so every reason here, and every variant's ``why_illegal``, is a function
of what the player sees: a face-down card is counted, never named. The tests
check it by shuffling the face-down cards of random positions and asking
every refusal again (tests/shared/test_refusals.py).
"""

from __future__ import annotations

from shared.cards import NAME
from shared.errors import IllegalMove
from shared.notation import DEAL, Action, Move
from shared.position import Position
from shared.states import STUCK
from shared.variants.base import DEAL as DEAL_MOVE
from shared.variants.base import InternalMove, Rules


def resolve(
    rules: Rules, pos: Position, legal: list[InternalMove], action: Action
) -> tuple[InternalMove, Move | None]:
    """The internal move of ``action``, which the rules' table does not name (a Move
    value, a text to parse, the ``X>f`` shorthand), and the Move to give back for a
    Move: the same one, or for ``X>f`` the move with the foundation it goes to."""
    if isinstance(action, Move):
        move = action
    elif action == DEAL:
        return DEAL_MOVE, None
    else:
        move = Move.parse(action)
    if move.dst != "f":
        internal = rules.internal(move)
    else:
        internal = to_foundation(rules, pos, legal, move)
        move = Move(move.src, 1, rules.pile_ids[internal[2]])
    return internal, move if isinstance(action, Move) else None


def to_foundation(
    rules: Rules, pos: Position, legal: list[InternalMove], move: Move
) -> InternalMove:
    """``X>f``: X's top card to the first foundation, in pile order, that takes it."""
    src = rules.pile(move.src)
    pile = pos.piles[src]
    text = str(move)
    if move.count != 1:
        raise IllegalMove(f"{text!r} is not legal: only one card at a time goes to a foundation")
    if not pile:
        raise IllegalMove(f"{text!r} is not legal: {move.src} is empty")
    if len(pile) <= pos.down[src]:
        raise IllegalMove(f"{text!r} is not legal: the top card of {move.src} is face down")
    for f in rules.foundations:
        if (src, 1, f) in legal:
            return (src, 1, f)
    raise IllegalMove(f"{text!r} is not legal now: no foundation takes {NAME[pile[-1]]}")


def refusal(rules: Rules, pos: Position, action: Action, move: InternalMove) -> IllegalMove:
    """Why ``move`` (the action as given) is refused in ``pos``."""
    # The listed moves are the law; the reasons only explain them.
    reason = rules.why_illegal(pos, move) or "the rules do not allow it here"
    return IllegalMove(f"{str(action)!r} is not legal now: {reason}")


def ended(state: str, resigned: bool) -> IllegalMove:
    """The refusal of every action but undo once a game has ended or is stuck."""
    if state == STUCK:
        return IllegalMove(
            "the game is stuck: no card can reach a foundation any more; only undo is possible"
        )
    return IllegalMove(f"the game is over ({'resigned' if resigned else state})")
