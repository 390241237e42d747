"""A variant's declarations are checked as its class is made, and carry every pile's name.

A pile id the notation cannot name (a tenth column ``t10``, a fifth reserve
``r4``) would otherwise fail only at the protocol's edge, in the middle of a
game; here it stops the class from being made, with :class:`InvalidVariant`.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from shared.errors import InvalidVariant
from shared.position import Position
from shared.variants import STANDARD
from shared.variants.base import Rules
from shared.variants.layout import PILE_WORDS, Layout, pile_display_names


def make_variant(pile_ids: tuple[str, ...], words: Mapping[str, str] | None = None) -> type[Rules]:
    """A variant class of ``pile_ids``, all drawn in one row (made, or refused, at once)."""
    attributes: dict[str, object] = {
        "id": "made",
        "name": "Made",
        "max_score": 52,
        "pile_ids": pile_ids,
        "layout": Layout.of(pile_ids),
        "lay_out": lambda self, order: Position([[] for _ in pile_ids], [0] * len(pile_ids)),
        "legal": lambda self, pos: [],
        "why_illegal": lambda self, pos, move: None,
    }
    if words is not None:
        attributes["pile_words"] = words
    return type("Made", (Rules,), attributes)


def test_a_pile_the_notation_names_makes_a_variant() -> None:
    made = make_variant(("s", "w", "f7", "t9", "r3"))
    assert made.pile_names() == {
        "s": "stock",
        "w": "waste",
        "f7": "foundation 8",
        "t9": "tableau 10",
        "r3": "reserve 4",
    }
    assert made().legal(made().lay_out([])) == []


@pytest.mark.parametrize("pile", ["t10", "r4", "f8", "x", "T0", "t", "s0", "t01", ""])
def test_a_pile_the_notation_cannot_name_is_refused_as_the_class_is_made(pile: str) -> None:
    with pytest.raises(InvalidVariant, match=f"declares the pile {pile!r}") as refused:
        make_variant(("f0", "t0", pile))
    assert "is not a pile id" in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_a_pile_declared_twice_is_refused() -> None:
    with pytest.raises(InvalidVariant, match=r"declares the piles \['t0'\] more than once"):
        make_variant(("f0", "t0", "t0"))


@pytest.mark.parametrize("words", [{"x": "pocket"}, {"r": ""}, {"t": 3}])
def test_pile_words_name_kinds_of_pile_with_words(words: Mapping[str, str]) -> None:
    with pytest.raises(InvalidVariant, match="pile_words maps a kind of pile"):
        make_variant(("f0", "t0", "r0"), words)


def test_a_variant_calls_a_kind_of_pile_its_own_way() -> None:
    made = make_variant(("r0", "r1", "f0", "t0"), {"r": "pocket"})
    assert made.pile_names() == {
        "r0": "pocket 1",
        "r1": "pocket 2",
        "f0": "foundation 1",
        "t0": "tableau 1",
    }
    assert made.info()["pile_names"] == made.pile_names()
    with pytest.raises(TypeError):
        made.pile_words["r"] = "cell"  # type: ignore[index]  # frozen with the class


def test_every_pile_of_the_five_has_a_name_and_freecell_has_free_cells() -> None:
    for cls in STANDARD:
        names = cls.info()["pile_names"]
        assert list(names) == list(cls.pile_ids)
        assert all(
            name.split()[0] in PILE_WORDS.values() or name.startswith("free cell")
            for name in names.values()
        )
    freecell = STANDARD.get("freecell").info()["pile_names"]
    assert [freecell[f"r{i}"] for i in range(4)] == [f"free cell {i}" for i in range(1, 5)]
    osmosis = STANDARD.get("osmosis").info()["pile_names"]
    assert osmosis["r0"] == "reserve 1" and osmosis["s"] == "stock" and osmosis["w"] == "waste"


def test_one_variant_is_offered_first_for_races() -> None:
    offered = [cls.id for cls in STANDARD if cls.info().get("race_default")]
    assert offered == ["freecell"]
    assert "race_default" not in STANDARD.get("gypsy").info()  # sent only when true


def test_display_names_count_from_one() -> None:
    assert pile_display_names(("t0", "f3", "s")) == {
        "t0": "tableau 1",
        "f3": "foundation 4",
        "s": "stock",
    }
