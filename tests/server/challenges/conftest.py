"""Challenges are tested with the server's settings but no rate limit (a test plays a round in
a burst of moves)."""

from __future__ import annotations

import pytest

from server.config import Config


def challenges_config(db_url: str) -> Config:
    return Config(
        host="127.0.0.1",
        port=0,
        metrics_port=0,
        db=db_url,
        hint_budget=0.05,
        daily_ahead=False,
        stuck_workers=0,
        deal_pool_workers=0,
        rate_limit=10_000.0,
        rate_burst=10_000,
        race_countdown_ms=60,
        race_tick_ms=20,
        registration_limit=0,
    )


@pytest.fixture
def config(db_url: str) -> Config:
    return challenges_config(db_url)
