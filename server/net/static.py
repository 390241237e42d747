"""The browser client's files over plain HTTP, on the WebSocket's port.

Every file under ``client/web/`` is read once, when the server starts, into
a table of :class:`Asset` (body, content type, ETag); a request is answered
from that table alone, so no request path ever reaches the file system and
``..`` or an encoded slash can only miss. The app's own addresses
(``/play/VARIANT``, ``/race/CODE``, ``/challenge/ID``...) answer ``index.html``: the
page reads its address and shows the right screen. Each address's copy lists, as modulepreload
lines, the modules its screen runs (server/net/preload.py), so the browser asks for them all at
once instead of a level of imports at a time.

Files are not renamed by content, so each response says ``Cache-Control:
no-cache`` with a strong ETag: a browser keeps its copy and asks again,
and an unchanged file costs a ``304`` with no body. Every answer carries a
Content-Security-Policy that allows scripts, styles and images from this
host only (no inline or evaluated script) and WebSocket connections back to
the host the page was loaded from.
"""

from __future__ import annotations

import gzip
import hashlib
import http
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import formatdate
from html import escape
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.net.preload import ENTRY, SCREENS, imports, with_preloads

log = logging.getLogger(__name__)

#: the browser client's files, beside the ``server`` package (also when installed)
CLIENT_ROOT = Path(__file__).resolve().parents[2] / "client" / "web"
INDEX = "/index.html"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}

#: addresses of the app's screens: each answers index.html
APP_ROUTES = re.compile(
    r"/(?:"
    r"|play/[a-z_]{1,32}"
    r"|daily/[a-z_]{1,32}"
    r"|leaderboard/[a-z_]{1,32}"
    r"|race/[A-Za-z0-9]{1,16}"
    r"|arenas"
    r"|arena/[A-Za-z0-9]{1,16}"
    r"|game/[A-Za-z0-9_-]{1,32}"
    r"|challenge/[A-Za-z0-9_-]{1,16}"
    r"|replay/[A-Za-z0-9_-]{1,32}"
    r"|boards"
    r"|player/[A-Za-z0-9_-]{1,24}"
    r")/?"
)
#: what a Host header may hold to be echoed into the policy (a name or address, a port)
_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(?::[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](?::[0-9]{1,5})?")

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'{ws}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


@dataclass(frozen=True, slots=True)
class Asset:
    """One file as served: its bytes and the headers that describe them."""

    body: bytes
    content_type: str
    etag: str
    last_modified: str
    #: the body gzipped, when that is smaller (text: scripts, styles, the page, the icon),
    #: sent to a browser that accepts it; its own ETag (another representation)
    gzipped: bytes | None = None
    gzip_etag: str = ""


def gzipped(body: bytes) -> bytes | None:
    """``body`` gzipped once at load (level 9, no timestamp: the same bytes every start), or
    None when that saves less than a tenth."""
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    return packed if len(packed) < len(body) * 0.9 else None


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (not refused with ``q=0``)."""
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = (
                params.strip().removeprefix("q=").strip()
                if params.strip().startswith("q=")
                else "1"
            )
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


def content_security_policy(host: str | None) -> str:
    """The policy for a page loaded from ``host``: its own ws:/wss: allowed, nothing else.

    ``'self'`` covers ws: on the same host in current browsers; naming the
    host as well keeps older ones connecting. A Host header that is not a
    plain host and port is left out rather than echoed.
    """
    ws = f" ws://{host} wss://{host}" if host and _HOST.fullmatch(host) else ""
    return POLICY.format(ws=ws)


def asset(body: bytes, kind: str, modified: str) -> Asset:
    """``body`` as served: its ETag, and its gzipped copy for text."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    packed = gzipped(body) if kind.startswith(("text/", "image/svg")) else None
    return Asset(body, kind, etag, modified, packed, etag[:-1] + '-gz"' if packed else "")


#: the line that tells the page each variant's options and their defaults (VariantInfo's
#: ``options``, as welcome will): boot.js sends a new game's start_game beside hello with it
OPTIONS_META = '<meta name="pc-options" content="{}">\n'


def with_options(html: str, options: Mapping[str, Mapping[str, object]] | None) -> str:
    """``html`` with the :data:`OPTIONS_META` line before its first module script (unchanged
    without ``options``)."""
    entry = ENTRY.search(html)
    if entry is None or options is None:
        return html
    line = OPTIONS_META.format(escape(json.dumps(options, separators=(",", ":")), quote=True))
    return html[: entry.start()] + line + html[entry.start() :]


def pages(
    assets: dict[str, Asset], options: Mapping[str, Mapping[str, object]] | None = None
) -> dict[str, Asset]:
    """index.html for each screen (its module's path as key): with the modulepreload lines of
    the modules that screen runs, and the variants' ``options`` when given."""
    index = assets.get(INDEX)
    if index is None:
        return {}
    html = index.body.decode()
    if ENTRY.search(html) is None:
        return {}
    html = with_options(html, options)
    needs = {p: imports(p, a.body.decode()) for p, a in assets.items() if p.endswith(".js")}
    return {
        screen: asset(
            with_preloads(html, needs, screen).encode(), index.content_type, index.last_modified
        )
        for screen in set(SCREENS.values())
    }


class StaticSite:
    """The asset table and the answers made from it."""

    def __init__(
        self, assets: dict[str, Asset], options: Mapping[str, Mapping[str, object]] | None = None
    ) -> None:
        self.assets = assets
        #: index.html as each screen's address answers it (server/net/preload.py), telling
        #: each variant's ``options`` when given
        self.pages = pages(assets, options)

    @classmethod
    def load(
        cls,
        root: Path = CLIENT_ROOT,
        options: Mapping[str, Mapping[str, object]] | None = None,
    ) -> StaticSite:
        """Read every file under ``root``; a missing folder serves no page (and says so).
        ``options``: each variant's options and defaults, told in the pages."""
        assets: dict[str, Asset] = {}
        if not root.is_dir():
            log.warning("no browser client at %s: only /ws, /healthz and /metrics answer", root)
            return cls(assets)
        for path in sorted(root.rglob("*")):
            kind = CONTENT_TYPES.get(path.suffix)
            if kind is None or not path.is_file():
                continue
            modified = formatdate(path.stat().st_mtime, usegmt=True)
            assets["/" + path.relative_to(root).as_posix()] = asset(
                path.read_bytes(), kind, modified
            )
        log.info("browser client: %d files from %s", len(assets), root)
        return cls(assets, options)

    def asset_for(self, path: str) -> Asset | None:
        if APP_ROUTES.fullmatch(path):
            screen = SCREENS.get(path.strip("/").split("/", 1)[0])
            return self.pages.get(screen or "") or self.assets.get(INDEX)
        if path == INDEX:
            return None  # one address per page: the app is at /
        return self.assets.get(path)

    def answer(self, request: Request) -> Response | None:
        """The response for ``request``, or None when no file or screen has its path."""
        path = request.path.split("?", 1)[0].split("#", 1)[0]
        asset = self.asset_for(path)
        if asset is None:
            return None
        packed = asset.gzipped is not None and accepts_gzip(request.headers.get("Accept-Encoding"))
        etag = asset.gzip_etag if packed else asset.etag
        body = asset.gzipped if packed and asset.gzipped is not None else asset.body
        headers = Headers(
            [
                ("Content-Type", asset.content_type),
                ("ETag", etag),
                ("Last-Modified", asset.last_modified),
                ("Cache-Control", "no-cache"),
                ("Content-Security-Policy", content_security_policy(request.headers.get("Host"))),
                ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
                ("X-Frame-Options", "DENY"),
            ]
        )
        if asset.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        if packed:
            headers["Content-Encoding"] = "gzip"
        if _matches(request.headers.get("If-None-Match"), etag):
            status = http.HTTPStatus.NOT_MODIFIED
            headers["Content-Length"] = "0"
            return Response(status.value, status.phrase, headers, b"")
        headers["Content-Length"] = str(len(body))
        status = http.HTTPStatus.OK
        return Response(status.value, status.phrase, headers, body)


def _matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weakly, as RFC 9110 compares)."""
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags
