"""``patience-club solve``: a deal's verdict, and seeds outside the deal numbers refused."""

from __future__ import annotations

import pytest

from server.cli import main as cli


@pytest.mark.parametrize("seed", ["0", "-5", "99999999999", "2147483648", "seven"])
def test_a_seed_outside_1_to_2_31_minus_1_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    with pytest.raises(SystemExit) as usage:
        cli(["solve", "freecell", seed])
    assert usage.value.code == 2
    err = capsys.readouterr().err
    assert "argument seed" in err and seed in err
    assert ("is not a deal number" if seed == "seven" else "1 .. 2147483647") in err


@pytest.mark.parametrize("seed", ["1", "2147483647"])
def test_the_first_and_last_deal_numbers_are_solved(
    capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    assert cli(["solve", "freecell", seed, "--budget-positions", "2000"]) == 0
    assert capsys.readouterr().out.startswith("verdict: ")
