"""Properties of the engine on random playouts of every variant, through the public API.

Each playout deals a numbered deal (a seed) or a keyed one (a 32-byte key), drawn.

Hypothesis drives each playout (which move, when to undo, when to try ``auto``
or the ``X>f`` shorthand, which illegal strings to throw at it) and checks
after every action what must hold in any position of any game:

- cards are conserved: the revealed view holds exactly the deck(s);
- the view and its state agree: ``playing`` exactly when moves are listed,
  ``won`` exactly when every card is on a foundation;
- every listed move plays and is recorded as listed;
- every other string is refused and changes nothing (view and record);
- undo restores the view before the undone action exactly: every field but
  ``ply`` and ``moves``, which count the undo as one more action;
- ``auto`` and ``X>f`` do what docs/rules.md says, checked against a step-by-step
  model built from explicit listed moves;
- replaying the record reproduces the game;
- nothing shows a keyed deal's key unless asked: views, records, refusals;
- the view never names a face-down card.

The examples are derandomised and no example database is used, so CI runs
the same games every time.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from shared.deals import KeyedDeal
from shared.errors import IllegalMove, InvalidNotation
from shared.game import Game
from shared.games import new_game, replay, rules_for
from shared.notation import Move
from shared.record import from_text, to_text
from shared.variants import STANDARD
from tests.shared.positions import CONFIGS

#: examples per configuration: keeps the whole module near a minute (PROPERTIES_EXAMPLES=N for a
#: longer hunt)
EXAMPLES = int(os.environ.get("PROPERTIES_EXAMPLES", "12"))
#: actions per playout at most
MAX_ACTIONS = 60

#: Shrinking a failing playout can take Hypothesis its full five minutes; CI reports the failing
#: example as found. Set PROPERTIES_SHRINK=1 to get the smallest failing playout instead.
PHASES = [Phase.explicit, Phase.reuse, Phase.generate]
if os.environ.get("PROPERTIES_SHRINK"):
    PHASES.append(Phase.shrink)

PROFILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

RANKS = "A23456789TJQK"
SUITS = "CDHS"
ONE_DECK = [r + s for s in SUITS for r in RANKS]
#: every pile id docs/notation.md knows, so that piles a layout lacks are tried too
ALL_PILE_IDS = ["s", "w", *(f"f{i}" for i in range(8)), *(f"t{i}" for i in range(10))] + [
    f"r{i}" for i in range(4)
]
SOURCE_ORDER = "rwt"  # auto scans reserves, then the waste, then the tableau (docs/rules.md)

GARBAGE = [
    "",
    " ",
    "f",
    ">",
    "t0",
    "t0>",
    ">t0",
    "t0->t1",
    "t0>>t1",
    "T0>T1",
    "t0:1>t1",
    "t0:0>t1",
    "t0:01>t1",
    "t0:-2>t1",
    "t0:2>",
    "t10>t0",
    "t0>f8",
    "r4>t0",
    "x>t0",
    "deal ",
    "Deal",
    "DEAL",
    "auto ",
    "undo!",
    "t0>t1 ",
    " t0>t1",
    "t0>f0\n",
    "t0:999999999999999999999>t1",
    "resign",
    "AS",
    "t0:2>f",
]


def test_the_configurations_cover_every_variant_and_option_value() -> None:
    # The playouts below are only as complete as this list.
    covered = {v for v, _ in CONFIGS}
    assert covered == {info["id"] for info in STANDARD.info()}
    for info in STANDARD.info():
        for name, default in info["options"].items():
            assert isinstance(default, bool), f"{info['id']}: add {name}'s values to CONFIGS"
            values = {opts.get(name, default) for v, opts in CONFIGS if v == info["id"]}
            assert values == {False, True}


# -- reading views ------------------------------------------------------------------------------


def _deck(variant: str) -> Counter[str]:
    decks = 2 if variant == "gypsy" else 1
    return Counter(ONE_DECK * decks)


def _without_counters(view: dict[str, Any]) -> dict[str, Any]:
    """The view less ``ply``, ``moves`` and ``undos``, the counters actions advance."""
    return {k: v for k, v in view.items() if k not in ("ply", "moves", "undos")}


def _pile_ids(view: dict[str, Any]) -> list[str]:
    return [p["id"] for p in view["piles"]]


def _foundations(view: dict[str, Any]) -> list[str]:
    return [pid for pid in _pile_ids(view) if pid[0] == "f"]


def _shorthand_target(legal: list[str], src: str, foundations: list[str]) -> str | None:
    """The explicit move ``src>f`` stands for: the first foundation, in pile order, that takes
    ``src``'s top card (docs/rules.md, ``auto``)."""
    for fid in foundations:
        move = f"{src}>{fid}"
        if move in legal:
            return move
    return None


def _auto_sources(view: dict[str, Any]) -> list[str]:
    ids = _pile_ids(view)
    return [pid for kind in SOURCE_ORDER for pid in ids if pid[0] == kind]


def check_invariants(game: Game) -> dict[str, Any]:
    """Everything that holds in every position; returns the revealed view."""
    shown = game.view()
    full = game.view(reveal=True)
    variant = shown["variant"]
    record = game.record()

    # Nothing shows a keyed deal's key unless asked: views (even revealed), record, repr.
    shown_everywhere = json.dumps([shown, full, record]) + repr(game) + repr(game.deal)
    assert not _names_the_key(game, shown_everywhere)
    assert shown["deal"] == game.deal.view() and "key" not in shown["deal"]

    # The hidden and the revealed view differ only in the face-down cards.
    assert {k: v for k, v in shown.items() if k != "piles"} == {
        k: v for k, v in full.items() if k != "piles"
    }
    for hidden, revealed in zip(shown["piles"], full["piles"], strict=True):
        assert hidden["id"] == revealed["id"]
        assert hidden["up"] == revealed["up"]
        assert hidden["down"] == len(revealed["down"])

    # Conservation: exactly the deck(s), nothing lost, nothing doubled.
    cards = Counter(c for p in full["piles"] for c in p["down"] + p["up"])
    assert cards == _deck(variant)

    # The view never names a face-down card: in the whole text of the view, each card name
    # appears exactly as often as it lies face up (Gypsy's twin copies are counted, not guessed).
    text = json.dumps(shown)
    face_up = Counter(c for p in shown["piles"] for c in p["up"])
    for card in _deck(variant):
        assert text.count(card) == face_up[card], f"{card} leaks from a face-down pile"

    # Counters, score and state agree with the record and the board.
    assert shown["ply"] == shown["moves"] == len(record["actions"])
    assert 0 <= shown["score"] <= shown["max_score"]
    legal = shown["legal"]
    assert legal == game.legal_moves()
    assert len(set(legal)) == len(legal), "a move is listed twice"
    for move in legal:
        assert move == "deal" or str(Move.parse(move)) == move, f"{move!r} is not canonical"
        assert not move.endswith(">f"), "the bare foundation shorthand is input only"
    assert (shown["state"] == "playing") == bool(legal)
    on_foundations = sum(len(p["up"]) + len(p["down"]) for p in full["piles"] if p["id"][0] == "f")
    assert (shown["state"] == "won") == (on_foundations == sum(_deck(variant).values()))
    if shown["state"] == "won":
        assert shown["score"] == shown["max_score"]
    redeals = shown["redeals_left"]
    assert redeals is None or (isinstance(redeals, int) and redeals >= 0)
    if shown["state"] == "stuck":
        assert not _direct_progress(full), "stuck declared while a card can go to a foundation"
    return full


def _direct_progress(view: dict[str, Any]) -> list[str]:
    """Moves the rules allow on this board that put a card from play onto a foundation: a
    stuck game must have none (docs/rules.md: never declare stuck falsely)."""
    rules = rules_for(view["variant"], view["options"])
    position = rules.position_from_text(_position_text(view))
    names = [rules.move_name(m) for m in rules.legal(position) if m[0] >= 0]
    return [m for m in names if m.split(">")[1][0] == "f" and m[0] != "f"]


# -- refused actions ----------------------------------------------------------------------------


def _accepted(game: Game, action: str, view: dict[str, Any]) -> bool:
    """Would docs/rules.md accept ``action`` now? (``undo`` is left to the undo checks.)"""
    legal = view["legal"]
    if action in legal:
        return True
    if view["state"] != "playing":
        return False
    if action == "auto":
        return _auto_would_move(view)
    if action.endswith(">f") and action.count(">") == 1:
        src = action[:-2]
        if src not in _pile_ids(view):
            return False
        return _shorthand_target(legal, src, _foundations(view)) is not None
    return False


def _auto_would_move(view: dict[str, Any]) -> bool:
    foundations = _foundations(view)
    return any(
        _shorthand_target(view["legal"], src, foundations) is not None
        for src in _auto_sources(view)
    )


def check_refused(game: Game, action: str, *, well_formed: bool) -> None:
    """``action`` is refused with a reason and leaves the game exactly as it was."""
    before = game.view(reveal=True)
    record = game.record()
    expected: tuple[type[Exception], ...] = (
        (IllegalMove,)
        if well_formed
        else (
            IllegalMove,
            InvalidNotation,
        )
    )
    with pytest.raises(expected) as refused:
        game.play(action)
    message = str(refused.value)
    assert message and message == message.strip()
    assert "the rules do not allow it here" not in message, (
        f"{action!r}: legal() refuses it but why_illegal() finds no reason"
    )
    assert game.view(reveal=True) == before
    assert game.record() == record
    assert not _names_the_key(game, message), "a refusal shows the deal's key"


def _names_the_key(game: Game, text: str) -> bool:
    """``text`` holds the key of the game's keyed deal, in hex or as bytes."""
    deal = game.deal
    return isinstance(deal, KeyedDeal) and (deal.key.hex() in text.lower() or str(deal.key) in text)


def _size(pile: dict[str, Any]) -> int:
    down = pile["down"]
    return (down if isinstance(down, int) else len(down)) + len(pile["up"])


def _move_text(src: str, count: int, dst: str) -> str:
    return f"{src}>{dst}" if count == 1 else f"{src}:{count}>{dst}"


def _candidates(view: dict[str, Any]) -> list[str]:
    """Move strings over every pile pair (piles the layout lacks included) and every count that
    can matter: each group of face-up cards, one more, the whole pile and one more."""
    piles = {p["id"]: p for p in view["piles"]}
    out = ["deal", "auto"]
    for src in ALL_PILE_IDS:
        pile = piles.get(src)
        size = _size(pile) if pile else 0
        counts = sorted({1, *range(2, len(pile["up"]) + 3), size, size + 1} if pile else {1, 2})
        for dst in [*ALL_PILE_IDS, "f"]:
            out.extend(_move_text(src, n, dst) for n in counts if n >= 1)
    return out


#: a move string over any two pile ids and any count: well-formed, whether or not it is legal
STRUCTURED = st.builds(
    _move_text,
    st.sampled_from(ALL_PILE_IDS),
    st.integers(1, 14) | st.integers(1, 110),
    st.sampled_from([*ALL_PILE_IDS, "f"]),
)
#: strings that are not moves at all, or nearly moves
GARBLED = st.sampled_from(GARBAGE) | st.text(alphabet="tfrsw0123456789:>adeulo fT", max_size=8)


def sweep_refusals(game: Game) -> None:
    """Every candidate not accepted is refused with IllegalMove and changes nothing."""
    before = game.view(reveal=True)
    record = game.record()
    for action in _candidates(before):
        if _accepted(game, action, before):
            continue
        with pytest.raises(IllegalMove) as refused:
            game.play(action)
        assert "the rules do not allow it here" not in str(refused.value), (
            f"{action!r}: legal() refuses it but why_illegal() finds no reason"
        )
    assert game.view(reveal=True) == before
    assert game.record() == record


# -- playing ------------------------------------------------------------------------------------


class Playout:
    """A game with the views it had before each action still on the board, for undo checks."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.undo_stack: list[dict[str, Any]] = []

    def play(self, action: str) -> str:
        """Play an accepted action and check what every accepted action must do."""
        game = self.game
        before = game.view(reveal=True)
        record = game.record()
        recorded = game.play(action)
        after = check_invariants(game)
        assert after["ply"] == before["ply"] + 1
        assert game.record()["actions"] == [*record["actions"], recorded]
        self.undo_stack.append(before)
        return recorded

    def undo(self) -> None:
        game = self.game
        current = game.view(reveal=True)
        record = game.record()
        if not self.undo_stack or current["state"] == "won":
            check_refused(game, "undo", well_formed=True)
            with pytest.raises(IllegalMove):
                game.undo()
            assert game.view(reveal=True) == current
            return
        game.undo()
        event(f"undo from {current['state']}")
        restored = check_invariants(game)
        expected = self.undo_stack.pop()
        # "Restores" means: the board (face-down cards and their order included), score,
        # redeals left, state and legal moves are exactly as before the undone action; only the
        # counters move on, by one, since the undo is itself an action.
        assert _without_counters(restored) == _without_counters(expected)
        assert restored["ply"] == current["ply"] + 1
        assert game.record()["actions"] == [*record["actions"], "undo"]

    def play_every_listed_move(self) -> None:
        """Each listed move plays, is recorded as listed, and is taken back by one undo."""
        game = self.game
        before = game.view(reveal=True)
        for move in before["legal"]:
            assert self.play(move) == move
            if game.state == "won":
                # A won game refuses undo: rebuild the position from the record instead.
                assert self.game.record()["actions"][-1] == move
                self.game = replay({**game.record(reveal_key=True), "actions": game.actions[:-1]})
                self.undo_stack.pop()
                game = self.game
                assert _without_counters(game.view(reveal=True)) == _without_counters(before)
                continue
            self.undo()

    def shorthand(self, src: str) -> None:
        """``src>f`` plays the top card to the first foundation that takes it, recorded
        explicitly, exactly as the explicit move would."""
        game = self.game
        view = game.view(reveal=True)
        action = f"{src}>f"
        target = None
        if view["state"] == "playing":
            target = _shorthand_target(view["legal"], src, _foundations(view))
        if target is None:
            event("shorthand refused")
            check_refused(game, action, well_formed=True)
            return
        event("shorthand played")
        assert self.play(action) == target
        shorthand_view = game.view(reveal=True)
        if shorthand_view["state"] == "won":
            actions = [*game.record()["actions"][:-1], target]
            explicit = replay({**game.record(reveal_key=True), "actions": actions})
            assert explicit.view(reveal=True) == shorthand_view
            return
        self.undo()
        assert self.play(target) == target
        assert _without_counters(game.view(reveal=True)) == _without_counters(shorthand_view)

    def auto(self) -> None:
        """``auto`` matches a model that plays, one listed move at a time, the first source's
        top card (reserves, waste, tableau) to the first foundation that takes it."""
        game = self.game
        view = game.view(reveal=True)
        model = _auto_model(game, view)
        if view["state"] != "playing" or model is None:
            event("auto refused")
            check_refused(game, "auto", well_formed=True)
            return
        event("auto played")
        assert self.play("auto") == "auto"
        assert game.view(reveal=True)["piles"] == model
        if game.state != "won":
            # Undone as one action, then played again so that the playout goes on from it.
            self.undo()
            assert self.play("auto") == "auto"


def _position_text(view: dict[str, Any]) -> str:
    lines = []
    for pile in view["piles"]:
        words = ["?" + c for c in pile["down"]] + pile["up"]
        if words:
            lines.append(f"{pile['id']}: {' '.join(words)}")
    return "\n".join(lines)


def _auto_model(game: Game, view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The piles ``auto`` should leave, or None when it would move nothing.

    The model plays explicit listed moves on a copy of the board, with Freecell's own autoplay
    off so that only the scan of docs/rules.md moves cards; the engine's autoplay after ``auto`` has
    nothing left to do, since no card can then go to a foundation at all.
    """
    if view["state"] != "playing":
        return None
    options = dict(view["options"])
    if "autoplay" in options:
        options["autoplay"] = False
    rules = rules_for(view["variant"], options)
    model = Game(rules, 1, position=rules.position_from_text(_position_text(view)))
    foundations = _foundations(view)
    moved = 0
    while True:
        legal = model.legal_moves()
        for src in _auto_sources(view):
            target = _shorthand_target(legal, src, foundations)
            if target is not None:
                model.play(target)
                moved += 1
                break
        else:
            break
    if not moved:
        return None
    piles: list[dict[str, Any]] = model.view(reveal=True)["piles"]
    return piles


def check_replay(game: Game) -> None:
    """The record, as a map and as text, rebuilds the very same game (a keyed deal's once
    the record holds the key; until then the record names only the commitment)."""
    record = game.record(reveal_key=True)
    again = replay(record)
    assert again.view(reveal=True) == game.view(reveal=True)
    assert again.record(reveal_key=True) == record and again.record() == game.record()
    assert replay(from_text(to_text(record))).view(reveal=True) == game.view(reveal=True)


#: what a playout step does; "greedy" prefers foundation moves and deals, so that playouts get
#: far enough into a game for late-game rules (emptied stock, redeals, won games) to be reached;
#: "deals" and "undos" play a run of them, to go through a whole stock and back over a redeal
ACTIONS = [
    "move", "move", "move", "greedy", "greedy", "undo", "auto", "shorthand", "deals", "undos",
    "every",
]  # fmt: skip


def _greedy(legal: list[str]) -> list[str]:
    """Moves that put a card from play onto a foundation, else deal; empty if neither."""
    onto = [m for m in legal if ">f" in m and m[0] != "f"]
    return onto or [m for m in legal if m == "deal"]


@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=[f"{v}{o}" for v, o in CONFIGS])
@PROFILE
@given(data=st.data())
def test_random_playouts_keep_every_engine_property(
    variant: str, options: dict[str, Any], data: st.DataObject
) -> None:
    # A numbered deal or a keyed one: both lay out their order alike, and replay alike.
    deal = data.draw(st.integers(1, 2**31 - 1) | st.binary(min_size=32, max_size=32), label="deal")
    if isinstance(deal, int):
        playout = Playout(new_game(variant, seed=deal, options=options))
    else:
        playout = Playout(new_game(variant, key=deal, options=options))
    check_invariants(playout.game)
    assert playout.game.view()["ply"] == 0
    with pytest.raises(IllegalMove):
        playout.game.undo()  # nothing to undo at the deal
    sweep_at = data.draw(st.integers(0, MAX_ACTIONS), label="full refusal sweep at")
    every_used = False
    for step in range(MAX_ACTIONS):
        game = playout.game
        view = game.view(reveal=True)
        if step == sweep_at:
            sweep_refusals(game)
        # A few strings that are refused now: any pile pair and count, or garbage.
        for candidate, well_formed in data.draw(
            st.lists(
                st.tuples(STRUCTURED, st.just(True)) | st.tuples(GARBLED, st.just(False)),
                max_size=3,
            ),
            label="refusal candidates",
        ):
            if candidate == "undo" or _accepted(game, candidate, view):
                continue
            check_refused(game, candidate, well_formed=well_formed)
        state = view["state"]
        if state == "won":
            playout.undo()  # refused: a won game stays won
            break
        if state == "stuck":
            # Only undo: every listed-looking move, deal and auto are refused.
            everything = _candidates(view)
            for action in ["deal", "auto", *everything[:: max(1, len(everything) // 40)]]:
                check_refused(game, action, well_formed=True)
            if not data.draw(st.booleans(), label="undo out of stuck"):
                break
            playout.undo()
            continue
        kind = data.draw(st.sampled_from(ACTIONS), label="action")
        if kind in ("move", "greedy"):
            legal = (kind == "greedy" and _greedy(view["legal"])) or view["legal"]
            move = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
            assert playout.play(move) == move
        elif kind == "undo":
            playout.undo()
        elif kind == "deals":
            for _ in range(data.draw(st.integers(1, 40), label="deals")):
                if "deal" not in playout.game.legal_moves():
                    break
                playout.play("deal")
        elif kind == "undos":
            for _ in range(data.draw(st.integers(1, 12), label="undos")):
                playout.undo()
        elif kind == "auto":
            playout.auto()
        elif kind == "shorthand":
            playout.shorthand(data.draw(st.sampled_from(_pile_ids(view)), label="shorthand src"))
        elif not every_used:
            every_used = True
            playout.play_every_listed_move()
    game = playout.game
    if game.state != "won" and data.draw(st.booleans(), label="resign"):
        game.resign()
        check_invariants(game)
        assert game.view()["state"] == "resigned"
        for action in ["undo", "deal", "auto"]:
            check_refused(game, action, well_formed=True)
    event(f"ended {game.state} after {game.ply // 20 * 20}+ actions")
    check_replay(game)
