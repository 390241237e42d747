"""The view a player is sent: typed from the engine to the wire, and the wire as it was.

golden_views.json holds the maps the server sent before the view was typed
(its ``LiveGame.view`` then, a dict the engine built and the server changed),
for every variant: a numbered and a keyed deal, at the deal, after a few
actions and after forty (undos among them), with the key hidden, shown by its
time, opened, and a state the server set (``timeout``). The typed view of the
same game must encode to the very same map, key order included, and so to the
same bytes; and read back from it, be the same value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from server.games.live import LiveGame
from shared import protocol as p
from shared.games import new_game

GOLDEN = json.loads((Path(__file__).parent / "golden_views.json").read_text(encoding="utf-8"))


def _game(example: dict[str, Any]) -> LiveGame:
    deal = example["deal"]
    if "seed" in deal:
        game = new_game(example["variant"], seed=deal["seed"])
    else:
        game = new_game(example["variant"], key=bytes.fromhex(deal["key"]))
    for action in example["actions"]:
        game.play(action)
    return LiveGame(id=example["view"]["id"], owner=1, game=game, **example["settings"])


def _shape(value: Any) -> Any:
    """A map's keys in order, all the way down (equal maps may differ in order)."""
    if isinstance(value, dict):
        return [(key, _shape(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return value


def test_the_examples_cover_every_variant_and_every_way_a_deal_shows() -> None:
    views = [example["view"] for example in GOLDEN]
    assert {view["variant"] for view in views} == {
        "freecell",
        "gypsy",
        "osmosis",
        "thumb_and_pouch",
        "westhaven",
    }
    deals = [view["deal"] for view in views]
    assert any("seed" in d for d in deals) and any("key" in d for d in deals)
    assert any("commitment" in d and "key" not in d for d in deals)
    assert {view["state"] for view in views} >= {"playing", "timeout"}


@pytest.mark.parametrize("example", GOLDEN, ids=lambda e: f"{e['view']['id']}-{e['variant']}")
def test_the_typed_view_encodes_to_the_map_the_server_always_sent(example: dict[str, Any]) -> None:
    view = _game(example).view(example["now_ms"])
    assert isinstance(view, p.GameView)
    wire = view.to_map()
    assert wire == example["view"]
    assert _shape(wire) == _shape(example["view"]), "the same keys in the same order"
    sent = p.encode(p.GameReply(game=view, re=3))
    assert sent == msgpack.packb(
        {"type": "game", "re": 3, "game": example["view"]}, use_bin_type=True
    )
    assert p.GameView.from_map(example["view"]) == view
    assert p.decode_reply(sent) == p.GameReply(game=view, re=3)


def test_a_game_keeps_the_bytes_of_its_own_piles() -> None:
    """Each game in memory holds its piles as last packed, handed to every view of it (the
    frame packs only the piles that changed); another game holds its own; the frames are the
    views' packed maps all along."""
    first = LiveGame(id="g1", owner=1, game=new_game("freecell", seed=617), started_ms=0)
    second = LiveGame(id="g2", owner=1, game=new_game("freecell", seed=617), started_ms=0)
    kept = first.view(0).packed_piles
    assert kept is not None and first.view(5).packed_piles is kept
    assert second.view(0).packed_piles not in (None, kept)
    for live in (first, second, first):
        for _ in range(4):
            view = live.view(10)
            sent = p.encode(p.GameReply(game=view, re=1))
            assert sent == msgpack.packb({"type": "game", "re": 1, "game": view.to_map()})
            live.game.play(live.game.legal_moves()[0])
