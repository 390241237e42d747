"""A real Chromium (Debian's, never a downloaded one) against the real server on loopback.

One browser per test module, a fresh context per test, and a server of its
own per test: an :class:`App` with a copy of the migrated SQLite file, run in a thread with its
own event loop so that Playwright's synchronous API drives the browser from the test.

Without a Chromium the browser tests skip with one line saying how to get one; with
``CI=true`` a missing Chromium fails them instead.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.browser import CHROMIUM_ARGS, chromium_path
from server.app import App, wall_clock_ms
from server.config import Config
from server.games.live import Clock
from shared.variants import STANDARD, Variants

# the server tests' template database and settings
from tests.server.conftest import config, db_url, migrated  # noqa: F401

MISSING = (
    "no Chromium for the browser tests: install Debian's with `apt-get install -y chromium` "
    "(or point PATIENCE_CHROMIUM at one)"
)


def need(found: object, why: str) -> None:
    """Skip (or, on CI, fail) when a tool the browser tests need is missing."""
    if found:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


def pytest_runtest_call(item: pytest.Item) -> None:
    """Skip a browser test when there is no Chromium, from here: the skips then share one
    location, and pytest's summary folds them into one line."""
    if "browser" in getattr(item, "fixturenames", ()) and chromium_path() is None:
        need(None, MISSING)


@pytest.fixture(scope="module")
def browser(migrated: Path) -> Iterator[Any]:  # noqa: F811
    """Chromium, started once per test module; after the template database (whose set-up runs
    an event loop, which it could not inside Playwright's). Playwright's synchronous API keeps
    an event loop running in the thread while it is open, so it is closed with the module: a
    test of another directory that the same worker runs next may start a loop of its own.
    Without a Chromium: None, and the test is skipped when it would run (on CI it fails
    here)."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(MISSING)
        yield None
        return
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extras install it
        need(None, "the playwright package is missing: pip install -e '.[test]'")
        raise
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class LiveServer:
    """An :class:`App` serving on 127.0.0.1 from a thread of its own."""

    def __init__(
        self, settings: Config, variants: Variants = STANDARD, clock: Clock = wall_clock_ms
    ) -> None:
        self.config = settings
        self.variants = variants
        self.clock = clock
        self.loop = asyncio.new_event_loop()
        self.app: App | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="live-server", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def start() -> None:
            self.app = App(self.config, variants=self.variants, clock=self.clock)
            await self.app.start()

        try:
            self.loop.run_until_complete(start())
        except BaseException as exc:
            self._failed = exc
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()

    def start(self) -> LiveServer:
        self._thread.start()
        self._ready.wait(30)
        if self._failed is not None:
            raise self._failed
        return self

    @property
    def url(self) -> str:
        assert self.app is not None
        return f"http://127.0.0.1:{self.app.port}"

    def call(self, work: Callable[[App], Any]) -> Any:
        """Run ``work(app)`` (a coroutine function) in the server's loop and return its result."""
        assert self.app is not None
        app = self.app

        async def run() -> Any:
            return await work(app)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(30)

    def drop_connections(self) -> int:
        """Cut every client's TCP connection at once, as a lost network would."""

        async def drop(app: App) -> int:
            sessions = list(app.connections)
            for session in sessions:
                session.ws.transport.abort()
            return len(sessions)

        return int(self.call(drop))

    def stop(self) -> None:
        if self.app is not None:
            asyncio.run_coroutine_threadsafe(self.app.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


@pytest.fixture
def web_config(config: Config) -> Config:  # noqa: F811
    """The server tests' settings (a copy of the migrated database...), races started sooner."""
    return config.replace(
        daily_budget_s=20.0, race_countdown_ms=600, race_tick_ms=200, log_level="WARNING"
    )


@pytest.fixture
def live(web_config: Config) -> Iterator[LiveServer]:
    server = LiveServer(web_config).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """Make browser contexts (a desktop window by default); all are closed after the test."""
    made: list[Any] = []

    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("viewport", {"width": 1100, "height": 820})
        context = browser.new_context(**kwargs)
        context.set_default_timeout(10_000)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def page(browser: Any, new_context: Callable[..., Any]) -> Any:
    return None if browser is None else new_context().new_page()
