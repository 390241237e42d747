"""The token store: per server, owner-only, under XDG_CONFIG_HOME."""

from __future__ import annotations

import stat
from pathlib import Path

from client.config import Account, TokenStore, config_dir


def test_config_dir_follows_xdg_config_home(tmp_path: Path) -> None:
    assert config_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "patience-club"


def test_config_dir_ignores_a_relative_xdg_config_home() -> None:
    assert config_dir({"XDG_CONFIG_HOME": "relative/dir"}) == Path.home() / ".config/patience-club"
    assert config_dir({}) == Path.home() / ".config" / "patience-club"


def test_tokens_are_kept_per_server_in_an_owner_only_file(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "cfg")
    store.put("ws://a:1/ws", Account("alice", "tok-a"))
    store.put("ws://b:2/ws", Account("alicia", "tok-b"))
    again = TokenStore(tmp_path / "cfg")
    assert again.get("ws://a:1/ws") == Account("alice", "tok-a")
    assert again.get("ws://b:2/ws") == Account("alicia", "tok-b")
    assert again.get("ws://c:3/ws") is None
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.directory.stat().st_mode) == 0o700
    assert [p.name for p in store.directory.iterdir()] == ["tokens.json"]


def test_a_wider_existing_file_is_narrowed_on_save(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "cfg")
    store.put("ws://a/ws", Account("alice", "t1"))
    store.path.chmod(0o644)
    store.put("ws://a/ws", Account("alice", "t2"))
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert store.get("ws://a/ws") == Account("alice", "t2")


def test_a_damaged_file_reads_as_empty_and_is_replaced(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "cfg")
    store.directory.mkdir(parents=True)
    store.path.write_text("{not json")
    assert store.get("ws://a/ws") is None
    store.put("ws://a/ws", Account("bob", "t"))
    assert store.get("ws://a/ws") == Account("bob", "t")


def test_forget_removes_one_server_only(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "cfg")
    store.put("ws://a/ws", Account("a", "1"))
    store.put("ws://b/ws", Account("b", "2"))
    store.forget("ws://a/ws")
    assert store.get("ws://a/ws") is None
    assert store.get("ws://b/ws") == Account("b", "2")
