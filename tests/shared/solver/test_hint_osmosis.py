"""The players' hint in Osmosis: a safe foundation move is the hint with no search, and
the comparison of moves takes more arrangements than the other variants' (its searches
decide an arrangement in a few dozen positions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shared.solver.hints as hints
from shared.game import Game
from shared.player_view import PlayerView
from shared.solver import HintBudget, hint
from shared.solver.hints import MORE_ARRANGEMENTS, Arrangements, most_arrangements
from shared.variants import STANDARD
from tests.shared.test_player_view import reshuffled, walk

SMALL = HintBudget(samples=2, positions=300)


def safe_moves(game: Game) -> list[str]:
    """The legal moves onto a started foundation (Osmosis with one card per deal: the
    moves its ``safe_move`` allows)."""
    rules, pos = game.rules, game.position
    return [
        rules.move_name(move)
        for move in rules.legal(pos)
        if move[0] >= 0 and rules.pile_ids[move[2]][0] == "f" and rules.safe_move(pos, move)
    ]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), step=st.integers(0, 80), shuffle=st.integers(0, 2**16))
def test_a_safe_move_is_the_hint_whatever_the_face_down_cards(
    seed: int, step: int, shuffle: int
) -> None:
    # What makes a move safe (a started foundation) is face up: other face-down cards,
    # the same hint, and with a safe move legal it is one of them.
    games = walk("osmosis", {}, seed, step + 1)
    game = games[-1]
    if game.state != "playing":
        return
    advice = hint(PlayerView.of(game), sampling_seed=0, budget=SMALL)
    safe = safe_moves(game)
    if safe:
        assert advice in safe
    shuffled = reshuffled(game.rules, game.position, random.Random(shuffle))
    other = Game(game.rules, 1, position=shuffled)
    if other.state == game.state:
        assert hint(PlayerView.of(other), sampling_seed=0, budget=SMALL) == advice


def test_a_safe_move_is_answered_without_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    games = [g for g in walk("osmosis", {}, 5, 120) if g.state == "playing" and safe_moves(g)]
    assert len(games) >= 5
    for game in games:
        with monkeypatch.context() as patched:
            patched.setattr(hints, "solve_rules", _no_search)
            assert hint(PlayerView.of(game), sampling_seed=0, budget=SMALL) in safe_moves(game)


def _no_search(*_: object) -> None:
    raise AssertionError("a safe move needs no search")


def test_with_three_cards_per_deal_no_move_is_safe() -> None:
    # A card leaving the waste changes which cards the deals bring up.
    rules = STANDARD.rules("osmosis", {"deal_three": True})
    for game in walk("osmosis", {"deal_three": True}, 5, 120):
        pos = game.position
        assert not any(rules.safe_move(pos, move) for move in rules.legal(pos) if move[0] >= 0)


def test_osmosis_compares_its_moves_on_more_arrangements(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where two moves stay level (the comparison never settles), an Osmosis hint goes on
    # past the other variants' MORE_ARRANGEMENTS x samples arrangements.
    budget = HintBudget(samples=1, positions=1_500)
    osmosis = STANDARD.rules("osmosis", {})
    assert most_arrangements(osmosis, budget) > MORE_ARRANGEMENTS
    assert most_arrangements(STANDARD.rules("gypsy", {}), budget) == MORE_ARRANGEMENTS
    drawn = [0]
    original = Arrangements.next

    def counted(self: Arrangements) -> object:
        drawn[0] += 1
        return original(self)

    monkeypatch.setattr(Arrangements, "next", counted)
    most = 0
    for game in walk("osmosis", {}, 1, 60)[::3]:
        if game.state != "playing" or safe_moves(game):
            continue
        drawn[0] = 0
        hint(PlayerView.of(game), sampling_seed=0, budget=budget)
        most = max(most, drawn[0])
    # (the sampling before the first arrangement won draws some too: at most twice the cap)
    assert 2 * MORE_ARRANGEMENTS < most <= 2 * most_arrangements(osmosis, budget) + 1
