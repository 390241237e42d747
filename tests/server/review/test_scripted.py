"""Scripts that play the solver's line on today's daily are held against a real server; a
game at a person's pace is ranked; a player whose wins all keep to a solver's line is shown
to the operator with the evidence, though no single win was held."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.app import App
from server.config import Config
from server.daily.deals import utc_date
from server.review.line import solver_line
from server.review.timings import parse
from tests.server.conftest import Client, Connect, FakeClock, ServeWith, open_client
from tests.server.pushes import admin, fix_daily, until
from tests.server.review.human_model import every

KEY = bytes(range(32))


def line_of(variant: str) -> tuple[str, ...]:
    """What a script gets from our own solver for the day's deal."""
    line = solver_line({"variant": variant, "options": {}, "key": KEY.hex()}, 200_000, 60.0)
    assert line is not None
    return line


def paced(line: tuple[str, ...], gaps: list[int]) -> list[tuple[str, int]]:
    """``line`` with each action's time from the start, ``gaps`` before each."""
    out, now = [], 0
    for action, gap in zip(line, gaps, strict=True):
        now += gap
        out.append((action, now))
    return out


async def play(
    client: Client, clock: FakeClock, variant: str, timed: list[tuple[str, int]]
) -> dict[str, Any]:
    """Open today's ranked daily and send each action when its time from the start comes
    (the server stamps it then)."""
    game = (await client.request("daily", start=True, variant=variant))["game"]
    start = clock.now
    for action, at in timed:
        clock.advance(start + at - clock.now)
        if action == "undo":
            reply = await client.request("undo", game=game["id"], ply=game["ply"])
        else:
            reply = await client.move(game, action)
        assert reply["type"] == "game", reply
        game = reply["game"]
    assert game["state"] == "won"
    return dict(game)


async def test_scripted_pacings_of_the_solvers_line_are_held_and_a_persons_game_ranks_first(
    capsys: pytest.CaptureFixture[str],
    config: Config,
    clock: FakeClock,
    server: App,
    connect: Connect,
) -> None:
    await fix_daily(server, "freecell", utc_date(clock.now), KEY)
    line = line_of("freecell")
    n = len(line)
    jitter = [2_000 + 137 * (k % 7) for k in range(n)]  # ~2 s, never a pause
    jitter[0] = 9_000
    scripts = {
        "trick": paced(line, [205 if k % 2 == 0 else 0 for k in range(n)]),
        "steady": paced(line, [205] * n),
        "jitter": paced(line, [min(g, 1_999) if k else g for k, g in enumerate(jitter)]),
    }
    [person] = [t for t in every() if t.variant == "freecell" and t.client == "terminal"]
    players, games = {}, {}
    for name, timed in [*scripts.items(), ("person", list(person.actions))]:
        client = await connect()
        players[name] = (client, (await client.hello(name))["player"]["id"])
        games[name] = (await play(client, clock, "freecell", timed))["id"]

    async def standing(name: str) -> tuple[int | None, str | None] | None:
        me = (await players[name][0].request("leaderboard", variant="freecell"))["me"]
        return None if me is None else (me["rank"], me.get("review"))

    async def settled() -> bool:
        """Every attempt ended and reviewed (review runs once the last move is stored)."""
        return all([await standing(name) is not None for name in players])

    await until(settled, seconds=20)
    board = await players["person"][0].request("leaderboard", variant="freecell")
    assert [e["name"] for e in board["entries"]] == ["person"]
    assert (await standing("person"))[0] == 1  # type: ignore[index]
    for name in scripts:
        assert await standing(name) == (None, "pending"), name

    code, out = await admin(capsys, config, "held", "--why")
    assert code == 0
    held: dict[str, list[str]] = {}
    for text in out.splitlines():
        if not text.startswith(" "):
            name = text.split()[1]
            held[name] = []
        else:
            held[name].append(text.strip())
    assert set(held) == set(scripts)
    assert any(r.startswith("25th percentile gap 0 ms") for r in held["trick"])
    assert any("first action 205 ms into a deal never seen" in r for r in held["steady"])
    [straight] = held["jitter"]
    assert straight.startswith(f"a win on a solver's line: {n} moves against the solver's {n}")

    # The person's game as an operator keeps it for review's fixtures: the same times.
    code, out = await admin(capsys, config, "timings", games["person"], "--client", "terminal")
    assert code == 0
    kept = parse(json.loads(out))
    assert (kept.source, kept.client, kept.won) == ("recorded", "terminal", True)
    assert kept.actions == person.actions and kept.deal == {"key": KEY.hex()}
    code, out = await admin(capsys, config, "timings", "nosuchgame", "--client", "web")
    assert code == 1 and "no game 'nosuchgame'" in out


async def test_a_player_whose_wins_all_keep_to_the_solvers_line_is_flagged_with_the_evidence(
    capsys: pytest.CaptureFixture[str], config: Config, clock: FakeClock, serve_with: ServeWith
) -> None:
    server = await serve_with(rate_burst=1_000)  # 350 moves in less than a real second
    today = utc_date(clock.now)
    variants = ("freecell", "westhaven", "gypsy")
    for variant in variants:
        await fix_daily(server, variant, today, KEY)
    patient = await open_client(server)
    await patient.hello("patient")
    for variant in variants:
        # A look, a person's pace and a pause every ten moves: no win is held, every one is
        # the solver's line with no undo.
        line = line_of(variant)
        gaps = [9_000] + [5_000 if k % 10 == 0 else 1_400 for k in range(1, len(line))]
        await play(patient, clock, variant, paced(line, gaps))
    person = await open_client(server)
    await person.hello("person")
    [kept] = [t for t in every() if t.variant == "freecell" and t.client == "terminal"]
    await play(person, clock, "freecell", list(kept.actions))

    async def ranked() -> bool:
        mine = (await patient.request("leaderboard", variant="gypsy"))["me"]
        theirs = (await person.request("leaderboard", variant="freecell"))["me"]
        return bool(mine and mine["rank"] == 1 and theirs and theirs["rank"] is not None)

    await until(ranked, seconds=20)
    assert (await admin(capsys, config, "held"))[1].strip() == "no results held for review"
    code, out = await admin(capsys, config, "efficient", "--min-wins", "1")
    assert code == 0
    first, *evidence = out.splitlines()
    assert first.startswith("patient (#")
    assert first.endswith("3 of 3 ranked wins on a solver's line")
    assert len(evidence) == 3 and all(e.endswith("not held") for e in evidence)
    assert {e.split()[1] for e in evidence} == set(variants)
    assert f"{len(line_of('gypsy'))} moves, the solver's {len(line_of('gypsy'))}" in out
    code, out = await admin(capsys, config, "efficient")  # five wins by default
    assert out.strip() == "no player's wins are consistently on a solver's line"
