"""How a card looks in a terminal: rank, suit symbol, red or black, and backs.

Every cell is :data:`CARD_WIDTH` columns wide so that piles line up in columns
and a click's x offset never has to be measured against varying widths.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from client.names import rank_text

CARD_WIDTH = 5

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = frozenset("DH")

FACE_RED = Style(color="rgb(190,20,30)", bgcolor="rgb(250,250,245)", bold=True)
FACE_BLACK = Style(color="rgb(20,20,20)", bgcolor="rgb(250,250,245)", bold=True)
BACK = Style(color="rgb(110,140,220)", bgcolor="rgb(30,50,130)")
EMPTY = Style(color="rgb(110,150,110)", dim=True)
SELECTED = Style(bgcolor="rgb(250,220,90)")
TARGET = Style(color="rgb(20,20,20)", bgcolor="rgb(120,220,120)")
HINTED = Style(underline=True)


def is_red(card: str) -> bool:
    return card[1] in RED_SUITS


def face_label(card: str) -> str:
    """``"TH"`` -> ``"10♥"``: three columns, right-aligned rank."""
    rank = rank_text(card[0])
    return f"{rank:>2}{SUIT_SYMBOL[card[1]]}"


def face(card: str, *, selected: bool = False) -> Text:
    """A face-up card as one cell of :data:`CARD_WIDTH` columns."""
    style = FACE_RED if is_red(card) else FACE_BLACK
    if selected:
        style = style + SELECTED
    return Text(f" {face_label(card)} ", style=style)


def back(count: int | None = None) -> Text:
    """A face-down card, or a stack of them labelled with how many."""
    if count is None or count <= 1:
        return Text("░░░░░", style=BACK)
    return Text(f"░{count:>3}░", style=BACK)


def back_count(count: int) -> Text:
    """Face-down cards as one cell labelled with how many, even for one."""
    return Text(f"░{count:>3}░", style=BACK)


def empty(label: str, *, target: bool = False) -> Text:
    """The outline of an empty pile: where a card may go."""
    text = f"[{label:^3}]"
    return Text(text, style=TARGET if target else EMPTY)


def blank() -> Text:
    return Text(" " * CARD_WIDTH)
