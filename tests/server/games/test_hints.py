"""Hints over the wire: answered when ready without holding the connection, one at a time per
connection, a bounded number at once, counted in the game; null once the game has ended."""

from __future__ import annotations

from server.app import App
from server.config import Config
from tests.server.conftest import Client, FakeClock, ServeWith, open_client
from tests.shared.solver.test_hints import GYPSY_3

#: a deal whose opening the solver cannot settle within a second: its hints take the
#: whole budget, long enough to ask again meanwhile
SLOW = ("thumb_and_pouch", 6)


async def player(app: App, name: str) -> Client:
    client = await open_client(app)
    await client.hello(name)
    return client


async def test_a_hint_answers_later_and_the_connection_goes_on_meanwhile(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(hint_budget=0.5, hint_concurrency=4)
    alice = await player(app, "alice")
    game = await alice.start(*SLOW)
    await alice.send({"type": "hint", "id": 901, "game": game["id"]})
    await alice.send({"type": "hint", "id": 902, "game": game["id"]})
    await alice.send({"type": "get_game", "id": 903, "game": game["id"]})
    arrived = [await alice.recv() for _ in range(3)]
    replies = {m["re"]: m for m in arrived}
    # The refusal and the view come at once; the hint when the solver is done.
    assert [m["re"] for m in arrived] == [902, 903, 901]
    assert replies[902]["code"] == "busy" and replies[903]["type"] == "game"
    assert replies[901]["move"] in game["legal"]
    again = await alice.request("hint", game=game["id"])  # free again once answered
    assert again["type"] == "hint"
    assert (await alice.request("get_game", game=game["id"]))["game"]["hints"] == 2


async def test_the_server_computes_at_most_hint_concurrency_hints_at_once(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(hint_budget=0.5, hint_concurrency=1, hint_wait_s=0)
    alice, bob = await player(app, "alice"), await player(app, "bob")
    slow = await alice.start(*SLOW)
    other = await bob.start("freecell", seed=617)
    await alice.send({"type": "hint", "id": 7, "game": slow["id"]})
    refused = await bob.request("hint", game=other["id"])
    assert refused["code"] == "busy" and "1 hints" in refused["message"]
    assert (await alice.recv())["re"] == 7
    assert (await bob.request("hint", game=other["id"]))["type"] == "hint"


async def test_hints_are_counted_in_the_game_and_stored_and_null_once_it_ended(
    config: Config, clock: FakeClock, serve_with: ServeWith
) -> None:
    app = App(config, clock=clock)
    await app.start()
    try:
        alice = await open_client(app)
        token = (await alice.hello("alice"))["token"]
        game = await alice.start("freecell", seed=617)
        for _ in range(2):
            hint = await alice.request("hint", game=game["id"])
            assert hint["move"] in game["legal"]
        resigned = (await alice.request("resign", game=game["id"], ply=0))["game"]
        assert resigned["hints"] == 2
        ended = await alice.request("hint", game=game["id"])
        assert (ended["type"], ended["move"]) == ("hint", None)
        await alice.ws.close()
    finally:
        await app.stop()
    restarted = await serve_with()
    again = await open_client(restarted)
    await again.request("hello", protocol=2, client="t/1", token=token)
    stored = (await again.request("get_game", game=game["id"]))["game"]
    assert stored["hints"] == 2  # an answer of null was not counted
    listed = (await again.request("games"))["games"][0]
    assert listed["id"] == game["id"]


async def test_the_hint_is_the_engines_hint_from_the_players_view(serve_with: ServeWith) -> None:
    """The server hands the hint the player's view only (a PlayerView has no field for a
    face-down card), with sampling seed 0: the same answer as the engine's view-only hint
    computed here from that view, the budget's clock far off."""
    from shared.games import new_game
    from shared.player_view import PlayerView
    from shared.solver import DEFAULT_HINT_BUDGET, hint

    app = await serve_with(hint_budget=120)
    alice = await player(app, "alice")
    # (a deal on which the all-seeing hint, and another sampling seed, answer otherwise)
    game = await alice.start("westhaven", seed=8)
    local = new_game("westhaven", seed=8)
    expected = hint(PlayerView.of(local), local.rules, sampling_seed=0, budget=DEFAULT_HINT_BUDGET)
    assert (await alice.request("hint", game=game["id"]))["move"] == expected


async def test_a_hint_that_finds_every_thread_busy_waits_its_turn(serve_with: ServeWith) -> None:
    app = await serve_with(hint_budget=0.5, hint_concurrency=1, hint_wait_s=3)
    alice, bob = await player(app, "alice"), await player(app, "bob")
    slow = await alice.start(*SLOW)
    other = await bob.start("freecell", seed=617)
    await alice.send({"type": "hint", "id": 7, "game": slow["id"]})
    waited = await bob.request("hint", game=other["id"])  # after alice's, not busy
    assert waited["type"] == "hint" and waited["move"] in other["legal"]
    assert (await alice.recv())["re"] == 7


async def test_a_player_may_ask_hint_burst_hints_in_a_row_then_waits(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(hint_burst=2, hint_refill_s=60)
    alice = await player(app, "alice")
    game = await alice.start("freecell", seed=617)
    for _ in range(2):
        assert (await alice.request("hint", game=game["id"]))["type"] == "hint"
    third = await alice.request("hint", game=game["id"])
    assert third["code"] == "busy" and "ask again in" in third["message"]
    bob = await player(app, "bob")  # another player's rate is their own
    others = await bob.start("freecell", seed=617)
    assert (await bob.request("hint", game=others["id"]))["type"] == "hint"


def shown(game: dict[str, object]) -> object:
    """What the player sees of a game reply's board."""
    piles = game["piles"]
    assert isinstance(piles, list)
    return tuple((p["id"], p["down"], tuple(p["up"])) for p in piles)


async def test_a_followed_hint_never_undoes_the_last_move_nor_returns_where_the_game_was(
    serve_with: ServeWith,
) -> None:
    # Gypsy deal 3 (GYPSY_3): with one arrangement a hint (hint_budget 1 ms, whatever the
    # machine's load: a hint the server's clock cut short), the hints before moved a card
    # from foundation f0 to t6 and back, for ever, while other moves were open.
    app = await serve_with(hint_budget=0.001, hint_burst=40)
    alice = await player(app, "alice")
    game = await alice.start("gypsy", seed=3)
    been = {shown(game)}
    for move in GYPSY_3:
        game = (await alice.move(game, move))["game"]
        been.add(shown(game))
    last = GYPSY_3[-1]
    for _ in range(10):
        advice = (await alice.request("hint", game=game["id"]))["move"]
        assert advice is not None and advice in game["legal"]
        src, dst = last.split(">") if ">" in last else ("", "")
        assert advice != f"{dst}>{src}", f"{advice} undoes {last}"
        game = (await alice.move(game, advice))["game"]
        assert shown(game) not in been, f"{advice} led back to a position of the game"
        been.add(shown(game))
        last = advice
