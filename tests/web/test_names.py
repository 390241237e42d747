"""Signing up in the browser with a name that looks like a player's: refused, said in words (in
the page's language), and the name form is back to try another."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import LiveServer
from tests.web.pages import page_errors, register


def test_a_look_alike_name_is_refused_in_words(
    page: Any, new_context: Any, live: LiveServer
) -> None:
    register(page, f"{live.url}/", "Alice")
    other = new_context(locale="en-GB").new_page()
    errors = page_errors(other)
    other.goto(f"{live.url}/")
    field = other.get_by_label("Name", exact=True)
    field.fill("AIice")  # a capital i for the l
    field.press("Enter")
    other.get_by_text("The name AIice looks too much like a player\u2019s name here").wait_for()
    # the form is back: another name registers
    register(other, f"{live.url}/", "Alicia")
    assert errors == []


def test_the_refusal_is_in_french_for_a_french_browser(
    page: Any, new_context: Any, live: LiveServer
) -> None:
    register(page, f"{live.url}/", "Bob")
    other = new_context(locale="fr-FR").new_page()
    other.goto(f"{live.url}/")
    field = other.get_by_label("Name", exact=True)
    if not field.count():  # (the label is in the page's language)
        field = other.locator("input").first
    field.fill("B0b")
    field.press("Enter")
    other.get_by_text("Le nom B0b ressemble trop au nom d\u2019un joueur d\u2019ici").wait_for()
