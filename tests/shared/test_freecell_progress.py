"""Freecell's stuck search (shared.solver.freecell_progress) and its proofs of progress.

The search must give exactly the verdict of a plain exhaustive search with the
same canonical keys and the same budget (the engine's states and every seeded
playout depend on it), and every line it, the greedy dig or a replayed
witness offers as a proof must play move by move under the engine's rules
and end with a card that can go home.
"""

from __future__ import annotations

import random

import pytest

from shared.game import Game
from shared.position import Position
from shared.solver import freecell_progress
from shared.solver.freecell_progress import CELL, Witness
from shared.variants.base import InternalMove
from shared.variants.freecell import FreecellRules
from tests.shared.positions import FREECELL_DEAD, as_move, playout_positions

AUTOPLAY = FreecellRules({"autoplay": True})
MANUAL = FreecellRules({"autoplay": False})



def key(pos: Position) -> tuple[object, ...]:
    """Positions alike up to which free cell or column holds what (foundations left out)."""
    piles = pos.piles
    return (sorted(piles[0] + piles[1] + piles[2] + piles[3]), sorted(map(tuple, piles[8:])))


def explore(rules: FreecellRules, start: Position, budget: int) -> tuple[bool | None, int]:
    """The reference: breadth-first on the engine's own moves, a key per position seen.
    (True when some line adds a foundation card, False when every reachable position
    was seen within ``budget`` without one, None when there were more), and how many
    keys were seen, the start included."""
    target = rules.foundation_count(start)
    seen = {repr(key(start))}
    queue = [start]
    for current in queue:
        for move in rules.legal(current):
            child = current.copy()
            rules.apply(child, move)
            rules.after_move(child)
            if rules.foundation_count(child) > target:
                return True, len(seen)
            child_key = repr(key(child))
            if child_key not in seen:
                if len(seen) >= budget:
                    return None, len(seen)
                seen.add(child_key)
                queue.append(child)
    return False, len(seen)


def plain_progress(rules: FreecellRules, start: Position, budget: int) -> bool | None:
    """The reference verdict (see :func:`explore`)."""
    return explore(rules, start, budget)[0]


def reachable_count(rules: FreecellRules, start: Position) -> int:
    """How many keys the positions reachable without progress have (the start included);
    ``start`` must be dead."""
    verdict, seen = explore(rules, start, 10**9)
    assert verdict is False
    return seen


def engine_line(pos: Position, witness: Witness) -> list[InternalMove]:
    """The witness as the engine's moves, each checked to be listed when it is played;
    asserts that the line ends with a card that can go home."""
    rules = MANUAL
    pos = pos.copy()
    line = []
    for step in witness:
        move = as_move(pos, step)
        assert move in rules.legal(pos), (rules.position_text(pos), move)
        rules.apply(pos, move)
        line.append(move)
    assert rules.can_progress_now(pos, rules.legal(pos)), rules.position_text(pos)
    return line


@pytest.mark.parametrize("rules", [AUTOPLAY, MANUAL], ids=["autoplay", "manual"])
@pytest.mark.parametrize("budget", [2000, 60, 5])
def test_verdict_is_the_plain_search_verdict(rules: FreecellRules, budget: int) -> None:
    positions = playout_positions(rules, range(1, 9), seed=budget)
    verdicts = {True: 0, False: 0, None: 0}
    for position in positions:
        reference = plain_progress(rules, position, budget)
        found = freecell_progress.progress_possible(position, budget)
        # Which of "progress" and "too many positions" is met first depends on the
        # order of the search; "stuck" does not, and must agree exactly.
        assert (found is False) == (reference is False), rules.position_text(position)
        verdicts[found] += 1
    assert verdicts[False] >= 5 and verdicts[True] >= 20
    if budget == 5:
        assert verdicts[None] >= 5


CHILDREN = [
    pytest.param(freecell_progress.python_children, id="python"),
    pytest.param(
        freecell_progress.compiled_children,
        id="compiled",
        marks=pytest.mark.skipif(
            freecell_progress.compiled_children is None, reason="not built here"
        ),
    ),
]


@pytest.mark.parametrize("children", CHILDREN)
def test_children_are_the_engine_moves_canonical_results(
    children: freecell_progress.Children,
) -> None:
    """One child per canonical key that one engine move reaches (moves that keep the key
    left out), and None exactly when some move uncovers a card its foundation wants."""
    checked = {"children": 0, "uncovers": 0, "room": 0, "no room": 0}
    for seed in (1, 2):
        for rules in (AUTOPLAY, MANUAL):
            for position in playout_positions(rules, range(1, 11), seed):
                state = freecell_progress.state_of(position)
                wanted = freecell_progress.wanted_of(position)
                if freecell_progress.shows_wanted(state, wanted):
                    continue
                expected = set()
                uncovers = False
                for move in MANUAL.legal(position):
                    child = position.copy()
                    MANUAL.apply(child, move)
                    child_state = freecell_progress.state_of(child)
                    uncovers |= freecell_progress.shows_wanted(child_state, wanted)
                    if child_state != state:
                        expected.add(child_state)
                found = children(state, wanted)
                if uncovers:
                    assert found is None, MANUAL.position_text(position)
                    checked["uncovers"] += 1
                else:
                    assert found is not None, MANUAL.position_text(position)
                    assert len(found) == len(set(found)), MANUAL.position_text(position)
                    assert set(found) == expected, MANUAL.position_text(position)
                    checked["children"] += 1
                    # free cells or empty columns: builds of several cards may move;
                    # none: only single cards onto column tops
                    checked["room" if len(state[8]) < 4 or not state[0] else "no room"] += 1
    assert min(checked.values()) >= 30, checked


def test_the_budget_counts_positions_exactly() -> None:
    position = MANUAL.position_from_text(FREECELL_DEAD)
    size = reachable_count(MANUAL, position)
    assert size > 10
    assert freecell_progress.progress_possible(position, size) is False
    assert freecell_progress.progress_possible(position, size - 1) is None
    freecell_progress._EDGES.clear()  # remembered edges change the work, not the answer
    assert freecell_progress.progress_possible(position, size - 1) is None
    assert freecell_progress.progress_possible(position, size) is False


def test_every_proof_is_a_legal_line_that_sends_a_card_home() -> None:
    checked = {"search": 0, "dig": 0, "replay": 0}
    for rules in (AUTOPLAY, MANUAL):
        rng = random.Random(4)
        for deal in range(1, 13):
            position = rules.deal(deal)
            hint: Witness = ()
            for _ in range(200):
                moves = rules.legal(position)
                if not moves:
                    break
                if not rules.can_progress_now(position, moves):
                    dug = freecell_progress.dig(position)
                    if dug is not None:
                        engine_line(position, dug)
                        checked["dig"] += 1
                    if hint:
                        replayed = freecell_progress.replay(position, hint)
                        if replayed is not None:
                            engine_line(position, replayed)
                            checked["replay"] += 1
                    found, witness = freecell_progress.search(position, 2000)
                    if found:
                        engine_line(position, witness)
                        hint = witness
                        checked["search"] += 1
                    assert dug is None or found is not False
                position = position.copy()
                rules.apply(position, rng.choice(moves))
                rules.after_move(position)
    assert min(checked.values()) >= 30, checked


def test_a_witness_replays_elsewhere_when_its_place_is_taken() -> None:
    # 2C is wanted under 9H; the witness sends 9H to a free cell, but all four are full
    # in the new position: 9H goes onto TS instead, and the line still proves progress.
    text = (
        "r0: KD\nr1: KH\nr2: QC\nr3: QS\nf0: AC\n"
        "t0: 2C 9H\nt1: TS\nt2: 3D\nt3: 4D\nt4: 5D\nt5: 6D\nt6: 7D\nt7: 8D"
    )
    position = MANUAL.position_from_text(text)
    nine = position.piles[8][-1]
    replayed = freecell_progress.replay(position, ((nine, CELL),))
    assert replayed is not None and replayed[0][1] == position.piles[9][-1]
    assert engine_line(position, replayed) == [(8, 1, 9)]
    # with TS gone too there is no place for 9H: no proof is claimed
    blocked = MANUAL.position_from_text(text.replace("t1: TS", "t1: TH"))
    assert freecell_progress.replay(blocked, ((nine, CELL),)) is None


def test_the_game_state_does_not_depend_on_how_it_was_reached() -> None:
    """States along a game (hints, shortcuts and remembered edges in play) are those of
    fresh games started at each position, which use none of them."""
    for rules in (AUTOPLAY, MANUAL):
        rng = random.Random(8)
        stuck_seen = 0
        for deal in range(1, 11):
            game = Game(rules, deal)
            while True:
                fresh = Game(rules, deal, position=game.position.copy())
                # a fresh game at the deal position knows what the deal game knows
                assert fresh.state == game.state, rules.position_text(game.position)
                moves = game.legal_moves()
                if not moves:
                    stuck_seen += game.state == "stuck"
                    break
                game.play(rng.choice(moves))
        assert stuck_seen >= 3
