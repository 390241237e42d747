"""Timings of whole games kept as fixtures: the format, a loader, and a maker from stored rows.

Review must not hold a person's game. The games it is checked against are
kept as JSON files in ``tests/server/review/timings/``, one game each
(``patience-club admin timings GAME --client web`` prints a stored game so)::

    {
      "format": "patience-club/review-timings/1",
      "source": "recorded",              # or "synthetic human-model"
      "client": "terminal",              # or "web": which client the game was played in
      "note": "who played it, when, on what",
      "variant": "freecell", "options": {},
      "key": "000102...1f",              # the deal: "key" (hex) or "seed"
      "won": true,
      "actions": [["t4>r0", 9120], ["t0>r1", 11034], ...]
    }

``actions`` are the game's stored actions as the engine recorded them, each
with the milliseconds from the game's start to the server receiving it
(``moves.played_ms`` minus ``games.started_ms``: :func:`from_rows`).

``source`` says honestly where the times come from: ``recorded`` is a
person's game as a server stored it; ``synthetic human-model`` is made by
tests/server/review/human_model.py from assumed figures, not by a person. No
recorded game is kept yet: every file there today is synthetic
(docs/fair-play.md says so), and games played by people in both clients are
still to be recorded and added.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.review.rule import Played
from shared.game import WON
from shared.games import replay

FORMAT = "patience-club/review-timings/1"
RECORDED, SYNTHETIC = "recorded", "synthetic human-model"
CLIENTS = ("terminal", "web")


class BadTimings(ValueError):
    """A timings file that does not hold one replayable game with times that make sense."""


@dataclass(frozen=True, slots=True)
class Timings:
    source: str
    client: str
    note: str
    variant: str
    options: Mapping[str, Any]
    #: the deal: {"key": hex} or {"seed": n}
    deal: Mapping[str, Any]
    won: bool
    actions: tuple[tuple[str, int], ...]

    def record(self) -> dict[str, Any]:
        """The game's record (docs/notation.md), which replays it."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            **self.deal,
            "actions": [action for action, _ in self.actions],
            "resigned": False,
        }

    def played(self, *, fresh: bool = True) -> Played:
        """What review reads of this game (started at 0)."""
        return Played(
            tuple(a for a, _ in self.actions),
            tuple(ms for _, ms in self.actions),
            0,
            fresh=fresh,
            won=self.won,
        )

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "source": self.source,
            "client": self.client,
            "note": self.note,
            "variant": self.variant,
            "options": dict(self.options),
            **self.deal,
            "won": self.won,
            "actions": [list(pair) for pair in self.actions],
        }
        return json.dumps(data, indent=None, separators=(", ", ": ")) + "\n"


def parse(data: Mapping[str, Any]) -> Timings:
    """Check ``data`` (one file's JSON) and replay its game; :class:`BadTimings` if wrong."""
    if data.get("format") != FORMAT:
        raise BadTimings(f"format {data.get('format')!r} is not {FORMAT!r}")
    if data.get("source") not in (RECORDED, SYNTHETIC):
        raise BadTimings(f"source {data.get('source')!r} is neither {RECORDED!r} nor {SYNTHETIC!r}")
    if data.get("client") not in CLIENTS:
        raise BadTimings(f"client {data.get('client')!r} is not one of {CLIENTS}")
    deal = {k: data[k] for k in ("key", "seed") if k in data}
    if len(deal) != 1:
        raise BadTimings("a game names its deal by exactly one of 'key' and 'seed'")
    pairs = tuple((str(a), int(ms)) for a, ms in data.get("actions", ()))
    times = [ms for _, ms in pairs]
    if not pairs or times[0] < 0 or any(b < a for a, b in itertools.pairwise(times)):
        raise BadTimings("times must start at 0 or later and never go back")
    timings = Timings(
        str(data["source"]),
        str(data["client"]),
        str(data.get("note", "")),
        str(data["variant"]),
        dict(data.get("options") or {}),
        deal,
        bool(data.get("won")),
        pairs,
    )
    try:
        game = replay(timings.record())
    except Exception as exc:
        raise BadTimings(f"the actions do not replay: {exc}") from exc
    if (game.state == WON) != timings.won:
        raise BadTimings(f"'won' is {timings.won} but the game ends {game.state}")
    return timings


def load(path: Path) -> Timings:
    try:
        return parse(json.loads(path.read_text()))
    except BadTimings as exc:
        raise BadTimings(f"{path.name}: {exc}") from None


def kept(folder: Path, source: str | None = None) -> list[Timings]:
    """Every game kept in ``folder`` (of ``source`` only, if given), in file name order."""
    games = [load(path) for path in sorted(folder.glob("*.json"))]
    return [t for t in games if source is None or t.source == source]


def from_rows(
    record: Mapping[str, Any],
    received: Sequence[tuple[str, int]],
    start_ms: int,
    *,
    client: str,
    note: str,
    won: bool,
) -> Timings:
    """A person's game as a server stored it (its record, ``moves`` rows and start) as
    recorded timings: how the first recorded fixtures are to be made."""
    deal = {k: record[k] for k in ("key", "seed") if k in record}
    actions = tuple((a, ms - start_ms) for a, ms in received)
    options = dict(record.get("options") or {})
    timings = Timings(RECORDED, client, note, record["variant"], options, deal, won, actions)
    return parse(json.loads(timings.to_json()))
