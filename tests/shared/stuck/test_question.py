"""The stuck search handed out as data: Game.stuck_question, StuckProver.answer, answer_stuck.

The server runs the bounded search in a worker process, so the hand-off must
give exactly the states the in-process path gives, ask only when a search
would really run, and never let an answer about another position change a
game.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from shared.game import Game
from shared.games import new_game, rules_for
from shared.stuck import StuckQuestion, answer, question_for
from tests.shared.positions import FREECELL_DEAD

#: (variant, options, deals): random playouts in which searches run and some games get stuck
PLAYOUTS = [
    ("freecell", {"autoplay": True}, range(1, 16)),
    ("freecell", {"autoplay": False}, range(1, 11)),
    ("westhaven", {}, range(1, 4)),
]


def playout(variant: str, options: dict[str, bool], deal: int, steps: int = 200) -> list[str]:
    """The actions of a seeded random game, played the ordinary way (searches in-process)."""
    game = new_game(variant, seed=deal, options=options)
    rng = random.Random(deal)
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
    return game.actions


def test_a_question_comes_exactly_when_the_search_would_run() -> None:
    asked = 0
    for variant, options, deals in PLAYOUTS:
        for deal in deals:
            actions = playout(variant, options, deal)
            game = new_game(variant, seed=deal, options=options)  # (a prover of its own)
            for action in actions:
                question = game.stuck_question()
                assert game.stuck_question() == question  # cached: asking twice is free
                before = dict(game.prover.memo)
                _ = game.state
                if question is None:
                    # no search ran: nothing new was remembered
                    assert game.prover.memo == before
                else:
                    asked += 1
                    assert set(game.prover.memo) - set(before) == {question}
                    assert game.prover.remembered(question) == (game.state == "stuck")
                game.play(action)
    assert asked >= 10


def test_answers_from_a_worker_process_give_the_in_process_states() -> None:
    answered = 0
    with ProcessPoolExecutor(max_workers=1) as pool:
        for variant, options, deals in PLAYOUTS:
            for deal in deals:
                actions = playout(variant, options, deal)
                # (each game has a prover of its own: there knows only the worker's answers)
                here = new_game(variant, seed=deal, options=options)
                there = new_game(variant, seed=deal, options=options)
                for action in [*actions, None]:
                    question = there.stuck_question()
                    if question is not None:
                        verdict = pool.submit(answer, question).result()
                        assert there.answer_stuck(question, verdict)
                        assert there.stuck_question() is None
                        answered += 1
                    assert there.view(reveal=True) == here.view(reveal=True)
                    if action is not None:
                        here.play(action)
                        there.play(action)
                assert there.state == here.state
    assert answered >= 10


def test_a_question_pickles_and_is_the_same_question() -> None:
    rules = rules_for("freecell")
    question = question_for(rules, rules.position_from_text(FREECELL_DEAD))
    again = pickle.loads(pickle.dumps(question))
    assert again == question and hash(again) == hash(question)
    assert isinstance(again, StuckQuestion)
    assert len(pickle.dumps(question)) < 600


def test_a_dead_board_is_stuck_through_the_hand_off() -> None:
    rules = rules_for("freecell")
    game = Game(rules, 1, position=rules.position_from_text(FREECELL_DEAD))
    question = game.stuck_question()
    assert question is not None
    assert question.position() == game.position
    assert answer(question) is True  # (in a prover of its own: the game's knows nothing)
    assert game.answer_stuck(question, True)
    assert game.state == "stuck" and game.legal_moves() == []
    # settled: nothing more to ask, and a second answer is not waited for
    assert game.stuck_question() is None
    assert not game.answer_stuck(question, False)
    assert game.state == "stuck"


def test_an_answer_about_another_position_changes_nothing() -> None:
    rules = rules_for("freecell")
    dead = Game(rules, 1, position=rules.position_from_text(FREECELL_DEAD))
    foreign = dead.stuck_question()
    assert foreign is not None
    for variant, options, deals in PLAYOUTS[:1]:
        for deal in deals:
            game = new_game(variant, seed=deal, options=options)
            reference = new_game(variant, seed=deal, options=options)
            for action in playout(variant, options, deal):
                waiting = game.stuck_question()
                # the dead board's verdict, offered to a game at another position
                assert not game.answer_stuck(foreign, True)
                if waiting is not None:
                    # the same position under other options is another question
                    other = dataclasses.replace(waiting, options=(("autoplay", False),))
                    assert not game.answer_stuck(other, not answer(waiting))
                assert game.view() == reference.view()
                game.play(action)
                reference.play(action)


def test_an_older_question_is_refused_after_the_game_moved_on() -> None:
    older: list[StuckQuestion] = []
    for deal in range(1, 16):
        actions = playout("freecell", {"autoplay": True}, deal)
        game = new_game("freecell", seed=deal)
        for action in actions:
            question = game.stuck_question()
            if question is not None:
                older.append(question)
            game.play(action)
        if len(older) >= 3:
            break
    assert len(older) >= 3
    expected = game.view()
    for question in older:
        if question != game.stuck_question():
            assert not game.answer_stuck(question, not answer(question))
    assert game.view() == expected


def test_a_verdict_must_be_a_bool() -> None:
    rules = rules_for("freecell")
    game = Game(rules, 1, position=rules.position_from_text(FREECELL_DEAD))
    question = game.stuck_question()
    assert question is not None
    with pytest.raises(TypeError):
        game.answer_stuck(question, 1)  # type: ignore[arg-type]
