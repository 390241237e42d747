"""A variant's layout for clients: built from rows, checked against the variant's piles."""

from __future__ import annotations

import pytest

from shared.variants.layout import GAP, Layout


def test_rows_and_fans() -> None:
    layout = Layout.of(("s", GAP, "f0"), ("t0", "t1"), down=("t0", "t1"))
    assert layout.info() == {
        "rows": [["s", "", "f0"], ["t0", "t1"]],
        "fan": {"s": "stack", "f0": "stack", "t0": "down", "t1": "down"},
    }
    layout.check(("s", "f0", "t0", "t1"))


def test_a_layout_must_draw_every_pile_once() -> None:
    layout = Layout.of(("s", "f0"), ("t0",))
    with pytest.raises(ValueError, match="the layout draws"):
        layout.check(("s", "f0", "t0", "t1"))
    with pytest.raises(ValueError, match="the layout draws"):
        Layout.of(("s", "s"), ("t0",)).check(("s", "t0"))
    with pytest.raises(ValueError, match="one fan"):
        Layout((("s",),), {"s": "sideways"}).check(("s",))


def test_a_variant_whose_layout_leaves_out_a_pile_is_refused_as_its_class_is_made() -> None:
    from shared.position import Position
    from shared.variants.base import InternalMove, Rules

    with pytest.raises(ValueError, match="the layout draws"):

        class Lopsided(Rules):
            id = "lopsided"
            name = "Lopsided"
            max_score = 52
            pile_ids = ("f0", "t0", "t1")
            layout = Layout.of(("f0",), ("t0",))

            def deal(self, seed: int) -> Position:
                raise NotImplementedError

            def legal(self, pos: Position) -> list[InternalMove]:
                raise NotImplementedError

            def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
                raise NotImplementedError
