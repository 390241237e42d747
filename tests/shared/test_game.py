"""The Game class on Freecell positions: its state machine, undo, auto, the shorthand, refusals,
records and the shape of its view.

The rules of Freecell itself are tested in variants/test_freecell.py; here
Freecell is only the board on which the game's own behaviour shows.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.errors import IllegalMove, InvalidNotation
from shared.game import Game
from shared.games import new_game, replay
from shared.record import from_text, to_text
from shared.variants.freecell import FreecellRules
from tests.shared.positions import CONFIGS

AUTOPLAY = FreecellRules({"autoplay": True})
MANUAL = FreecellRules({"autoplay": False})

# All 52 cards; three free cells full and every top card black, so that nothing can go onto a
# tableau pile. The only moves fill r3. Moving t0's 3C uncovers AC; moving anything else fills the
# last cell and leaves no move at all: stuck.
ONE_MOVE_FROM_STUCK = """
r0: KC
r1: KS
r2: QC
t0: 2C 2D 3D 4D 5D AC 3C
t1: AS 6D 7D 8D 4C 5C
t2: AD 9D TD JD 6C 7C
t3: AH QD KD 2H 8C 9C
t4: 3H 4H 5H 6H TC JC
t5: 7H 8H 9H 2S 3S 4S
t6: TH JH QH 5S 6S 7S
t7: KH 8S 9S TS JS QS
"""
ONE_MOVE_FROM_STUCK_LEGAL = [
    "r0>r3", "r1>r3", "r2>r3",
    "t0>r3", "t1>r3", "t2>r3", "t3>r3", "t4>r3", "t5>r3", "t6>r3", "t7>r3",
]  # fmt: skip


def _full_suit(fid: str, suit: str, top: str = "K") -> str:
    ranks = "A23456789TJQK"
    return f"{fid}: " + " ".join(r + suit for r in ranks[: ranks.index(top) + 1])


# Every card on the foundations but KS (in t0).
ONE_MOVE_FROM_WON = "\n".join(
    [
        _full_suit("f0", "C"),
        _full_suit("f1", "D"),
        _full_suit("f2", "H"),
        _full_suit("f3", "S", "Q"),
        "t0: KS",
    ]
)
# KH in a free cell, KS in t0: any move of KS lets autoplay finish the game.
AUTOPLAY_FINISHES = "\n".join(
    [
        _full_suit("f0", "C"),
        _full_suit("f1", "D"),
        _full_suit("f2", "H", "Q"),
        _full_suit("f3", "S", "Q"),
        "r0: KH",
        "t0: KS",
    ]
)

# For auto: scanning r0..r3 then t0..t7 and restarting after each card, auto plays AD (r1) to f0,
# AH (t0) to f1, AC (t1) to f2, 2C (r0) onto AC in f2, then 2D (t2) onto AD in f0.
AUTO_POSITION = """
r0: 2C
r1: AD
t0: 5S AH
t1: 9D AC
t2: 2D
t3: 7C
"""
AFTER_AUTO = """
f0: AD 2D
f1: AH
f2: AC 2C
t0: 5S
t1: 9D
t3: 7C
"""

# For refusals: one card of each kind of obstacle.
OBSTACLES = """
r0: 9H
f0: AC
t0: 7S 6D
t1: 8C
t2: 3H
t3: KS QH JS TH 9S 8H
t4: 9C
t5: 2S
t6: 5C
t7: 4D
"""


def game_at(text: str, rules: FreecellRules = MANUAL) -> Game:
    return Game(rules, 1, position=rules.position_from_text(text))


def board(game: Game) -> str:
    """The position as position_text writes it, read back from the public view."""
    lines = []
    for pile in game.view(reveal=True)["piles"]:
        words = ["?" + c for c in pile["down"]] + pile["up"]
        if words:
            lines.append(f"{pile['id']}: {' '.join(words)}")
    return "\n".join(lines)


def same_board(text: str) -> str:
    return MANUAL.position_text(MANUAL.position_from_text(text))


def snapshot(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    return game.view(reveal=True), game.record()


def refuse(game: Game, action: str, *why: str) -> str:
    """Play ``action``, expect IllegalMove saying each of ``why``, and no change at all."""
    before = snapshot(game)
    with pytest.raises(IllegalMove) as refused:
        game.play(action)
    message = str(refused.value)
    for part in why:
        assert part in message
    assert snapshot(game) == before
    return message


# -- play / undo / resign: the state machine --------------------------------------------------


def test_a_new_game_is_playing_at_ply_zero_and_has_nothing_to_undo() -> None:
    game = game_at(ONE_MOVE_FROM_STUCK)
    assert game.state == "playing"
    assert game.legal_moves() == ONE_MOVE_FROM_STUCK_LEGAL
    assert game.ply == 0 and game.record()["actions"] == []
    before = snapshot(game)
    with pytest.raises(IllegalMove, match="nothing to undo"):
        game.undo()
    refuse(game, "undo", "nothing to undo")
    assert snapshot(game) == before


def test_play_returns_the_recorded_move_and_every_action_counts_one() -> None:
    game = game_at(ONE_MOVE_FROM_STUCK)
    assert game.play("t0>r3") == "t0>r3"
    assert game.play("undo") == "undo"
    assert game.play("t0>r3") == "t0>r3"
    view = game.view()
    assert view["ply"] == view["moves"] == 3
    assert game.record()["actions"] == ["t0>r3", "undo", "t0>r3"]


def test_undo_takes_back_the_move_with_its_autoplay() -> None:
    game = game_at(ONE_MOVE_FROM_STUCK, AUTOPLAY)
    start = game.view(reveal=True)
    game.play("t0>r3")  # uncovers AC, which autoplay sends to f0 as part of the move
    assert "f0: AC" in board(game)
    assert game.score == 1
    game.undo()
    restored = game.view(reveal=True)
    assert restored["piles"] == start["piles"]
    assert restored["score"] == 0 and restored["legal"] == ONE_MOVE_FROM_STUCK_LEGAL


def test_undo_twice_takes_back_two_moves_in_order() -> None:
    game = game_at(OBSTACLES)
    boards = [board(game)]
    for move in ["t5>r1", "t0>r2"]:
        game.play(move)
        boards.append(board(game))
    game.undo()
    assert board(game) == boards[1]
    game.undo()
    assert board(game) == boards[0]
    refuse(game, "undo", "nothing to undo")
    assert game.record()["actions"] == ["t5>r1", "t0>r2", "undo", "undo"]


def test_a_stuck_game_lists_nothing_and_takes_only_undo() -> None:
    game = game_at(ONE_MOVE_FROM_STUCK)
    game.play("t1>r3")
    assert game.state == "stuck"
    assert game.legal_moves() == []
    assert game.view()["legal"] == []
    for action in ["t0>r3", "r3>t1", "t0>f", "t0>f0", "auto", "deal"]:
        refuse(game, action, "stuck", "only undo")
    game.undo()
    assert game.state == "playing"
    assert game.legal_moves() == ONE_MOVE_FROM_STUCK_LEGAL
    assert board(game) == same_board(ONE_MOVE_FROM_STUCK)


def test_a_stuck_game_may_be_resigned() -> None:
    game = game_at(ONE_MOVE_FROM_STUCK)
    game.play("t1>r3")
    game.resign()
    assert game.state == "resigned"
    refuse(game, "undo", "resigned")


def test_a_won_game_refuses_undo_and_every_other_action() -> None:
    game = game_at(ONE_MOVE_FROM_WON)
    assert game.play("t0>f") == "t0>f3"
    assert game.state == "won"
    assert game.score == 52 and game.legal_moves() == []
    before = snapshot(game)
    with pytest.raises(IllegalMove, match="won"):
        game.undo()
    assert snapshot(game) == before
    for action in ["undo", "f3>t0", "auto", "t0>f"]:
        refuse(game, action, "won")
    with pytest.raises(IllegalMove, match="won"):
        game.resign()
    assert snapshot(game) == before


def test_a_game_won_by_autoplay_refuses_undo() -> None:
    game = game_at(AUTOPLAY_FINISHES, AUTOPLAY)
    game.play("t0>r1")  # autoplay then sends KH and KS home
    assert game.state == "won"
    assert game.record()["actions"] == ["t0>r1"]
    refuse(game, "undo", "won")


def test_resigning_ends_the_game() -> None:
    game = game_at(OBSTACLES)
    game.play("t5>r1")
    game.resign()
    view = game.view()
    assert view["state"] == "resigned" and view["legal"] == []
    assert game.record()["resigned"] is True
    for action in ["undo", "t0>r2", "auto", "t0>f"]:
        refuse(game, action, "resigned")
    with pytest.raises(IllegalMove, match="resigned"):
        game.undo()
    with pytest.raises(IllegalMove, match="resigned"):
        game.resign()
    assert game.view() == view


def test_moves_listed_before_resigning_are_not_listed_after() -> None:
    # The names of the legal moves are kept per ply; resigning ends the game at the same ply.
    game = game_at(OBSTACLES)
    assert game.legal_moves()
    game.resign()
    assert game.legal_moves() == [] and game.view()["legal"] == []


def test_the_listed_moves_are_a_copy() -> None:
    game = game_at(OBSTACLES)
    listed = game.legal_moves()
    listed.clear()
    assert game.legal_moves() and game.view()["legal"] == game.legal_moves()


# -- auto and the X>f shorthand ---------------------------------------------------------------


@pytest.mark.parametrize("rules", [MANUAL, AUTOPLAY], ids=["autoplay off", "autoplay on"])
def test_auto_is_one_recorded_action_undone_as_one(rules: FreecellRules) -> None:
    game = game_at(AUTO_POSITION, rules)
    assert "auto" not in game.legal_moves()
    assert game.play("auto") == "auto"
    assert board(game) == same_board(AFTER_AUTO)
    assert game.score == 5
    assert game.record()["actions"] == ["auto"]
    assert game.ply == 1
    game.undo()
    assert board(game) == same_board(AUTO_POSITION)
    assert game.record()["actions"] == ["auto", "undo"]


def test_auto_that_would_move_nothing_is_refused() -> None:
    # 2H can reach f1 once 8S is out of the way, so the game is playing, but not at once.
    game = game_at("f0: AD 2D\nf1: AH\nt0: 2H 8S")
    assert game.state == "playing"
    refuse(game, "auto", "would move nothing")


def test_shorthand_is_recorded_as_the_foundation_it_chose() -> None:
    game = game_at("f0: AC\nt0: 2C\nt1: AD\nt2: AH\nt3: 5H\nt4: 2H")
    assert game.play("t0>f") == "t0>f0"
    assert game.play("t1>f") == "t1>f1"  # the first empty foundation in pile order
    assert game.play("t2>f") == "t2>f2"
    assert game.record()["actions"] == ["t0>f0", "t1>f1", "t2>f2"]
    assert not any(m.endswith(">f") for m in game.legal_moves())
    refuse(game, "t3>f", "'t3>f'", "no foundation takes 5H")
    refuse(game, "t6>f", "'t6>f'", "empty")
    game.undo()
    assert board(game) == same_board("f0: AC 2C\nf1: AD\nt2: AH\nt3: 5H\nt4: 2H")


def test_shorthand_and_explicit_move_leave_the_same_game() -> None:
    short = game_at("f0: AC\nt0: 2C\nt1: AD")
    explicit = game_at("f0: AC\nt0: 2C\nt1: AD")
    short.play("t1>f")
    explicit.play("t1>f1")
    assert short.view(reveal=True) == explicit.view(reveal=True)
    assert short.record() == explicit.record()


# -- refusals say why and change nothing -------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "why"),
    [
        ("t0>t1", "6D cannot go on 8C"),
        ("t0:2>t1", "7S cannot go on 8C"),
        ("t1>r0", "free cell r0 is not empty"),
        ("t3:3>t4", "TH cannot go on 9C"),
        ("t3:6>t2", "3H"),
        ("t2>f1", "an empty foundation takes only an ace"),
        ("t7>f0", "4D cannot go on AC"),
        ("f0>t7", "out of play"),
        ("r0>r0", "onto itself"),
        ("t1:2>t2", "has only 1 cards"),
        ("deal", "no stock"),
        ("t2>f", "no foundation takes 3H"),
        ("t0:2>f", "one card at a time"),
    ],
)
def test_an_illegal_move_is_refused_with_its_reason(action: str, why: str) -> None:
    game = game_at(OBSTACLES)
    message = refuse(game, action, why)
    assert repr(action) in message


def test_a_group_over_the_move_limit_is_refused_with_the_limit() -> None:
    # r0 taken, so 3 empty free cells and no empty column: 4 cards at most; 6H..TH is 5.
    game = game_at("r0: 9H\nt0: KS QH JS TH 9S 8H 7S 6H\nt1: JC\nt2: 2C\nt3: 3C\nt4: 4C\n"
                   "t5: 5C\nt6: 6C\nt7: 7C")  # fmt: skip
    refuse(game, "t0:5>t1", "limit is 4")


def test_a_pile_the_layout_lacks_is_refused() -> None:
    game = game_at(OBSTACLES)
    refuse(game, "t9>t0", "no pile 't9'")
    refuse(game, "s>t0", "no pile 's'")


@pytest.mark.parametrize("action", ["", "t0>>t1", "t0:1>t1", "T0>T1", "t0>t1 ", "resign", "xyz"])
def test_a_string_that_is_not_an_action_is_refused_as_notation(action: str) -> None:
    game = game_at(OBSTACLES)
    before = snapshot(game)
    with pytest.raises(InvalidNotation) as refused:
        game.play(action)
    assert repr(action) in str(refused.value)
    assert snapshot(game) == before


def test_refused_actions_do_not_count_as_moves() -> None:
    game = game_at(OBSTACLES)
    for action in ["t0>t1", "auto", "undo", "deal"]:
        with pytest.raises(IllegalMove):
            game.play(action)
    assert game.ply == 0 and game.view()["moves"] == 0


# -- records -----------------------------------------------------------------------------------


def test_the_record_replays_to_the_same_game() -> None:
    game = new_game("freecell", seed=617)
    played = []
    for choice in [0, 3, 1, 5, 2, 4, 0, 7, 6]:
        legal = game.legal_moves()
        played.append(game.play(legal[choice % len(legal)]))
    played.append(game.play("undo"))
    for src in ["r0", "r1", "r2", "r3", *(f"t{i}" for i in range(8))]:
        target = next((m for m in game.legal_moves() if m.startswith(f"{src}>f")), None)
        if target is not None:
            assert game.play(f"{src}>f") == target
            played.append(target)
            break
    record = game.record()
    assert record == {
        "variant": "freecell",
        "options": {"autoplay": True},
        "seed": 617,
        "actions": played,
        "resigned": False,
    }
    again = replay(record)
    assert again.view(reveal=True) == game.view(reveal=True)
    assert again.record() == record
    assert replay(from_text(to_text(record))).view(reveal=True) == game.view(reveal=True)


def test_a_resigned_game_replays_resigned() -> None:
    game = new_game("freecell", seed=1, options={"autoplay": False})
    game.play(game.legal_moves()[0])
    game.resign()
    again = replay(game.record())
    assert again.state == "resigned"
    assert again.view(reveal=True) == game.view(reveal=True)


def test_the_record_is_a_copy() -> None:
    game = game_at(OBSTACLES)
    game.play("t5>r1")
    record = game.record()
    record["actions"].append("t0>r2")
    record["options"]["autoplay"] = True
    assert game.record()["actions"] == ["t5>r1"]
    assert game.record()["options"] == {"autoplay": False}


# -- the view ----------------------------------------------------------------------------------

GAME_VIEW_FIELDS = {
    "variant": str,
    "deal": dict,
    "options": dict,
    "ply": int,
    "moves": int,
    "undos": int,
    "score": int,
    "max_score": int,
    "state": str,
    "redeals_left": int,
    "piles": list,
    "legal": list,
}
FREECELL_PILES = ["r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3", *(f"t{i}" for i in range(8))]


def test_the_view_is_protocol_game_view_without_id_and_elapsed() -> None:
    game = new_game("freecell", seed=1)
    game.play(game.legal_moves()[0])
    view = game.view()
    assert set(view) == set(GAME_VIEW_FIELDS)
    for name, kind in GAME_VIEW_FIELDS.items():
        assert type(view[name]) is kind, name
    assert view["variant"] == "freecell" and view["deal"] == {"seed": 1}
    assert view["undos"] == 0
    assert view["options"] == {"autoplay": True}
    assert view["ply"] == view["moves"] == 1
    assert view["max_score"] == 52 and view["redeals_left"] == 0
    assert view["state"] == "playing"
    assert [p["id"] for p in view["piles"]] == FREECELL_PILES
    for pile in view["piles"]:
        assert set(pile) == {"id", "down", "up"}
        assert type(pile["down"]) is int and pile["down"] == 0
        assert all(type(card) is str and len(card) == 2 for card in pile["up"])
    assert all(type(move) is str for move in view["legal"]) and view["legal"]
    assert json.loads(json.dumps(view)) == view  # plain data, ready for the wire


def test_the_revealed_view_lists_face_down_cards_instead_of_counting_them() -> None:
    game = new_game("freecell", seed=1)
    shown, full = game.view(), game.view(reveal=True)
    assert [p["down"] for p in full["piles"]] == [[] for _ in FREECELL_PILES]
    assert {k: v for k, v in shown.items() if k != "piles"} == {
        k: v for k, v in full.items() if k != "piles"
    }
    # docs/rules.md: Microsoft game 1 starts with JD KD 2S 4C 3S 6D 6S in t0.
    assert full["piles"][8]["up"] == ["JD", "KD", "2S", "4C", "3S", "6D", "6S"]


def test_changing_a_view_does_not_change_the_game() -> None:
    game = game_at(OBSTACLES)
    view = game.view(reveal=True)
    expected = json.loads(json.dumps(view))
    view["piles"][8]["up"].append("KH")
    view["legal"].clear()
    view["options"]["autoplay"] = True
    assert game.view(reveal=True) == expected


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_undo_restores_every_earlier_position_exactly(
    variant: str, options: dict[str, Any]
) -> None:
    """The undo history shares the lists of the piles an action leaves alone with the
    position (copy on write): moves, deals, ``auto`` and autoplay must never change a list
    a snapshot holds; and undo brings back the legal moves the snapshot kept. Random play
    with undos along the way, then undo back to the deal, each position and its moves
    compared with a deep copy taken when it was on the board."""
    import random

    rng = random.Random(5)
    Kept = tuple[list[list[int]], list[int], int, list[str]]

    def copy(g: Game) -> Kept:
        p = g.position
        return ([pile[:] for pile in p.piles], p.down[:], p.redeals_used, g.legal_moves())

    for seed in range(1, 7):
        game = new_game(variant, seed=seed, options=options)
        before: list[Kept] = []
        for _ in range(120):
            if before and rng.random() < 0.15:
                game.undo()
                assert copy(game) == before.pop()
                continue
            kept = copy(game)
            if not kept[3]:
                break
            action = "auto" if rng.random() < 0.1 else rng.choice(kept[3])
            try:
                game.play(action)
            except IllegalMove:  # auto with nothing to send home: the game is unchanged
                assert action == "auto" and copy(game) == kept
                continue
            before.append(kept)
        if game.state == "won":
            continue
        while before:
            game.undo()
            assert copy(game) == before.pop()


@pytest.mark.parametrize("rules", [AUTOPLAY, MANUAL], ids=["autoplay", "manual"])
def test_a_move_taking_back_the_one_before_gives_the_state_a_fresh_game_derives(
    rules: FreecellRules,
) -> None:
    """After a move that takes back the move before it, the game reuses the legal moves of
    the position that move was played from (see Game.play): the state and the moves are
    those a fresh game on the same position derives, over random play that often takes
    moves back, with undo and auto along the way."""
    import contextlib
    import random

    rng = random.Random(11)
    taken_back = 0
    for seed in range(1, 9):
        game = Game(rules, seed)
        for _ in range(150):
            legal = game.legal_moves()
            if not legal:
                break
            fresh = Game(rules, seed, position=game.position.copy())
            assert game.state == fresh.state
            assert legal == fresh.legal_moves(), rules.position_text(game.position)
            taken_back += game._known is not None and game._last_move is not None
            last = game._last_move
            inverse = None if last is None else rules.move_name((last[2], last[1], last[0]))
            roll = rng.random()
            if roll < 0.05 and game.ply:
                game.undo()
            elif roll < 0.08:
                with contextlib.suppress(IllegalMove):  # nothing to send home
                    game.play("auto")
            elif inverse in legal and roll < 0.5:
                game.play(inverse)
            else:
                game.play(rng.choice(legal))
    assert taken_back > 100
