"""The names the board shows for piles, cards, moves and deals, from the engine's notation."""

from __future__ import annotations

import pytest

from client.layout import key_label
from client.names import card_name, deal_name, move_name, pile_name, translate, verify_command
from shared.games import new_game
from shared.notation import Move
from shared.protocol import DealView
from shared.variants import STANDARD


@pytest.mark.parametrize(
    ("pile", "name"),
    [("t0", "1"), ("t3", "4"), ("t9", "0"), ("r0", "q"), ("r1", "w"), ("r3", "r"),
     ("w", "x"), ("f0", "F1"), ("f1", "F2"), ("f7", "F8"), ("s", "stock")],
)  # fmt: skip
def test_a_pile_is_named_by_the_key_that_picks_it(pile: str, name: str) -> None:
    assert pile_name(pile) == name


def test_every_pile_of_every_variant_has_the_name_written_above_it() -> None:
    for variant in STANDARD.ids:
        for pile in new_game(variant, seed=617).view()["piles"]:
            if pile["id"] != "s":
                assert pile_name(pile["id"]) == key_label(pile["id"])


@pytest.mark.parametrize(
    ("card", "name"), [("9C", "9♣"), ("TH", "10♥"), ("AS", "A♠"), ("KD", "K♦")]
)
def test_a_card_is_named_by_its_rank_and_suit_glyph(card: str, name: str) -> None:
    assert card_name(card) == name


@pytest.mark.parametrize(
    ("move", "name"),
    [("t3>f0", "4→F1"), ("t3:4>t7", "4→8 (4 cards)"), ("w>f", "x→foundation"),
     ("r1>t0", "w→1"), ("w>r1", "x→w"), ("deal", "deal (space)"), ("auto", "auto (a)")],
)  # fmt: skip
def test_a_move_is_named_by_its_keys(move: str, name: str) -> None:
    assert move_name(move) == name
    if ">" in move:
        assert move_name(Move.parse(move)) == name


def test_a_refusal_speaks_the_boards_names_in_one_pass() -> None:
    # The waste is w in notation and x on the board, and w is the key of r1: each token is
    # translated once, so none is translated twice.
    assert translate("'w>f1' is not legal now: 9C cannot start f1") == (
        "x→F2 is not legal now: 9♣ cannot start F2"
    )
    assert translate("'r1>t3' is not legal now: r1 is empty") == (
        "w→4 is not legal now: w is empty"
    )
    assert translate("'t3:4>t7' is not legal now: t3 has only 2 face-up cards") == (
        "4→8 (4 cards) is not legal now: 4 has only 2 face-up cards"
    )
    assert translate("TH on JS is not a build: colours must alternate") == (
        "10♥ on J♠ is not a build: colours must alternate"
    )


def test_words_that_are_not_notation_are_left_alone() -> None:
    for text in ("the game is over (resigned)", "it's the player's turn", "a hint: none",
                 "only undo is possible", "room 'K7QF2M' is already racing"):  # fmt: skip
        assert translate(text) == text


def test_the_engines_own_refusals_come_out_in_board_names() -> None:
    # Real reasons from the engine for every illegal pile-to-pile move of a fresh Freecell deal.
    game = new_game("freecell", seed=617)
    legal = set(game.legal_moves())
    ids = [p["id"] for p in game.view()["piles"]]
    for src in ids:
        for dst in ids:
            move = f"{src}>{dst}"
            if src == dst or move in legal:
                continue
            try:
                game.play(move)
            except ValueError as exc:
                shown = translate(str(exc))
            else:
                raise AssertionError(f"{move} was played")
            for token in (src, dst):
                assert f"'{move}'" not in shown and f" {token}:" not in shown, shown
            assert shown.startswith(move_name(move)), shown


def test_a_deal_is_named_by_its_number_or_the_start_of_its_commitment() -> None:
    assert deal_name(DealView(seed=617)) == "#617"
    commitment = "3fa2c1d0" + "7" * 56
    assert deal_name(DealView(commitment=commitment)) == "deal 3fa2c1d0"
    assert verify_command("freecell", DealView(commitment=commitment)) is None
    assert verify_command("freecell", DealView(seed=617)) is None
    key = "ab" * 32
    assert verify_command("freecell", DealView(commitment=commitment, key=key)) == (
        f"patience-club verify freecell {commitment} {key}"
    )
