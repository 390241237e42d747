"""No module of ``shared/`` keeps state: playing games changes no module-level container.

Memos and caches belong to an object with a plain owner and lifetime (a game,
a search, a StuckProver); tables built at import are fine as long as nothing
changes them afterwards. So this test imports every shared module, takes a
deep snapshot of every module-level container (dicts, lists, sets, bytearrays,
read-only mappings, the caches of ``functools.lru_cache`` functions) and of
every container attribute of the classes those modules define, plays random
games of every variant (moves, undos, auto, the stuck checks in and out of
the game, the solver's hints and solves, the Python and the compiled stuck
search, each board's ``game`` frame written and read back as the protocol
does it), and fails if any of them changed. Objects of a shared class held at
module level are looked into too: a cache inside one (a packer of pile bytes,
say) is module state all the same.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType, ModuleType

import pytest

from shared import protocol
from shared.board_view import BoardView
from shared.games import new_game, replay
from shared.player_view import PlayerView
from shared.protocol.frames import PackedPiles
from shared.solver import Budget, HintBudget, hint, hint_all_seeing, solve, solve_position
from shared.stuck import StuckProver, answer
from shared.variants import STANDARD
from tests.shared.positions import CONFIGS

ROOT = Path(__file__).resolve().parents[2]

CONTAINERS = (dict, list, set, bytearray, MappingProxyType)


def shared_modules() -> list[ModuleType]:
    names = []
    for path in sorted((ROOT / "shared").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return [importlib.import_module(name) for name in names]


def frozen(value: object, depth: int = 0) -> object:
    """A copy of ``value`` deep enough that any later change to it compares unequal."""
    if depth > 6:
        return value
    if isinstance(value, Mapping):
        return ("map", type(value), {k: frozen(v, depth + 1) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return (type(value), [frozen(v, depth + 1) for v in value])
    if isinstance(value, set | frozenset):
        return (type(value), frozenset(value))
    if isinstance(value, bytearray):
        return bytes(value)
    return value


def module_state() -> Iterator[tuple[str, object]]:
    """(name, frozen value) of every container a shared module holds at module level, in
    the classes it defines, and in its lru_cache functions."""
    for module in shared_modules():
        for name, value in vars(module).items():
            where = f"{module.__name__}.{name}"
            if isinstance(value, CONTAINERS):
                yield where, frozen(value)
            elif isinstance(value, functools._lru_cache_wrapper):
                yield where, value.cache_info().currsize
            elif isinstance(value, type) and value.__module__ == module.__name__:
                for attr, member in vars(value).items():
                    if isinstance(member, CONTAINERS):
                        yield f"{where}.{attr}", frozen(member)
            elif type(value).__module__.startswith("shared."):
                yield from _attributes(where, value)


def _attributes(where: str, value: object) -> Iterator[tuple[str, object]]:
    """The container attributes of an object of a shared class (``__dict__`` and slots)."""
    names = set(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        slots = vars(cls).get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    for attr in sorted(names):
        member = getattr(value, attr, None)
        if isinstance(member, CONTAINERS):
            yield f"{where}.{attr}", frozen(member)


def play_everything(seed: int) -> None:
    """Random games of every variant and option, with every part of the engine at work."""
    rng = random.Random(seed)
    for native in (True, False):
        prover = StuckProver(native=native)
        for variant, options in CONFIGS:
            game = new_game(variant, seed=rng.randint(1, 10_000), options=options, prover=prover)
            packed = PackedPiles()
            for step in range(120):
                question = game.stuck_question()
                if question is not None and step % 2:
                    game.answer_stuck(question, answer(question))
                legal = game.legal_moves()
                game.view()
                framed(game.board(), packed if step % 3 else None)
                if not legal:
                    if game.state == "stuck" and step % 3:
                        game.undo()
                        continue
                    break
                roll = rng.random()
                if roll < 0.08 and game.ply:
                    game.undo()
                elif roll < 0.12:
                    with contextlib.suppress(ValueError):
                        game.play("auto")
                elif roll < 0.14:
                    with contextlib.suppress(ValueError):
                        game.play("t0>f")
                else:
                    game.play(rng.choice(legal))
            hint_all_seeing(game, Budget(positions=300))
            hint(PlayerView.of(game), sampling_seed=1, budget=HintBudget(samples=2, positions=150))
            solve_position(game, Budget(positions=300))
            replay(game.record(), prover=prover)
            prover.no_progress_possible(game.rules, game.position)
    for cls in STANDARD:
        solve(cls.id, rng.randint(1, 10_000), {}, Budget(positions=500))


def framed(board: BoardView, packed: PackedPiles | None) -> None:
    """The board's ``game`` reply written as the server writes it and read as a client does."""
    view = protocol.GameView("g1", board, protocol.DealView(seed=7), 0, 1000, packed)
    frame = protocol.encode(protocol.GameReply(game=view, re=1))
    assert protocol.decode_reply(frame) == protocol.GameReply(game=view, re=1)


def changes(before: dict[str, object], after: dict[str, object]) -> list[str]:
    return sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )


def test_playing_changes_no_module_level_container() -> None:
    before = dict(module_state())
    assert len(before) > 50, "the snapshot found almost nothing: is it looking?"
    play_everything(2)
    changed = changes(before, dict(module_state()))
    assert not changed, f"module-level state changed by playing: {changed}"


def test_the_snapshot_sees_a_memo_filled_deep_inside_a_module_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The test above is only as good as its eyes: a memo filled in play would be seen.
    from shared.variants.freecell import search

    memo: dict[str, list[int]] = {"boards": []}
    monkeypatch.setattr(search, "MEMO", memo, raising=False)
    before = dict(module_state())
    memo["boards"].append(1)
    assert changes(before, dict(module_state())) == ["shared.variants.freecell.search.MEMO"]
