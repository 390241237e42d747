"""The board's layout comes from the server's VariantInfo, for any variant it plays."""

from __future__ import annotations

from client.layout import GAP, Layout, layout_from
from shared.games import new_game
from shared.protocol import VariantInfo
from shared.variants import STANDARD


def pile_ids(variant: str) -> list[str]:
    return [pile["id"] for pile in new_game(variant, seed=1).view()["piles"]]


def info_of(variant: str) -> VariantInfo:
    """The VariantInfo a client reads from welcome."""
    return VariantInfo.from_map(STANDARD.get(variant).info())


def test_each_variant_is_drawn_as_its_variant_info_declares() -> None:
    freecell = layout_from(info_of("freecell"), pile_ids("freecell"))
    assert freecell == Layout(
        rows=(
            ("r0", "r1", "r2", "r3", GAP, "f0", "f1", "f2", "f3"),
            tuple(f"t{i}" for i in range(8)),
        ),
        fanned_right=frozenset(),
        squared=frozenset(["r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3"]),
    )
    osmosis = layout_from(info_of("osmosis"), pile_ids("osmosis"))
    assert osmosis.rows == (("s", "w"), ("r0", "f0"), ("r1", "f1"), ("r2", "f2"), ("r3", "f3"))
    assert osmosis.fanned_right == {"r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3"}
    assert osmosis.squared == {"s", "w"}
    for cls in STANDARD:
        layout = layout_from(info_of(cls.id), pile_ids(cls.id))
        drawn = [pid for row in layout.rows for pid in row if pid != GAP]
        assert sorted(drawn) == sorted(pile_ids(cls.id)), cls.id


def test_a_variant_the_client_never_heard_of_is_drawn_from_its_info() -> None:
    info = VariantInfo.from_map({
        "id": "toy",
        "name": "Toy",
        "options": {},
        "max_score": 52,
        "layout": {
            "rows": [["s", "", "f0"], ["t0", "t1"]],
            "fan": {"s": "stack", "f0": "stack", "t0": "down", "t1": "down"},
        },
    })  # fmt: skip
    layout = layout_from(info, ["s", "f0", "t0", "t1"])
    assert layout.rows == (("s", GAP, "f0"), ("t0", "t1"))
    assert layout.squared == {"s", "f0"} and not layout.fanned_right


def test_piles_the_info_does_not_place_still_show_in_a_row_of_their_own() -> None:
    # an older server (no layout), and a layout naming a pile the view lacks
    bare = {"id": "toy", "name": "Toy", "options": {}, "max_score": 52}
    assert layout_from(VariantInfo.from_map(bare), ["s", "t0"]).rows == (("s", "t0"),)
    info = VariantInfo.from_map(bare | {"layout": {"rows": [["t0", "t9"]], "fan": {"t0": "down"}}})
    layout = layout_from(info, ["t0", "s"])
    assert layout.rows == (("t0",), ("s",))
    assert layout.squared == {"s"}


def test_a_layouts_width_is_its_widest_row_on_screen() -> None:
    # Freecell: four cells, a gap, four foundations (9 columns of piles: 8 * 6 + 4), or eight
    # tableau piles (48); Westhaven's ten tableau piles are wider (60); plus the padding.
    assert layout_from(info_of("freecell"), pile_ids("freecell")).width == 52 + 2
    assert layout_from(info_of("westhaven"), pile_ids("westhaven")).width == 60 + 2
