"""Home's side panel: races with friends, challenges, and the player's own statistics.

Composed apart from :mod:`client.screens.home` (whose keys and messages act on
it) so that the screen's module stays small; the widgets' ids are the screen's.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from client.i18n import t


def side_panel(rule_label: str) -> ComposeResult:
    """The race buttons (``rule_label`` names the rule of the races created), the challenge
    code field and list, and the statistics."""
    with Vertical(classes="panel", id="side-panel"):
        yield Label(t("home.races"), classes="title")
        with Horizontal(classes="buttons"):
            yield Button(t("home.create_race"), id="create-race", compact=True)
        with Horizontal(classes="buttons"):
            yield Button(rule_label, id="race-rule", compact=True)
        with Horizontal(classes="buttons"):
            yield Input(placeholder=t("home.room_code"), id="room-code", max_length=6, compact=True)
            yield Button(t("home.join"), id="join-race", compact=True)
            yield Button(t("home.watch"), id="watch-race", compact=True)
        yield Label(t("home.challenges"), classes="title")
        with Horizontal(classes="buttons"):
            yield Input(placeholder=t("home.challenge_code"), id="challenge-code", compact=True)
            yield Button(t("home.accept"), id="accept-challenge", compact=True)
        yield Static(id="challenges")
        yield Label(t("home.you"), classes="title")
        yield Static(id="stats")
