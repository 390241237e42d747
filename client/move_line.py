"""The current line of a game as this board saw it played: the move list, and what redo plays.

The server keeps no redo: an undo is an action like any other. So the client
keeps, as the browser does, the actions it played and those undone since: an
undo moves the last one played to the undone ones, redo plays the last undone
one again, and any other action starts a new line (the undone ones are
forgotten). The move list names each action as the board does
(client/names.py); actions played before the board opened are counted, not
named. A plain class apart from any screen (tested on its own).
"""

from __future__ import annotations

from client.i18n import tn
from client.names import move_name
from shared.notation import UNDO, Action


class MoveLine:
    """What one board saw of its game's line; ``opened_at``: the ply it opened at."""

    def __init__(self, opened_at: int = 0) -> None:
        self.opened_at = opened_at
        self.played: list[Action] = []
        self.undone: list[Action] = []
        #: the action redo is playing now (it keeps the other undone ones)
        self.redoing: Action | None = None

    def remember(self, action: Action) -> None:
        """``action`` was played (the server answered it)."""
        if action == UNDO:
            if self.played:  # (an action before the board opened is not named: nor redone)
                self.undone.append(self.played.pop())
        else:
            self.played.append(action)
            if action != self.redoing:
                self.undone.clear()
        self.redoing = None

    def redo(self) -> Action | None:
        """The action redo plays: the last one undone (None when there is none)."""
        if not self.undone:
            return None
        self.redoing = self.undone.pop()
        return self.redoing

    def refused(self) -> None:
        """The action sent was refused: an action redo was playing is undone still."""
        if self.redoing is not None:
            self.undone.append(self.redoing)
            self.redoing = None

    def names(self) -> list[str]:
        """The move list, in the board's names: ``3 actions before this board opened``,
        then ``1. 4→F1``, ``2. deal (space)``..."""
        shown = []
        if self.opened_at:
            shown.append(tn("board.moves_before", self.opened_at))
        shown += [f"{n}. {move_name(a)}" for n, a in enumerate(self.played, 1)]
        return shown
