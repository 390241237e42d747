"""The reasons the engine gives for a refusal (shared/variants, shared/refusals.py), as
patterns, so that the board says them again in the player's language: the same patterns as
the browser client's (client/web/js/i18n/reasons.js), each said from a ``reason.*`` key of the
tables. The English table says what the engine says; a reason no pattern knows keeps the
engine's English. Each pattern's groups are named as the key's placeholders.
"""

from __future__ import annotations

import re

from client.names_table import CARD_PATTERN, PILE_PATTERN

P = f"(?:{PILE_PATTERN})"
C = f"(?:{CARD_PATTERN})"


def _p(name: str) -> str:
    return f"(?P<{name}>{P})"


def _c(name: str) -> str:
    return f"(?P<{name}>{C})"


_SOURCES: list[tuple[str, str]] = [
    (f"{_p('p')} cannot move onto itself", "reason.self"),
    (f"{_p('p')} is empty", "reason.empty"),
    (rf"{_p('p')} has only (?P<n>\d+) cards", "reason.only"),
    (rf"{_p('p')} has only (?P<n>\d+) face-up cards", "reason.only_up"),
    (f"the top card of {_p('p')} is face down", "reason.top_down"),
    (
        f"{_c('a')} on {_c('b')} is not a build: colours must alternate and ranks go down by one",
        "reason.not_build",
    ),
    ("(?:only )?one card at a time goes to a foundation", "reason.one_at_a_time"),
    (f"no foundation takes {_c('c')}", "reason.no_foundation"),
    (
        f"{_c('c')} cannot start {_p('f')}: an empty foundation takes only an ace",
        "reason.ace_first",
    ),
    (
        f"{_c('c')} cannot go on {_c('u')} in {_p('f')}: needs the same suit, one rank higher",
        "reason.same_suit_up",
    ),
    (
        f"{_c('c')} cannot go on {_c('u')}: needs the other colour, one rank lower",
        "reason.other_colour_down",
    ),
    (f"{_c('c')} cannot go on {_c('u')}: needs the other colour", "reason.other_colour"),
    (f"{_c('c')} cannot go on {_c('u')}: needs one rank lower", "reason.rank_lower"),
    (f"{_c('c')} cannot go on {_c('u')}: needs a different suit", "reason.different_suit"),
    (f"{_c('c')} cannot go on {_p('f')}: {_p('g')} holds no base card", "reason.no_base"),
    (
        rf"{_c('c')} cannot go on {_p('f')}: {_p('g')} takes only (?P<suit>\w+), the base suit",
        "reason.base_suit",
    ),
    (f"{_c('c')} cannot start {_p('f')}: {_p('g')} is not started yet", "reason.not_started"),
    (rf"{_c('c')} cannot go on {_p('f')}: {_p('g')} takes only (?P<suit>\w+)", "reason.only_suit"),
    (rf"{_c('c')} cannot go on {_p('f')}: no (?P<rank>\w+) on {_p('g')} yet", "reason.not_yet"),
    ("(?P<name>.+) has no stock", "reason.no_stock"),
    ("the stock is empty and no redeal is left", "reason.stock_done"),
    (
        r"the stock is empty and (?:\w+ has no redeal|\w+ deals it only once)",
        "reason.stock_done",
    ),
    ("the stock and the waste are empty", "reason.stock_waste_empty"),
    ("cards leave the stock only by '?deal'?", "reason.stock_by_deal"),
    ("the stock's cards are turned with deal, not moved", "reason.stock_by_deal"),
    ("nothing (?:is ever placed|can be put) on (?:the stock|s)", "reason.nothing_on_stock"),
    ("nothing is ever placed on (?:the waste|w)", "reason.nothing_on_waste"),
    ("only deal puts cards on the waste", "reason.nothing_on_waste"),
    (f"nothing is ever placed on a reserve such as {_p('p')}", "reason.nothing_on_reserve"),
    (f"nothing can be put on {_p('p')}", "reason.nothing_on"),
    (f"only the top card of {_p('p')} can move", "reason.only_top"),
    ("only the top card of the waste can move", "reason.only_top_waste"),
    ("only the top card of a foundation can move", "reason.only_top_foundation"),
    (r"cards on the foundations (?:are out of play|never move) in \w+", "reason.foundations_fixed"),
    ("a free cell holds one card", "reason.cell_one"),
    (f"free cell {_p('p')} is not empty", "reason.cell_full"),
    (
        r"(?P<n>\d+) cards cannot move at once: with (?P<cells>\d+) empty free cells and "
        r"(?P<cols>\d+) other empty columns the limit is (?P<limit>\d+)",
        "reason.too_many",
    ),
    ("the game is stuck: .*", "reason.stuck"),
    (r"the game is over \((?P<state>\w+)\)", "reason.over"),
    ("auto would move nothing: .*", "reason.auto_nothing"),
    ("nothing to undo: .*", "reason.nothing_to_undo"),
]

#: (the whole reason as a pattern, the key that says it)
REASONS: list[tuple[re.Pattern[str], str]] = [(re.compile(source), key) for source, key in _SOURCES]

#: the engine's frame around a reason: ``'t4>t0' is not legal now: ``
FRAME = re.compile(r"'(?P<move>[^']*)' is not legal(?P<now> now)?: (?P<reason>.*)", re.S)
