"""Where the client keeps its settings and each server's token.

Settings are one small TOML file, ``config.toml`` (``lang = "fr"``), written by the
player and only read here. Tokens are one small JSON file, readable by its owner only.

A token is the player's password on that server (docs/protocol.md, Session), so the
file is created with mode 0600 inside a 0700 directory and replaced atomically:
a crash while saving never leaves half a file or a moment of wider permissions.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

APP_DIR = "patience-club"
TOKENS_FILE = "tokens.json"
SETTINGS_FILE = "config.toml"


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/patience-club``, or ``~/.config/patience-club`` as XDG says."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME", "")
    # XDG: a relative value is invalid and must be ignored.
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    return root / APP_DIR


def read_settings(directory: Path | None = None) -> tuple[dict[str, object], str | None]:
    """The settings of ``config.toml`` in ``directory`` (the config directory by default), and
    why they could not be read, if so: a missing file is no settings, a damaged one is said
    (and ignored) so that a typo never stops the player from playing."""
    path = (config_dir() if directory is None else directory) / SETTINGS_FILE
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle), None
    except FileNotFoundError:
        return {}, None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return {}, f"{path}: {exc}"


@dataclass(frozen=True)
class Account:
    """Who we are on one server."""

    name: str
    token: str


class TokenStore:
    """Server URL -> the account registered there."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = config_dir() if directory is None else directory
        self.path = self.directory / TOKENS_FILE

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            # A damaged file must not stop the player: it is rewritten on the next save.
            return {}
        if not isinstance(raw, dict):
            return {}
        return {
            url: entry
            for url, entry in raw.items()
            if isinstance(entry, dict)
            and isinstance(entry.get("name"), str)
            and isinstance(entry.get("token"), str)
        }

    def get(self, server: str) -> Account | None:
        entry = self._read().get(server)
        if entry is None:
            return None
        return Account(entry["name"], entry["token"])

    def put(self, server: str, account: Account) -> None:
        data = self._read()
        data[server] = {"name": account.name, "token": account.token}
        self._write(data)

    def forget(self, server: str) -> None:
        data = self._read()
        if data.pop(server, None) is not None:
            self._write(data)

    def _write(self, data: dict[str, dict[str, str]]) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{TOKENS_FILE}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            # The umask could have widened nothing, but an old tmp file might have other bits.
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        os.replace(tmp, self.path)
