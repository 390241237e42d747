"""The compact Freecell boards play exactly the engine's Freecell, move for move."""

import random

import pytest

from shared.solver import freecell_fast as ff
from shared.solver import freecell_portfolio as fp
from shared.variants.freecell import FreecellRules


def engine_after(rules: FreecellRules, position, move):  # type: ignore[no-untyped-def]
    child = position.copy()
    rules.apply(child, move)
    rules.after_move(child)
    return child


@pytest.mark.parametrize("autoplay", [True, False])
def test_legal_moves_and_results_agree_with_the_engine_on_random_playouts(autoplay: bool) -> None:
    rules = FreecellRules({"autoplay": autoplay})
    rng = random.Random(7)
    checked = 0
    for seed in range(1, 13):
        position = rules.deal(seed)
        for _ in range(60):
            board = ff.from_position(position)
            moves = rules.legal(position)
            assert sorted(ff.legal(board)) == sorted(moves)
            if not moves:
                break
            for move in moves:
                expected = ff.from_position(engine_after(rules, position, move))
                played = ff.apply(board, move)
                if autoplay:
                    played = ff.autoplay(played)
                assert played == expected
                # the search's shortcut autoplay gives the same boards on settled boards
                settled = not autoplay or ff.autoplay(board) == board
                assert ff.play(board, move, autoplay, not settled) == expected
                checked += 1
            position = engine_after(rules, position, rng.choice(moves))
    assert checked > 3000


def test_candidates_are_legal_and_miss_no_key() -> None:
    """On settled boards, every legal move leads to a board whose key some candidate
    move also reaches (or to the board itself: a card from one free cell to another)."""
    rules = FreecellRules()
    rng = random.Random(3)
    for seed in range(20, 26):
        position = engine_after(rules, rules.deal(seed), rules.legal(rules.deal(seed))[0])
        for _ in range(40):
            board = ff.from_position(position)
            moves = rules.legal(position)
            if not moves:
                break
            candidates = fp.candidates(board, False)
            assert set(candidates) <= set(moves)
            reached = {ff.key(ff.play(board, m, True, True)) for m in candidates}
            reached.add(ff.key(board))
            assert {ff.key(ff.play(board, m, True, True)) for m in moves} <= reached
            position = engine_after(rules, position, rng.choice(moves))


def test_a_foundation_move_horne_makes_safe_comes_alone() -> None:
    """Without autoplay, a card no build can still need goes home as the only candidate."""
    rules = FreecellRules({"autoplay": False})
    rng = random.Random(5)
    forced_seen = 0
    for seed in range(20, 26):
        position = rules.deal(seed)
        for _ in range(60):
            moves = rules.legal(position)
            if not moves:
                break
            board = ff.from_position(position)
            candidates = fp.candidates(board, False)
            forced = fp.candidates(board, True)
            if forced != candidates:
                forced_seen += 1
                [(src, count, dst)] = forced
                assert (src, count, dst) in candidates and dst in ff.FOUNDATIONS
                card = board[src][-1]
                rank = card & 15
                others = (0, 3) if card >> 4 in (1, 2) else (1, 2)
                high = ff.highest(board)
                assert rank <= 2 or all(high[s] >= rank - 1 for s in others)
            position = engine_after(rules, position, rng.choice(moves))
    assert forced_seen


def test_key_ignores_which_cell_or_column_holds_what_and_nothing_else() -> None:
    rules = FreecellRules({"autoplay": False})
    a = rules.position_from_text("r0: 5H\nr2: KC\nf0: AS\nt0: 9D 8C\nt3: QH\nt5: 2D")
    b = rules.position_from_text("r1: KC\nr3: 5H\nf2: AS\nt7: 9D 8C\nt1: QH\nt2: 2D")
    c = rules.position_from_text("r1: KC\nr3: 5H\nf2: AS\nt7: 9D\nt1: QH 8C\nt2: 2D")
    assert ff.key(ff.from_position(a)) == ff.key(ff.from_position(b))
    assert ff.key(ff.from_position(a)) != ff.key(ff.from_position(c))


def test_board_round_trips_to_a_position() -> None:
    rules = FreecellRules()
    position = rules.deal(617)
    assert ff.to_position(ff.from_position(position)) == position
