"""The registry of variants: lookups, order, VariantInfo, and what it refuses."""

from __future__ import annotations

import pickle

import pytest

from shared.errors import InvalidOptions
from shared.variants import STANDARD, Variants
from shared.variants.freecell import FreecellRules
from shared.variants.osmosis import OsmosisRules


def test_the_five_in_the_order_players_see_them() -> None:
    assert STANDARD.ids == ("osmosis", "thumb_and_pouch", "gypsy", "freecell", "westhaven")
    assert [cls.id for cls in STANDARD] == list(STANDARD.ids) and len(STANDARD) == 5
    assert STANDARD.get("freecell") is FreecellRules and "freecell" in STANDARD
    assert "klondike" not in STANDARD and 3 not in STANDARD
    rules = STANDARD.rules("osmosis", {"deal_three": True})
    assert isinstance(rules, OsmosisRules) and rules.options == {"deal_three": True}


def test_an_unknown_id_is_an_invalid_option_never_a_key_error() -> None:
    for variant in ("klondike", "", None, 3):
        with pytest.raises(InvalidOptions, match="unknown variant"):
            STANDARD.get(variant)


def test_variant_info_is_what_welcome_sends() -> None:
    info = STANDARD.info()
    assert [v["id"] for v in info] == list(STANDARD.ids)
    freecell = info[3]
    assert freecell["name"] == "Freecell" and freecell["options"] == {"autoplay": True}
    assert freecell["max_score"] == 52
    assert freecell["layout"]["rows"][0] == ["r0", "r1", "r2", "r3", "", "f0", "f1", "f2", "f3"]
    for entry, cls in zip(info, STANDARD, strict=True):
        drawn = [pid for row in entry["layout"]["rows"] for pid in row if pid]
        assert sorted(drawn) == sorted(cls.pile_ids) == sorted(entry["layout"]["fan"])


def test_a_registry_refuses_two_variants_with_one_id_and_what_is_not_a_variant() -> None:
    with pytest.raises(ValueError, match="two variants have the id 'freecell'"):
        Variants((FreecellRules, FreecellRules))
    with pytest.raises(TypeError):
        Variants((dict,))  # type: ignore[arg-type]


def test_a_registry_travels_to_a_worker_process_by_name() -> None:
    again = pickle.loads(pickle.dumps(STANDARD))
    assert again.ids == STANDARD.ids and again.get("gypsy") is STANDARD.get("gypsy")
