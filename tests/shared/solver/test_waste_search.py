"""The search of Thumb and Pouch and Westhaven agrees with the engine: every move it
makes is one of the engine's (or a run of deals then one), each leads to the position
the engine reaches, every legal move is tried, and won lines replay to a win."""

import random

import pytest

from shared.game import Game
from shared.games import rules_for
from shared.position import Position
from shared.solver import UNWINNABLE, WON, Budget, engine_search, solve_rules, waste_search
from shared.variants.base import DEAL, InternalMove, Rules
from tests.shared.solver.lines import won_deals

VARIANTS = ["thumb_and_pouch", "westhaven"]
FOUNDATIONS = range(2, 6)


def random_positions(rules: Rules, seed: int, steps: int) -> list[Position]:
    rng = random.Random(seed)
    pos = rules.deal(seed)
    seen = [pos.copy()]
    for _ in range(steps):
        moves = rules.legal(pos)
        if not moves:
            break
        rules.apply(pos, rng.choice(moves))
        seen.append(pos.copy())
    return seen


def key_of(rules: Rules, pos: Position) -> object:
    return waste_search._key(waste_search.Board(rules).start(pos))


def replay(rules: Rules, pos: Position, moves: tuple[InternalMove, ...]) -> Position:
    after = pos.copy()
    for move in moves:
        assert rules.why_illegal(after, move) is None, rules.move_name(move)
        rules.apply(after, move)
    return after


def same_key_moves(rules: Rules, pos: Position, move: InternalMove) -> bool:
    """Moves whose result another listed move gives already (the search's one per class)."""
    src, count, dst = move
    piles = pos.piles
    if src in FOUNDATIONS and dst in FOUNDATIONS:
        return True  # an ace from one empty foundation to another
    if dst in FOUNDATIONS and not piles[dst]:
        return dst != next(f for f in FOUNDATIONS if not piles[f])  # an ace: the first empty
    if dst >= 6 and not piles[dst]:
        first_empty = next(t for t in rules.tableau if not piles[t])
        whole = src >= 6 and count == len(piles[src])
        return whole or dst != first_empty
    return False


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_step_is_legal_and_every_legal_move_is_a_step(variant: str) -> None:
    rules = rules_for(variant)
    board = waste_search.Board(rules)
    checked = 0
    for seed in range(1, 13):
        for pos in random_positions(rules, seed, 120)[::3]:
            if not waste_search.fits(rules, pos):
                continue
            state = board.start(pos)
            steps = board.children(state)
            firsts = set()
            for child, moves in steps:
                # The engine plays the step (deals, one move, forced foundation moves)
                # to the very position the search stores.
                assert key_of(rules, replay(rules, pos, moves)) == waste_search._key(child)
                # Every forced move is played already.
                assert waste_search._key(board.forced(child, [])) == waste_search._key(child)
                if moves[0] != DEAL:
                    firsts.add(moves[0])
            wanted = {
                m for m in rules.legal(pos) if m != DEAL and not same_key_moves(rules, pos, m)
            }
            assert wanted == firsts, rules.position_text(pos)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_card_deals_surface_is_where_the_engines_deals_put_it(variant: str) -> None:
    rules = rules_for(variant)
    board = waste_search.Board(rules)
    for seed in range(1, 10):
        for pos in random_positions(rules, seed, 200)[::11]:
            state = board.start(pos)
            talon = state[4]
            for index, deals, redeals in board.surfacing(state):
                dealt = pos.copy()
                for _ in range(deals):
                    assert rules.can_use_stock(dealt)
                    rules.apply(dealt, DEAL)
                assert tuple(dealt.piles[1]) == talon[: index + 1]
                assert dealt.redeals_used == redeals


@pytest.mark.parametrize("variant", VARIANTS)
def test_won_lines_replay_to_a_win_through_the_engine(variant: str) -> None:
    assert won_deals(rules_for(variant), range(1, 16), 20_000) >= 10


def test_a_dead_end_is_unwinnable_as_the_generic_search_finds_it() -> None:
    rules = rules_for("thumb_and_pouch")
    """Every column holds a face-up card over face-down ones, no eight is out to start a
    run home, and nothing empties a column: the generic search sees all 48 positions."""
    text = """
        f0: AC 2C 3C 4C 5C 6C 7C
        f1: AD 2D 3D 4D 5D 6D 7D
        f2: AH 2H 3H 4H 5H 6H 7H
        f3: AS 2S 3S 4S 5S 6S 7S
        t0: ?QH ?TS ?TD TC
        t1: ?8D ?KC ?9H 9D
        t2: ?QD ?KH ?8H QC
        t3: ?JS ?QS KD
        t4: ?8S ?TH KS
        t5: ?JH ?JC 9S
        t6: ?8C ?JD 9C
        redeals_used: 2
    """
    pos = rules.position_from_text(text)
    generic = engine_search.solve(rules, pos.copy(), Budget(positions=5_000).limits())
    assert generic[0] == UNWINNABLE
    assert waste_search.solve(rules, pos.copy(), Budget(positions=5_000).limits())[0] == UNWINNABLE
    # The same board with 8C face up on t6 instead of 9C: 8C goes home, 9C after it.
    won = rules.position_from_text(text.replace("?8C ?JD 9C", "?9C ?JD 8C"))
    result = solve_rules(rules, won, Budget(positions=50_000))
    assert result.verdict == WON
    game = Game(rules, 1, position=won.copy())
    for action in result.line:
        game.play(action)
    assert game.state == "won"
