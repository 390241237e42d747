"""The ``game`` frame written from the typed view is byte for byte the packed ``to_map()``."""

from __future__ import annotations

import random

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from shared.games import new_game
from shared.notation import parse_action
from shared.protocol.frames import _PileBytes, game_reply_frame
from tests.shared.protocol.strategies import CODES, GAME_VIEWS, IDS, PLAYER_IDS


def packed_map(message: p.Message) -> bytes:
    """What ``encode`` made before the frame was written by hand."""
    data: bytes = msgpack.packb(message.to_map(), use_bin_type=True)
    return data


@given(
    st.builds(
        p.GameReply,
        game=GAME_VIEWS,
        daily=st.none() | st.builds(p.DailyInfo, date=st.just("2026-12-05")),
        code=st.none() | CODES,
        player=st.none() | PLAYER_IDS,
        re=IDS,
    )
)
def test_any_game_reply_is_its_packed_map(reply: p.GameReply) -> None:
    assert p.encode(reply) == packed_map(reply)
    assert p.decode_reply(p.encode(reply)) == reply


def test_the_replies_of_real_play_are_their_packed_maps() -> None:
    """Random play in every variant: the piles the engine hands out again (the same objects)
    come from the kept bytes, the changed ones are packed anew."""
    rng = random.Random(5)
    for variant in ("freecell", "osmosis", "thumb_and_pouch", "westhaven", "gypsy"):
        game = new_game(variant, seed=rng.randint(1, 10_000))
        for ply in range(60):
            board = game.board()
            view = p.GameView("g1", board, p.DealView(seed=7), ply % 3, ply * 1000)
            reply = p.GameReply(game=view, re=ply)
            assert game_reply_frame(reply) == packed_map(reply)
            if not board.legal:
                break
            game.play(parse_action(rng.choice(board.legal)))


def test_kept_piles_are_bounded_and_never_confused() -> None:
    """Past its limit the oldest pile goes; a pile made anew with the same cards is packed
    anew (kept by identity, each entry holding its pile so that no id is reused)."""
    kept = _PileBytes(limit=3)
    piles = tuple(p.PileView(f"t{i}", i, ("AS",)) for i in range(5))
    expected = msgpack.packb(
        [{"id": pile.id, "down": pile.down, "up": list(pile.up)} for pile in piles]
    )
    assert kept.of(piles) == expected
    assert len(kept._kept) == 3
    assert kept.of(piles) == expected
    other = (p.PileView("t0", 0, ("KH",)),)
    assert kept.of(other) == msgpack.packb([{"id": "t0", "down": 0, "up": ["KH"]}])
