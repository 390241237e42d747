"""What a player sees of a game: its deal, its piles, and the GameView that carries them.

A deal is numbered (its seed: anyone who knows the number knows the cards)
or keyed (docs/rules.md, "Keyed deals"): then the view carries its commitment
from the start and its key only once the server has revealed it. Face-down
cards are counts. Nothing in a view lets a client work out a face-down card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from shared.board_view import BoardView, PileView
from shared.cards import parse_card
from shared.errors import InvalidNotation
from shared.notation import MAX_ACTION_LENGTH, parse_pile
from shared.protocol.envelope import (
    MAX_ID_LENGTH,
    MAX_PLY,
    MAX_SEED,
    Part,
    hex_digest,
    invalid,
    nested,
    nested_list,
    nullable,
    option_map,
    present,
    req_choice,
    req_count,
    req_int,
    req_str,
    req_strs,
)
from shared.protocol.frames import PackedPiles
from shared.states import GAME_STATES, PLAYING, RESIGNED, STUCK, TIMEOUT, WON

#: cards in one pile at most: two decks
MAX_PILE = 104


@dataclass(frozen=True, slots=True)
class DealView(Part):
    """``{"seed": n}``, ``{"commitment": c}`` or ``{"commitment": c, "key": k}``.

    Exactly one of ``seed`` and ``commitment``; ``key`` only with a commitment,
    once the deal is revealed. Hex is read in either case, kept in lower case.
    """

    seed: int | None = None
    commitment: str | None = None
    key: str | None = None

    def to_map(self) -> dict[str, Any]:
        if self.seed is not None:
            return {"seed": self.seed}
        return present({"commitment": self.commitment}, key=self.key)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        if "seed" in m:
            if "commitment" in m or "key" in m:
                raise invalid("seed", "names a numbered deal: no 'commitment' or 'key' beside it")
            return cls(seed=req_int(m, "seed", 1, MAX_SEED))
        if "commitment" not in m:
            raise invalid("commitment", "is missing (a deal is a 'seed' or a 'commitment')")
        key = hex_digest(m, "key") if "key" in m else None
        return cls(commitment=hex_digest(m, "commitment"), key=key)

    @property
    def keyed(self) -> bool:
        return self.seed is None


def pile_to_map(pile: PileView) -> dict[str, Any]:
    """A pile as the wire carries it (GameView's own piles are written inline, the same)."""
    return {"id": pile.id, "down": pile.down, "up": list(pile.up)}


def pile_from_map(m: Mapping[str, Any]) -> PileView:
    """A pile of a GameView (:class:`shared.board_view.PileView`), every field checked."""
    pile = req_str(m, "id", 3)
    try:
        parse_pile(pile)
    except InvalidNotation as exc:
        raise invalid("id", str(exc)) from None
    up = req_strs(m, "up", 2)
    for card in up:
        try:
            parse_card(card)
        except InvalidNotation as exc:
            raise invalid("up", str(exc)) from None
    return PileView(id=pile, down=req_int(m, "down", 0, MAX_PILE), up=up)


@dataclass(frozen=True, slots=True)
class GameView(Part):
    """A game as its player sees it: face-down cards are counts, never cards.

    The engine's view of the board (:class:`shared.board_view.BoardView`,
    from :meth:`shared.game.Game.board`) and what the server adds: the game's
    id, its deal as shown now, the hints answered and the time played. The
    server builds it from typed values and :meth:`to_map` writes the wire's
    map once; a client's view comes from :meth:`from_map`, every field checked.
    The board's fields read as the view's own (``view.ply``, ``view.piles``).
    ``packed_piles``, when given, is the game's own :class:`PackedPiles` (the
    server's game in memory holds one): the ``game`` frame reuses the bytes of
    the piles that did not change since the game's last frame. It is not part
    of the view: views compare, print and travel without it.
    """

    id: str
    board: BoardView
    deal: DealView
    hints: int
    elapsed_ms: int
    packed_piles: PackedPiles | None = field(default=None, compare=False, repr=False)

    def to_map(self) -> dict[str, Any]:
        # The wire's order of keys, as the server has always sent them.
        board = self.board
        return {
            "variant": board.variant,
            "deal": self.deal.to_map(),
            "options": dict(board.options),
            "ply": board.ply,
            "moves": board.moves,
            "undos": board.undos,
            "score": board.score,
            "max_score": board.max_score,
            "state": board.state,
            "redeals_left": board.redeals_left,
            "piles": [{"id": i, "down": d, "up": list(u)} for i, d, u in board.piles],
            "legal": list(board.legal),
            "id": self.id,
            "hints": self.hints,
            "elapsed_ms": self.elapsed_ms,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        game_id = req_str(m, "id", MAX_ID_LENGTH)
        variant = req_str(m, "variant", MAX_ID_LENGTH)
        deal = nested(m, "deal", DealView.from_map)
        options = option_map(m, required=True)
        ply, moves, undos, hints = (
            req_int(m, n, 0, MAX_PLY) for n in ("ply", "moves", "undos", "hints")
        )
        score, max_score, elapsed_ms = (
            req_count(m, n) for n in ("score", "max_score", "elapsed_ms")
        )
        state = req_choice(m, "state", GAME_STATES)
        redeals_left = nullable(m, "redeals_left", req_count)
        piles = nested_list(m, "piles", pile_from_map)
        legal = req_strs(m, "legal", MAX_ACTION_LENGTH)
        board = BoardView(
            variant, options, ply, moves, undos, score, max_score, state, redeals_left, piles, legal
        )
        return cls(id=game_id, board=board, deal=deal, hints=hints, elapsed_ms=elapsed_ms)

    @property
    def variant(self) -> str:
        return self.board.variant

    @property
    def seed(self) -> int | None:
        """The number of a numbered deal; None for a keyed deal."""
        return self.deal.seed

    @property
    def options(self) -> Mapping[str, bool | int]:
        return self.board.options

    @property
    def ply(self) -> int:
        """Actions played so far: moves, deals, undos."""
        return self.board.ply

    @property
    def moves(self) -> int:
        return self.board.moves

    @property
    def undos(self) -> int:
        return self.board.undos

    @property
    def score(self) -> int:
        return self.board.score

    @property
    def max_score(self) -> int:
        return self.board.max_score

    @property
    def state(self) -> str:
        return self.board.state

    @property
    def redeals_left(self) -> int | None:
        """None only when unlimited."""
        return self.board.redeals_left

    @property
    def piles(self) -> tuple[PileView, ...]:
        """The piles the game has, in layout order."""
        return self.board.piles

    @property
    def legal(self) -> tuple[str, ...]:
        """Every legal action now, canonical notation."""
        return self.board.legal

    def pile(self, pile_id: str) -> PileView | None:
        return self.board.pile(pile_id)

    @property
    def foundation_cards(self) -> int:
        return self.board.foundation_cards


@dataclass(frozen=True, slots=True)
class DailyInfo(Part):
    """Which day's challenge a ``game`` reply to ``daily`` is (UTC, ``YYYY-MM-DD``)."""

    date: str

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(date=req_str(m, "date", 10))


# fmt: off
__all__ = [
    "GAME_STATES", "MAX_PILE", "PLAYING", "RESIGNED", "STUCK", "TIMEOUT", "WON",
    "DailyInfo", "DealView", "GameView", "PileView", "pile_from_map", "pile_to_map",
]
# fmt: on
