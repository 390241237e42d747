"""Cards, piles and moves parse and print back exactly (docs/notation.md)."""

import pytest

from shared.cards import NAME, RANK, RED, SUIT, card_name, deck, parse_card
from shared.errors import InvalidNotation
from shared.notation import Move, parse_action, parse_pile


def test_every_card_round_trips() -> None:
    names = [card_name(c) for c in deck()]
    assert names[:3] == ["AC", "2C", "3C"] and names[-1] == "KS"
    assert [card_name(parse_card(n)) for n in names] == names


def test_card_properties() -> None:
    th = parse_card("TH")
    assert (RANK[th], SUIT[th], RED[th], NAME[th]) == (10, 2, True, "TH")
    assert not RED[parse_card("KS")] and RED[parse_card("AD")] and not RED[parse_card("5C")]


@pytest.mark.parametrize("text", ["", "1H", "10H", "th", "TX", "TH ", "A", 5, None])
def test_bad_cards_are_refused_with_the_input_quoted(text: object) -> None:
    with pytest.raises(InvalidNotation, match="is not a card"):
        parse_card(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["t3>f0", "t3:4>t7", "w>f", "r0>t9", "t0:13>t1", "f2>t3", "s>w"])
def test_moves_round_trip(text: str) -> None:
    assert str(Move.parse(text)) == text


def test_move_fields() -> None:
    assert Move.parse("t3:4>t7") == Move("t3", 4, "t7")
    assert Move.parse("w>f") == Move("w", 1, "f")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("t3:1>t7", "only for 2 or more"),
        ("t3:0>t7", "only for 2 or more"),
        ("t3:02>t7", "only for 2 or more"),
        ("t3>", "expected SRC>DST"),
        ("x1>t2", "expected SRC>DST"),
        ("t10>t2", "expected SRC>DST"),
        ("f8>t2", "expected SRC>DST"),
        ("r4>t2", "expected SRC>DST"),
        ("t3>f>", "expected SRC>DST"),
        ("f>t3", "expected SRC>DST"),
        ("T3>F0", "expected SRC>DST"),
        ("t3:999999999999999>t7", "is not a move"),
    ],
)
def test_bad_moves_say_why(text: str, why: str) -> None:
    with pytest.raises(InvalidNotation, match=why):
        Move.parse(text)


def test_actions() -> None:
    assert parse_action("deal") == "deal"
    assert parse_action("undo") == "undo"
    assert parse_action("auto") == "auto"
    assert parse_action("t0>f1") == Move("t0", 1, "f1")
    with pytest.raises(InvalidNotation):
        parse_action("Deal")


def test_piles() -> None:
    assert parse_pile("t9") == "t9"
    for bad in ("t", "f8", "x", "s0", ""):
        with pytest.raises(InvalidNotation, match="is not a pile id"):
            parse_pile(bad)
