"""The names on screen are the same in both clients: every card's glyphs ("10♣") and every pile's
key label ("4", "q", "x", "F1", "spc"), the browser's read from its modules by node and the
terminal client's from client/names.py and client/layout.py, over every card and pile id."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from client.layout import key_label
from client.names import card_name
from tests.web.conftest import need

ROOT = Path(__file__).resolve().parent.parent.parent
CARDS = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
PILES = ["s", "w"] + [
    f"{kind}{n}" for kind, count in (("t", 10), ("r", 4), ("f", 8)) for n in range(count)
]

BROWSER = """
import { cardGlyphs } from './client/web/js/cards.js';
import { keyLabel } from './client/web/js/layout.js';
const [cards, piles] = JSON.parse(process.argv[1]);
console.log(JSON.stringify([cards.map(cardGlyphs), piles.map(keyLabel)]));
"""


def test_both_clients_name_cards_and_pile_keys_alike() -> None:
    node = shutil.which("node")
    need(node, "no node for the client's module tests: install it with `apt-get install -y nodejs`")
    assert node is not None
    done = subprocess.run(
        [node, "--input-type=module", "-e", BROWSER, json.dumps([CARDS, PILES])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    glyphs, keys = json.loads(done.stdout)
    assert glyphs == [card_name(card) for card in CARDS]
    assert keys == [key_label(pile) for pile in PILES]
    assert glyphs[9] == "10\u2663" and keys[:3] == ["spc", "x", "1"]
