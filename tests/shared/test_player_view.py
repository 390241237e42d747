"""PlayerView: what a player sees, and nothing that would tell a card they have not seen."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from shared.cards import deck
from shared.game import Game
from shared.games import new_game
from shared.player_view import PlayerView, SeenPile
from shared.position import Position
from shared.variants.base import Rules
from tests.shared.positions import CONFIG_PARAMS


def walk(variant: str, options: dict[str, bool], seed: int, steps: int) -> list[Game]:
    """Games of a seeded random walk from deal ``seed`` (with deals, so stocks turn over),
    one per step (each a copy, so that they stay as they were)."""
    rng = random.Random(seed)
    game = new_game(variant, seed=seed, options=options)
    games = []
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        games.append(Game(game.rules, game.deal, position=game.position.copy()))
        game.play("deal" if "deal" in legal and rng.random() < 0.4 else rng.choice(legal))
    return games


def hidden_slots(rules: Rules, pos: Position) -> list[tuple[int, int]]:
    """The places of the face-down cards the player has not seen: all of them, but a stock
    turned over from the waste (every card of it has been face up)."""
    turned = pos.redeals_used > 0
    return [
        (i, k)
        for i, down in enumerate(pos.down)
        if not (turned and i == rules.stock)
        for k in range(down)
    ]


def reshuffled(rules: Rules, pos: Position, rng: random.Random) -> Position:
    """``pos`` with its unseen face-down cards dealt again in a random order."""
    slots = hidden_slots(rules, pos)
    cards = [pos.piles[i][k] for i, k in slots]
    rng.shuffle(cards)
    other = pos.copy()
    for (i, k), card in zip(slots, cards, strict=True):
        other.piles[i][k] = card
    return other


def test_the_view_has_fields_for_what_the_player_sees_and_none_other() -> None:
    # The type is the guarantee: no field of either class can hold a card not yet seen.
    assert [f.name for f in dataclasses.fields(PlayerView)] == [
        "variant", "options", "state", "piles", "redeals_used", "unseen",
    ]  # fmt: skip
    assert [f.name for f in dataclasses.fields(SeenPile)] == ["id", "down", "up", "remembered"]
    view = PlayerView.of(new_game("gypsy", seed=3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.unseen = ()  # type: ignore[misc]
    hash(view)  # (frozen through and through: tuples all the way down)


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_every_field_holds_only_what_the_player_has_seen(
    variant: str, options: dict[str, bool]
) -> None:
    for seed in (1, 2, 3):
        ever_up: Counter[int] = Counter()
        for game in walk(variant, options, seed, 150):
            view = PlayerView.of(game)
            pos, rules = game.position, game.rules
            for pile, sight, down in zip(pos.piles, view.piles, pos.down, strict=True):
                assert sight.down == down and sight.up == tuple(pile[down:])
                ever_up |= Counter(sight.up)
                if sight.remembered:
                    # Only a stock turned over, and each of its cards was face up before.
                    assert sight.id == "s" and pos.redeals_used > 0
                    assert sight.remembered == tuple(pile)
                    assert not Counter(sight.remembered) - ever_up
            # Unseen: a sorted multiset (no order), exactly the cards in the unseen places.
            hidden = [pos.piles[i][k] for i, k in hidden_slots(rules, pos)]
            assert view.unseen == tuple(sorted(hidden))
            face_up = [c for p in view.piles for c in (*p.up, *p.remembered)]
            assert sorted([*face_up, *view.unseen]) == sorted(deck() * rules.decks)
            assert (view.variant, view.state, view.redeals_used) == (
                variant, game.state, pos.redeals_used,
            )  # fmt: skip
            assert view.option_map == rules.options


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_games_that_look_the_same_give_equal_views(variant: str, options: dict[str, bool]) -> None:
    rng = random.Random(5)
    for game in walk(variant, options, 4, 80)[::7]:
        view = PlayerView.of(game)
        other = Game(game.rules, 1, position=reshuffled(game.rules, game.position, rng))
        assert PlayerView.of(other) == view and PlayerView.of(other).digest() == view.digest()
        # Any arrangement of the unseen cards fills the view back into a position like it.
        cards = list(view.unseen)
        rng.shuffle(cards)
        assert PlayerView.seen(game.rules, view.fill(cards), view.state) == view


def test_a_changed_face_up_card_or_count_changes_the_view() -> None:
    game = new_game("westhaven", seed=8)
    view = PlayerView.of(game)
    game.play("deal")
    assert PlayerView.of(game) != view and PlayerView.of(game).digest() != view.digest()
    with pytest.raises(ValueError, match="unseen"):
        view.fill([*view.unseen[1:], view.unseen[0] ^ 1])


def test_a_stock_turned_over_is_remembered_in_the_order_the_waste_showed_it() -> None:
    game = new_game("thumb_and_pouch", seed=2)
    waste = []
    while game.position.piles[game.rules.stock]:
        game.play("deal")
        waste.append(game.position.piles[game.rules.waste][-1])
    assert PlayerView.of(game).piles[0].remembered == ()  # the first pass is unseen
    game.play("deal")  # the waste turned over: the card first turned comes first again
    stock = PlayerView.of(game).piles[0]
    assert stock.id == "s" and stock.down == len(waste) and stock.up == ()
    assert stock.remembered == tuple(reversed(waste))
    assert PlayerView.of(game).unseen == tuple(
        sorted(c for p, d in zip(game.position.piles, game.position.down, strict=True)
               for c in p[:d] if p is not game.position.piles[0])
    )  # fmt: skip
