"""Nothing the server sends lets a client learn a face-down card, whatever a client tries.

Three things would: a face-down card's name, the seed of a keyed deal (there is none to
send: any seed a client did not ask for is a leak), and the key of a keyed deal still in
play. Every message every client of these tests receives, of every kind (views, errors,
hints, the games list, replays, race pushes, watched boards, progress, rooms, leaderboards,
season boards, profiles, the daily archive), is checked for all three; and the old exploit,
rebuilding a random game's deal from what its
view says, is tried again and finds nothing to rebuild from.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from server.app import App
from server.config import Config
from server.daily.deals import utc_date
from server.storage.queries import arenas as arena_store
from shared.deals import KeyedDeal
from shared.games import new_game
from shared.variants import STANDARD
from tests.server.arenas.conftest import fill_pool
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.pushes import fix_daily, push

CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


@pytest.fixture
def config(config: Config) -> Config:
    return config.replace(race_countdown_ms=50)


HEX64 = re.compile(r"[0-9a-fA-F]{64}")


#: keys whose string value is a random id (``secrets.token_urlsafe``: letters, digits, "-" and
#: "_"), which can spell a card's name between two dashes ("x-JH-abc"), never a card
ID_KEYS = frozenset({"id", "game"})


def strings(value: Any, *, ids: bool = True) -> Iterator[str]:
    """Every string in a message, map keys included (the ids too, unless ``ids`` is false)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            if ids or not (key in ID_KEYS and isinstance(item, str)):
                yield from strings(item, ids=ids)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, ids=ids)


def seeds(value: Any) -> Iterator[Any]:
    """Every value under a ``seed`` key, anywhere in a message."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "seed":
                yield item
            yield from seeds(item)
    elif isinstance(value, list):
        for item in value:
            yield from seeds(item)


def card_names(value: Any) -> set[str]:
    return {card for text in strings(value, ids=False) for card in CARD.findall(text)}


def face_up(revealed: dict[str, Any]) -> set[str]:
    return {card for pile in revealed["piles"] for card in pile["up"]}


def face_down(revealed: dict[str, Any]) -> set[str]:
    return {card for pile in revealed["piles"] for card in pile["down"]}


class Secrets:
    """What the server must keep to itself: the keys of the keyed deals in play (and of those
    ``kept`` by their rules although their game ended), and every seed but those the clients
    asked for. Read from the server's own games, never from what it sends."""

    def __init__(self, server: App) -> None:
        self.server = server
        self.asked: set[int] = set()
        self.games: set[str] = set()
        #: games whose key must stay secret after they ended (a daily's, a race's)
        self.kept: set[str] = set()

    async def keys_in_play(self) -> set[str]:
        keys = set()
        for game_id in self.games:
            live = await self.server.game_store.get(game_id)
            deal = live.game.deal
            in_play = live.state in ("playing", "stuck") or game_id in self.kept
            if isinstance(deal, KeyedDeal) and in_play:
                keys.add(deal.key.hex())
        return keys

    async def check(self, *clients: Client) -> int:
        """Every message the clients received so far leaks nothing; how many were read."""
        keys = await self.keys_in_play()
        read = 0
        for client in clients:
            for message in client.received:
                read += 1
                for text in strings(message):
                    for found in HEX64.findall(text):
                        assert found.lower() not in keys, ("a key in play", message)
                for seed in seeds(message):
                    assert seed is None or seed in self.asked, ("a seed not asked for", message)
        return read


def attempts(rng: random.Random, view: dict[str, Any]) -> tuple[str, int]:
    """A legal move most of the time, else something a curious client might try; and the
    ply to send it at (now and then a stale one)."""
    piles = [p["id"] for p in view["piles"]]
    ply = view["ply"] if rng.random() < 0.9 else max(0, view["ply"] - 3)
    roll = rng.random()
    if view["legal"] and roll < 0.7:
        return str(rng.choice(view["legal"])), ply
    if roll < 0.8:
        return "undo", ply
    src, dst = rng.choice(piles), rng.choice(piles)
    return rng.choice([f"{src}>f", f"{src}>{dst}", f"{src}:3>{dst}", "deal", "auto"]), ply


@pytest.mark.parametrize("variant", list(STANDARD.ids))
async def test_random_play_never_shows_a_face_down_card_nor_a_secret(
    server: App, player: Client, connect: Connect, variant: str
) -> None:
    rng = random.Random(variant)
    secrets = Secrets(server)
    stranger = await connect()
    await stranger.hello("stranger")
    hidden_seen = 0
    numbered = rng.randint(1, 2**31 - 1)
    secrets.asked.add(numbered)
    for seed in (numbered, None):
        fields = {} if seed is None else {"seed": seed}
        view = (await player.request("start_game", variant=variant, **fields))["game"]
        secrets.games.add(view["id"])
        live = await server.game_store.get(view["id"])
        before = live.game.view(reveal=True)
        seen = face_up(before)
        early = await stranger.request("replay", game=view["id"])
        assert early["code"] == "forbidden"  # nobody else's while it is played
        own = await player.request("replay", game=view["id"])  # its player's move list
        assert own["type"] == "replay", own
        assert not card_names(own) - seen, "a game's own replay shows only what it saw"
        for step in range(40):
            action, ply = attempts(rng, view)
            if action == "undo":
                reply = await player.request("undo", game=view["id"], ply=ply)
            else:
                reply = await player.request("move", game=view["id"], ply=ply, move=action)
            hint = await player.request("hint", game=view["id"]) if step % 8 == 0 else {}
            listed = await player.request("games", limit=2) if step % 10 == 0 else {}
            midway = {}
            if step == 20:  # once, after a pause: the test's pace is near the rate limit
                await asyncio.sleep(1.0)
                midway = await player.request("replay", game=view["id"])
            after = live.game.view(reveal=True)
            visible = face_up(before) | face_up(after)
            seen |= visible
            hidden_seen += len(face_down(after))
            for message in (reply, hint, listed):
                leaked = card_names(message) - visible
                assert not leaked, (action, message)
            if midway:  # the boards so far: every one of them was seen when it was shown
                leaked = card_names(midway) - seen
                assert not leaked, (action, midway)
            for pile in reply.get("game", {}).get("piles", []):
                assert isinstance(pile["down"], int)
            if "game" in reply:
                view = reply["game"]
            before = after
            if view["state"] != "playing":
                break
        if view["state"] in ("playing", "stuck"):
            await player.request("resign", game=view["id"], ply=view["ply"])
        replayed = await player.request("replay", game=view["id"])
        assert replayed["type"] == "replay", replayed
        assert not card_names(replayed) - seen, "a replay shows only the boards the player saw"
        assert await secrets.check(player, stranger) > 40
    if variant != "freecell":
        assert hidden_seen > 0, "the check saw no face-down card: it proved nothing"


async def test_a_race_watched_by_a_spectator_shows_only_what_each_racer_sees(
    server: App, connect: Connect
) -> None:
    rng = random.Random(7)
    alice, bob, sam = await connect(), await connect(), await connect()
    tokens = {}
    for client, name in ((alice, "alice"), (bob, "bob"), (sam, "sam")):
        tokens[name] = (await client.hello(name))["token"]
    secrets = Secrets(server)
    b = (await bob.request("stats"))["player"]["id"]
    code = (await alice.request("create_room", variant="westhaven"))["room"]["code"]
    await sam.request("invitation", code=code)  # what the link is: no card, no key
    await bob.request("transfer_code", token=tokens["bob"])
    await bob.request("join_room", code=code)
    await sam.request("join_room", code=code, role="spectator")
    await alice.request("start_race", code=code)
    alices = (await push(alice, "race_started", timeout=10))["game"]
    bobs = (await push(bob, "race_started", timeout=10))["game"]
    secrets.games |= {alices["id"], bobs["id"]}
    secrets.kept |= secrets.games  # the race is not over before the last check
    await sam.request("watch", code=code, player=b)
    live = await server.game_store.get(bobs["id"])
    for _ in range(30):
        visible = face_up(live.game.view(reveal=True))
        move = rng.choice(bobs["legal"]) if bobs["legal"] else "undo"
        bobs = (await bob.move(bobs, move))["game"]
        watched = await push(sam, "game", player=b)
        assert watched["game"] == bobs  # what bob sees, nothing more
        visible |= face_up(live.game.view(reveal=True))
        assert not card_names(watched) - visible
        progress = await push(alice, "progress", player=b)
        assert not card_names(progress)
        if bobs["state"] != "playing":
            break
    await alice.request("leave_room", code=code)  # alice's race game is resigned
    assert await secrets.check(alice, bob, sam) > 30
    for message in sam.received:
        if message.get("type") in ("race_started", "room", "progress"):
            assert not card_names(message), message


async def test_a_daily_leaks_nothing_before_its_day_ends(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    await fix_daily(server, "thumb_and_pouch", utc_date(clock.now))
    alice, bob = await connect(), await connect()
    await alice.hello("alice")
    await bob.hello("bob")
    secrets = Secrets(server)
    for client in (alice, bob):
        game = (await client.request("daily", start=True, variant="thumb_and_pouch"))["game"]
        secrets.games.add(game["id"])
        clock.advance(1_000)
        moved = await client.move(game, game["legal"][0])
        await client.request("hint", game=game["id"])  # hints_off
        await client.request("resign", game=game["id"], ply=moved["game"]["ply"])
        practice = await client.request("daily", variant="thumb_and_pouch", practice=True)
        secrets.games.add(practice["game"]["id"])
        await client.request("hint", game=practice["game"]["id"])
        await client.request("leaderboard", variant="thumb_and_pouch")
        await client.request("games")
        await client.request("replay", game=game["id"])  # the attempt: its player's boards
        await client.request("replay", game=practice["game"]["id"])  # in play: forbidden
    for client, other in ((alice, bob), (bob, alice)):
        attempt = next(m["game"]["id"] for m in other.received if m.get("type") == "game")
        refused = await client.request("replay", game=attempt)  # another's, its key secret
        assert refused["code"] == "forbidden", refused
        await client.request("season", period="week", variant="thumb_and_pouch")
        await client.request("season", period="all")
        await client.request("daily", variant="thumb_and_pouch", date=utc_date(clock.now))
    for client, other in ((alice, "bob"), (bob, "alice"), (alice, "alice")):
        shown = await client.request("profile", name=other)
        # no game on the day's deal is offered as a replay while its key is secret
        assert not {game["id"] for game in shown["recent"]} & secrets.games, shown
    # Ended, every one of them, but the day has not: the day's one key is still secret.
    secrets.kept |= secrets.games
    assert await secrets.keys_in_play() == {bytes(range(32)).hex()}
    assert await secrets.check(alice, bob) > 10


async def test_the_old_exploit_finds_nothing_to_rebuild_a_random_deal_from(
    player: Client,
) -> None:
    """A client once rebuilt a random game's whole deal from its view's seed. Now a random
    game's view holds no seed and no key; and no number nor hex string anywhere in what the
    client received rebuilds its face-up cards as a numbered or a keyed deal."""
    for variant in STANDARD.ids:
        view = (await player.request("start_game", variant=variant))["game"]
        assert "seed" not in view and set(view["deal"]) == {"commitment"}
        up = {p["id"]: p["up"] for p in view["piles"]}
        numbers = {n for n in _numbers(player.received) if 1 <= n <= 2**31 - 1}
        texts = {t for text in strings(player.received) for t in HEX64.findall(text)}
        for seed in numbers:
            rebuilt = new_game(variant, seed=seed).view()
            assert {p["id"]: p["up"] for p in rebuilt["piles"]} != up, seed
        for text in texts:
            rebuilt = new_game(variant, key=bytes.fromhex(text)).view()
            assert {p["id"]: p["up"] for p in rebuilt["piles"]} != up, text


def _numbers(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


async def test_an_arena_tells_no_key_nor_face_down_card_before_its_end(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    """Every arena message (arenas, arena, arena_game, arena_standings, arena_place,
    arena_table, and the refusals) while the arena runs: no key of its deals, no card the
    receiver cannot see.
    Once it is over its keys are shown, and only then."""
    await fill_pool(server)
    rng = random.Random(22)
    alice, bob = await connect(), await connect()
    await alice.hello("alice")
    await bob.hello("bob")
    secrets = Secrets(server)
    code = (await alice.request("arena_create", variant="osmosis", minutes=30))["arena"]["code"]
    await bob.request("arena_join", code=code)
    hidden_seen = 0
    for client in (alice, bob) * 2:
        dealt = await client.request("arena_play", code=code)
        assert dealt["type"] == "arena_game", dealt
        view = dealt["game"]
        secrets.games.add(view["id"])
        live = await server.game_store.get(view["id"])
        if rng.random() < 0.5:
            await client.request("arena_berserk", code=code)
        for _ in range(25):
            before = live.game.view(reveal=True)
            action, ply = attempts(rng, view)
            clock.advance(1_500)
            reply = await client.request("move", game=view["id"], ply=ply, move=action)
            after = live.game.view(reveal=True)
            hidden_seen += len(face_down(after))
            visible = face_up(before) | face_up(after)
            for message in (
                reply,
                await client.request("hint", game=view["id"]),
                await client.request("arenas"),
                await client.request("arena_join", code=code),
                await client.request("arena_table", code=code),
            ):
                assert not card_names(message) - visible, message
            if "game" in reply and isinstance(reply["game"], dict):
                view = reply["game"]
            if view["state"] != "playing":
                break
        if view["state"] == "playing":
            await client.request("resign", game=view["id"], ply=view["ply"])
    await push(alice, "arena_standings", code=code)
    # every game ended, but the arena has not: its deals' keys are all still secret
    secrets.kept |= secrets.games
    async with server.db_sessions() as db:
        drawn = {row.deal_key for row in await arena_store.deals(db, code=code)}
    assert len(drawn) >= 2 and (await secrets.keys_in_play()) <= drawn
    for message in alice.received + bob.received:  # the deals drawn ahead, not played yet, too
        assert not drawn & {t.lower() for s in strings(message) for t in HEX64.findall(s)}
    kinds = {m.get("type") for c in (alice, bob) for m in c.received}
    shown = {"arenas", "arena", "arena_game", "arena_standings", "arena_place", "arena_table"}
    assert shown <= kinds
    assert await secrets.check(alice, bob) > 50
    assert hidden_seen > 0, "the check saw no face-down card: it proved nothing"
    clock.advance(31 * 60_000)
    await server.arenas.tick()
    over = await push(alice, "arena_over")
    assert {d["key"] for d in over["deals"]} == drawn  # shown once it is over


@pytest.mark.parametrize("variant", ["westhaven", "gypsy"])
async def test_a_challenge_shows_its_friend_no_key_nor_card_before_their_game_ends(
    server: App, connect: Connect, clock: FakeClock, variant: str
) -> None:
    """Every message of a challenge (its view, the game it deals, the ghost, the result, the
    list), to the friend and to a third player: no card name beyond the friend's own board,
    none at all outside it, and no key of the deal until the friend's own game has ended."""
    rng = random.Random(variant)
    alice, bob, carol = await connect(), await connect(), await connect()
    for client, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        await client.hello(name)
    mine = (await alice.request("start_game", variant=variant))["game"]
    for _ in range(15):
        clock.advance(1_000)
        if not mine["legal"]:
            break
        mine = (await alice.move(mine, rng.choice(mine["legal"])))["game"]
    mine = (await alice.request("resign", game=mine["id"], ply=mine["ply"]))["game"]
    key = mine["deal"]["key"]  # alice's to see: her game ended
    sent = (await alice.request("challenge_create", game=mine["id"]))["challenge"]
    before = len(bob.received)
    await carol.request("challenge_get", challenge=sent["id"])
    await bob.request("challenge_get", challenge=sent["id"])
    answered = await bob.request("challenge_accept", challenge=sent["id"])
    game = answered["game"]
    live = await server.game_store.get(game["id"])
    assert live.keyed is not None and live.keyed.key.hex() == key
    visible = face_up(live.game.view(reveal=True))
    hidden_seen = len(face_down(live.game.view(reveal=True)))
    for step in range(30):
        clock.advance(700)
        await bob.request("challenge_ghost", challenge=sent["id"])
        await carol.request("challenge_ghost", challenge=sent["id"])  # refused
        if step % 10 == 0:
            await bob.request("challenges")
        if game["state"] != "playing" or not game["legal"]:
            break
        game = (await bob.move(game, rng.choice(game["legal"])))["game"]
        visible |= face_up(live.game.view(reveal=True))
        hidden_seen += len(face_down(live.game.view(reveal=True)))
    playing = bob.received[before:] + carol.received
    assert len(playing) > 20
    for message in playing:
        assert key not in str(message).lower(), ("the key before the end", message)
        board = message.get("game") if isinstance(message.get("game"), dict) else {}
        rest = {k: v for k, v in message.items() if k != "game"}
        assert not card_names(rest), ("a card outside the board", message)
        assert not card_names(board) - visible, ("a card bob cannot see", message)
    assert hidden_seen > 0, "the check saw no face-down card: it proved nothing"
    if game["state"] == "playing":
        await bob.request("resign", game=game["id"], ply=game["ply"])
    done = await push(bob, "challenge")
    assert not card_names(done) and key not in str(done).lower()
    assert done["challenge"]["state"] == "done"
