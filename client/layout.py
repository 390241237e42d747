"""Where each pile of a variant sits on screen, and the key that picks it.

Layouts are data, derived from the pile ids of the GameView as rules.md draws
each game: stock, waste, free cells and foundations in the top row, tableau
below. Osmosis puts stock and waste on top, then pairs each reserve with the
foundation beside it, both fanned to the right, because which ranks a
foundation holds is what the player must see.
"""

from __future__ import annotations

from dataclasses import dataclass

#: pile kind -> keys of its piles in order (tableau t0..t9, reserves r0..r3, ...)
TABLEAU_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0")
RESERVE_KEYS = ("q", "w", "e", "r")
FOUNDATION_KEYS = ("f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8")
WASTE_KEY = "x"
STOCK_KEY = "space"

#: a gap between groups of piles in a row
GAP = ""


@dataclass(frozen=True)
class Layout:
    """Rows of pile ids (``GAP`` for a gap); ``fanned_right`` piles spread sideways."""

    rows: tuple[tuple[str, ...], ...]
    fanned_right: frozenset[str] = frozenset()
    #: piles shown as their top card only (the rest is a count)
    squared: frozenset[str] = frozenset()


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


def layout_for(variant: str, pile_ids: list[str]) -> Layout:
    """The layout of a game from its variant and the piles its view lists."""
    ids = list(pile_ids)
    found = [p for p in ids if p.startswith("f")]
    reserves = [p for p in ids if p.startswith("r")]
    tableau = [p for p in ids if p.startswith("t")]
    stock = [p for p in ids if p in ("s", "w")]
    if variant == "osmosis":
        rows = [tuple(stock)] + [(r, f) for r, f in zip(reserves, found, strict=False)]
        return Layout(
            rows=tuple(rows),
            fanned_right=frozenset(reserves + found),
            squared=frozenset(stock),
        )
    top: list[str] = [*stock, *reserves]
    if top and found:
        top.append(GAP)
    top.extend(found)
    return Layout(
        rows=(tuple(top), tuple(tableau)),
        squared=frozenset(stock + reserves + found),
    )
