"""What a player sees of a game: its deal, its piles, and the GameView that carries them.

A deal is numbered (its seed: anyone who knows the number knows the cards)
or keyed (docs/rules.md, "Keyed deals"): then the view carries its commitment
from the start and its key only once the server has revealed it. Face-down
cards are counts. Nothing in a view lets a client work out a face-down card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self, cast

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

    @classmethod
    def of(cls, m: Mapping[str, Any]) -> Self:
        """The deal of a map the server built itself: not checked."""
        return cls(seed=m.get("seed"), commitment=m.get("commitment"), key=m.get("key"))

    @property
    def keyed(self) -> bool:
        return self.seed is None


@dataclass(frozen=True, slots=True)
class PileView(Part):
    """One pile: how many cards lie face down, and the face-up cards bottom to top."""

    id: str
    down: int
    up: tuple[str, ...]

    def to_map(self) -> dict[str, Any]:
        return {"id": self.id, "down": self.down, "up": list(self.up)}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
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
        return cls(id=pile, down=req_int(m, "down", 0, MAX_PILE), up=up)

    @property
    def count(self) -> int:
        return self.down + len(self.up)


@dataclass(frozen=True, slots=True)
class GameView(Part):
    """A game as its player sees it: face-down cards are counts, never cards.

    The view keeps the map the wire carries and reads its typed fields from
    it. The server wraps the view map it builds as it is (:meth:`of`: no
    copy, no check), because building typed piles for every move costs it a
    measurable share of its time per move (docs/protocol.md, "Message
    classes"); a client's view comes from :meth:`from_map`, every field
    checked.
    """

    wire: Mapping[str, Any]

    def to_map(self) -> dict[str, Any]:
        return dict(self.wire)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        req_str(m, "id", MAX_ID_LENGTH)
        req_str(m, "variant", MAX_ID_LENGTH)
        nested(m, "deal", DealView.from_map)
        option_map(m, required=True)
        for name in ("ply", "moves", "undos", "hints"):
            req_int(m, name, 0, MAX_PLY)
        for name in ("score", "max_score", "elapsed_ms"):
            req_count(m, name)
        req_choice(m, "state", GAME_STATES)
        nullable(m, "redeals_left", req_count)
        nested_list(m, "piles", PileView.from_map)
        req_strs(m, "legal", MAX_ACTION_LENGTH)
        return cls(m)

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Self:
        """The view over a map the server built itself: not checked."""
        return cls(view)

    @property
    def id(self) -> str:
        return cast(str, self.wire["id"])

    @property
    def variant(self) -> str:
        return cast(str, self.wire["variant"])

    @property
    def deal(self) -> DealView:
        return DealView.of(self.wire["deal"])

    @property
    def seed(self) -> int | None:
        """The number of a numbered deal; None for a keyed deal."""
        return self.deal.seed

    @property
    def options(self) -> Mapping[str, bool | int]:
        return cast(Mapping[str, bool | int], self.wire["options"])

    @property
    def ply(self) -> int:
        """Actions played so far: moves, deals, undos."""
        return cast(int, self.wire["ply"])

    @property
    def moves(self) -> int:
        return cast(int, self.wire["moves"])

    @property
    def undos(self) -> int:
        return cast(int, self.wire["undos"])

    @property
    def hints(self) -> int:
        """Hints that answered a move in this game."""
        return cast(int, self.wire["hints"])

    @property
    def score(self) -> int:
        return cast(int, self.wire["score"])

    @property
    def max_score(self) -> int:
        return cast(int, self.wire["max_score"])

    @property
    def state(self) -> str:
        return cast(str, self.wire["state"])

    @property
    def redeals_left(self) -> int | None:
        """None only when unlimited."""
        return cast(int | None, self.wire["redeals_left"])

    @property
    def piles(self) -> tuple[PileView, ...]:
        """The piles the game has, in layout order."""
        return tuple(PileView(p["id"], p["down"], tuple(p["up"])) for p in self.wire["piles"])

    @property
    def legal(self) -> tuple[str, ...]:
        """Every legal action now, canonical notation."""
        return tuple(self.wire["legal"])

    @property
    def elapsed_ms(self) -> int:
        return cast(int, self.wire["elapsed_ms"])

    def pile(self, pile_id: str) -> PileView | None:
        return next((p for p in self.piles if p.id == pile_id), None)

    @property
    def foundation_cards(self) -> int:
        return sum(len(p.up) for p in self.piles if p.id.startswith("f"))


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
    "DailyInfo", "DealView", "GameView", "PileView",
]
# fmt: on
