"""One table of names drives both clients' wording: the terminal client is held to the golden
examples of tests/names_golden.json, which the browser's node test (tests/web/js/names.test.mjs)
reads too; and both clients' outputs there name the same cards, with no notation left."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from client.i18n import set_language
from client.layout import key_label
from client.names import card_name, move_name, translate
from client.names_table import NAMES, read_table

GOLDEN: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent.parent / "names_golden.json").read_text(encoding="utf-8")
)
#: a pile id, a card in letters, a move: notation a player should never read
NOTATION = re.compile(r"(?<![\w'])(?:[tfr]\d|[A2-9TJQK][CDHS]|\w\d?(?::\d+)?>\w\d?)(?![\w'])")
#: a card as a face shows it, in English
GLYPHS = re.compile(r"(?:10|[A2-9JQK])[♣♦♥♠]")
#: a card as a face shows it, in French (valet, dame, roi)
GLYPHS_FR = re.compile(r"(?:10|[A2-9VDR])[♣♦♥♠]")


def test_cards_and_pile_keys_are_the_golden_ones() -> None:
    assert {card: card_name(card) for card in GOLDEN["cards"]} == GOLDEN["cards"]
    assert {pile: key_label(pile) for pile in GOLDEN["pile_keys"]} == GOLDEN["pile_keys"]


@pytest.mark.parametrize("example", GOLDEN["refusals"], ids=lambda e: e["engine"][:24])
def test_a_refusal_reads_as_the_golden_one(example: dict[str, Any]) -> None:
    assert translate(example["engine"]) == example["terminal"]


@pytest.mark.parametrize("example", GOLDEN["moves"], ids=lambda e: e["move"])
def test_a_move_reads_as_the_golden_one(example: dict[str, Any]) -> None:
    assert move_name(example["move"]) == example["terminal"]


@pytest.mark.parametrize("example", GOLDEN["refusals"], ids=lambda e: e["engine"][:24])
def test_a_refusal_reads_in_french_as_the_golden_one(example: dict[str, Any]) -> None:
    set_language("fr")
    assert translate(example["engine"]) == example["terminal_fr"]


@pytest.mark.parametrize("example", GOLDEN["moves"], ids=lambda e: e["move"])
def test_a_move_reads_in_french_as_the_golden_one(example: dict[str, Any]) -> None:
    set_language("fr")
    assert move_name(example["move"]) == example["terminal_fr"]


def test_in_french_both_clients_name_the_same_cards_and_say_the_same_reason() -> None:
    for example in GOLDEN["refusals"]:
        terminal, browser = example["terminal_fr"], example["browser"]["fr"]
        assert not NOTATION.search(terminal), terminal
        assert GLYPHS_FR.findall(terminal) == GLYPHS_FR.findall(browser), example
        # the reason after the terminal's frame says what the browser says (each client names
        # the piles as its own screen does: "w", "cellule libre 2")
        reason = terminal.split(" maintenant : ", 1)[1]
        assert reason.split()[-2:] == browser.split()[-2:], example


def test_both_clients_name_the_same_cards_and_no_notation() -> None:
    for example in GOLDEN["refusals"]:
        said = [example["terminal"], example["browser"]["en"], example["browser"]["fr"]]
        assert not [text for text in said if NOTATION.search(text)], said
        assert GLYPHS.findall(said[0]) == GLYPHS.findall(said[1]), said
    for example in GOLDEN["moves"]:
        assert not NOTATION.search(example["browser"]["en"]), example
        top = GLYPHS.findall(example["browser"]["en"])
        pile = next(p for p in example["piles"] if example["move"].startswith(p["id"]))
        count = int(example["move"].split(":")[1].split(">")[0]) if ":" in example["move"] else 1
        assert top == [card_name(pile["up"][-count])], example


def test_the_table_is_the_browser_s_module_read_as_json(tmp_path: Path) -> None:
    assert NAMES["suits"]["H"] == "♥" and NAMES["keys"]["f"][0] == "F1"
    changed = tmp_path / "names.js"
    text = (Path(__file__).resolve().parents[2] / "client/web/js/names.js").read_text()
    changed.write_text(text.replace('"T": "10"', '"T": "T"'))
    assert read_table(changed)["ranks"]["T"] == "T"
