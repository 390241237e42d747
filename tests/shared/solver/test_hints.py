"""The players' hint: it sees only the PlayerView, so games that look alike get one hint."""

from __future__ import annotations

import random

import pytest

from shared.game import Game
from shared.games import new_game
from shared.player_view import PlayerView
from shared.position import Position
from shared.solver import Budget, HintBudget, hint, hint_all_seeing
from shared.solver.hints import Arrangements, distinct_moves, seen_key
from shared.variants import STANDARD
from shared.variants.base import InternalMove
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


def test_when_every_move_leads_back_where_the_player_has_been_there_is_no_hint() -> None:
    # Freecell hides nothing: every move's view is foreseen; say the player saw them all.
    for game in walk("freecell", {}, 617, 30)[::6]:
        view = PlayerView.of(game)
        been = set()
        for move in game.legal_moves():
            after = Game(game.rules, 1, position=game.position.copy())
            after.play(move)
            been.add(PlayerView.of(after))
        assert hint(view, sampling_seed=0, budget=SMALL, avoid=been) is None
        # One place left to go (and every view that plays the same as it): the hint goes there.
        first = seen_key(game.rules, next(iter(been)))
        rest = [seen for seen in been if seen_key(game.rules, seen) != first]
        advice = hint(view, sampling_seed=0, budget=SMALL, avoid=rest)
        assert advice is not None
        after = Game(game.rules, 1, position=game.position.copy())
        after.play(advice)
        assert seen_key(game.rules, PlayerView.of(after)) == first


def test_a_view_with_a_card_on_another_empty_foundation_is_the_same_position() -> None:
    # Gypsy's foundations are interchangeable: a card alone on f0 or on f5 plays the same.
    rules = STANDARD.rules("gypsy", {})
    game = new_game("gypsy", seed=3)
    piles = [pile[:] for pile in game.position.piles]
    f0, f5 = rules.pile_ids.index("f0"), rules.pile_ids.index("f5")
    t0 = rules.pile_ids.index("t0")
    down = game.position.down[:]
    card = piles[t0].pop()  # (face up: the column's top card)
    one = [pile[:] for pile in piles]
    other = [pile[:] for pile in piles]
    one[f0].append(card)
    other[f5].append(card)
    views = [PlayerView.seen(rules, Position(board, down[:], 0)) for board in (one, other)]
    assert views[0] != views[1]
    assert seen_key(rules, views[0]) == seen_key(rules, views[1])


#: Gypsy deal 3 to where hints of one arrangement each moved a card from f0 to t6 and back
GYPSY_3 = [
    "t3>t6", "t7>t6", "t4>t3", "t2>t4", "deal", "deal", "t7>t3", "t7>t2", "t5>t6", "t0>t3",
    "t1>t7", "deal", "t4>f0", "t0>f0", "t1>t4", "deal", "t6>f1", "t2>t3", "t1>t6", "t4>t1",
    "t4:2>t0", "t0:3>t3",
]  # fmt: skip


@pytest.mark.parametrize("told", [True, False])
def test_hints_told_where_the_player_has_been_walk_no_circle(told: bool) -> None:
    game = new_game("gypsy", seed=3)
    been = [PlayerView.of(game)]
    for move in GYPSY_3:
        game.play(move)
        been.append(PlayerView.of(game))
    rules = game.rules
    keys = [seen_key(rules, view) for view in been]
    one = HintBudget(samples=1, positions=1_500)
    circled = False
    for _ in range(6):
        view = PlayerView.of(game)
        advice = hint(view, sampling_seed=0, budget=one, avoid=been if told else ())
        assert advice is not None
        game.play(advice)
        after = PlayerView.of(game)
        circled |= seen_key(rules, after) in keys
        been.append(after)
        keys.append(seen_key(rules, after))
    # Told, never back; not told (the hint before), round and round f0 > t6 > f0.
    assert circled is not told


def test_the_rules_must_be_the_views_own() -> None:
    view = PlayerView.of(new_game("osmosis", seed=1, options={"deal_three": True}))
    with pytest.raises(ValueError, match="do not play"):
        hint(view, STANDARD.rules("osmosis"), sampling_seed=0)
    assert (
        hint(view, STANDARD, sampling_seed=0, budget=SMALL)
        in new_game("osmosis", seed=1, options={"deal_three": True}).legal_moves()
    )


def null_moves(game: Game) -> list[str]:
    """The legal moves of ``game`` after which the position has its canonical key again (a
    foundation card moved onto another empty foundation, say)."""
    from shared.solver.api import position_after
    from shared.variants.keys import key_function

    rules, pos = game.rules, game.position
    key = key_function(rules)
    return [
        rules.move_name(move)
        for move in rules.legal(pos)
        if key(position_after(rules, pos, move)) == key(pos)
    ]


def test_a_move_that_changes_nothing_is_never_the_hint() -> None:
    found = 0
    for seed in range(1, 9):
        for game in walk("thumb_and_pouch", {}, seed, 80)[::3]:
            null = null_moves(game)
            if not null or len(null) == len(game.legal_moves()):
                continue
            view = PlayerView.of(game)
            board = Arrangements(view, 0).next()
            kept = rules_names(game, distinct_moves(game.rules, board, game.rules.legal(board)))
            assert not set(null) & set(kept) and kept
            assert hint(view, sampling_seed=0, budget=SMALL) not in null
            found += 1
    assert found >= 3


def rules_names(game: Game, moves: list[InternalMove]) -> list[str]:
    return game.rules.move_names(moves)


class Looks:
    """A clock that counts how often it is read."""

    def __init__(self) -> None:
        self.looks = 0

    def __call__(self) -> float:
        self.looks += 1
        return 0.0


def test_one_move_worth_making_is_answered_without_a_search() -> None:
    # The clock is read only by a search: a position with one distinct move never reads it.
    found = 0
    for seed in range(1, 6):
        for game in walk("gypsy", {}, seed, 60):
            view = PlayerView.of(game)
            board = Arrangements(view, 0).next()
            moves = distinct_moves(game.rules, board, game.rules.legal(board))
            if len(moves) != 1 or not view.unseen:
                continue
            clock = Looks()
            budget = HintBudget(seconds=60, clock=clock)
            assert hint(view, sampling_seed=0, budget=budget) == game.rules.move_name(moves[0])
            assert clock.looks == 0
            found += 1
    assert found >= 3
