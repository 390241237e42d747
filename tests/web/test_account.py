"""The account in the browser: moved to another device with a short code shown on one and
entered on the other (no token copied by hand), the code used once; and logging out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.web.conftest import LiveServer
from tests.web.pages import client_faults, register


def enter_code(page: Any, url: str, code: str) -> None:
    page.goto(url)
    page.get_by_text("I have an account code from another device").click()
    field = page.get_by_label("Account code")
    field.fill(code)
    field.press("Enter")


def test_a_code_moves_the_account_and_logging_out_forgets_it(
    live: LiveServer, new_context: Callable[..., Any]
) -> None:
    first = new_context().new_page()
    faults = client_faults(first)
    register(first, f"{live.url}/", "alice")
    first.get_by_text("Play on another device").click()
    first.get_by_role("button", name="Show a code for another device").click()
    code = first.locator(".transfer-code").inner_text()
    assert len(code) == 9 and code[4] == "-", code
    assert "It works for 4:" in first.locator(".transfer-left").inner_text()
    token = first.evaluate("localStorage.getItem('patience-club.token')")
    assert token not in first.content()  # the token is not on the screen

    second = new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    enter_code(second, f"{live.url}/", code.lower())
    second.locator("#who", has_text="alice").wait_for()
    assert second.evaluate("localStorage.getItem('patience-club.token')") == token
    second.get_by_role("heading", name="alice", exact=False).first.wait_for()

    third = new_context().new_page()
    enter_code(third, f"{live.url}/", code)  # used once
    third.get_by_role("alert").filter(has_text="opens no account here").wait_for()
    assert third.evaluate("localStorage.getItem('patience-club.token')") is None

    first.get_by_role("button", name="Log out of this browser").click()
    first.get_by_role("button", name="Yes, log out").click()
    first.get_by_label("Name", exact=True).wait_for()
    assert first.evaluate("localStorage.getItem('patience-club.token')") is None
    second.reload()
    second.locator("#who", has_text="alice").wait_for()  # the other device is still in
    assert faults == []
