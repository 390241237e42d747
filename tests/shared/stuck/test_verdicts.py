"""The stuck check never says "stuck" falsely, says it on dead boards, and is a pure function."""

import random

import pytest

from shared.game import Game
from shared.games import rules_for
from shared.stuck import StuckProver
from tests.shared.positions import FREECELL_DEAD, OSMOSIS_DEAD, random_walk, reference_progress


@pytest.mark.parametrize(
    ("variant", "games", "minimum"),
    [
        ("freecell", 40, 20),
        ("westhaven", 10, 1),
        ("thumb_and_pouch", 4, 0),
        ("osmosis", 15, 1),
        ("gypsy", 2, 0),
    ],
)
def test_stuck_only_when_no_line_adds_a_foundation_card(
    variant: str, games: int, minimum: int
) -> None:
    rules = rules_for(variant)
    no_progress_possible = StuckProver().no_progress_possible
    rng = random.Random(5)
    proven = 0
    for seed in range(1, games + 1):
        for position, moves in random_walk(rules, rules.deal(seed), rng, 200):
            # as the Game asks: the cheap proofs of progress first
            if rules.can_progress_now(position, moves) or rules.quick_progress(position):
                continue
            if no_progress_possible(rules, position):
                assert reference_progress(rules, position) is not True, rules.position_text(
                    position
                )
                proven += 1
                break
    assert proven >= minimum


def test_answers_do_not_depend_on_what_was_asked_before() -> None:
    rules = rules_for("freecell")
    rng = random.Random(9)
    positions = [
        position
        for seed in range(1, 6)
        for position, _ in random_walk(rules, rules.deal(seed), rng, 40)
    ]
    prover = StuckProver()
    first = [prover.no_progress_possible(rules, p) for p in positions]
    prover = StuckProver()  # one that remembers the answers in the other order
    again = [prover.no_progress_possible(rules, p) for p in reversed(positions)]
    assert first == list(reversed(again))
    assert any(first) and not all(first)


def test_freecell_board_with_moves_but_no_way_home_is_stuck() -> None:
    rules = rules_for("freecell")
    position = rules.position_from_text(FREECELL_DEAD)
    assert len(rules.legal(position)) == 11
    assert reference_progress(rules, position) is False
    assert StuckProver().no_progress_possible(rules, position)
    game = Game(rules, 1, position=position)
    assert game.state == "stuck"
    assert game.legal_moves() == []


def test_freecell_board_one_card_from_progress_is_not_stuck() -> None:
    # The dead board with JS out of its cell (laid on t4): two free cells are enough to
    # dig a card out, as the reference search finds; the check must not say stuck.
    rules = rules_for("freecell")
    position = rules.position_from_text(FREECELL_DEAD.replace("r0: JS\n", ""))
    position.piles[rules.index["t4"]].append(rules.position_from_text("t0: JS").piles[8][0])
    assert reference_progress(rules, position) is True
    assert not StuckProver().no_progress_possible(rules, position)
    assert Game(rules, 1, position=position).state == "playing"


def test_osmosis_card_under_the_card_it_waits_for_is_stuck() -> None:
    rules = rules_for("osmosis")
    position = rules.position_from_text(OSMOSIS_DEAD)
    assert StuckProver().no_progress_possible(rules, position)
    assert Game(rules, 1, position=position).state == "stuck"
