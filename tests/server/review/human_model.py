"""A model of a person's pace, to make synthetic timings while no person's game is recorded.

NOT a person: every figure below is assumed, none measured from people here.
It exists so that the fixture format, its loader and the tests that say
"review does not hold a person" run today; games played by people in both
clients are to replace and join these (server/review/timings.py).

The model plays a winning line (the solver's, so that it ends won) the way
the keystroke-level model describes a person at work (Card, Moran & Newell,
1983), with the variability of real play:

- before the first action, a look at the whole deal: 6 to 25 s;
- before each action a mental preparation, KLM's M (1.35 s) times a
  log-normal factor (sigma 0.5); half of it before an obvious move (a card
  to a foundation);
- the hand: in the terminal two key presses of an average typist, KLM's K
  0.28 s each; in the browser a pointing, KLM's P 1.1 s, and a button press
  and release, B 0.1 s each;
- a long think now and then (one action in 7): 3 to 20 s more;
- exploring (one action in 12): a legal move off the line, a look (0.8 to
  3 s), then undo (one key or click).

Figures: M 1.35 s, K 0.28 s (an average non-secretary typist), P 1.1 s and
B 0.1 s are KLM's published operator times; the rest (the first look, the
share of long thinks and of explorations) are guesses of this model.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.review import timings
from server.review.line import solver_line
from server.review.timings import SYNTHETIC, Timings
from shared.games import new_game
from shared.notation import UNDO

#: where the games review is checked against are kept (server/review/timings.py)
FOLDER = Path(__file__).parent / "timings"

M_MS, K_MS, P_MS, B_MS = 1350, 280, 1100, 100
HAND_MS = {"terminal": 2 * K_MS, "web": P_MS + 2 * B_MS}


def _game(variant: str, deal: dict[str, Any]) -> Any:
    key = deal.get("key")
    return new_game(
        variant, seed=deal.get("seed"), key=bytes.fromhex(key) if key is not None else None
    )


def play(
    variant: str, deal: dict[str, Any], line: Sequence[str], client: str, seed: int
) -> Timings:
    """``line`` (a winning line of the deal) played as the model plays it in ``client``."""
    rng = random.Random(seed)
    game = _game(variant, deal)
    hand = HAND_MS[client]
    now = rng.randint(6_000, 25_000)
    actions: list[tuple[str, int]] = []
    for n, step in enumerate(line):
        explore = rng.random() < 1 / 12
        if explore and n < len(line) - 4:  # (near the end a detour could win the game)
            others = [m for m in game.legal_moves() if m != step]
            if others:
                detour = rng.choice(others)
                game.play(detour)
                now += hand + int(M_MS * rng.lognormvariate(0, 0.5))
                actions.append((detour, now))
                now += rng.randint(800, 3_000) + hand // 2
                game.undo()
                actions.append((UNDO, now))
        obvious = ">f" in step
        think = M_MS * rng.lognormvariate(0, 0.5) * (0.5 if obvious else 1.0)
        if rng.random() < 1 / 7:
            think += rng.randint(3_000, 20_000)
        now += hand + int(think * rng.lognormvariate(0, 0.2))
        game.play(step)
        actions.append((step, now))
    note = (
        f"NOT a person: tests/server/review/human_model.py, seed {seed}, the solver's line "
        "played at a modelled human pace with think pauses, hesitations and undos"
    )
    won = game.state == "won"
    return Timings(SYNTHETIC, client, note, variant, {}, deal, won, tuple(actions))


#: the synthetic games kept: (file stem, variant, deal, client, model seed)
KEPT = (
    ("human-model-freecell-terminal", "freecell", {"key": bytes(range(32)).hex()}, "terminal", 1),
    ("human-model-freecell-web", "freecell", {"key": bytes(range(32)).hex()}, "web", 2),
    ("human-model-westhaven-web", "westhaven", {"key": bytes(range(32)).hex()}, "web", 3),
    ("human-model-gypsy-terminal", "gypsy", {"key": bytes(range(32)).hex()}, "terminal", 4),
)


def every(source: str | None = None) -> list[Timings]:
    """Every game kept in :data:`FOLDER` (of ``source`` only, if given)."""
    return timings.kept(FOLDER, source)


def made() -> dict[str, Timings]:
    """The kept synthetic games, made again (the test checks the files are exactly these)."""
    out = {}
    for stem, variant, deal, client, seed in KEPT:
        record = {"variant": variant, "options": {}, **deal}
        line = solver_line(record, positions=200_000, seconds=math.inf)
        assert line is not None, f"{stem}: the solver found no line"
        out[stem] = play(variant, deal, line, client, seed)
    return out


def write(folder: Path = FOLDER) -> None:
    """``python -m tests.server.review.human_model``: write the kept synthetic games."""
    folder.mkdir(exist_ok=True)
    for stem, game in made().items():
        (folder / f"{stem}.json").write_text(game.to_json())


if __name__ == "__main__":
    write()
