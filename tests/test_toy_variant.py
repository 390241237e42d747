"""A sixth variant, defined in this file alone, plays through the engine, the solver and a server.

A variant is one Rules subclass that declares what the rest of the code needs
(its layout, its solver search, its stuck proof, which piles are
interchangeable, its daily budget) and is registered the way the five are:
``Variants((*STANDARD.classes, ToyRules))``. No other file knows the toy, so
if anything outside its class still switched on the variant, this would fail:
the real server (``App(config, variants=...)``, on a loopback port with an
SQLite file) deals it, plays it and hints it like any other.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from server.app import App
from server.config import Config
from shared.cards import NAME, RANK
from shared.deals import aisleriot_deal, commitment, keyed_order
from shared.errors import IllegalMove, InvalidOptions
from shared.game import Game
from shared.games import new_game, replay, rules_for
from shared.notation import Move
from shared.player_view import PlayerView
from shared.position import Position
from shared.record import from_text, to_text
from shared.solver import UNWINNABLE, WON, Budget, hint, hint_all_seeing, solve
from shared.stuck import StuckProver, answer
from shared.variants import STANDARD, Variants
from shared.variants.base import InternalMove, Rules
from shared.variants.layout import Layout
from tests.server.conftest import open_client
from tests.shared.positions import reference_progress

FOUNDATIONS = ("f0", "f1", "f2", "f3")
COLUMNS = tuple(f"t{i}" for i in range(8))


class ToyRules(Rules):
    """Eight columns, the whole deck face up; a top card goes home, onto a column top one
    rank higher (any suit) or into an empty column (unless it is alone)."""

    id = "toy"
    name = "Toy"
    max_score = 52
    pile_ids = (*FOUNDATIONS, *COLUMNS)
    layout = Layout.of(FOUNDATIONS, COLUMNS, down=COLUMNS)
    interchangeable = ("t", "f")
    daily_positions = 5_000

    def lay_out(self, order: list[int]) -> Position:
        # (a seed's order is Aisleriot's, as Rules.numbered_order gives it unless told)
        piles: list[list[int]] = [[] for _ in self.pile_ids]
        for k, card in enumerate(order):
            piles[self.tableau[k % 8]].append(card)
        return Position(piles, [0] * len(piles))

    def legal(self, pos: Position) -> list[InternalMove]:
        piles = pos.piles
        moves: list[InternalMove] = []
        for s in self.tableau:
            pile = piles[s]
            if not pile:
                continue
            card = pile[-1]
            moves.extend(
                (s, 1, f) for f in self.foundations if self.foundation_accepts(pos, card, f)
            )
            for t in self.tableau:
                target = piles[t]
                if t == s or (not target and len(pile) == 1):
                    continue
                if not target or RANK[target[-1]] == RANK[card] + 1:
                    moves.append((s, 1, t))
        return moves

    def why_illegal(self, pos: Position, move: InternalMove) -> str | None:
        src, count, dst = move
        if src < 0:
            return "the toy has no stock"
        reason = self.basic_reason(pos, move)
        if reason:
            return reason
        if self.is_foundation[src]:
            return "cards on the foundations stay there"
        if count > 1:
            return "one card at a time"
        card = pos.piles[src][-1]
        if self.is_foundation[dst]:
            return self.foundation_reason(pos, card, dst)
        target = pos.piles[dst]
        if not target:
            return "a card alone in its column stays there" if len(pos.piles[src]) == 1 else None
        if RANK[target[-1]] != RANK[card] + 1:
            return f"{NAME[card]} cannot go on {NAME[target[-1]]}: needs one rank lower"
        return None


TOYS = Variants((*STANDARD.classes, ToyRules))
#: a deal the solver wins within a few thousand positions, and one it proves lost
WINNABLE, UNWINNABLE_DEAL = 6, 1


def random_game(seed: int, rng: random.Random, steps: int = 300) -> Game:
    """A seeded random game of the toy (some undos among the moves), up to ``steps``."""
    game = new_game("toy", seed=seed, variants=TOYS)
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(rng.choice(legal))
        if rng.random() < 0.1:
            game.undo()
    return game


def test_the_toy_is_registered_as_the_five_are() -> None:
    assert TOYS.get("toy") is ToyRules and "toy" in TOYS and "toy" not in STANDARD
    assert TOYS.ids == (*STANDARD.ids, "toy")
    info = TOYS.info()[-1]
    assert info == {
        "id": "toy",
        "name": "Toy",
        "options": {},
        "max_score": 52,
        "layout": {
            "rows": [list(FOUNDATIONS), list(COLUMNS)],
            "fan": {**dict.fromkeys(FOUNDATIONS, "stack"), **dict.fromkeys(COLUMNS, "down")},
        },
        "pile_names": {
            **{f"f{i}": f"foundation {i + 1}" for i in range(4)},
            **{f"t{i}": f"tableau {i + 1}" for i in range(8)},
        },
    }
    assert ToyRules.card_count == 52
    with pytest.raises(InvalidOptions, match="unknown variant 'toy'"):
        new_game("toy", seed=1)  # the standard registry does not know it


def test_a_toy_game_plays_undoes_and_replays() -> None:
    rng = random.Random(3)
    for seed in range(1, 6):
        game = random_game(seed, rng)
        assert game.state in ("won", "stuck", "playing")
        again = replay(game.record(), variants=TOYS)
        assert again.view(reveal=True) == game.view(reveal=True)
        assert replay(from_text(to_text(game.record())), variants=TOYS).state == game.state
    game = new_game("toy", seed=WINNABLE, variants=TOYS)
    first = game.legal_moves()[0]
    assert game.play(Move.parse(first)) == Move.parse(first)
    with pytest.raises(IllegalMove, match="one card at a time"):
        game.play("t0:2>t1")


def test_a_toy_game_deals_a_key_as_it_deals_a_seed() -> None:
    # The toy lays out a deal order; a numbered deal's order and a keyed deal's reach it alike.
    key = bytes(range(32))
    keyed = new_game("toy", key=key, variants=TOYS)
    order = keyed_order(key)
    assert [NAME[c] for c in keyed.position.piles[4]] == [NAME[c] for c in order[0::8]]
    assert keyed.view()["deal"] == {"commitment": commitment("toy", key)}
    numbered = new_game("toy", seed=WINNABLE, variants=TOYS)
    assert numbered.position == ToyRules().lay_out(aisleriot_deal(WINNABLE))
    keyed.play(keyed.legal_moves()[0])
    again = replay(from_text(to_text(keyed.record(reveal_key=True))), variants=TOYS)
    assert again.view(reveal=True) == keyed.view(reveal=True)


def test_the_generic_stuck_proof_serves_the_toy() -> None:
    rules = rules_for("toy", variants=TOYS)
    rng = random.Random(7)
    stuck_games = 0
    for seed in range(1, 30):
        game = random_game(seed, rng)
        if game.state == "stuck":
            stuck_games += 1
            assert reference_progress(rules, game.position.copy(), 10**6) is False
            # handed out as data, and answered in a prover that knows the toy
            position = game.position
            fresh = Game(rules, seed, position=position.copy())
            question = fresh.stuck_question()
            if question is not None:
                assert StuckProver(TOYS).answer(question) is True
                assert answer(question, TOYS) is True
                assert fresh.answer_stuck(question, True)
            assert fresh.state == "stuck"
    assert stuck_games >= 5


def test_the_solver_solves_and_hints_the_toy() -> None:
    result = solve("toy", WINNABLE, {}, Budget(positions=20_000), variants=TOYS)
    assert result.verdict == WON
    game = new_game("toy", seed=WINNABLE, variants=TOYS)
    assert hint(PlayerView.of(game), TOYS, sampling_seed=0) in game.legal_moves()
    assert hint_all_seeing(game) in game.legal_moves()
    for action in result.line:
        game.play(action)
    assert game.state == "won"
    lost = solve("toy", UNWINNABLE_DEAL, {}, Budget(positions=20_000), variants=TOYS)
    assert lost.verdict == UNWINNABLE


async def test_a_real_server_deals_plays_and_hints_the_toy(tmp_path: Path) -> None:
    config = Config(
        host="127.0.0.1",
        port=0,
        db=f"sqlite+aiosqlite:///{tmp_path / 'toy.db'}",
        hint_budget=0.2,
        daily_ahead=False,
        stuck_workers=0,
        metrics_port=0,  # /metrics on a free port of its own: tests run side by side
    )
    app = App(config, variants=TOYS)
    await app.start()
    try:
        client = await open_client(app)
        welcome = await client.hello("toymaker")
        assert welcome["server"]["variants"][-1] == TOYS.info()[-1]
        game = await client.start("toy", seed=WINNABLE)
        assert game["variant"] == "toy" and game["legal"] and game["state"] == "playing"
        hinted = await client.request("hint", game=game["id"])
        assert hinted["move"] in game["legal"]
        played = await client.move(game, hinted["move"])
        assert played["type"] == "game" and played["game"]["ply"] == 1, played
        refused = await client.move(played["game"], "t0:2>t1")
        assert refused["code"] == "illegal_move" and "one card at a time" in refused["message"]
        again = await client.request("get_game", game=game["id"])
        assert again["game"]["piles"] == played["game"]["piles"]
    finally:
        await app.stop()
