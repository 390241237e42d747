"""Home's side panel: races with friends, challenges, and the player's own statistics.

Composed apart from :mod:`client.screens.home` (whose keys and messages act on
it) so that the screen's module stays small; the widgets' ids are the screen's.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static


def side_panel(rule_label: str) -> ComposeResult:
    """The race buttons (``rule_label`` names the rule of the races created), the challenge
    code field and list, and the statistics."""
    with Vertical(classes="panel", id="side-panel"):
        yield Label("Race with friends", classes="title")
        with Horizontal(classes="buttons"):
            yield Button("Create race", id="create-race", compact=True)
        with Horizontal(classes="buttons"):
            yield Button(rule_label, id="race-rule", compact=True)
        with Horizontal(classes="buttons"):
            yield Input(placeholder="room code", id="room-code", max_length=6, compact=True)
            yield Button("Join", id="join-race", compact=True)
            yield Button("Watch", id="watch-race", compact=True)
        yield Label("Challenges", classes="title")
        with Horizontal(classes="buttons"):
            yield Input(placeholder="code or link", id="challenge-code", compact=True)
            yield Button("Accept", id="accept-challenge", compact=True)
        yield Static(id="challenges")
        yield Label("You: p profile, t account", classes="title")
        yield Static(id="stats")
