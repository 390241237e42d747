"""No face-down card identity ever leaves the server, whatever a client tries."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from server.app import App
from shared.variants import STANDARD
from tests.server.conftest import Client

CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def card_names(value: Any) -> set[str]:
    """Every card name written anywhere in a message: pile lists, moves, error messages."""
    if isinstance(value, str):
        return set(CARD.findall(value))
    if isinstance(value, dict):
        return set().union(*(card_names(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_names(v) for v in value)) if value else set()
    return set()


def face_up(revealed: dict[str, Any]) -> set[str]:
    return {card for pile in revealed["piles"] for card in pile["up"]}


def face_down(revealed: dict[str, Any]) -> set[str]:
    return {card for pile in revealed["piles"] for card in pile["down"]}


def attempts(rng: random.Random, view: dict[str, Any]) -> str:
    """A legal move most of the time, else something a curious client might try."""
    piles = [p["id"] for p in view["piles"]]
    roll = rng.random()
    if view["legal"] and roll < 0.7:
        return str(rng.choice(view["legal"]))
    if roll < 0.8:
        return "undo"
    src, dst = rng.choice(piles), rng.choice(piles)
    return rng.choice([f"{src}>f", f"{src}>{dst}", f"{src}:3>{dst}", "deal", "auto"])


@pytest.mark.parametrize("variant", list(STANDARD.ids))
async def test_random_play_never_shows_a_face_down_card(
    server: App, player: Client, variant: str
) -> None:
    rng = random.Random(variant)
    hidden_seen = 0
    for seed in (rng.randint(1, 2**31 - 1), rng.randint(1, 2**31 - 1)):
        view = await player.start(variant, seed=seed)
        live = await server.games.get(view["id"])
        before = server.games.view(live, reveal=True)
        for step in range(40):
            action = attempts(rng, view)
            if action == "undo":
                reply = await player.request("undo", game=view["id"], ply=view["ply"])
            else:
                reply = await player.move(view, action)
            hint = await player.request("hint", game=view["id"]) if step % 8 == 0 else {}
            after = server.games.view(live, reveal=True)
            visible = face_up(before) | face_up(after)
            hidden_seen += len(face_down(after))
            for message in (reply, hint):
                leaked = card_names(message) - visible
                assert not leaked, (action, message)
            for pile in reply.get("game", {}).get("piles", []):
                assert isinstance(pile["down"], int)
            if reply["type"] == "game":
                view = reply["game"]
            before = after
            if view["state"] != "playing":
                break
    if variant != "freecell":
        assert hidden_seen > 0, "the check saw no face-down card: it proved nothing"
