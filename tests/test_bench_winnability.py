"""The winnability benchmark's interval (Solvitaire's) and its resumable task list."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.winnability import Task, pending
from bench.winnability_page import (
    Row,
    binomial_cdf,
    clopper_pearson,
    solvitaire_interval,
    table,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Reference values of the exact (Clopper-Pearson) interval at 95%
        (5, 10, 0.187086, 0.812914),
        (0, 10, 0.0, 0.308497),
        (10, 10, 0.691503, 1.0),
        (99, 100, 0.945541, 0.999747),
        (1, 2, 0.012579, 0.987421),
    ],
)
def test_clopper_pearson_matches_reference_values(k: int, n: int, low: float, high: float) -> None:
    got = clopper_pearson(k, n)
    assert got[0] == pytest.approx(low, abs=2e-6)
    assert got[1] == pytest.approx(high, abs=2e-6)


def test_binomial_cdf_sums_the_distribution() -> None:
    assert binomial_cdf(4, 1, 0.5) == pytest.approx(5 / 16)
    assert binomial_cdf(4, 4, 0.3) == 1.0


def test_the_interval_is_the_union_of_undecided_lost_and_won() -> None:
    low, high = solvitaire_interval(90, 5, 100)
    assert low == pytest.approx(clopper_pearson(90, 100)[0])
    assert high == pytest.approx(clopper_pearson(95, 100)[1])
    assert solvitaire_interval(90, 0, 100) == clopper_pearson(90, 100)


def test_a_rerun_skips_the_deals_already_solved_seed_by_seed_across_variants() -> None:
    done = {("gypsy", 1), ("osmosis", 2)}
    todo = list(pending(done, ["osmosis", "gypsy"], 1, 2, 10.0))
    assert todo == [Task("osmosis", 1, 10.0), Task("gypsy", 2, 10.0)]


def test_a_row_short_of_the_deals_asked_says_how_far_it_got() -> None:
    def row(deals: int) -> Row:
        return Row("gypsy", deals, 100001, 100000 + deals, deals - 1, 0, 1, 0, 1, 1, 1, 1, 10)

    short, full = table([row(240), row(10_000)], 10_000)[2:]
    assert "| 240 of 10,000 so far (100001-100240) |" in short
    assert "| 10,000 (100001-110000) |" in full


def test_the_players_figure_counts_the_view_only_games_at_the_servers_budget(
    tmp_path: Path,
) -> None:
    from bench import hint_results
    from bench.winnability import player_figure
    from bench.winnability_page import player_section

    served = hint_results.Rules(8, 1_500, True)
    small = hint_results.Rules(8, 200, True)
    games = tmp_path / "hint_games.jsonl"
    lines = [
        hint_results.line("gypsy", 100001, "view", "won", 300, [0.2], served),
        hint_results.line("gypsy", 100002, "view", "no hint", 90, [0.2], served),
        hint_results.line("gypsy", 100003, "view", "won", 250, [0.2], small),  # not served
        hint_results.line("gypsy", 100003, "all-seeing", "won", 250, [0.1], served),
        hint_results.line("gypsy", 100004, "view", "won", 280, [0.2], served),
    ]
    games.write_text("\n".join(lines) + "\n")
    solved = [
        {"config": "gypsy", "seed": seed, "verdict": verdict}
        for seed, verdict in [(100001, "won"), (100002, "unknown"), (100004, "won")]
    ]
    ((player, solver),) = player_figure(solved, hint_results.load(games), 100001, 10_000)
    assert (player.label, player.seeds, player.won, solver) == (
        "gypsy",
        (100001, 100002, 100004),
        2,
        2,
    )
    text = "\n".join(player_section([(player, solver)]))
    assert "| Gypsy | 3 (100001-100004, 1 missing) | 2 (67%) | 2 (67%) |" in text
    assert "Not measured yet" in "\n".join(player_section([]))


def test_a_hint_run_with_a_results_file_does_not_play_its_games_again(tmp_path: Path) -> None:
    from bench import hint

    games = tmp_path / "hint_games.jsonl"
    argv = ["--variants", "osmosis", "--deals", "2", "--kinds", "view", "--jobs", "1"]
    hint.main([*argv, "--positions", "20", "--samples", "2", "--results", str(games)])
    first = games.read_text().splitlines()
    assert len(first) == 2
    hint.main([*argv, "--positions", "20", "--samples", "2", "--results", str(games)])
    assert games.read_text().splitlines() == first  # nothing played again
