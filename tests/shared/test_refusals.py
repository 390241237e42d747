"""Every refusal is a function of what the player sees: face-down cards never change it.

The engine's refusals (:class:`IllegalMove`: ``Game.play``, each variant's
``why_illegal``, the ``X>f`` shorthand) go to the player as they are, so none
may depend on a face-down card. The property: take a position of a random
game, shuffle its face-down cards among themselves (the stock's too), and
every candidate action, legal or not, gets the same answer in both: the same
recorded action, or the same refusal word for word. Candidates are every
pile pair (piles the layout lacks included) with the counts that matter
(one, two, the face-up part and one more, the whole pile and one more), the
``X>f`` shorthand from every pile, ``deal`` and ``auto``, and a few drawn at
random.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from shared.errors import IllegalMove, InvalidNotation
from shared.game import Game
from shared.games import new_game
from shared.notation import Action, Move
from shared.position import Position
from tests.shared.positions import CONFIG_PARAMS

#: examples per configuration (REFUSALS_EXAMPLES=N for a longer hunt)
EXAMPLES = int(os.environ.get("REFUSALS_EXAMPLES", "10"))

PROFILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

#: every pile id docs/notation.md knows
ALL_PILE_IDS = ["s", "w", *(f"f{i}" for i in range(8)), *(f"t{i}" for i in range(10))] + [
    f"r{i}" for i in range(4)
]


def move_text(src: str, count: int, dst: str) -> str:
    return f"{src}>{dst}" if count == 1 else f"{src}:{count}>{dst}"


def candidates(game: Game) -> list[str]:
    """Every pile pair with the counts that can matter, X>f from every pile, deal, auto."""
    rules, pos = game.rules, game.position
    out = ["deal", "auto"]
    for src in ALL_PILE_IDS:
        index = rules.index.get(src)
        size = len(pos.piles[index]) if index is not None else 0
        up = size - pos.down[index] if index is not None else 0
        counts = sorted({1, 2, up, up + 1, size, size + 1} - {0})
        out.append(f"{src}>f")
        for dst in ALL_PILE_IDS:
            out.extend(move_text(src, n, dst) for n in counts)
    return out


def outcome(game: Game, action: Action) -> tuple[str, Action]:
    """What playing ``action`` gives: ("played", the recorded action) or the refusal; the
    game is back as it was afterwards."""
    try:
        recorded = game.play(action)
    except (IllegalMove, InvalidNotation) as refused:
        return type(refused).__name__, str(refused)
    if game.state != "won":
        game.undo()
    return "played", recorded


def shuffled_face_down(pos: Position, order: list[int]) -> Position:
    """``pos`` with its face-down cards dealt again in ``order`` (a permutation of them)."""
    other = pos.copy()
    slots = [(i, k) for i, down in enumerate(pos.down) for k in range(min(down, len(pos.piles[i])))]
    for (i, k), card in zip(slots, order, strict=True):
        other.piles[i][k] = card
    return other


def face_down_cards(pos: Position) -> list[int]:
    return [card for pile, down in zip(pos.piles, pos.down, strict=True) for card in pile[:down]]


def played_game(data: st.DataObject, variant: str, options: dict[str, bool]) -> Game:
    """A game of a drawn seed after a drawn number of drawn legal moves."""
    game = new_game(variant, seed=data.draw(st.integers(1, 2**31 - 1)), options=options)
    for _ in range(data.draw(st.integers(0, 80), label="steps")):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(data.draw(st.sampled_from(legal), label="move"))
    return game


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
@PROFILE
@given(data=st.data())
def test_a_refusal_is_the_same_whatever_the_face_down_cards_are(
    variant: str, options: dict[str, bool], data: st.DataObject
) -> None:
    played = played_game(data, variant, options)
    deal = played.deal
    pos = played.position
    order = data.draw(st.permutations(face_down_cards(pos)), label="face-down cards")
    seen = Game(played.rules, deal, position=pos.copy())
    other = Game(played.rules, deal, position=shuffled_face_down(pos, order))
    # (whether it is stuck is shown to the player; which it is may depend on the hidden
    # cards, since the search that proves it sees them)
    assume(seen.state == other.state)
    assert seen.legal_moves() == other.legal_moves()
    drawn = data.draw(
        st.lists(
            st.builds(
                move_text,
                st.sampled_from(ALL_PILE_IDS),
                st.integers(1, 110),
                st.sampled_from([*ALL_PILE_IDS, "f"]),
            ),
            max_size=10,
        ),
        label="more candidates",
    )
    for action in [*candidates(seen), *drawn]:
        assert outcome(seen, action) == outcome(other, action), action
        if seen.state == "won":  # a winning move was played: the games are not as they were
            seen = Game(played.rules, deal, position=pos.copy())
            other = Game(played.rules, deal, position=shuffled_face_down(pos, order))


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_a_move_and_its_text_get_the_same_answer(variant: str, options: dict[str, bool]) -> None:
    """Game.play takes the notation's Move as well as its text, and answers alike: a Move
    comes back as a Move (``X>f`` with the foundation it went to), a text as the text."""
    game = new_game(variant, seed=617, options=options)
    for _ in range(30):
        for action in candidates(game):
            if action in ("deal", "auto"):
                continue
            try:
                move = Move.parse(action)
            except InvalidNotation:
                continue  # (counts past the notation's limit)
            kind, said = outcome(game, action)
            as_move = outcome(game, move)
            if kind == "played":
                assert as_move == ("played", Move.parse(said)), action
            else:
                assert as_move == (kind, said), action
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[len(legal) // 2])
