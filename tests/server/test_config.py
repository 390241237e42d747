"""Settings: defaults < TOML file < PATIENCE_* variables < flags, each checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.app import App
from server.commands.serve import add_parser, configure
from server.config import Config, ConfigError, load


def test_each_source_overrides_the_one_before(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('[server]\nport = 9000\nname = "From file"\nrate-burst = 7\nrate_limit = 3\n')
    env = {"PATIENCE_PORT": "9001", "PATIENCE_NAME": "From env"}
    config = load(path, env=env, overrides={"port": 9002, "host": None})
    assert (config.port, config.name, config.rate_burst, config.rate_limit) == (
        9002,
        "From env",
        7,
        3.0,
    )
    assert config.host == Config().host


def test_the_config_file_may_come_from_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("max_connections = 12\n")
    assert load(env={"PATIENCE_CONFIG": str(path)}).max_connections == 12


@pytest.mark.parametrize(
    ("text", "env", "named"),
    [
        ("colour = 3\n", {}, "colour"),
        ('port = "high"\n', {}, "port"),
        ("", {"PATIENCE_RATE_LIMIT": "fast"}, "rate_limit"),
        ("", {"PATIENCE_MAX_CONNECTIONS": "0"}, "max_connections"),
        ("", {"PATIENCE_PORT": "70000"}, "port"),
        ("", {"PATIENCE_STUCK_WORKERS": "-1"}, "stuck_workers"),
        ("", {"PATIENCE_REGISTRATION_LIMIT": "-1"}, "registration_limit"),
        ("", {"PATIENCE_MAX_ACTIONS": "0"}, "max_actions"),
        ("", {"PATIENCE_MAX_ACTIONS": "100001"}, "max_actions"),
        ("", {"PATIENCE_HINT_CONCURRENCY": "0"}, "hint_concurrency"),
        ("", {"PATIENCE_RACE_ABANDON_S": "0"}, "race_abandon_s"),
        ("", {"PATIENCE_REVIEW_MEDIAN_MS": "-5"}, "review_median_ms"),
        ("port = [", {}, "c.toml"),
    ],
)
def test_bad_settings_are_refused_by_name(
    tmp_path: Path, text: str, env: dict[str, str], named: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=named):
        load(path, env=env)


def test_flags_parse_into_settings(tmp_path: Path) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    args = parser.parse_args(
        ["serve", "--port", "0", "--rate-limit", "5", "--max-connections-per-ip", "3",
         "--max-message-bytes", "1000", "--name", "Flagged", "--log-level", "DEBUG",
         "--stuck-workers", "3"]
    )  # fmt: skip
    config = configure(args)
    assert config.stuck_workers == 3
    fair = parser.parse_args(
        ["serve", "--registration-limit", "5", "--max-actions", "900", "--review-min-actions",
         "30", "--review-median-ms", "150", "--race-abandon-s", "45", "--hint-concurrency", "3"]
    )  # fmt: skip
    rules = configure(fair)
    assert (rules.registration_limit, rules.max_actions, rules.hint_concurrency) == (5, 900, 3)
    assert (rules.review_min_actions, rules.review_median_ms, rules.race_abandon_s) == (
        30,
        150,
        45,
    )
    defaults = Config()
    assert (defaults.registration_limit, defaults.max_actions, defaults.race_abandon_s) == (
        20,
        5000,
        120,
    )
    assert (defaults.review_min_actions, defaults.review_median_ms) == (20, 200)
    assert (config.port, config.rate_limit, config.max_connections_per_ip) == (0, 5.0, 3)
    assert (config.max_message_bytes, config.name, config.log_level) == (1000, "Flagged", "DEBUG")


async def test_the_default_database_is_created_under_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = App(Config(port=0, metrics_port=0, daily_ahead=False))
    await app.start()
    try:
        assert (tmp_path / "data" / "patience.db").exists()
    finally:
        await app.stop()
