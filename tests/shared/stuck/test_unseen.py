"""The stuck proof over the player's view is sound: what it calls stuck is stuck whatever
the face-down cards are, the real ones included; and it asks only about what is seen."""

from __future__ import annotations

import dataclasses
import random

import pytest

from shared.game import Game
from shared.games import rules_for
from shared.player_view import UNSEEN, PlayerView
from shared.stuck import StuckProver, StuckQuestion, question_for
from tests.shared.positions import CONFIG_PARAMS, OSMOSIS_DEAD, random_walk, reference_progress

#: (variant, options, games walked, view-proven stuck positions wanted among them)
WALKS = [
    ("westhaven", {}, 30, 30),
    ("gypsy", {}, 10, 30),
    ("osmosis", {"deal_three": False}, 12, 10),
    ("osmosis", {"deal_three": True}, 12, 30),
    ("thumb_and_pouch", {}, 4, 0),
]


@pytest.mark.parametrize(("variant", "options", "games", "wanted"), WALKS)
def test_stuck_by_the_view_is_stuck_for_the_all_seeing_search(
    variant: str, options: dict[str, bool], games: int, wanted: int
) -> None:
    rules = rules_for(variant, options)
    prover = StuckProver()
    rng = random.Random(11)
    proven = 0
    for seed in range(1, games + 1):
        for position, _ in random_walk(rules, rules.deal(seed), rng, 250):
            if proven >= wanted:
                return
            if not PlayerView.seen(rules, position).unseen:
                continue
            if prover.answer(question_for(rules, position)):
                # stuck for the view: stuck for the search that sees every card, and for
                # the plain reference search (it never finds a line home)
                assert prover.no_progress_possible(rules, position)
                assert reference_progress(rules, position) is not True
                proven += 1
    assert proven >= wanted


def test_the_question_has_no_place_for_an_unseen_card() -> None:
    names = {field.name for field in dataclasses.fields(StuckQuestion)}
    assert names == {"variant", "options", "up", "down", "remembered", "redeals_used", "budget"}
    rules = rules_for("westhaven")
    position = rules.deal(3)
    question = question_for(rules, position)
    blank = question.position()
    assert blank.down == position.down
    for pile, seen, down in zip(position.piles, blank.piles, position.down, strict=True):
        assert seen[:down] == [UNSEEN] * down and seen[down:] == pile[down:]


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_the_question_is_the_players_view(variant: str, options: dict[str, bool]) -> None:
    rules = rules_for(variant, options)
    rng = random.Random(4)
    for seed in (1, 2):
        for position, _ in random_walk(rules, rules.deal(seed), rng, 150):
            view = PlayerView.seen(rules, position)
            assert question_for(rules, position) == StuckQuestion.of(view)


def test_look_alike_positions_ask_one_question() -> None:
    rules = rules_for("gypsy")
    position = rules.deal(5)
    view = PlayerView.seen(rules, position)
    rng = random.Random(3)
    cards = list(view.unseen)
    rng.shuffle(cards)
    other = view.fill(cards)
    assert other != position
    assert question_for(rules, other) == question_for(rules, position)


def test_a_dead_board_with_a_hidden_card_is_stuck_for_every_arrangement() -> None:
    # Osmosis: KH needs a king on f1 first and the only other card, face down, is what is
    # left of the deck: KD whatever the arrangement (one card unseen), so stuck is proven.
    rules = rules_for("osmosis")
    game = Game(rules, 1, position=rules.position_from_text(OSMOSIS_DEAD))
    assert PlayerView.of(game).unseen  # the face-down card is unseen
    assert game.state == "stuck"
