"""The end of a game is seen, and every word a player reads is theirs: a win, a stuck game and a
resign each show over the board, inside the window, with what to do next (a stuck game says why
and offers undo); refusals, hints and end texts name piles and cards as the screen does, never in
notation; and the page in French shows no English word of the tables, nor the page in English a
French one (a game with its keys and rules, home, a daily)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared.solver import Budget, solve
from tests.web.conftest import LiveServer
from tests.web.pages import (
    BOARD,
    client_faults,
    fit_problems,
    page_errors,
    pile,
    register,
    top_card,
    wait_ply,
)
from tests.web.seats import Seat, signed_in, stuck_line

#: a pile id, a card in letters, a move: what a player should never read
NOTATION = re.compile(r"(?<![\w'])(?:[tfr]\d|[A2-9TJQK][CDHS]|\w\d?(?::\d+)?>\w\d?)(?![\w'])")
SCREENS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
    },
}
WORDS = {
    "en": {
        "undo": "Undo",
        "resign": "Resign",
        "yes": "Yes, resign",
        "new": "New game",
        "hint": "Hint",
    },
    "fr": {
        "undo": "Annuler",
        "resign": "Abandonner",
        "yes": "Oui, abandonner",
        "new": "Nouvelle partie",
        "hint": "Indice",
    },
}


@pytest.fixture
def seat(live: LiveServer) -> Iterator[Seat]:
    player = Seat(live.url, "ender")
    yield player
    player.close()


def opened(
    new_context: Callable[..., Any],
    live: LiveServer,
    seat: Seat,
    game: dict[str, Any],
    lang: str,
    screen: str,
) -> Any:
    page = new_context(**signed_in(live.url, seat.token, lang=lang, **SCREENS[screen])).new_page()
    page.goto(f"{live.url}/game/{game['id']}")
    wait_ply(page, game["ply"])
    return page


def seen(page: Any, selector: str) -> str:
    """The text of ``selector``, which must lie wholly inside the window as the page opens."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert (
        box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]
    ), box
    return str(page.locator(selector).inner_text())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_win_a_stuck_game_and_a_resign_end_where_the_player_looks(
    lang: str, live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    words = WORDS[lang]
    won = seat.play(
        "freecell", 617, list(solve("freecell", 617, {}, Budget(positions=200_000)).line)
    )
    assert won["state"] == "won"
    line = stuck_line("freecell", 5)
    for screen in SCREENS:
        stuck = seat.play("freecell", 5, line)  # a game of its own: this one is undone, resigned
        assert stuck["state"] == "stuck"
        page = opened(new_context, live, seat, won, lang, screen)
        faults, errors = client_faults(page), page_errors(page)
        text = seen(page, ".banner")
        assert "0:" in text and not NOTATION.search(text), text
        assert page.locator(".banner").get_by_role("link", name=words["new"]).count() == 1
        page.locator(".banner .end-best").wait_for()  # the player's first win: a best
        assert fit_problems(page) == []

        page.goto(f"{live.url}/game/{stuck['id']}")
        wait_ply(page, stuck["ply"])
        text = seen(page, ".banner")
        assert not NOTATION.search(text), text
        assert page.locator(".banner .end-why").inner_text()  # says why in words
        page.locator(".banner").get_by_role("button", name=words["undo"]).click()
        page.locator(f"{BOARD}[data-state='playing']").wait_for()
        assert page.locator(".banner").is_hidden()

        page.get_by_role("button", name=words["resign"], exact=True).click()
        page.get_by_role("button", name=words["yes"]).click()
        page.locator(f"{BOARD}[data-state='resigned']").wait_for()
        text = seen(page, ".banner")
        assert not NOTATION.search(text), text
        assert faults == [] and errors == []
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_refusals_and_hints_speak_the_screens_names(
    lang: str, live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    game = seat.play("freecell", 617, [])
    page = opened(new_context, live, seat, game, lang, "desktop")
    top_card(page, "t4").click(position={"x": 8, "y": 6})
    pile(page, "t0").click(position={"x": 8, "y": 6})  # JC onto JD: refused by the server
    message = page.locator(".message")
    message.wait_for()
    page.wait_for_function("() => document.querySelector('.message').textContent.length > 0")
    refusal = message.inner_text()
    assert "J\u2663" in refusal or "V\u2663" in refusal, refusal
    assert not NOTATION.search(refusal), refusal
    page.get_by_role("button", name=WORDS[lang]["hint"], exact=True).click()
    page.wait_for_function("() => document.querySelector('.message').dataset.kind === 'hint'")
    hint = message.inner_text()
    assert not NOTATION.search(hint), hint
    assert hint.startswith("Hint: move" if lang == "en" else "Indice : déplacez"), hint


#: the tables' plain strings that the other language says differently, read in the page
OTHER_WORDS = """async (lang) => {
  const { en } = await import('/js/i18n/en.js');
  const { fr } = await import('/js/i18n/fr.js');
  const [mine, other] = lang === 'en' ? [en, fr] : [fr, en];
  return Object.keys(en).filter((k) => !k.startsWith('lang.') && typeof other[k] === 'string'
    && other[k] !== mine[k] && other[k].length > 5).map((k) => other[k]);
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_page_in_one_language_shows_no_word_of_the_other(
    lang: str, live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    game = seat.play("gypsy", 3, ["deal"])
    page = opened(new_context, live, seat, game, lang, "desktop")
    assert page.evaluate("document.documentElement.lang") == lang
    foreign = page.evaluate(OTHER_WORDS, lang)
    assert len(foreign) > 40
    page.get_by_text("Keys" if lang == "en" else "Touches", exact=True).click()
    page.get_by_role("button", name="Rules" if lang == "en" else "Règles", exact=True).click()
    shown = page.locator("body").inner_text()
    leaks = [words for words in foreign if words in shown]
    assert leaks == [], leaks
    page.keyboard.press("Escape")
    page.get_by_role("link", name="Patience Club").click()
    page.locator(".variants").wait_for()
    shown = page.locator("main").inner_text()
    assert [words for words in foreign if words in shown] == []
    page.goto(f"{live.url}/daily/westhaven")  # the daily: its start step, then its attempt
    page.locator(".daily-intro, .game .board").first.wait_for()
    if page.locator(".daily-intro").count():  # (the seat's attempt may be started already)
        shown = page.locator("body").inner_text()
        assert [words for words in foreign if words in shown] == []
        page.locator(".daily-intro button.start-daily").click()
    page.locator(".game .board[data-ply='0']").wait_for()
    page.locator(".leaderboard").wait_for()
    shown = page.locator("body").inner_text()
    assert [words for words in foreign if words in shown] == []


def test_the_header_s_link_status_changes_language_with_the_page(
    page: Any, live: LiveServer
) -> None:
    """The link's status is said when the link changes; a change of language in the header
    says it again in the new language (it kept the old one until the next change)."""
    register(page, f"{live.url}/", "alice")
    page.locator("#link-status", has_text="online").wait_for()
    page.locator("#lang").select_option("fr")
    page.get_by_text("Bienvenue, alice").wait_for()
    page.locator("#link-status", has_text="en ligne").wait_for()
    page.locator("#lang").select_option("en")
    page.locator("#link-status", has_text="online").wait_for()
    assert page.locator("#link-status").inner_text() == "online"


def test_a_race_link_says_what_it_is_before_asking_a_name(page: Any, live: LiveServer) -> None:
    page.goto(f"{live.url}/race/k7qf2m")
    page.get_by_text("You are invited to race K7QF2M").wait_for()
    page.get_by_label("Name", exact=True).wait_for()


def test_a_race_link_names_who_invites_to_what_before_asking_a_name(
    live: LiveServer, new_context: Callable[..., Any]
) -> None:
    host = Seat(live.url, "alice")
    try:
        code = host.request("create_room", variant="gypsy")["room"]["code"]
        page = new_context().new_page()
        faults = client_faults(page)
        page.goto(f"{live.url}/race/{code}")
        page.get_by_text(f"alice invites you to race Gypsy (room {code})").wait_for()
        register(page, f"{live.url}/race/{code}", "bob")  # the name, then the room
        page.locator(".members", has_text="bob").wait_for()
        assert faults == []
    finally:
        host.close()


SET_ROOM = "async (code) => { (await import('/js/store.js')).store.room = code; }"


def test_home_shows_the_way_back_to_a_room_joined_after_it_was_shown(
    page: Any, live: LiveServer
) -> None:
    """The race screen keeps the room once the server's reply to its join lands, which may be
    after the player has gone home (a click on the title while it waits): home shown before
    then offers the way back all the same, and drops it when the room is left."""
    register(page, f"{live.url}/", "alice")
    page.locator(".variants").wait_for()
    assert page.get_by_text("You are in race").count() == 0
    page.evaluate(SET_ROOM, "K7QF2M")  # the join landing now, with home on the screen
    page.get_by_text("You are in race K7QF2M.").wait_for()
    assert page.get_by_role("link", name="Back to the race").get_attribute("href") == "/race/K7QF2M"
    page.evaluate(SET_ROOM, None)
    page.get_by_text("You are in race").wait_for(state="detached")


def test_home_offers_the_way_back_to_the_race_one_is_in(page: Any, live: LiveServer) -> None:
    register(page, f"{live.url}/", "alice")
    page.get_by_role("button", name="Create race").click()
    page.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}$"))  # the address is the race's link
    code = page.url.rsplit("/", 1)[1]
    page.get_by_role("link", name="Patience Club").click()
    page.get_by_text(f"You are in race {code}.").wait_for()
    page.get_by_role("link", name="Back to the race").click()
    page.wait_for_url(f"**/race/{code}")
    page.get_by_role("button", name="Leave room").click()
    page.locator(".variants").wait_for()
    assert page.get_by_text("You are in race").count() == 0
