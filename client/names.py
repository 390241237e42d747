"""The names the player sees for piles, cards and moves, translated from the engine's notation.

The protocol speaks notation (``t3``, ``r1``, ``w``, ``9C``, ``t3:2>f0``) and
so do the engine's reasons for a refusal; the screen names a pile by the key
that picks it (``4``, ``w``, ``x``, ``F1``) and a card by its glyphs
(``9♣``). Both are 1-based or lettered differently, and the letters clash
(``w`` is the waste in notation but the key of the second free cell), so
everything shown to the player, hints and refusals included, goes through
:func:`translate` in one pass. The server's words stay notation for every
other client; only this client's screen translates them.
"""

from __future__ import annotations

import re

from client.i18n import language, t
from client.i18n.reasons import FRAME, REASONS
from client.layout import key_label
from client.names_table import CARD_PATTERN, PILE_PATTERN, RANKS, SUITS
from shared.notation import AUTO, DEAL, Action, Move
from shared.protocol import DealView

#: from the table of names both clients share (client/names_table.py)
SUIT_GLYPH = SUITS
RANK_TEXT = RANKS

_PILE = PILE_PATTERN
#: a move in notation, quoted or not: ``t3>f0``, ``'t3:4>t7'``, ``w>f``
_MOVE = rf"'?(?P<src>{_PILE})(?::(?P<count>\d+))?>(?P<dst>{_PILE}|f)'?"
#: one token of notation inside a sentence: a move, a pile id, a card, or a quoted keyword
_TOKEN = re.compile(
    rf"(?<![\w'])(?:{_MOVE}"
    rf"|(?P<pile>{_PILE})"
    rf"|(?P<card>{CARD_PATTERN})"
    rf"|'(?P<word>{DEAL}|{AUTO})')(?![\w'])"
)


def pile_name(pile_id: str) -> str:
    """A pile as its label on the board names it: the key that picks it (``t3`` -> ``4``,
    ``r1`` -> ``w``, ``w`` -> ``x``, ``f0`` -> ``F1``); the stock is ``stock``."""
    if pile_id == "s":
        return t("name.stock")
    return key_label(pile_id)


def rank_text(rank: str) -> str:
    """What a face shows of a rank: the shared table's (``T`` -> ``10``), but a face card's
    letter in the player's language, as the browser shows it (J Q K, in French V D R)."""
    key = f"glyph.{rank}"
    return t(key) if key in _GLYPH_KEYS else RANK_TEXT[rank]


_GLYPH_KEYS = frozenset({"glyph.J", "glyph.Q", "glyph.K"})


def card_name(card: str) -> str:
    """``"9C"`` -> ``"9♣"``, ``"TH"`` -> ``"10♥"`` (``"JC"`` -> ``"V♣"`` in French)."""
    return rank_text(card[0]) + SUIT_GLYPH[card[1]]


def move_name(action: Action) -> str:
    """A move in the player's names: ``t3>f0`` -> ``4→F1``, ``t3:4>t7`` -> ``4→8 (4 cards)``,
    ``deal`` -> ``deal (space)``, ``auto`` -> ``auto (a)``."""
    if isinstance(action, Move):
        move = action
    elif action == DEAL:
        return t("name.deal")
    elif action == AUTO:
        return t("name.auto")
    else:
        try:
            move = Move.parse(action)
        except ValueError:
            return translate(action)
    return _move_text(move.src, move.count, move.dst)


def _move_text(src: str, count: int, dst: str) -> str:
    text = f"{pile_name(src)}→{t('name.foundation') if dst == 'f' else pile_name(dst)}"
    return t("name.cards", move=text, n=count) if count > 1 else text


def translate(text: str) -> str:
    """A sentence of the server (a refusal, a hint) in the player's names and language: the
    engine's reason said again from the tables (client/i18n/reasons.py; in English the
    engine's own words), every pile, card and move in notation named as the board names it."""
    if language() == "en":
        return notation_names(text)
    return said_again(text)


def said_again(text: str) -> str:
    """``text`` with the engine's frame and reason said from the tables (any language)."""
    frame = FRAME.fullmatch(text)
    if frame is None:
        return reason_words(text)
    key = "refusal.frame" if frame.group("now") else "refusal.frame_plain"
    move = notation_names(frame.group("move"))
    return t(key, move=move, reason=reason_words(frame.group("reason")))


def reason_words(reason: str) -> str:
    """One reason of the engine from the table's key its pattern names; one no pattern knows
    keeps the engine's words."""
    for pattern, key in REASONS:
        match = pattern.fullmatch(reason)
        if match is not None:
            parts = {k: notation_names(v) for k, v in match.groupdict().items() if v is not None}
            return t(key, **parts)
    return notation_names(reason)


def notation_names(text: str) -> str:
    """``text`` with every pile, card and move in notation replaced by the name the player
    sees; everything else is left as it is."""

    def name(match: re.Match[str]) -> str:
        if match.group("src") is not None:
            count = match.group("count")
            return _move_text(match.group("src"), int(count or 1), match.group("dst"))
        if match.group("pile") is not None:
            return pile_name(match.group("pile"))
        if match.group("card") is not None:
            return card_name(match.group("card"))
        return move_name(match.group("word"))

    return _TOKEN.sub(name, text)


#: hex digits of a commitment that name a keyed deal on screen
COMMITMENT_SHOWN = 8


def deal_name(deal: DealView) -> str:
    """A numbered deal as ``#617``; a keyed deal by the start of its commitment, which the
    server shows from the start (never a seed: a keyed deal has none to show)."""
    if deal.seed is not None:
        return f"#{deal.seed}"
    return t("name.deal_keyed", start=(deal.commitment or "")[:COMMITMENT_SHOWN])


def verify_command(variant: str, deal: DealView) -> str | None:
    """The command that checks a revealed key against the commitment shown from the start,
    or None while the key is secret (and for numbered deals, which have no key)."""
    if deal.commitment is None or deal.key is None:
        return None
    return f"patience-club verify {variant} {deal.commitment} {deal.key}"


__all__ = [
    "card_name",
    "deal_name",
    "move_name",
    "pile_name",
    "rank_text",
    "reason_words",
    "said_again",
    "translate",
    "verify_command",
]
