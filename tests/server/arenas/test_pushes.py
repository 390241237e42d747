"""The standings pushes against a real server: one frame for every follower when what it shows
changed, each one's own place apart and only when it changed, written a chunk of followers per
turn of the event loop, and a follower who does not read delays nobody."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from server.app import App
from server.config import Config
from tests.server.arenas.conftest import fill_pool, lose, standings, win
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.pushes import no_push, push


@pytest.fixture
def config(config: Config, db_url: str) -> Config:
    # (db_url named, so that these run on both databases: see the package's conftest)
    # a slow reader's queue fills after 8 messages; one send may wait a minute for it (the
    # rule that cuts a reader stalled longer is not what these tests are about)
    return config.replace(send_queue=8, send_timeout=60.0)


async def joined(connect: Connect, name: str, code: str) -> Client:
    client = await connect()
    await client.hello(name)
    reply = await client.request("arena_join", code=code)
    assert reply["type"] == "arena", reply
    return client


def places(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.received if m.get("type") == "arena_place"]


async def settled(*clients: Client) -> None:
    """Every push of the changes so far has arrived (a ping answered after the next push)."""
    await asyncio.sleep(0.15)  # several push periods (20 ms in these tests)
    for client in clients:
        await client.request("ping")


@pytest.mark.parametrize("chunk", [500, 1])
async def test_every_follower_gets_the_same_standings_and_their_place_when_it_changes(
    server: App, connect: Connect, clock: FakeClock, chunk: int
) -> None:
    # chunk 1: each push goes out one follower per turn of the event loop, the others' moves
    # and leaves handled in between
    server.arena_standings.config = server.arena_standings.config.replace(arena_push_chunk=chunk)
    await fill_pool(server)
    alice = await connect()
    await alice.hello("alice")
    made = await alice.request("arena_create", variant="osmosis", minutes=30)
    code = made["arena"]["code"]
    bob = await joined(connect, "bob", code)
    carol = await joined(connect, "carol", code)
    await settled(alice, bob, carol)
    before = {c: len(places(c)) for c in (alice, bob, carol)}

    # bob loses a deal: his line changes (one played), nobody's rank does
    dealt = await bob.request("arena_play", code=code)
    await lose(bob, dealt, clock)
    seen = [await standings(c, code, check=lambda m: m["players"] == 3 and any(
        e["played"] == 1 for e in m["top"])) for c in (alice, bob, carol)]  # fmt: skip
    assert seen[0] == seen[1] == seen[2]  # the same frame for all: no one's own entry in it
    assert "me" not in seen[0] and seen[0]["at_ms"] == clock.now
    mine = await push(bob, "arena_place", code=code, check=lambda m: m["me"]["played"] == 1)
    assert (mine["me"]["rank"], mine["me"]["points"], mine["me"]["name"]) == (1, 0, "bob")
    await settled(alice, bob, carol)
    assert len(places(alice)) == before[alice] and len(places(carol)) == before[carol]

    # carol wins one: she is first, and alice and bob, passed, are told their new rank
    dealt = await carol.request("arena_play", code=code)
    await win(server, carol, dealt, clock)
    for client, name in ((alice, "alice"), (bob, "bob")):
        moved = await push(client, "arena_place", code=code, check=lambda m: m["me"]["rank"] == 2)
        assert moved["me"]["name"] == name and moved["me"]["points"] == 0
    first = await push(carol, "arena_place", code=code, check=lambda m: m["me"]["points"] == 3)
    assert first["me"]["rank"] == 1
    await settled(alice, bob, carol)
    counts = {c: len(places(c)) for c in (alice, bob, carol)}

    # alice leaves: she gets no more pushes; the others' places did not change: none for them
    assert (await alice.request("arena_leave", code=code))["type"] == "ok"
    dealt = await carol.request("arena_play", code=code)
    await lose(carol, dealt, clock)
    await push(carol, "arena_place", code=code, check=lambda m: m["me"]["played"] == 2)
    await settled(alice, bob, carol)
    assert len(places(alice)) == counts[alice] and len(places(bob)) == counts[bob]
    last = max(m["version"] for m in alice.received if m.get("type") == "arena_standings")
    assert any(m["version"] > last for m in bob.received if m.get("type") == "arena_standings")


async def test_a_deal_scored_below_the_top_is_pushed_only_to_whom_it_changes(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    await fill_pool(server)
    host = await connect()
    await host.hello("a-host")
    code = (await host.request("arena_create", variant="osmosis", minutes=30))["arena"]["code"]
    # all at 0 points: the top 10 are the first by name, "z" and "zz" below it
    top = [await joined(connect, f"b{n:02d}", code) for n in range(9)]
    low, lower = await joined(connect, "z", code), await joined(connect, "zz", code)
    everyone = [host, *top, low, lower]
    await settled(*everyone)
    flushes = server.arena_standings.standings_flushes
    for client in everyone:
        client.received.clear()

    dealt = await low.request("arena_play", code=code)
    await lose(low, dealt, clock)  # one played more: in no one's standings, in z's place
    mine = await push(low, "arena_place", code=code, check=lambda m: m["me"]["played"] == 1)
    assert mine["me"]["rank"] == 1  # equal points share the rank
    await settled(*everyone)
    assert server.arena_standings.standings_flushes > flushes  # a push, of z's place alone
    for client in everyone:
        await no_push(client, "arena_standings", wait_s=0.05)
        if client is not low:
            await no_push(client, "arena_place", wait_s=0.0)

    # zz joins again (as after a reconnection): the next push sends it the standings and its
    # place, though the top did not change (the table may have moved since its join's reply)
    again = await lower.request("arena_join", code=code)
    assert again["type"] == "arena"
    dealt = await low.request("arena_play", code=code)
    await lose(low, dealt, clock)
    await push(low, "arena_place", code=code, check=lambda m: m["me"]["played"] == 2)
    got = await standings(lower, code)
    assert [e["name"] for e in got["top"]] == ["a-host", *(f"b{n:02d}" for n in range(9))]
    assert (await push(lower, "arena_place", code=code))["me"]["name"] == "zz"
    await settled(*everyone)
    for client in (host, *top):
        await no_push(client, "arena_standings", wait_s=0.0)

    # a deal of the top: everyone gets the standings (one frame), and only b00 their place
    dealt = await top[0].request("arena_play", code=code)
    await lose(top[0], dealt, clock)
    seen = [await standings(c, code, check=lambda m: m["top"][1]["played"] == 1) for c in everyone]
    assert all(m == seen[0] for m in seen)
    await settled(*everyone)
    assert [c for c in everyone if places(c)] == [top[0], low, lower]


def tiny_receive_buffer() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    return sock


@pytest.mark.parametrize("passed", [0, 2])
async def test_a_follower_who_does_not_read_delays_no_one_and_gets_the_latest_later(
    server: App, connect: Connect, clock: FakeClock, config: Config, passed: int
) -> None:
    # passed: then that many racers win a deal, passing the slow one, whose place changes
    # while its socket is full (its standings and place wait together, each the latest)
    await fill_pool(server)
    host = await connect()
    await host.hello("host" + "x" * 19)
    code = (await host.request("arena_create", variant="osmosis", minutes=30))["arena"]["code"]
    # the host and nine racers are the top 10: each racer's deal changes the standings all see
    racers = [await joined(connect, f"racer{n:02d}{'y' * 16}", code) for n in range(9)]
    sock = tiny_receive_buffer()
    sock.connect(("127.0.0.1", server.port))
    slow = await connect(sock=sock, max_queue=1)
    await slow.hello("slow")
    assert (await slow.request("arena_join", code=code))["type"] == "arena"
    (conn,) = [c for c in server.players[(await slow.request("stats"))["player"]["id"]]]
    watcher = await joined(connect, "watcher", code)
    # the slow follower stops reading; its socket's buffers are small: they fill at once
    conn.ws.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 2048)
    slow.ws.transport.pause_reading()
    queue = config.send_queue
    versions: list[int] = []
    backed: list[int] = []  # the versions pushed while the slow one's sends were waiting
    while len(backed) < 3 * queue:  # many more pushes than its queue holds
        racer = racers[len(versions) % len(racers)]
        dealt = await racer.request("arena_play", code=code)
        await lose(racer, dealt, clock)
        pushed = await standings(
            watcher, code, check=lambda m: not versions or m["version"] > versions[-1]
        )
        versions.append(pushed["version"])
        if conn._latest:  # the slow one's sends are waiting: count from here
            backed.append(pushed["version"])
        assert not conn.dropped and conn._queued <= 2, conn._queued
        assert len(versions) < 20 * queue, "the slow follower's socket never filled"
    for racer in racers[:passed]:
        dealt = await racer.request("arena_play", code=code)
        await win(server, racer, dealt, clock)
        await standings(watcher, code, check=lambda m: m["version"] > versions[-1])
        # one frame being written, one standings and one place waiting: no more
        assert not conn.dropped and conn._queued <= 3, conn._queued
    # the watcher got a push for every change, while the slow one read nothing
    await settled(watcher)
    latest = server.arena_standings.tables[code].version  # the table as it ends up
    slow.ws.transport.resume_reading()
    got = await standings(slow, code, check=lambda m: m["version"] == latest, timeout=10)
    assert got["version"] == latest
    late = [
        m["version"]
        for m in slow.received
        if m.get("type") == "arena_standings" and m["version"] > backed[0]
    ]
    assert len(late) <= 2, late  # the superseded ones were never sent: the latest instead
    if passed:  # its place as it ends up (those who won have more points), sent once
        mine = await push(slow, "arena_place", code=code, check=lambda m: m["me"]["rank"] > 1)
        assert mine["me"]["rank"] == 1 + passed, mine
        assert len([m for m in places(slow) if m["me"]["rank"] > 1]) == 1
