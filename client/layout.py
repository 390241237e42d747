"""Where each pile of a variant sits on screen, and the key that picks it.

The layout is the server's: each VariantInfo of ``welcome`` carries one
(docs/protocol.md, ``layout``: rows of pile ids, ``""`` for a gap, and how each
pile spreads its cards), so the client draws a game it has never heard of.
The keys are the client's own: one per kind of pile and number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from client.names_table import KEY_LABELS
from shared.protocol import VariantInfo

#: the label written above a pile, as Textual names the key it stands for
_TEXTUAL = {"spc": "space"}


def _key(label: str) -> str:
    return _TEXTUAL.get(label, label.lower() if label.startswith("F") else label)


#: pile kind -> keys of its piles in order (tableau t0..t9, reserves r0..r3, ...), as Textual
#: names them, from the table of names both clients share (client/names_table.py)
TABLEAU_KEYS = tuple(_key(label) for label in KEY_LABELS["t"])
RESERVE_KEYS = tuple(_key(label) for label in KEY_LABELS["r"])
FOUNDATION_KEYS = tuple(_key(label) for label in KEY_LABELS["f"])
WASTE_KEY = _key(KEY_LABELS["w"][0])
STOCK_KEY = _key(KEY_LABELS["s"][0])

#: a gap between groups of piles in a row
GAP = ""

#: columns on screen (app.tcss): a pile, a gap, a fanned pile with its margin, the board's
#: padding
PILE_COLUMNS = 6
GAP_COLUMNS = 4
FANNED_COLUMNS = 22
BOARD_PADDING = 2


@dataclass(frozen=True)
class Layout:
    """Rows of pile ids (``GAP`` for a gap); ``fanned_right`` piles spread sideways."""

    rows: tuple[tuple[str, ...], ...]
    fanned_right: frozenset[str] = frozenset()
    #: piles shown as their top card only (the rest is a count)
    squared: frozenset[str] = frozenset()

    @property
    def width(self) -> int:
        """Columns the widest row takes (app.tcss: a pile is 6 wide, a gap 4, a fanned pile
        at least 22), so that a screen can tell whether a panel fits beside the board."""

        def row_width(row: tuple[str, ...]) -> int:
            return sum(
                GAP_COLUMNS
                if p == GAP
                else FANNED_COLUMNS
                if p in self.fanned_right
                else PILE_COLUMNS
                for p in row
            )

        return max((row_width(row) for row in self.rows), default=0) + BOARD_PADDING


def key_of(pile_id: str) -> str:
    """The key that picks ``pile_id`` (as Textual names keys)."""
    kind, number = pile_id[0], pile_id[1:]
    if kind == "t":
        return TABLEAU_KEYS[int(number)]
    if kind == "r":
        return RESERVE_KEYS[int(number)]
    if kind == "f":
        return FOUNDATION_KEYS[int(number)]
    if kind == "w":
        return WASTE_KEY
    return STOCK_KEY


def key_label(pile_id: str) -> str:
    """How the key is written above its pile."""
    key = key_of(pile_id)
    return {"space": "spc"}.get(key, key.upper() if key.startswith("f") else key)


def pile_for_key(key: str, pile_ids: list[str]) -> str | None:
    for pid in pile_ids:
        if key_of(pid) == key:
            return pid
    return None


def layout_from(info: VariantInfo | None, pile_ids: Sequence[str]) -> Layout:
    """The layout a VariantInfo declares, for a view with ``pile_ids``: its rows, less the
    piles the view does not have; a pile it does not place goes in a last row of its own,
    stacked (so a VariantInfo without a layout still shows every pile)."""
    declared = None if info is None else info.layout
    fan = {} if declared is None else dict(declared.fan)
    present = set(pile_ids)
    rows: list[tuple[str, ...]] = []
    for raw in () if declared is None else declared.rows:
        row = tuple(p for p in raw if p == GAP or p in present)
        if any(p != GAP for p in row):
            rows.append(row)
    placed = {p for row in rows for p in row}
    rest = tuple(p for p in pile_ids if p not in placed)
    if rest:
        rows.append(rest)
    return Layout(
        rows=tuple(rows),
        fanned_right=frozenset(p for p in pile_ids if fan.get(p) == "right"),
        squared=frozenset(p for p in pile_ids if fan.get(p, "stack") == "stack"),
    )
