"""Races are tested with a short countdown and a fast tick, every player registered from
loopback, and no result held for review (tests play at machine speed; review has its own)."""

from __future__ import annotations

import pytest

from server.config import Config


def races_config(db_url: str) -> Config:
    """The races' settings, also the base of the tests of several nodes."""
    return Config(
        host="127.0.0.1",
        port=0,
        metrics_port=0,
        db=db_url,
        race_countdown_ms=60,
        race_tick_ms=20,
        daily_ahead=False,
        registration_limit=0,
        review_median_ms=0,
        review_min_actions=1_000_000,  # nothing is long enough to judge
        stuck_workers=0,
        hint_budget=0.05,
    )


@pytest.fixture
def config(db_url: str) -> Config:
    return races_config(db_url)
