"""The ``game`` frame written from the typed view is byte for byte the packed ``to_map()``."""

from __future__ import annotations

import random

import msgpack
from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from shared.games import new_game
from shared.notation import parse_action
from shared.protocol.frames import PackedPiles, game_reply_frame
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
    """Random play in every variant, undos among the moves: the piles the engine hands out
    again (the same objects) come from the game's kept bytes, the changed ones are packed
    anew, and a view without kept bytes packs them all: the same bytes each way."""
    rng = random.Random(5)
    for variant in ("freecell", "osmosis", "thumb_and_pouch", "westhaven", "gypsy"):
        game = new_game(variant, seed=rng.randint(1, 10_000))
        kept = PackedPiles()
        for ply in range(80):
            board = game.board()
            view = p.GameView("g1", board, p.DealView(seed=7), ply % 3, ply * 1000, kept)
            reply = p.GameReply(game=view, re=ply)
            assert game_reply_frame(reply) == packed_map(reply)
            bare = p.GameReply(
                game=p.GameView("g1", board, p.DealView(seed=7), ply % 3, ply * 1000), re=ply
            )
            assert game_reply_frame(bare) == game_reply_frame(reply)
            if not board.legal:
                break
            if ply % 7 == 6:
                game.undo()
            else:
                game.play(parse_action(rng.choice(board.legal)))


def test_kept_piles_are_reused_by_identity_and_never_confused() -> None:
    """A game's piles as last packed: the same pile object again is not packed again; a pile
    made anew with other cards (or the same) is; another count of piles packs them all."""
    kept = PackedPiles()
    piles = tuple(p.PileView(f"t{i}", i, ("AS",)) for i in range(5))

    def expected(piles: tuple[p.PileView, ...]) -> bytes:
        packed: bytes = msgpack.packb(
            [{"id": pile.id, "down": pile.down, "up": list(pile.up)} for pile in piles]
        )
        return packed

    assert kept.of(piles) == expected(piles)
    again = (p.PileView("t0", 0, ("KH",)), *piles[1:])
    assert kept.of(again) == expected(again)
    assert kept._packed[1] is not None and kept._piles[1] is piles[1]
    fewer = (p.PileView("t0", 0, ("QD",)),)
    assert kept.of(fewer) == expected(fewer)
    assert kept.of(piles) == expected(piles)


def test_a_pile_kept_is_reused_not_packed_again() -> None:
    """The point of keeping them: a pile handed out again costs no packing."""
    kept = PackedPiles()
    piles = tuple(p.PileView(f"t{i}", 0, ("AS", "2H")) for i in range(8))
    kept.of(piles)
    first = list(kept._packed)
    changed = (*piles[:3], p.PileView("t3", 0, ("AS",)), *piles[4:])
    kept.of(changed)
    same = [new is old for new, old in zip(kept._packed, first, strict=True)]
    assert same == [True, True, True, False, True, True, True, True]


def test_a_view_carries_its_packed_piles_but_compares_without_them() -> None:
    game = new_game("freecell", seed=617)
    board = game.board()
    view = p.GameView("g1", board, p.DealView(seed=617), 0, 0, PackedPiles())
    assert view == p.GameView("g1", board, p.DealView(seed=617), 0, 0)
    assert "packed" not in repr(view)
