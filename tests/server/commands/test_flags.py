"""Every setting of docs/operating.md's table has a ``patience-club serve`` flag that sets it,
and every Config field is in the table with its default."""

from __future__ import annotations

import argparse
import dataclasses
import re
from pathlib import Path

import pytest

from server.commands.flags import flag_name, setting_types
from server.commands.serve import add_parser, configure
from server.config import Config

OPERATING = Path(__file__).parents[3] / "docs" / "operating.md"
ROW = re.compile(r"^\| `(?P<name>[a-z0-9_]+)` \| (?P<default>[^|]*) \|")


def documented() -> dict[str, str]:
    """Setting -> its default as the settings table of docs/operating.md writes it."""
    lines = OPERATING.read_text().splitlines()
    start = lines.index("| setting | default | meaning |")
    rows: dict[str, str] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        match = ROW.match(line)
        assert match, f"docs/operating.md: a settings row that is not `name` | default: {line}"
        rows[match["name"]] = match["default"].strip()
    return rows


def serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="patience-club")
    add_parser(parser.add_subparsers(dest="command"))
    return parser


def parse(*flags: str) -> Config:
    return configure(serve_parser().parse_args(["serve", *flags]))


def other_value(name: str, kind: type) -> str:
    """A value of the setting's type that is not its default and passes its checks."""
    default = getattr(Config(), name)
    if kind is int:
        return str(default + 7)
    if kind is float:
        return str(default + 1.5)
    if name == "redis":
        return "redis://set-by-flag:6379/0"  # (a URL is checked as one)
    if name == "trusted_proxies":
        return "10.0.0.1"  # (addresses are checked as such)
    if name == "arena_schedule":
        return "sunday 18:00 freecell 45"  # (a schedule is read as one)
    if name == "arena_difficulty":
        return "hard"
    return "set-by-flag"


def shown(value: object) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if value == "":
        return "empty"
    return f"`{value:g}`" if isinstance(value, float) else f"`{value}`"


def test_every_field_is_documented_with_its_default_and_every_row_is_a_field() -> None:
    rows = documented()
    fields = [f.name for f in dataclasses.fields(Config)]
    assert sorted(rows) == sorted(fields), "docs/operating.md's settings table against Config"
    defaults = Config()
    for name in fields:
        assert rows[name] == shown(getattr(defaults, name)), f"the documented default of {name}"


@pytest.mark.parametrize("name", sorted(documented()))
def test_every_documented_setting_has_a_flag_that_sets_it(name: str) -> None:
    kind = setting_types()[name]
    default = getattr(Config(), name)
    flag = flag_name(name)
    if kind is bool:
        assert getattr(parse(flag, str(not default).lower()), name) is (not default)
        assert getattr(parse(flag), name) is True
        assert getattr(parse("--no-" + flag[2:]), name) is False
        assert getattr(parse(flag, "off"), name) is False
    else:
        value = other_value(name, kind)
        assert getattr(parse(flag, value), name) == kind(value)
    assert getattr(parse(), name) == default  # a flag not given leaves the setting alone


def test_flags_give_way_to_nothing_and_bad_values_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as bad:
        parse("--race-time-limit-s", "soon")
    assert bad.value.code == 2 and "--race-time-limit-s" in capsys.readouterr().err
    with pytest.raises(SystemExit) as bad:
        parse("--daily-ahead", "maybe")
    assert bad.value.code == 2 and "'maybe' is not true or false" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse("--no-daily-ahead=true")
    assert "takes no value" in capsys.readouterr().err


def test_the_help_says_each_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        serve_parser().parse_args(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--motd MOTD message of the day, sent in welcome when not empty (default empty)" in text
    assert "--race-time-limit-s INT" in text and "(default 1800)" in text
    assert "--daily-ahead [true|false], --no-daily-ahead" in text
