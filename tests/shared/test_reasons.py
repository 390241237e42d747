"""Refusals explain themselves without giving away a face-down card.

Every reason goes to the player; one that names a hidden card leaks what the
server must never send. This plays random games of every variant and tries
every candidate move that is not legal.
"""

import random
import re
from collections import Counter

import pytest

from shared.errors import IllegalMove
from shared.games import new_game
from shared.notation import Move
from shared.variants import STANDARD


def hidden_only(view: dict[str, object]) -> set[str]:
    """Names of cards that lie face down and are not also face up (Gypsy has two of each)."""
    down: Counter[str] = Counter()
    up: Counter[str] = Counter()
    for pile in view["piles"]:  # type: ignore[attr-defined]
        down.update(pile["down"])
        up.update(pile["up"])
    return {name for name in down if up[name] == 0}


@pytest.mark.parametrize("variant", [v["id"] for v in STANDARD.info()])
def test_no_refusal_names_a_face_down_card(variant: str) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in (1, 2, 3):
        game = new_game(variant, seed=seed)
        ids = game.rules.pile_ids
        for _ in range(25):
            secret = hidden_only(game.view(reveal=True))
            legal = set(game.legal_moves())
            before = game.view(reveal=True)
            for src in ids:
                size = len(game.position.piles[game.rules.index[src]])
                for count in {1, 2, size}:
                    for dst in (*ids, "f"):
                        if count < 1 or src == dst:
                            continue
                        text = str(Move(src, count, dst))
                        if text in legal:
                            continue
                        try:
                            game.play(text)
                        except IllegalMove as refused:
                            said = set(re.findall(r"\b[A2-9TJQK][CDHS]\b", str(refused)))
                            assert not said & secret, (text, str(refused))
                            checked += 1
                        else:
                            assert dst == "f", f"{text} played without being listed"
                            game.undo()
            assert game.view(reveal=True)["piles"] == before["piles"]
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
    assert checked > 100
