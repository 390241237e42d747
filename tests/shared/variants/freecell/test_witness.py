"""Freecell's proofs of progress (shared.variants.freecell.witness): the greedy dig, and a
witness replayed at a later position. Every line offered as a proof must play move by
move under the engine's rules and end with a card that can go home.
"""

from __future__ import annotations

import random

from shared.variants.freecell import FreecellProgress, FreecellRules
from shared.variants.freecell.witness import CELL, Witness, dig, replay
from tests.shared.variants.freecell.reference import engine_line

AUTOPLAY = FreecellRules({"autoplay": True})
MANUAL = FreecellRules({"autoplay": False})


def test_every_proof_is_a_legal_line_that_sends_a_card_home() -> None:
    checked = {"search": 0, "dig": 0, "replay": 0}
    search = FreecellProgress()
    for rules in (AUTOPLAY, MANUAL):
        rng = random.Random(4)
        for deal in range(1, 13):
            position = rules.deal(deal)
            hint: Witness = ()
            for _ in range(200):
                moves = rules.legal(position)
                if not moves:
                    break
                if not rules.can_progress_now(position, moves):
                    dug = dig(position)
                    if dug is not None:
                        engine_line(position, dug)
                        checked["dig"] += 1
                    if hint:
                        replayed = replay(position, hint)
                        if replayed is not None:
                            engine_line(position, replayed)
                            checked["replay"] += 1
                    found, witness = search.search_piles(position.piles, 2000)
                    if found:
                        engine_line(position, witness)
                        hint = witness
                        checked["search"] += 1
                    assert dug is None or found is not False
                position = position.copy()
                rules.apply(position, rng.choice(moves))
                rules.after_move(position)
    assert min(checked.values()) >= 30, checked


def test_a_witness_replays_elsewhere_when_its_place_is_taken() -> None:
    # 2C is wanted under 9H; the witness sends 9H to a free cell, but all four are full
    # in the new position: 9H goes onto TS instead, and the line still proves progress.
    text = (
        "r0: KD\nr1: KH\nr2: QC\nr3: QS\nf0: AC\n"
        "t0: 2C 9H\nt1: TS\nt2: 3D\nt3: 4D\nt4: 5D\nt5: 6D\nt6: 7D\nt7: 8D"
    )
    position = MANUAL.position_from_text(text)
    nine = position.piles[8][-1]
    replayed = replay(position, ((nine, CELL),))
    assert replayed is not None and replayed[0][1] == position.piles[9][-1]
    assert engine_line(position, replayed) == [(8, 1, 9)]
    # with TS gone too there is no place for 9H: no proof is claimed
    blocked = MANUAL.position_from_text(text.replace("t1: TS", "t1: TH"))
    assert replay(blocked, ((nine, CELL),)) is None
