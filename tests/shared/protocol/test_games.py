"""Games: requests with their ply and typed action, the GameView, and the generic replies."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import protocol as p
from shared.games import new_game
from shared.notation import AUTO, DEAL, UNDO, Move
from shared.variants import STANDARD
from tests.shared.protocol import strategies as s
from tests.shared.protocol.checks import (
    every_field_is_checked,
    out_of_range,
    pack,
    refused,
    refused_frame,
    round_trips,
)

MOVE = {"type": "move", "id": 3, "game": "g7Qx", "ply": 0, "move": "t3>f0"}
PILE = {"id": "t0", "down": 2, "up": ["QH", "JS"]}
VIEW = new_game("freecell", seed=617).view() | {"id": "g7Qx", "elapsed_ms": 1234, "hints": 0}
STANDING = {
    "rank": 1,
    "player": 2,
    "name": "bob",
    "state": "won",
    "elapsed_ms": 61_000,
    "moves": 90,
    "score": 52,
    "undos": 3,
    "foundation": 52,
}
ENTRY = {
    "id": "g7Qx",
    "variant": "gypsy",
    "options": {},
    "deal": {"commitment": "ab" * 32},
    "kind": "daily",
    "state": "playing",
    "ply": 12,
    "score": 3,
    "elapsed_ms": 65_000,
    "started_at": "2026-11-29T13:57:31.123Z",
}


@given(st.one_of(s.GAMES))
def test_every_game_message_round_trips(message: p.Message) -> None:
    round_trips(message)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("t3>f0", Move("t3", 1, "f0")),
        ("t3:4>t7", Move("t3", 4, "t7")),
        ("w>f", Move("w", 1, "f")),
        ("deal", DEAL),
        ("auto", AUTO),
        ("undo", UNDO),
    ],
)
def test_a_move_carries_the_notations_typed_action(text: str, action: object) -> None:
    message = p.decode(pack(MOVE | {"move": text}))
    assert isinstance(message, p.MoveRequest)
    assert message.move == action
    assert message.to_map()["move"] == text


def test_every_field_of_the_game_requests_is_checked() -> None:
    every_field_is_checked(p.MoveRequest.from_map, MOVE)
    start = {"type": "start_game", "variant": "freecell", "seed": 617, "options": {"a": 1}}
    every_field_is_checked(p.StartGame.from_map, start, optional={"seed", "options"})
    every_field_is_checked(p.Undo.from_map, {"type": "undo", "game": "g", "ply": 3})
    every_field_is_checked(p.GetGame.from_map, {"type": "get_game", "game": "g"})


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("game", ["", "g" * 33]),
        ("ply", [-1, 1_000_001, True]),
        ("move", ["", "t3>>f0", "t3:1>t4", "t3:02>t4", "t10>f0", "x" * 17, "DEAL"]),
    ],
)
def test_a_move_field_out_of_range_is_refused(name: str, values: list[object]) -> None:
    out_of_range(p.MoveRequest.from_map, MOVE, name, values)


def test_a_move_that_is_not_notation_says_why() -> None:
    message = refused(p.MoveRequest.from_map, MOVE | {"move": "t3>>f0"}, "move").message
    assert "is not an action of notation.md" in message


def test_a_start_seed_is_a_numbered_deal() -> None:
    start = {"type": "start_game", "variant": "freecell"}
    out_of_range(p.StartGame.from_map, start, "seed", [0, 2**31, None])
    out_of_range(p.StartGame.from_map, start, "variant", ["", "v" * 33])
    assert refused_frame(p.REQUESTS, start | {"options": {"a": None}})


def test_engine_views_of_every_variant_are_game_views_as_they_are() -> None:
    # The server builds the view from the engine's board unchecked: it must pass every check.
    rng = random.Random(12)
    for variant in sorted(STANDARD.ids):
        game = new_game(variant, seed=617)
        for _ in range(30):
            wire = game.view() | {"id": "abcdefgh", "elapsed_ms": 5, "hints": 0}
            view = p.GameView.from_map(wire)
            assert view == p.GameView("abcdefgh", game.board(), p.DealView(seed=617), 0, 5)
            assert view.to_map() == wire
            assert [pile.id for pile in view.piles] == [pile["id"] for pile in wire["piles"]]
            assert view.legal == tuple(wire["legal"])
            legal = game.legal_moves()
            if not legal or game.state != "playing":
                break
            game.play(rng.choice(legal))


def test_a_views_fields_read_its_map() -> None:
    view = p.GameView.from_map(VIEW)
    assert (view.id, view.variant, view.seed, view.ply, view.moves, view.undos) == (
        "g7Qx",
        "freecell",
        617,
        0,
        0,
        0,
    )
    assert view.deal == p.DealView(seed=617)
    keyed = p.GameView.from_map(VIEW | {"deal": {"commitment": "ab" * 32}})
    assert keyed.seed is None and keyed.deal == p.DealView(commitment="ab" * 32)
    assert (view.score, view.max_score, view.state) == (0, 52, "playing")
    assert view.elapsed_ms == 1234 and view.redeals_left == VIEW["redeals_left"]
    assert dict(view.options) == VIEW["options"]
    first = view.piles[0]
    assert isinstance(first, p.PileView)
    assert first.up == tuple(VIEW["piles"][0]["up"]) and first.count == len(first.up)
    assert view.pile(first.id) == first and view.pile("x9") is None
    assert view.foundation_cards == 0


def test_every_field_of_a_view_and_its_piles_is_checked() -> None:
    every_field_is_checked(p.GameView.from_map, VIEW)
    every_field_is_checked(p.pile_from_map, PILE)
    out_of_range(p.GameView.from_map, VIEW, "state", ["flying", ""])
    out_of_range(p.GameView.from_map, VIEW, "deal", [{}, {"seed": 0}, {"seed": 2**31}])
    keyed = {"commitment": "ab" * 32, "key": "cd" * 32}
    p.GameView.from_map(VIEW | {"deal": keyed})
    wrong_deals = [
        {"seed": 1, "commitment": "ab" * 32},
        {"key": "cd" * 32},
        {"commitment": "AB" * 32},
        {"commitment": "ab" * 31},
        {"commitment": "ab" * 32, "key": "xy" * 32},
    ]
    out_of_range(p.GameView.from_map, VIEW, "deal", wrong_deals)
    out_of_range(p.GameView.from_map, VIEW, "score", [-1])
    out_of_range(p.GameView.from_map, VIEW, "legal", [["x" * 17]])
    out_of_range(p.pile_from_map, PILE, "id", ["t10", "f", "x"])
    out_of_range(p.pile_from_map, PILE, "up", [["1H"], ["QHX"], [7]])
    out_of_range(p.pile_from_map, PILE, "down", [-1, 105])


def test_game_replies_carry_a_daily_or_a_watched_player_as_typed_fields() -> None:
    view = p.GameView.from_map(VIEW)
    daily = p.GameReply(game=view, daily=p.DailyInfo("2026-11-29"), re=1)
    assert daily.to_map() == {
        "type": "game",
        "re": 1,
        "game": VIEW,
        "daily": {"date": "2026-11-29"},
    }
    watched = p.GameReply(game=view, code="K7QF2M", player=4)
    assert watched.to_map() == {"type": "game", "game": VIEW, "code": "K7QF2M", "player": 4}
    reply = {"type": "game", "re": 1, "game": VIEW}
    every_field_is_checked(p.GameReply.from_map, reply | {"code": "K7QF2M", "player": 4},
                           optional={"code", "player"})  # fmt: skip
    every_field_is_checked(p.GameReply.from_map, reply | {"daily": {"date": "2026-11-29"}},
                           optional={"daily"})  # fmt: skip
    out_of_range(p.GameReply.from_map, reply, "player", [0])


def test_a_hint_is_an_action_or_null() -> None:
    assert p.HintReply.from_map({"move": "t0>f1"}).move == Move("t0", 1, "f1")
    assert p.HintReply.from_map({"move": None}).move is None
    assert p.HintReply(move=DEAL).to_map() == {"type": "hint", "move": "deal"}
    refused(p.HintReply.from_map, {}, "move")
    refused(p.HintReply.from_map, {"move": "t0>>f1"}, "move")


def test_an_error_carries_the_view_with_stale_ply() -> None:
    m = {"type": "error", "re": 5, "code": "stale_ply", "message": "ply 2 is not 3", "game": VIEW}
    every_field_is_checked(p.Error.from_map, m, optional={"game"})
    error = p.Error.from_map(m)
    assert error.game == p.GameView.from_map(VIEW)
    assert p.Error(code="bad_message", message="not a map").to_map() == {
        "type": "error",
        "code": "bad_message",
        "message": "not a map",
    }


def test_a_standing_is_checked() -> None:
    every_field_is_checked(p.Standing.from_map, STANDING)
    every_field_is_checked(
        p.Standing.from_map, STANDING | {"rank": None, "review": "pending"}, optional={"review"}
    )
    out_of_range(p.Standing.from_map, STANDING, "rank", [0])
    out_of_range(p.Standing.from_map, STANDING, "review", ["", "cleared", None])
    out_of_range(p.Standing.from_map, STANDING, "undos", [-1])
    held = p.Standing.from_map(STANDING | {"review": "pending"})
    assert held.review == "pending" and held.to_map() == STANDING | {"review": "pending"}
    assert "review" not in p.Standing.from_map(STANDING).to_map()
    out_of_range(p.Standing.from_map, STANDING, "state", ["lost"])
    out_of_range(p.Standing.from_map, STANDING, "elapsed_ms", [-1])


@settings(max_examples=50, deadline=None)
@given(s.VIEW_MAPS)
def test_any_valid_view_map_is_a_view_that_gives_its_map_back(wire: dict[str, object]) -> None:
    assert p.GameView.from_map(wire).to_map() == wire


def test_a_start_names_a_seed_or_a_key_never_both() -> None:
    start = {"type": "start_game", "variant": "gypsy"}
    keyed = p.StartGame.from_map(start | {"key": "AB" * 32})
    assert (keyed.key, keyed.seed) == ("ab" * 32, None)  # either case, kept in lower case
    assert keyed.to_map()["key"] == "ab" * 32
    out_of_range(p.StartGame.from_map, start, "key", ["ab" * 31, "xy" * 32, "ab" * 33, 7])
    both = refused(p.StartGame.from_map, start | {"seed": 5, "key": "ab" * 32}).message
    assert "'seed'" in both and "'key'" in both


def test_a_deal_is_a_seed_a_commitment_or_a_commitment_with_its_key() -> None:
    seeded = p.DealView.from_map({"seed": 617})
    assert (seeded.seed, seeded.keyed, seeded.to_map()) == (617, False, {"seed": 617})
    secret = p.DealView.from_map({"commitment": "ab" * 32})
    assert (secret.keyed, secret.key, secret.to_map()) == (True, None, {"commitment": "ab" * 32})
    refused(p.DealView.from_map, {"commitment": "AB" * 32})  # views write lower case
    shown = {"commitment": "ab" * 32, "key": "cd" * 32}
    assert p.DealView.from_map(shown).to_map() == shown
    for bad in ({}, {"key": "cd" * 32}, {"seed": 5, "commitment": "ab" * 32}, {"seed": 0}):
        refused(p.DealView.from_map, bad)


def test_the_games_list_asks_for_a_state_and_a_limit() -> None:
    asked = p.GamesRequest.from_map({"type": "games"})
    assert (asked.state, asked.limit) == (None, p.DEFAULT_GAMES)
    assert p.GamesRequest.from_map({"limit": 10**6}).limit == p.MAX_GAMES == 100
    every_field_is_checked(
        p.GamesRequest.from_map, {"type": "games", "state": "playing", "limit": 5},
        optional={"state", "limit"},
    )  # fmt: skip
    out_of_range(p.GamesRequest.from_map, {}, "state", ["lost", None])
    out_of_range(p.GamesRequest.from_map, {}, "limit", [0, -1, None])


def test_every_field_of_the_games_list_is_checked() -> None:
    every_field_is_checked(p.GameEntry.from_map, ENTRY)
    out_of_range(p.GameEntry.from_map, ENTRY, "kind", ["ranked", ""])
    out_of_range(p.GameEntry.from_map, ENTRY, "started_at", ["yesterday", "2026-11-29T13:57"])
    out_of_range(p.GameEntry.from_map, ENTRY, "deal", [{"seed": 0}, {}])
    reply = {"type": "games", "re": 4, "games": [ENTRY, ENTRY | {"deal": {"seed": 9}}]}
    every_field_is_checked(p.GamesReply.from_map, reply)
    decoded = p.decode_reply(pack(reply))
    assert isinstance(decoded, p.GamesReply) and decoded.to_map() == reply
    assert decoded.games[1].deal == p.DealView(seed=9)
