"""What the daily's start step says: each game's rules in short, and the terms of the attempt."""

from __future__ import annotations

#: each game's rules in a sentence or two (docs/rules.md has them whole)
RULES = {
    "freecell": "Every card face up. Build down the eight columns in alternating colours, "
    "park cards in the four free cells, and bring each suit home from ace to king.",
    "gypsy": "Two decks. Build down in alternating colours, move any valid run, and bring "
    "all eight suits home; each deal puts a card on every column.",
    "osmosis": "Cards go only to the foundations: the first takes the base card's suit, "
    "each next one a card whose rank is already in the one before it. Three passes "
    "through the stock.",
    "thumb_and_pouch": "Build down in any other suit, move any face-up card with what lies "
    "on it, and bring each suit home from ace to king. Two redeals.",
    "westhaven": "Build down in alternating colours; move the top card, or the whole "
    "face-up part of a column. One pass through the stock.",
}

#: the terms of the ranked attempt
TERMS = (
    "One ranked attempt a day. Nothing is dealt until you start; the clock starts "
    "then and never pauses. No hints; undos are allowed and counted."
)


def rules(variant: str) -> str:
    """The game's rules in short; empty for a game this client does not know."""
    return RULES.get(variant, "")
