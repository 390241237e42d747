"""Challenges against a real server, on both databases: sending a finished game, answering it
on the same deal, the ghost, the result side by side, rematches and the match's score."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.app import App
from server.daily.deals import utc_date
from shared.cards import parse_card
from shared.game import Game
from shared.games import rules_for
from shared.position import Position
from shared.solver import WON, Budget, solve_position
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.net.test_static import fetch
from tests.server.pushes import fix_daily, no_push, push


async def named(connect: Connect, name: str, **hello: Any) -> Client:
    client = await connect()
    reply = await client.request("hello", protocol=2, client="tests/1", name=name, **hello)
    assert reply["type"] == "welcome", reply
    return client


async def played(
    client: Client, clock: FakeClock, *, steps: int = 3, step_ms: int = 1000, **start: Any
) -> dict[str, Any]:
    """A game started (a secret deal unless ``start`` says), ``steps`` moves a second apart,
    then resigned a second later: the game as it ended."""
    start.setdefault("variant", "freecell")
    game = (await client.request("start_game", **start))["game"]
    return await finish(client, clock, game, steps=steps, step_ms=step_ms)


async def finish(
    client: Client, clock: FakeClock, game: dict[str, Any], *, steps: int, step_ms: int = 1000
) -> dict[str, Any]:
    for _ in range(steps):
        clock.advance(step_ms)
        game = (await client.move(game, game["legal"][0]))["game"]
    clock.advance(step_ms)
    reply = await client.request("resign", game=game["id"], ply=game["ply"])
    return reply["game"]  # type: ignore[no-any-return]


def is_done(message: dict[str, Any]) -> bool:
    return bool(message["challenge"]["state"] == "done")


async def sent(client: Client, game: dict[str, Any], best_of: int = 1) -> dict[str, Any]:
    reply = await client.request("challenge_create", game=game["id"], best_of=best_of)
    assert reply["type"] == "challenge", reply
    return reply["challenge"]  # type: ignore[no-any-return]


async def test_a_friend_plays_the_same_deal_and_both_see_the_result_side_by_side(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    mine = await played(alice, clock, steps=3)
    challenge = await sent(alice, mine)
    assert challenge["state"] == "open" and challenge["round"] == 1
    assert challenge["challenger_name"] == "alice" and challenge["game"] == mine["id"]
    assert challenge["commitment"] == mine["deal"]["commitment"]
    assert challenge["challenger_result"]["moves"] == 3
    assert challenge["match"] == {
        "id": challenge["match"]["id"],
        "best_of": 1,
        "first": challenge["challenger"],
        "first_name": "alice",
        "first_wins": 0,
        "second_wins": 0,
        "draws": 0,
        "rounds": 0,
        "state": "playing",
    }
    # The friend sees who challenges them, and nothing of how alice did.
    seen = (await bob.request("challenge_get", challenge=challenge["id"]))["challenge"]
    assert seen["challenger_name"] == "alice" and seen["state"] == "open"
    assert "challenger_result" not in seen and "game" not in seen
    answered = await bob.request("challenge_accept", challenge=challenge["id"])
    assert answered["type"] == "challenge_game", answered
    game = answered["game"]
    assert game["deal"] == {"commitment": mine["deal"]["commitment"]}  # no key while playing
    assert answered["challenge"]["state"] == "playing"
    assert answered["challenge"]["game"] == game["id"]
    assert "challenger_result" not in answered["challenge"]
    # Asked again, the same game (a reconnect resumes it).
    again = await bob.request("challenge_accept", challenge=challenge["id"])
    assert again["game"]["id"] == game["id"]
    ended = await finish(bob, clock, game, steps=1)
    assert ended["deal"]["key"] == mine["deal"]["key"]  # a solo game's key, at its end
    answered = (await push(alice, "challenge"))["challenge"]  # told who plays it now
    assert answered["state"] == "playing" and answered["opponent_name"] == "bob"
    assert "opponent_result" not in answered
    for client in (alice, bob):
        result = (await push(client, "challenge", check=is_done))["challenge"]
        assert result["state"] == "done"
        # both resigned: more cards home wins, equal is a draw
        assert result["result"] in ("challenger", "opponent", "draw")
        assert result["challenger_result"]["game"] == mine["id"]
        assert result["opponent_result"]["game"] == game["id"]
        assert result["opponent_result"]["name"] == "bob"
        assert result["opponent_result"]["moves"] == 1
        assert result["ranked"] is True and "unranked" not in result
        assert result["match"]["rounds"] == 1 and result["match"]["state"] == "over"
        assert "key" not in str(result)
    listed = (await bob.request("challenges"))["challenges"]
    assert [c["id"] for c in listed] == [challenge["id"]]
    # the same game sent again, to another friend: a challenge of its own
    another = await sent(alice, mine)
    assert another["id"] != challenge["id"] and another["state"] == "open"


async def test_the_ghost_is_where_the_challenger_was_at_the_same_time_and_never_ahead(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    carol = await named(connect, "carol")
    mine = await played(alice, clock, steps=4, step_ms=10_000)  # moves at 10, 20, 30, 40 s
    challenge = await sent(alice, mine)
    game = (await bob.request("challenge_accept", challenge=challenge["id"]))["game"]
    seen = []
    for wait in (0, 5_000, 10_000, 14_999, 15_000, 15_000):
        clock.advance(wait)
        ghost = await bob.request("challenge_ghost", challenge=challenge["id"])
        assert ghost["type"] == "ghost", ghost
        seen.append((ghost["elapsed_ms"], ghost["moves"], ghost["state"]))
    assert seen == [
        (0, 0, "playing"),
        (5_000, 0, "playing"),
        (15_000, 1, "playing"),
        (29_999, 2, "playing"),
        (44_999, 4, "playing"),
        (59_999, 4, "resigned"),  # alice resigned at 50 s
    ]
    live = await server.game_store.get(mine["id"])
    assert ghost["home"] == live.game.foundation_cards
    # Nobody else is shown the ghost: not the challenger, not a third player.
    for other in (alice, carol):
        refused = await other.request("challenge_ghost", challenge=challenge["id"])
        assert refused["code"] == "not_challengeable", refused
    await finish(bob, clock, game, steps=0)


async def test_the_ghost_leaves_out_the_time_the_challengers_clock_paused(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    game = (await alice.request("start_game", variant="freecell"))["game"]
    clock.advance(1_000)
    game = (await alice.move(game, game["legal"][0]))["game"]
    await alice.request("leave_game", game=game["id"])  # away for an hour: the clock pauses
    clock.advance(3_600_000)
    await alice.request("get_game", game=game["id"])
    clock.advance(1_000)
    game = (await alice.move(game, game["legal"][0]))["game"]
    clock.advance(1_000)
    mine = (await alice.request("resign", game=game["id"], ply=game["ply"]))["game"]
    assert mine["elapsed_ms"] < 3_600_000
    challenge = await sent(alice, mine)
    await bob.request("challenge_accept", challenge=challenge["id"])
    clock.advance(mine["elapsed_ms"])
    ghost = await bob.request("challenge_ghost", challenge=challenge["id"])
    assert (ghost["moves"], ghost["state"]) == (2, "resigned")


async def test_what_cannot_be_sent_is_refused_and_changes_nothing(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    numbered = await played(alice, clock, seed=617)
    playing = (await alice.request("start_game", variant="freecell"))["game"]
    bobs = await played(bob, clock)
    for game, words in (
        (numbered, "numbered deal"),
        (playing, "finish the game"),
        (bobs, "another player's"),
    ):
        refused = await alice.request("challenge_create", game=game["id"])
        assert refused["code"] == "not_challengeable" and words in refused["message"], refused
    refused = await alice.request("challenge_create", game="nope")
    assert refused["code"] == "not_found"
    refused = await alice.request("challenge_create", game=bobs["id"], best_of=2)
    assert refused["code"] == "invalid_field"
    assert (await alice.request("challenges"))["challenges"] == []
    for kind in ("challenge_get", "challenge_accept", "challenge_ghost", "challenge_rematch"):
        refused = await alice.request(kind, challenge="nothing")
        assert refused["code"] == "not_found", refused


async def test_a_challenge_is_answered_once_and_not_by_its_sender(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    carol = await named(connect, "carol")
    challenge = await sent(alice, await played(alice, clock))
    refused = await alice.request("challenge_accept", challenge=challenge["id"])
    assert refused["code"] == "not_challengeable" and "your own" in refused["message"]
    await bob.request("challenge_accept", challenge=challenge["id"])
    refused = await carol.request("challenge_accept", challenge=challenge["id"])
    assert refused["code"] == "not_challengeable", refused
    seen = (await carol.request("challenge_get", challenge=challenge["id"]))["challenge"]
    assert seen["opponent_name"] == "bob" and "game" not in seen


async def test_a_chosen_key_or_a_bot_leaves_a_result_unranked(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    robot = await named(connect, "robot", bot=True)
    chosen = await played(alice, clock, key="ab" * 32)
    refused = await alice.request("challenge_create", game=chosen["id"], best_of=3)
    assert refused["code"] == "not_challengeable" and "chosen" in refused["message"]
    for answerer, why, source in ((bob, "key_chosen", chosen), (robot, "bot", None)):
        game = source or await played(alice, clock)
        challenge = await sent(alice, game)
        answered = (await answerer.request("challenge_accept", challenge=challenge["id"]))["game"]
        await finish(answerer, clock, answered, steps=0)
        result = (await push(alice, "challenge", check=is_done))["challenge"]
        assert (result["ranked"], result["unranked"]) == (False, why)
        assert (result["match"]["first_wins"], result["match"]["second_wins"]) == (0, 0)
    match = await sent(alice, await played(alice, clock), best_of=3)
    refused = await robot.request("challenge_accept", challenge=match["id"])
    assert refused["code"] == "not_challengeable" and "bot" in refused["message"]


def home(view: dict[str, Any]) -> int:
    return sum(len(pile["up"]) for pile in view["piles"] if pile["id"].startswith("f"))


def line_home(view: dict[str, Any]) -> list[str]:
    """A winning line from the board the view shows (a Freecell board is all face up): its
    first moves bring a card home, however deep the deal buries its aces."""
    piles = [[parse_card(card) for card in pile["up"]] for pile in view["piles"]]
    game = Game(rules_for("freecell"), 1, position=Position(piles, [0] * len(piles)))
    result = solve_position(game, Budget(positions=200_000))
    assert result.verdict == WON, result
    return list(result.line)


async def homeward(client: Client, clock: FakeClock, game: dict[str, Any]) -> dict[str, Any]:
    """Plays a winning line until a card is home, then resigns (a random walk, tried
    before, once took 400 moves without an ace home: a deal with every ace at the bottom
    of its column)."""
    for action in line_home(game):
        if home(game):
            break
        clock.advance(500)
        reply = await client.move(game, action)
        assert "game" in reply, (reply, game["legal"])
        game = reply["game"]
    assert home(game), "no card went home"
    if game["state"] in ("playing", "stuck"):
        game = (await client.request("resign", game=game["id"], ply=game["ply"]))["game"]
    return game


async def round_of(
    challenger: Client,
    opponent: Client,
    clock: FakeClock,
    challenge: dict[str, Any],
    game: dict[str, Any],
    *,
    winner: Client | None,
) -> dict[str, Any]:
    """One round: the challenger's game (already dealt) played, then the opponent's; the one
    named ``winner`` gets a card home, the other resigns at once (None: both resign)."""
    if winner is challenger:
        await homeward(challenger, clock, game)
    else:
        await finish(challenger, clock, game, steps=0)
    if challenge["state"] == "setting":
        challenge = (
            await push(
                opponent, "challenge", check=lambda m: m["challenge"]["id"] == challenge["id"]
            )
        )["challenge"]
        assert challenge["state"] == "open" and "challenger_result" not in challenge
    answered = (await opponent.request("challenge_accept", challenge=challenge["id"]))["game"]
    if winner is opponent:
        await homeward(opponent, clock, answered)
    else:
        await finish(opponent, clock, answered, steps=0)
    done = [
        (await push(c, "challenge", check=lambda m: m["challenge"]["state"] == "done"))["challenge"]
        for c in (challenger, opponent)
    ]
    assert done[0] == done[1] | {"game": done[0]["game"]}
    return done[0]


async def test_a_best_of_three_keeps_a_running_score_through_rematches(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    game = (await alice.request("start_game", variant="freecell"))["game"]
    first = await alice.request("challenge_create", game=game["id"], best_of=3)
    assert first["code"] == "not_challengeable"  # not ended yet
    game = await finish(alice, clock, game, steps=0)
    challenge = await sent(alice, game, best_of=3)
    # Round 1: both resign with no card home: a draw, which wins nobody anything.
    answered = (await bob.request("challenge_accept", challenge=challenge["id"]))["game"]
    assert (await push(alice, "challenge"))["challenge"]["state"] == "playing"
    await finish(bob, clock, answered, steps=0)
    done = (await push(bob, "challenge"))["challenge"]
    assert (await push(alice, "challenge", check=is_done))["challenge"]["result"] == "draw"
    assert done["result"] == "draw" and done["match"]["draws"] == 1
    assert done["match"]["state"] == "playing"
    # Bob answers with a rematch: a new deal, his to play first.
    rematch = await bob.request("challenge_rematch", challenge=challenge["id"])
    assert rematch["type"] == "challenge_game", rematch
    second = rematch["challenge"]
    assert second["state"] == "setting" and second["round"] == 2
    assert second["match"]["id"] == challenge["match"]["id"]
    assert rematch["game"]["deal"]["commitment"] != challenge["commitment"]
    # alice asking for a rematch now is pointed at bob's round, which she cannot play yet
    refused = await alice.request("challenge_rematch", challenge=challenge["id"])
    assert refused["code"] == "not_challengeable" and "still playing" in refused["message"]
    again = await bob.request("challenge_rematch", challenge=challenge["id"])
    assert again["game"]["id"] == rematch["game"]["id"]  # his round, resumed
    await no_push(alice, "challenge")  # nothing before his game has ended
    done = await round_of(bob, alice, clock, second, rematch["game"], winner=bob)
    assert done["result"] == "challenger" and done["ranked"] is True
    assert (done["match"]["first_wins"], done["match"]["second_wins"]) == (0, 1)
    # Round 3: alice's rematch; she wins it. Round 4 decides.
    third = await alice.request("challenge_rematch", challenge=second["id"])
    done = await round_of(alice, bob, clock, third["challenge"], third["game"], winner=alice)
    assert (done["match"]["first_wins"], done["match"]["second_wins"]) == (1, 1)
    assert done["match"]["state"] == "playing" and done["match"]["rounds"] == 3
    fourth = await bob.request("challenge_rematch", challenge=third["challenge"]["id"])
    assert fourth["challenge"]["round"] == 4
    done = await round_of(bob, alice, clock, fourth["challenge"], fourth["game"], winner=alice)
    assert done["result"] == "opponent"
    match = done["match"]
    assert (match["first_wins"], match["second_wins"], match["draws"]) == (2, 1, 1)
    assert match["state"] == "over" and match["winner"] == challenge["challenger"]
    # A rematch now is a new match of the same length, between the same two.
    fifth = await bob.request("challenge_rematch", challenge=fourth["challenge"]["id"])
    new = fifth["challenge"]["match"]
    assert new["id"] != match["id"] and new["best_of"] == 3 and new["rounds"] == 0
    assert (new["first_name"], new["second_name"]) == ("bob", "alice")


async def test_a_daily_practice_challenge_waits_for_the_answerers_own_attempt(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    variant = "thumb_and_pouch"
    await fix_daily(server, variant, utc_date(clock.now))
    alice, bob = await named(connect, "alice"), await named(connect, "bob")
    attempt = (await alice.request("daily", start=True, variant=variant))["game"]
    refused = await alice.request("challenge_create", game=attempt["id"])
    assert refused["code"] == "not_challengeable" and "daily game" in refused["message"]
    await alice.request("resign", game=attempt["id"], ply=attempt["ply"])
    practice = (await alice.request("daily", variant=variant, practice=True))["game"]
    practice = await finish(alice, clock, practice, steps=1)
    assert "key" not in practice["deal"]  # a daily's key shows at the end of its day
    challenge = await sent(alice, practice)
    assert challenge["kind"] == "practice"  # the clients say its key shows at the day's end
    refused = await bob.request("challenge_accept", challenge=challenge["id"])
    assert refused["code"] == "not_challengeable" and "daily attempt first" in refused["message"]
    own = (await bob.request("daily", start=True, variant=variant))["game"]
    await bob.request("resign", game=own["id"], ply=own["ply"])
    answered = await bob.request("challenge_accept", challenge=challenge["id"])
    game = answered["game"]
    assert game["deal"] == {"commitment": practice["deal"]["commitment"]}
    ended = await finish(bob, clock, game, steps=0)
    assert "key" not in ended["deal"]  # still the day's secret


@pytest.mark.parametrize("best_of", [1, 3, 5])
async def test_a_match_of_any_length_starts_with_its_first_round(
    server: App, connect: Connect, clock: FakeClock, best_of: int
) -> None:
    alice = await named(connect, "alice")
    challenge = await sent(alice, await played(alice, clock, steps=0), best_of=best_of)
    assert challenge["match"]["best_of"] == best_of


async def test_the_landing_page_learns_who_challenges_before_signing_in(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice = await named(connect, "alice")
    mine = await played(alice, clock, steps=2)
    challenge = await sent(alice, mine, best_of=3)
    status, _, body = await fetch(server, f"/challenge/{challenge['id']}/about")
    assert status == 200
    assert json.loads(body) == {
        "id": challenge["id"],
        "challenger": "alice",
        "variant": "freecell",
        "best_of": 3,
        "round": 1,
        "state": "open",
    }
    assert mine["deal"]["key"] not in body.decode()
    for missing in ("nope", "x" * 40, ""):
        status, _, _ = await fetch(server, f"/challenge/{missing}/about")
        assert status == 404
    status, _, page = await fetch(server, f"/challenge/{challenge['id']}")
    assert status == 200 and b"<html" in page.lower()


async def test_a_result_review_holds_is_not_ranked_and_held_once(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob, carol = (
        await named(connect, "alice"),
        await named(connect, "bob"),
        await named(connect, "carol"),
    )
    game = (await alice.request("start_game", variant="freecell"))["game"]
    rng = random.Random(7)
    while game["ply"] < 30:  # 30 actions 50 ms apart: faster than a hand
        clock.advance(50)
        move = rng.choice(game["legal"]) if game["legal"] else "undo"
        reply = await (
            alice.request("undo", game=game["id"], ply=game["ply"])
            if move == "undo"
            else alice.move(game, move)
        )
        game = reply["game"]
    mine = (await alice.request("resign", game=game["id"], ply=game["ply"]))["game"]
    for friend in (bob, carol):  # sent twice: judged once
        challenge = await sent(alice, mine)
        answered = (await friend.request("challenge_accept", challenge=challenge["id"]))["game"]
        await finish(friend, clock, answered, steps=0)
        done = (await push(friend, "challenge", check=is_done))["challenge"]
        assert (done["ranked"], done["unranked"]) == (False, "review")
    async with server.db_sessions() as db:
        from sqlalchemy import func, select

        from server.storage.models import Review

        held = await db.scalar(
            select(func.count()).select_from(Review).where(Review.game_id == mine["id"])
        )
    assert held == 1
