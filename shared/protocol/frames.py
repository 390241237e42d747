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
- a pile's bytes are kept (:class:`_PileBytes`) and reused while the engine
  hands out the same :class:`~shared.board_view.PileView` object, which it
  makes again only when the pile changed (two or so per move), so a move
  packs two piles instead of sixteen.

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

#: piles whose bytes are kept; past this the oldest go first (a pile still shown is packed
#: again when it next appears: only a cost, never a wrong byte)
MAX_PILES = 20_000


def _run(items: list[Any]) -> bytes:
    """The items' bytes one after the other: their list packed, without its array header."""
    packed: bytes = _pack(items)
    return packed[1:] if len(items) < 16 else packed[3:]


def _header(count: int, small: int, large: int) -> bytes:
    """A map's (``small`` 0x80, ``large`` 0xde) or array's (0x90, 0xdc) header."""
    if count < 16:
        return bytes((small | count,))
    return bytes((large, count >> 8, count & 0xFF))


class _PileBytes:
    """Each pile's packed map, by the identity of its :class:`PileView`.

    The entry holds the pile itself, so the ``id`` it is keyed by cannot be
    reused by another object while the entry lives: a hit is always the same
    pile, whose fields a named tuple never changes.
    """

    def __init__(self, limit: int = MAX_PILES) -> None:
        self.limit = limit
        self._kept: dict[int, tuple[PileView, bytes]] = {}

    def of(self, piles: tuple[PileView, ...]) -> bytes:
        """The ``piles`` array, header and items."""
        kept = self._kept
        parts = [_header(len(piles), 0x90, 0xDC)]
        for pile in piles:
            entry = kept.get(id(pile))
            if entry is None or entry[0] is not pile:
                entry = (pile, _pack({"id": pile.id, "down": pile.down, "up": pile.up}))
                if len(kept) >= self.limit:
                    del kept[next(iter(kept))]
                kept[id(pile)] = entry
            parts.append(entry[1])
        return b"".join(parts)


_PILES = _PileBytes()


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
    return b"".join((b"\x8f", head, _PILES.of(board.piles), tail))


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
