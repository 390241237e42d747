"""What review counts as a hand's least time per action, and what it finds replaying a game."""

from __future__ import annotations

import json

import pytest

from server.review.floor import KEY_MS, floor_ms, keys_ms, piles_crossed, pointer_ms
from server.review.line import line_of, solver_line
from server.review.timings import FORMAT, BadTimings, from_rows, parse
from shared.notation import Move

DEAL = {"variant": "freecell", "options": {}, "key": bytes(range(32)).hex()}


def test_a_move_takes_two_key_presses_and_anything_else_one() -> None:
    assert keys_ms("t0>t7") == keys_ms("t3>f2") == keys_ms("t3:4>t1") == 2 * KEY_MS
    assert keys_ms("deal") == keys_ms("undo") == keys_ms("auto") == KEY_MS


def test_the_pointer_is_slower_the_further_it_goes_and_never_beats_the_keys() -> None:
    assert piles_crossed(Move.parse("t0>t7")) == 7 and piles_crossed(Move.parse("t3>t4")) == 1
    assert pointer_ms("t0>t7") > pointer_ms("t0>t3") > pointer_ms("t0>t1") == 300
    assert pointer_ms("t3>f2") <= 400, "a double-click at most"
    for action in ("t0>t7", "t0>t1", "r0>f1", "w>t3", "deal", "undo", "auto", "s>w"):
        assert floor_ms(action) == keys_ms(action) <= pointer_ms(action)


def test_a_move_played_again_after_its_undo_is_a_position_revisited() -> None:
    line = solver_line(DEAL, positions=200_000, seconds=60.0)
    assert line is not None
    first = line[0]
    again = line_of({**DEAL, "actions": [first, "undo", *line]}, line)
    assert (again.revisits, again.followed, again.solver_moves) == (1, 1, len(line))
    straight = line_of({**DEAL, "actions": list(line)}, None)
    assert (straight.revisits, straight.followed, straight.solver_moves) == (0, 0, None)


def test_timings_must_replay_and_go_forward_and_a_stored_game_becomes_recorded_timings() -> None:
    line = solver_line(DEAL, positions=200_000, seconds=60.0)
    assert line is not None
    good = {"format": FORMAT, "source": "recorded", "client": "web", "key": DEAL["key"],
            "variant": "freecell", "won": True,
            "actions": [[a, 1000 * (n + 1)] for n, a in enumerate(line)]}  # fmt: skip
    assert parse(good).played().received_ms[-1] == 1000 * len(line)
    for change, says in (
        ({"format": "x"}, "format"),
        ({"source": "person"}, "source"),
        ({"client": "phone"}, "client"),
        ({"won": False}, "ends won"),
        ({"actions": [["t0>t0", 5]]}, "do not replay"),
        ({"actions": [[a, 5000 - n] for n, a in enumerate(line)]}, "never go back"),
    ):
        with pytest.raises(BadTimings, match=says):
            parse(json.loads(json.dumps(good | change)))
    stored = from_rows({**DEAL, "actions": list(line)},
                       [(a, 10_000 + 700 * n) for n, a in enumerate(line)], 9_000,
                       client="terminal", note="a test", won=True)  # fmt: skip
    assert stored.source == "recorded" and stored.actions[0] == (line[0], 1000)
