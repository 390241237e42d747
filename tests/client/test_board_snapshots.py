"""The board of every variant at a fixed seed and terminal size, against stored screenshots.

Regenerate after an intended change of the look with ``pytest --snapshot-update``
and review the SVGs in ``__snapshots__``.
"""

from __future__ import annotations

from typing import Any

import pytest

from client.race import RaceState
from client.screens.race import RacePanel
from shared.protocol import Progress, RaceStarted, RoomPlayer, RoomReply, RoomView
from shared.variants import STANDARD
from tests.client.board_app import BoardApp, engine_view

SIZE = (100, 32)
SEED = 617


@pytest.mark.parametrize("variant", sorted(STANDARD.ids))
def test_board_of_each_variant_as_dealt(variant: str, snap_compare: Any) -> None:
    assert snap_compare(BoardApp(engine_view(variant, SEED)), terminal_size=SIZE)


def test_freecell_board_with_a_picked_source_highlights_legal_destinations(
    snap_compare: Any,
) -> None:
    # Microsoft deal 617: t1's top card is picked; its legal destinations light up.
    assert snap_compare(BoardApp(engine_view("freecell", SEED)), press=["2"], terminal_size=SIZE)


def test_thumb_and_pouch_board_after_some_deals(snap_compare: Any) -> None:
    view = engine_view("thumb_and_pouch", SEED, ("deal", "deal", "deal"))
    assert snap_compare(BoardApp(view), terminal_size=SIZE)


def test_race_board_with_the_progress_panel(snap_compare: Any) -> None:
    view = engine_view("westhaven", SEED, ("deal",))
    race = RaceState(lambda: 0.0)
    players = (
        RoomPlayer(1, "alice", connected=True, game=None),
        RoomPlayer(2, "bob", connected=True, game=None),
        RoomPlayer(3, "carol", connected=False, game=None),
    )
    room = RoomView(
        code="K7QF2M", variant="westhaven", options={}, host=1, players=players,
        state="racing", max_players=8, time_limit_s=1800, race=1,
    )  # fmt: skip
    race.apply(RoomReply(room=room))
    race.apply(RaceStarted(code="K7QF2M", game=view))
    race.apply(
        Progress(code="K7QF2M", player=2, ply=9, foundation=3, score=3, state="playing")
    )
    panel = RacePanel(race, 1, lambda: view, lambda variant: STANDARD.get(variant).name)
    assert snap_compare(BoardApp(view, side=panel), terminal_size=(100, 32))
