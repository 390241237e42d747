"""Game records: the map form, the text form, and replay; numbered and keyed deals."""

import pytest

from shared.deals import NumberedDeal, commitment
from shared.errors import InvalidRecord
from shared.game import Game
from shared.games import new_game, replay
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


KEY = bytes(range(32))


def test_a_keyed_record_holds_the_key_only_when_asked_and_replays_with_it() -> None:
    game = new_game("westhaven", key=KEY)
    for action in ("deal", "deal", "undo"):
        game.play(action)
    sealed = game.record()
    assert sealed["commitment"] == commitment("westhaven", KEY)
    assert "key" not in sealed and "seed" not in sealed and KEY.hex() not in to_text(sealed)
    opened = game.record(reveal_key=True)
    assert opened["key"] == KEY.hex() and "commitment" not in opened and "seed" not in opened
    text = to_text(opened)
    assert text.splitlines()[2] == f"key {KEY.hex()}"
    assert from_text(text) == opened
    # The key in upper case reads the same; it is written in lower case.
    assert check_record({**opened, "key": KEY.hex().upper()}) == opened
    for record in (opened, from_text(text)):
        assert replay(record).view(reveal=True) == game.view(reveal=True)


def test_a_record_whose_key_is_secret_is_read_but_does_not_replay() -> None:
    sealed = new_game("gypsy", key=KEY).record()
    text = to_text(sealed)
    assert text.splitlines()[2] == f"commitment {commitment('gypsy', KEY)}"
    assert from_text(text) == sealed
    with pytest.raises(InvalidRecord, match="still secret"):
        replay(sealed)


def test_records_written_with_a_seed_still_read_and_replay() -> None:
    old = {"variant": "freecell", "seed": 617, "options": {"autoplay": False},
           "actions": ["t4>t7", "t0>r0", "undo"], "resigned": False}  # fmt: skip
    game = replay(old)
    assert game.deal == NumberedDeal(617) and game.record() == old and game.undos == 1
    assert replay(from_text("patience-club record 1\nvariant freecell\nseed 617\n")).ply == 0


@pytest.mark.parametrize(
    ("record", "why"),
    [
        ([], "is a map"),
        ({"variant": "freecell"}, "exactly one of seed, key, commitment"),
        ({"variant": "freecell", "seed": 1, "key": KEY.hex()}, "found seed, key"),
        ({"variant": "freecell", "key": KEY.hex(), "commitment": KEY.hex()}, "exactly one"),
        ({"variant": "freecell", "seed": 0}, "'seed'"),
        ({"variant": "freecell", "key": KEY.hex()[:-1]}, "'key'.*64 hex digits"),
        ({"variant": "freecell", "key": KEY}, "'key'.*string"),
        ({"variant": "freecell", "commitment": "z" * 64}, "'commitment'.*hex"),
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
        ("patience-club record 1\nvariant freecell\nseed 1\nseed 2", "a second 'seed'"),
        ("patience-club record 1\nvariant freecell\nseed 1\nkey " + "0" * 64, "exactly one"),
        ("patience-club record 1\nvariant freecell\nkey 00", "64 hex digits"),
        ("patience-club record 1\nvariant freecell\nseed 1\noption autoplay maybe", "true, false"),
    ],
)
def test_malformed_text_is_refused(text: str, why: str) -> None:
    with pytest.raises(InvalidRecord, match=why):
        from_text(text)
