"""The physical floor: the least time a human hand needs to give one action, on any client.

Review holds a result played in less time than its actions need by hand
(:mod:`server.review.rule`). The floor of an action is the least time any
client offers for it: a client's claim of what it is (``hello``'s
``client``) is the client's own word, so a script would claim the fastest.
Both clients take every action from the keyboard (docs/client.md, "Keys on
the board"; the browser client has the same keys), so the floor is the keys':

=====================  ============================  ======================================
action                 keys (terminal and browser)   pointer (browser: drag or tap-tap)
=====================  ============================  ======================================
a move ``src>dst``     2 presses (pick, then put)    press + point across the piles + release
a move to ``f``        2 presses (pick, then ``f``)  a double-click: 2 clicks
``deal``               1 press (space)               1 click
``undo``               1 press (``u``)               1 click
``auto``               1 press (``a``)               1 click
=====================  ============================  ======================================

None of these figures is measured from people here; they are assumed from the
literature, each at its fast end so that no person is held by the floor
(docs/fair-play.md, "The physical floor"):

- a key press, :data:`KEY_MS`: the keystroke-level model's K for the best
  typists, 0.08 s (Card, Moran & Newell, *The Psychology of Human-Computer
  Interaction*, 1983; 135 words a minute). A move's two keys are chosen from
  the board, which only makes them slower;
- a button press or release, :data:`BUTTON_MS`: the model's B, 0.1 s;
- pointing across ``n`` piles, Fitts's law in Shannon's form,
  ``b * log2(n + 1)`` with the distance in pile widths (a pile is about as
  wide as the card it holds) and ``b`` = :data:`FITTS_MS_PER_BIT`, 100 ms a
  bit: ten bits a second, about twice the throughput measured for the mouse
  (MacKenzie, "Fitts' law as a research and design tool", 1992; Soukoreff &
  MacKenzie, 2004: 3.7 to 4.9 bits/s).

With keys on both clients the pointer's column never sets the floor; it is
kept so that a client without keys (a phone, touch only) has its own figure
if a server ever trusts a client's word about itself.
"""

from __future__ import annotations

import math
from types import MappingProxyType

from shared.errors import InvalidNotation
from shared.notation import AUTO, DEAL, UNDO, Move

#: the keystroke-level model's K for the best typists, milliseconds
KEY_MS = 80
#: the keystroke-level model's B (a mouse button pressed or released), milliseconds
BUTTON_MS = 100
#: Fitts's law's slope for the floor: 100 ms a bit (10 bits a second)
FITTS_MS_PER_BIT = 100

#: key presses per action that is not a move
KEYS: MappingProxyType[str, int] = MappingProxyType({DEAL: 1, UNDO: 1, AUTO: 1})
#: key presses per move: pick the source, then the destination (or ``f``)
MOVE_KEYS = 2
#: where the pointer's piles are counted from: pile kind -> its place on a row of piles
#: (tableau piles by number; the others on the top row, apart by one pile at least)
_TOP_ROW = MappingProxyType({"s": 0, "w": 1, "r": 2, "f": 6})


def keys_ms(action: str, key_ms: int = KEY_MS) -> int:
    """The keyboard's floor for ``action`` (terminal and browser alike)."""
    return key_ms * KEYS.get(action, MOVE_KEYS)


def piles_crossed(move: Move) -> int:
    """How many piles a pointer crosses from ``move``'s source to its destination (at least
    one): tableau to tableau by their numbers, otherwise from a row's place to the other's."""
    src, dst = move.src, move.dst
    if src[0] == "t" and dst[0] == "t" and len(src) > 1 and len(dst) > 1:
        return max(1, abs(int(src[1:]) - int(dst[1:])))
    return max(1, abs(_place(src) - _place(dst)))


def _place(pile: str) -> int:
    if pile[0] == "t":
        return int(pile[1:] or 0)
    return _TOP_ROW.get(pile[0], 0) + (int(pile[1:]) if len(pile) > 1 else 0)


def pointer_ms(action: str) -> int:
    """The pointer's floor for ``action``: a press, the way across, a release (a
    double-click for a card sent home: two clicks); a click for the others."""
    if action in KEYS:
        return 2 * BUTTON_MS
    try:
        move = Move.parse(action)
    except InvalidNotation:
        return 2 * BUTTON_MS
    drag = 2 * BUTTON_MS + round(FITTS_MS_PER_BIT * math.log2(piles_crossed(move) + 1))
    return min(drag, 4 * BUTTON_MS) if move.dst.startswith("f") else drag


def floor_ms(action: str, key_ms: int = KEY_MS) -> int:
    """The least time any client lets a hand give ``action``."""
    return min(keys_ms(action, key_ms), pointer_ms(action))
