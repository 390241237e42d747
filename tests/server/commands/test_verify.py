"""``patience-club verify``: a revealed key checked against its commitment, with no server."""

from __future__ import annotations

import pytest

from server.cli import main as cli
from shared.deals import commitment


def test_a_matching_key_prints_the_deal_pile_by_pile(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/rules.md's test vector: the key of 32 zero bytes.
    key = bytes(32).hex()
    assert cli(["verify", "freecell", commitment("freecell", bytes(32)), key]) == 0
    out = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert out[0].startswith("OK: the key matches the freecell commitment 48281e31e52d7658")
    assert "t0: TS 8D 8H KH 9H 9D 6H" in out


def test_face_down_cards_are_shown_in_brackets(capsys: pytest.CaptureFixture[str]) -> None:
    key = bytes(range(32))
    assert cli(["verify", "gypsy", commitment("gypsy", key).upper(), key.hex()]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "t0: [TH AS] 3D" in [line.strip() for line in lines]


def test_a_key_that_does_not_match_fails_and_bad_input_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    other = commitment("freecell", bytes(range(32)))
    assert cli(["verify", "freecell", other, bytes(32).hex()]) == 1
    assert capsys.readouterr().out.startswith("NO MATCH")
    # The same key for another variant is another commitment.
    assert cli(["verify", "gypsy", commitment("freecell", bytes(32)), bytes(32).hex()]) == 1
    capsys.readouterr()
    assert cli(["verify", "freecell", other, "abc"]) == 2
    assert "64 hex digits" in capsys.readouterr().out
    options = ["--option", "deal_three=true"]
    assert cli(["verify", "osmosis", commitment("osmosis", bytes(32)), "00" * 32, *options]) == 0
