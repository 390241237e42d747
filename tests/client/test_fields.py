"""What a player types into a field, checked in words before anything is sent."""

from __future__ import annotations

import pytest

from client.fields import code_problem, date_problem, seed_problem
from shared.errors import ProtocolError
from shared.protocol import JoinRoom, StartGame


def test_a_room_code_is_checked_as_the_protocol_checks_it_but_in_words() -> None:
    assert code_problem("K7QF2M") is None
    assert code_problem("") == "type the room code your friend gave you"
    assert code_problem("K7Q") == "a room code has 6 characters, like K7QF2M; 'K7Q' has 3"
    problem = code_problem("K7QF0M")
    assert problem is not None and problem.startswith("room codes have no '0'")
    problem = code_problem("K7-F2M")
    assert problem is not None and "'-' cannot be in one" in problem
    for code in ("K7Q", "K7QF0M", "K7-F2M", "ZZZZZZZ"):
        problem = code_problem(code)
        assert problem is not None and "field" not in problem
        with pytest.raises(ProtocolError):  # what the protocol would have refused
            JoinRoom.from_map(JoinRoom(code=code, id=1).to_map())


@pytest.mark.parametrize("seed", [0, -5, 2**31, 99_999_999_999])
def test_a_deal_number_out_of_range_is_told_in_words(seed: int) -> None:
    problem = seed_problem(seed)
    assert problem is not None and problem.startswith("deal numbers go from 1 to 2,147,483,647")
    with pytest.raises(ProtocolError):
        StartGame.from_map(StartGame(variant="freecell", seed=seed, id=1).to_map())


def test_deal_numbers_in_range_and_real_days_pass() -> None:
    assert seed_problem(1) is None and seed_problem(2**31 - 1) is None
    assert date_problem("2026-01-02") is None
    for text in ("29/11/2026", "2026-1-2", "20260102", "2026-02-30"):
        problem = date_problem(text)
        assert problem is not None and problem.startswith("a day is written YYYY-MM-DD")
