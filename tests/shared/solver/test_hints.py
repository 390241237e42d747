"""The players' hint: it sees only the PlayerView, so games that look alike get one hint."""

from __future__ import annotations

import random

import pytest

from shared.game import Game
from shared.games import new_game
from shared.player_view import PlayerView
from shared.solver import Budget, HintBudget, hint, hint_all_seeing
from shared.solver.hints import Arrangements
from shared.variants import STANDARD
from tests.shared.positions import CONFIG_PARAMS
from tests.shared.test_player_view import reshuffled, walk

#: small, so that the tests run quickly; a hint is a function of it all the same
SMALL = HintBudget(samples=3, positions=300)
HIDDEN = [p for p in CONFIG_PARAMS if p.values[0] != "freecell"]


@pytest.mark.parametrize(("variant", "options"), HIDDEN)
def test_games_that_look_alike_get_the_same_hint(variant: str, options: dict[str, bool]) -> None:
    # Other face-down cards (the stock's order among them): the same hint, every time.
    rng = random.Random(9)
    checked = 0
    for seed in (1, 2):
        for game in walk(variant, options, seed, 90)[::9]:
            if game.state != "playing" or not PlayerView.of(game).unseen:
                continue
            advice = hint(PlayerView.of(game), sampling_seed=7, budget=SMALL)
            for _ in range(2):
                other = Game(game.rules, 1, position=reshuffled(game.rules, game.position, rng))
                assert other.position != game.position or len(PlayerView.of(game).unseen) < 2
                # (the player sees whether a game is stuck; the proof of it sees every card,
                # so with other cards it may be: then it is another view, and no hint)
                if other.state == game.state:
                    assert hint(PlayerView.of(other), sampling_seed=7, budget=SMALL) == advice
                    checked += 1
    assert checked >= 12


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_the_hint_is_a_legal_move_and_none_once_the_game_has_ended(
    variant: str, options: dict[str, bool]
) -> None:
    for game in walk(variant, options, 3, 60)[::4]:
        advice = hint(PlayerView.of(game), sampling_seed=1, budget=SMALL)
        if game.state == "playing":
            assert advice in game.legal_moves()
        else:
            assert advice is None
    game.resign()
    assert hint(PlayerView.of(game), sampling_seed=1, budget=SMALL) is None


def test_a_won_game_gets_no_hint() -> None:
    game = new_game("freecell", seed=1)
    for action in hint_line(game):
        game.play(action)
    assert game.state == "won" and hint(PlayerView.of(game), sampling_seed=0) is None


def hint_line(game: Game) -> list[str]:
    from shared.solver import solve_position

    return list(solve_position(game, Budget(positions=50_000)).line)


def test_the_hint_is_a_function_of_the_view_the_seed_and_the_budget() -> None:
    game = walk("gypsy", {}, 6, 30)[-1]
    view = PlayerView.of(game)
    answers = {hint(view, sampling_seed=3, budget=SMALL) for _ in range(3)}
    assert len(answers) == 1
    # Its arrangements are the view's own: another seed, other arrangements.
    first = Arrangements(view, 3).next()
    assert Arrangements(view, 3).next() == first != Arrangements(view, 4).next()
    assert PlayerView.seen(game.rules, first, view.state) == view


def test_freecell_has_nothing_hidden_so_its_hint_is_the_solvers_on_the_board() -> None:
    budget = HintBudget(samples=4, positions=2_000)
    for seed in (1, 617, 11982):
        game = new_game("freecell", seed=seed)
        for _ in range(3):
            seen = hint_all_seeing(game, Budget(positions=8_000))
            assert hint(PlayerView.of(game), sampling_seed=seed, budget=budget) == seen
            assert seen is not None
            game.play(seen)


def test_a_clock_stops_the_sampling_after_the_first_arrangement() -> None:
    game = walk("westhaven", {}, 2, 20)[-1]
    view = PlayerView.of(game)
    ticks = iter(range(0, 10**6, 10))  # every look at the clock is 10 seconds later
    capped = HintBudget(samples=6, positions=300, seconds=5, clock=lambda: next(ticks))
    assert hint(view, sampling_seed=2, budget=capped) == hint(
        view, sampling_seed=2, budget=HintBudget(samples=1, positions=300)
    )
    with pytest.raises(ValueError, match="clock"):
        HintBudget(seconds=1)
    with pytest.raises(ValueError):
        HintBudget(samples=0)


def test_a_hint_never_leads_back_to_where_the_player_has_been() -> None:
    # Find a hinted move that turns no card, then say the player has been where it leads.
    found = 0
    for seed in range(1, 6):
        for game in walk("thumb_and_pouch", {}, seed, 60)[::5]:
            view = PlayerView.of(game)
            advice = hint(view, sampling_seed=0, budget=SMALL)
            if advice is None or len(game.legal_moves()) < 2:
                continue
            after = Game(game.rules, 1, position=game.position.copy())
            after.play(advice)
            there = PlayerView.of(after)
            if there.unseen != view.unseen:
                continue  # it turned a card: where it leads cannot be foreseen
            other = hint(view, sampling_seed=0, budget=SMALL, avoid={there})
            assert other is not None and other != advice and other in game.legal_moves()
            found += 1
    assert found >= 3


def test_the_rules_must_be_the_views_own() -> None:
    view = PlayerView.of(new_game("osmosis", seed=1, options={"deal_three": True}))
    with pytest.raises(ValueError, match="do not play"):
        hint(view, STANDARD.rules("osmosis"), sampling_seed=0)
    assert hint(view, STANDARD, sampling_seed=0, budget=SMALL) in new_game(
        "osmosis", seed=1, options={"deal_three": True}
    ).legal_moves()
