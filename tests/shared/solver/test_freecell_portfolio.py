"""The Freecell portfolio search: same moves as the proven generator, lines that replay
through the engine, budgets honoured, and exhaustion still a proof."""

import random

import pytest

from shared.games import new_game
from shared.solver import UNKNOWN, UNWINNABLE, WON, Budget, solve
from shared.solver import freecell_fast as ff
from shared.solver import freecell_portfolio as fp
from shared.variants.freecell import FreecellRules


def random_boards(autoplay: bool, seeds: range, steps: int) -> list[ff.Board]:
    rules = FreecellRules({"autoplay": autoplay})
    rng = random.Random(5)
    boards = []
    for seed in seeds:
        position = rules.deal(seed)
        for _ in range(steps):
            moves = rules.legal(position)
            if not moves:
                break
            boards.append(ff.from_position(position))
            rules.apply(position, rng.choice(moves))
            rules.after_move(position)
    return boards


def test_the_pruned_candidates_leave_out_only_cards_on_their_build_to_a_cell() -> None:
    pruned_somewhere = False
    for board in random_boards(True, range(1, 15), 120):
        complete = fp.candidates(board, False)
        pruned = fp.candidates(board, False, complete=False)
        left_out = [move for move in complete if move not in pruned]
        assert pruned == [move for move in complete if move not in left_out]
        for src, count, dst in left_out:
            column = board[src]
            assert src in ff.COLUMNS and dst in ff.CELLS and count == 1
            assert len(column) >= 2 and ff.BUILD[column[-2] * 64 + column[-1]]
        pruned_somewhere |= bool(left_out)
    assert pruned_somewhere


@pytest.mark.parametrize("autoplay", [True, False])
def test_an_expansion_makes_the_children_play_makes(autoplay: bool) -> None:
    """An expansion's children are the boards ``freecell_fast.play`` gives for the
    candidate moves (play is tested against the engine in test_freecell_fast), each
    with its move."""
    expanded = 0
    for board in random_boards(autoplay, range(30, 40), 80):
        if autoplay and ff.autoplay(board) != board:
            continue  # the search expands settled boards only (the start aside)
        search = fp.BestFirst(board, autoplay, fp.Plan(fp.Weights(3, 1, 1, 2, 1)))
        search.start_key = b""  # expand it as any board but the start
        item = search.heap.pop()
        assert search.expand(item, 10**9, Budget(positions=None).limits()) or search.won
        expected = {}
        for move in fp.candidates(board, not autoplay):
            expected.setdefault(ff.key(ff.play(board, move, autoplay, False)), move)
        expected.pop(ff.key(board), None)
        made = {k: link[1] for k, link in search.parents.items() if link is not None}
        if search.won is None:
            assert made == expected
        else:
            assert made.items() <= expected.items()
        expanded += 1
    assert expanded > 200


def test_an_interrupted_search_loses_no_child() -> None:
    """Run in slices of one position, a search sees exactly the keys it sees in one go."""
    rules = FreecellRules()
    start = ff.from_position(rules.deal(11982))
    whole = fp.BestFirst(start, True, fp.PORTFOLIO[0])
    whole.run(3000, Budget(positions=None).limits())
    sliced = fp.BestFirst(start, True, fp.PORTFOLIO[0])
    while sliced.positions < 3000:
        assert not sliced.run(sliced.positions + 1, Budget(positions=None).limits())
    assert set(sliced.parents) == set(whole.parents)


@pytest.mark.parametrize("seed", [1, 2, 3, 91, 189, 285, 657, 771])
def test_won_lines_replay_to_a_win_through_the_engine(seed: int) -> None:
    """Easy deals and hard ones: 771, 189 and 657 took the single search of before
    216,000, 128,000 and 99,000 positions; 285 and 771 are the portfolio's slowest."""
    result = solve("freecell", seed, {}, Budget(positions=300_000))
    assert result.verdict == WON
    game = new_game("freecell", seed=seed)
    for action in result.line:
        game.play(action)
    assert game.state == "won"


def test_won_lines_without_autoplay_replay_to_a_win() -> None:
    for seed in (4, 5):
        result = solve("freecell", seed, {"autoplay": False}, Budget(positions=100_000))
        assert result.verdict == WON
        game = new_game("freecell", seed=seed, options={"autoplay": False})
        for action in result.line:
            game.play(action)
        assert game.state == "won"


def test_deal_11982_is_proven_unwinnable_and_only_by_the_complete_search() -> None:
    """The pruned search sees fewer positions of 11982 than there are: alone it runs
    out without proving anything; in turns with the complete one, that one goes on
    to see every key, and that is the proof."""
    result = solve("freecell", 11982, {}, Budget(positions=None))
    assert result.verdict == UNWINNABLE
    pruned, complete = fp.PORTFOLIO
    assert not pruned.complete and complete.complete
    start = ff.from_position(FreecellRules().deal(11982))
    alone, line, seen_alone = fp.solve(start, True, Budget(positions=None).limits(), (pruned,))
    assert (alone, line) == (UNKNOWN, [])
    seen_by_complete = result.positions - seen_alone + 1  # the start is counted once
    assert seen_alone < seen_by_complete


def test_positions_budget_is_honoured_and_deterministic() -> None:
    for cap in (1, 150, 2_500, 7_000):
        first = solve("freecell", 11982, {}, Budget(positions=cap))
        assert first.verdict == UNKNOWN
        assert first.positions <= cap
        assert solve("freecell", 11982, {}, Budget(positions=cap)) == first


def test_time_budget_is_honoured_with_the_injected_clock() -> None:
    ticks = iter(range(0, 10**9, 1000))  # every look at the clock is 1000 "seconds" later
    budget = Budget(positions=None, seconds=1, clock=lambda: next(ticks))
    result = solve("freecell", 11982, {}, budget)
    assert result.verdict == UNKNOWN
    assert result.positions < 1000  # it stopped at its first look at the clock
