"""The ``game`` frame written straight from the typed view: the server's most frequent message.

Every acknowledged move is answered with a ``game`` message, so its encoding
is paid once per move. Going through :meth:`GameView.to_map` made a map per
pile (sixteen in Freecell), a list per pile and the view's own map, only for
msgpack to walk them once and throw them away: 59,000 instructions for the
maps and 84,000 for packing them, per move (callgrind). Here the frame is
written from the view's fields directly, with the same bytes:

- the fields between two nested parts are packed as one list whose array
  header is cut off (:func:`_run`): msgpack writes a list's items one after
  the other, exactly as the pairs of a map, so the items of
  ``["ply", 3, "moves", 3]`` are the bytes of those two entries of a map;
- a pile's bytes are kept (:class:`PackedPiles`) and reused while the engine
  hands out the same :class:`~shared.board_view.PileView` object, which it
  makes again only when the pile changed (two or so per move), so a move
  packs two piles instead of sixteen. The kept bytes belong to the game they
  show: its owner makes one :class:`PackedPiles` per game and hands it to
  every view of the game (``GameView.packed_piles``; the server's
  ``LiveGame``), so that they live and go with the game, and this module
  keeps nothing.

tests/shared/protocol/test_frames.py holds the bytes to what ``msgpack.packb``
makes of ``to_map()``, for every kind of game reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared.board_view import PileView
from shared.protocol.envelope import pack as _pack

if TYPE_CHECKING:
    from shared.protocol.games import GameReply
    from shared.protocol.views import GameView


def _run(items: list[Any]) -> bytes:
    """The items' bytes one after the other: their list packed, without its array header."""
    packed: bytes = _pack(items)
    return packed[1:] if len(items) < 16 else packed[3:]


def _header(count: int, small: int, large: int) -> bytes:
    """A map's (``small`` 0x80, ``large`` 0xde) or array's (0x90, 0xdc) header."""
    if count < 16:
        return bytes((small | count,))
    return bytes((large, count >> 8, count & 0xFF))


class PackedPiles:
    """One game's piles as last packed: each pile's bytes, reused while the engine hands out
    the same :class:`PileView` object again.

    It holds the piles it packed, so a pile compared by identity is that very
    pile, whose fields a named tuple never changes: a hit is never a wrong
    byte, and a pile made anew with the same cards is only packed again.
    """

    __slots__ = ("_packed", "_piles")

    def __init__(self) -> None:
        self._piles: tuple[PileView, ...] = ()
        self._packed: list[bytes] = []

    def of(self, piles: tuple[PileView, ...]) -> bytes:
        """The ``piles`` array, header and items."""
        last = self._piles
        if len(last) == len(piles):
            packed = [
                old if was is pile else _pile_bytes(pile)
                for pile, was, old in zip(piles, last, self._packed, strict=True)
            ]
        else:
            packed = [_pile_bytes(pile) for pile in piles]
        self._piles, self._packed = piles, packed
        return _header(len(piles), 0x90, 0xDC) + b"".join(packed)


def _pile_bytes(pile: PileView) -> bytes:
    return _pack({"id": pile.id, "down": pile.down, "up": pile.up})


def _piles_bytes(piles: tuple[PileView, ...]) -> bytes:
    """The ``piles`` array of a view that keeps no packed piles: every pile packed."""
    return _header(len(piles), 0x90, 0xDC) + b"".join([_pile_bytes(pile) for pile in piles])


def game_view_bytes(view: GameView) -> bytes:
    """A GameView packed as :meth:`GameView.to_map` would be, keys in the same order."""
    board = view.board
    head = _run(
        [
            "variant", board.variant,
            "deal", view.deal.to_map(),
            "options", dict(board.options),
            "ply", board.ply,
            "moves", board.moves,
            "undos", board.undos,
            "score", board.score,
            "max_score", board.max_score,
            "state", board.state,
            "redeals_left", board.redeals_left,
            "piles",
        ]
    )  # fmt: skip
    tail = _run(["legal", board.legal, "id", view.id, "hints", view.hints, "elapsed_ms",
                 view.elapsed_ms])  # fmt: skip
    kept = view.packed_piles
    piles = _piles_bytes(board.piles) if kept is None else kept.of(board.piles)
    return b"".join((b"\x8f", head, piles, tail))


def game_reply_frame(reply: GameReply) -> bytes:
    """A ``game`` message's frame: ``type``, ``re``, ``game``, then its optional fields."""
    envelope: list[Any] = ["type", reply.type]
    if reply.re is not None:
        envelope += ("re", reply.re)
    envelope.append("game")
    after: list[Any] = []
    if reply.daily is not None:
        after += ("daily", reply.daily.to_map())
    if reply.code is not None:
        after += ("code", reply.code)
    if reply.player is not None:
        after += ("player", reply.player)
    entries = (len(envelope) + 1 + len(after)) // 2
    parts = [_header(entries, 0x80, 0xDE), _run(envelope), game_view_bytes(reply.game)]
    if after:
        parts.append(_run(after))
    return b"".join(parts)
