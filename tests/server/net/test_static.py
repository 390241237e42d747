"""The browser client's files over HTTP on the server's port: routes, types, caching, policy."""

from __future__ import annotations

import asyncio
import html
import http.client
import json
import re
from pathlib import Path

from server.app import App
from server.net.preload import SCREENS, imports
from server.net.static import CLIENT_ROOT, StaticSite, content_security_policy


def get(app: App, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """One raw GET (http.client sends the path exactly as given, dots and all)."""
    connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=5)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


async def fetch(app: App, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(get, app, path, **headers)


PRELOAD = re.compile(rb'\n<link rel="modulepreload" href="([^"]+)">')
#: the variants' options the server writes into each page (boot.js reads them)
OPTIONS = re.compile(rb'<meta name="pc-options" content="([^"]*)">\n')


async def test_the_app_and_its_screens_answer_index_html(server: App) -> None:
    index = (CLIENT_ROOT / "index.html").read_bytes()
    for path, screen in (
        ("/", "home"),
        ("/play/freecell", "game"),
        ("/play/osmosis?seed=5", "game"),
        ("/daily/gypsy", "daily"),
        ("/race/K7QF2M", "race"),
        ("/race/k7qf2m?as=spectator", "race"),
        ("/game/g7Qx-_9a", "game"),
        ("/replay/g7Qx-_9a?step=4", "replay"),
        ("/leaderboard/westhaven", "daily"),
    ):
        status, headers, body = await fetch(server, path)
        # index.html, with the modules its screen runs listed for the browser to fetch at once
        assert (status, OPTIONS.sub(b"", PRELOAD.sub(b"", body))) == (200, index), path
        told = OPTIONS.search(body)
        assert told and json.loads(html.unescape(told.group(1).decode()))["freecell"] == {
            "autoplay": True
        }
        assert headers["content-type"] == "text/html; charset=utf-8"
        listed = [m.decode() for m in PRELOAD.findall(body)]
        assert f"/js/{screen}.js" in listed, path
        assert len(listed) == len(set(listed))
        assert not {"/js/main.js", "/js/boot.js"} & set(listed)
        for path_ in listed:
            assert (await fetch(server, path_))[0] == 200, path_


async def test_a_screen_preloads_what_it_runs_and_not_other_screens(server: App) -> None:
    page = (await fetch(server, "/play/gypsy"))[2]
    game = [m.decode() for m in PRELOAD.findall(page)]
    # what boot.js needs comes first, right after its tag: it opens the connection once those
    # are in; then main.js's own, then the screen's
    boot = {"/js/connection.js", "/js/msgpack.js", "/js/dialect.js", "/js/store.js"}
    assert set(game[:4]) == boot
    assert page.index(b'src="/js/boot.js"') < page.index(b"/js/connection.js")
    assert page.index(b"/js/store.js") < page.index(b"/css/app.css") < page.index(b"/js/i18n.js")
    assert game.index("/js/i18n.js") < game.index("/js/game.js")
    assert game.index("/js/dialect.js") < game.index("/js/game.js") < game.index("/js/board.js")
    assert not {"/js/home.js", "/js/race.js", "/js/replay.js", "/js/profile.js"} & set(game)
    replay = [m.decode() for m in PRELOAD.findall((await fetch(server, "/replay/abc"))[2])]
    assert "/js/board.js" in replay and "/js/game.js" not in replay


def test_every_screen_module_is_imported_by_main_when_shown() -> None:
    main = (CLIENT_ROOT / "js" / "main.js").read_text()
    for module in set(SCREENS.values()):
        assert (CLIENT_ROOT / module.lstrip("/")).is_file(), module
        assert f"import('./{module.removeprefix('/js/')}')" in main, module
        assert f"from './{module.removeprefix('/js/')}'" not in main, module


def test_imports_are_read_from_one_line_or_several() -> None:
    source = (
        "import { a } from './a.js';\n"
        "import {\n  b,\n  c,\n} from '../lib/b.js';\n"
        "export { d } from './d.js';\n"
        "import './side.js';\n"
        "const later = () => import('./later.js');\n"
        "// import { x } from './comment.js' is no import\n"
    )
    assert imports("/js/sub/m.js", source) == [
        "/js/sub/a.js",
        "/js/lib/b.js",
        "/js/sub/d.js",
        "/js/sub/side.js",
    ]


async def test_assets_carry_their_type_an_etag_and_no_sniffing(server: App) -> None:
    expected = {
        "/js/main.js": "text/javascript; charset=utf-8",
        "/js/msgpack.js": "text/javascript; charset=utf-8",
        "/css/app.css": "text/css; charset=utf-8",
        "/img/icon.svg": "image/svg+xml",
    }
    for path, kind in expected.items():
        status, headers, body = await fetch(server, path)
        assert status == 200, path
        assert headers["content-type"] == kind
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["cache-control"] == "no-cache"
        assert headers["etag"].startswith('"') and headers["last-modified"].endswith("GMT")
        assert int(headers["content-length"]) == len(body) > 0


async def test_an_unchanged_file_is_304_without_a_body(server: App) -> None:
    _, headers, _ = await fetch(server, "/js/board.js")
    etag = headers["etag"]
    for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        status, again, body = await fetch(server, "/js/board.js", **{"If-None-Match": sent})
        assert (status, body) == (304, b""), sent
        assert again["etag"] == etag
    status, _, body = await fetch(server, "/js/board.js", **{"If-None-Match": '"stale"'})
    assert status == 200 and body


async def test_the_policy_allows_this_host_only_and_no_inline_script(server: App) -> None:
    _, headers, _ = await fetch(server, "/")
    policy = headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "*" not in policy
    host = f"127.0.0.1:{server.port}"
    assert directives["connect-src"] == f"'self' ws://{host} wss://{host}"
    assert directives["frame-ancestors"] == "'none'"


def test_a_host_header_that_is_not_a_host_is_not_echoed() -> None:
    assert "evil" not in content_security_policy("a.example; script-src evil")
    assert "ws://[::1]:8765" in content_security_policy("[::1]:8765")
    assert "ws:" not in content_security_policy(None)


async def test_unknown_paths_and_traversal_are_404(server: App) -> None:
    for path in (
        "/nowhere",
        "/js/nope.js",
        "/index.html",
        "/../server/app.py",
        "/js/../index.html",
        "/js/..%2f..%2fpyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/play/Freecell!",
        "/play/freecell/extra",
        "/js",
        "/js/",
        "/css/app.css/",
        "/race/" + "A" * 40,
    ):
        status, _, body = await fetch(server, path)
        assert status == 404, path
        assert b"not found" in body


async def test_the_server_paths_stay_as_they_were_and_metrics_left_the_game_port(
    server: App,
) -> None:
    status, headers, _ = await fetch(server, "/healthz")
    assert status == 200 and headers["content-type"] == "application/json"
    status, _, _ = await fetch(server, "/metrics")  # served on metrics_port alone
    assert status == 404


def test_the_table_holds_only_known_types_and_nothing_outside_its_folder(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>hi</p>")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export {};")
    (tmp_path / "notes.md").write_text("not served")
    (tmp_path.parent / "secret.js").write_text("outside")
    site = StaticSite.load(tmp_path)
    assert sorted(site.assets) == ["/index.html", "/js/a.js"]
    assert site.asset_for("/") is site.assets["/index.html"]
    assert site.asset_for("/../secret.js") is None
    assert StaticSite.load(tmp_path / "missing").assets == {}


async def test_text_is_gzipped_for_a_browser_that_accepts_it(server: App) -> None:
    import gzip

    _, plain_headers, plain = await fetch(server, "/js/board.js")
    assert "content-encoding" not in plain_headers
    assert plain_headers["vary"] == "Accept-Encoding"
    status, headers, body = await fetch(server, "/js/board.js", **{"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
    assert headers["etag"] != plain_headers["etag"]  # another representation
    again = await fetch(
        server, "/js/board.js", **{"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]}
    )
    assert again[0] == 304
    refused = await fetch(server, "/js/board.js", **{"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused[1] and refused[2] == plain
    _, page_headers, page = await fetch(server, "/race/K7QF2M", **{"Accept-Encoding": "gzip"})
    assert page_headers.get("content-encoding") == "gzip" and b"<html" in gzip.decompress(page)
