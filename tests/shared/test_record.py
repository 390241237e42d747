"""Game records: the map form, the text form, and replay."""

import pytest

from shared.errors import InvalidRecord
from shared.game import Game
from shared.record import MAX_ACTIONS, check_record, from_text, play_actions, to_text
from shared.variants.freecell import FreecellRules


def played_game() -> Game:
    game = Game(FreecellRules({"autoplay": False}), 617)
    for action in ("t4>t7", "t0>r0", "undo", "t6>r1", "t6>r2", "t6>r3", "t6>r0", "auto"):
        game.play(action)
    return game


def test_text_form_round_trips() -> None:
    record = played_game().record()
    text = to_text(record)
    assert text.splitlines() == [
        "patience-club record 1",
        "variant freecell",
        "seed 617",
        "option autoplay false",
        "actions t4>t7 t0>r0 undo t6>r1 t6>r2 t6>r3 t6>r0 auto",
    ]
    assert from_text(text) == record


def test_resigned_line() -> None:
    game = played_game()
    game.resign()
    text = to_text(game.record())
    assert text.splitlines()[-1] == "resigned"
    assert from_text(text)["resigned"] is True


def test_replay_reproduces_the_game() -> None:
    game = played_game()
    again = Game(FreecellRules({"autoplay": False}), 617)
    play_actions(again, game.record()["actions"])
    assert again.view(reveal=True) == game.view(reveal=True)


def test_an_action_that_does_not_replay_names_its_ply() -> None:
    game = Game(FreecellRules(), 617)
    with pytest.raises(InvalidRecord, match=r"action 1 \('t4>t7'\) does not replay"):
        play_actions(game, ["t4>t7", "t4>t7"])


@pytest.mark.parametrize(
    ("record", "why"),
    [
        ([], "is a map"),
        ({"variant": 3, "seed": 1}, "'variant'"),
        ({"variant": "freecell", "seed": "1"}, "'seed'"),
        ({"variant": "freecell", "seed": True}, "'seed'"),
        ({"variant": "freecell", "seed": 1, "options": []}, "'options'"),
        ({"variant": "freecell", "seed": 1, "actions": [1]}, "'actions'"),
        ({"variant": "freecell", "seed": 1, "resigned": 1}, "'resigned'"),
        ({"variant": "freecell", "seed": 1, "actions": ["deal"] * (MAX_ACTIONS + 1)}, "at most"),
    ],
)
def test_malformed_records_are_refused(record: object, why: str) -> None:
    with pytest.raises(InvalidRecord, match=why):
        check_record(record)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "starts with"),
        ("patience-club record 1\nvariant freecell\nseed x", "not an integer"),
        ("patience-club record 1\nvariant freecell\nseed 1\ncolour red", "unknown line"),
        ("patience-club record 1\nvariant freecell\nseed 1\noption autoplay maybe", "true, false"),
    ],
)
def test_malformed_text_is_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidRecord, match=why):
        from_text(text)
