# ruff: noqa: RUF001
"""The terminal client's words in two languages: both tables say the same things (the same
keys, the same placeholders), the language is chosen by ``--lang``, ``PATIENCE_LANG``, the
config file, then the locale, and the engine's refusals read in French as the browser says them."""

from __future__ import annotations

import argparse
import string
from pathlib import Path

import pytest

from client.commands import play
from client.config import read_settings
from client.connection import describe
from client.i18n import LANGUAGES, TABLES, choose_language, from_locale, set_language, t, tn
from client.i18n.en import EN
from client.i18n.fr import FR
from client.names import card_name, move_name, translate
from shared.errors import ProtocolError


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_both_tables_have_the_same_keys_and_the_same_placeholders_per_key() -> None:
    assert set(EN) == set(FR)
    differ = {k: (EN[k], FR[k]) for k in EN if placeholders(EN[k]) != placeholders(FR[k])}
    assert differ == {}
    # every text is filled (an empty one is a mistake), but for a column with no heading
    assert [k for k in EN if not EN[k] and k != "col.fire"] == []
    assert [k for k in FR if not FR[k] and k != "col.fire"] == []
    # a count's two forms come in pairs
    for key in EN:
        if key.endswith(".one"):
            assert key[: -len(".one")] + ".many" in EN, key
    assert set(TABLES) == set(LANGUAGES) == {"en", "fr"}


def test_a_key_is_read_in_the_language_spoken_with_its_values() -> None:
    assert t("board.score", score=3, max=52) == "  score 3/52"
    assert tn("moves", 1) == "1 move" and tn("moves", 2) == "2 moves"
    set_language("fr")
    assert t("board.score", score=3, max=52) == "  score 3/52"
    assert tn("moves", 1) == "1 coup" and tn("moves", 2) == "2 coups"
    assert t("key.deal") == "Donner"
    with pytest.raises(KeyError):
        t("no.such.key")
    with pytest.raises(ValueError, match="unknown language"):
        set_language("de")


def test_the_language_is_the_flag_then_the_environment_then_the_config_then_the_locale() -> None:
    env = {"PATIENCE_LANG": "fr", "LANG": "en_GB.UTF-8"}
    assert choose_language("en", env, "fr") == ("en", [])
    assert choose_language(None, env, "en") == ("fr", [])
    assert choose_language(None, {"LANG": "en_GB.UTF-8"}, "fr") == ("fr", [])
    assert choose_language(None, {"LANG": "fr_CA.UTF-8"}, None) == ("fr", [])
    assert choose_language(None, {}, None) == ("en", [])
    # the locale as POSIX reads it: LC_ALL first, then LC_MESSAGES, then LANG
    assert from_locale({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}) == "fr"
    assert from_locale({"LC_MESSAGES": "fr_BE", "LANG": "en_US"}) == "fr"
    assert from_locale({"LC_ALL": "C.UTF-8", "LANG": "fr_FR.UTF-8"}) is None
    assert from_locale({"LANG": "de_DE.UTF-8"}) is None
    # a value that is none of ours is passed over, and said
    lang, ignored = choose_language(None, {"PATIENCE_LANG": "de", "LANG": "fr_FR"}, 3)
    assert lang == "fr" and len(ignored) == 2 and "PATIENCE_LANG" in ignored[0]


def test_the_config_file_s_lang_is_read_and_a_damaged_file_is_said_not_fatal(
    tmp_path: Path,
) -> None:
    assert read_settings(tmp_path) == ({}, None)
    (tmp_path / "config.toml").write_text('lang = "fr"\n', encoding="utf-8")
    assert read_settings(tmp_path) == ({"lang": "fr"}, None)
    (tmp_path / "config.toml").write_text("lang = fr\n", encoding="utf-8")
    settings, problem = read_settings(tmp_path)
    assert settings == {} and problem is not None and "config.toml" in problem


def test_the_play_command_takes_lang_en_or_fr_only() -> None:
    parser = argparse.ArgumentParser()
    play.add_parser(parser.add_subparsers())
    assert parser.parse_args(["play", "--lang", "fr"]).lang == "fr"
    assert parser.parse_args(["play"]).lang is None
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "--lang", "de"])


def test_the_engine_s_refusals_read_in_french_with_the_board_s_names() -> None:
    engine = "'t3>f0' is not legal now: 4S cannot start f0: an empty foundation takes only an ace"
    set_language("fr")
    assert translate(engine) == (
        "4→F1 n’est pas jouable maintenant : 4♠ ne peut pas commencer F1 : une fondation vide"
        " ne prend qu’un as"
    )
    assert translate("'s>f' is not legal: the stock and the waste are empty") == (
        "talon→fondation n’est pas jouable : le talon et la défausse sont vides"
    )
    # a reason no pattern knows keeps the engine's words, its notation named all the same
    assert translate("'t0>t1' is not legal now: t0 sings") == (
        "1→2 n’est pas jouable maintenant : 1 sings"
    )
    assert card_name("QH") == "D♥" and move_name("deal") == "donner (espace)"
    set_language("en")
    assert card_name("QH") == "Q♥" and translate(engine).startswith("4→F1 is not legal now: 4♠")


def test_a_failure_is_said_in_the_player_s_language() -> None:
    busy = ProtocolError(
        "busy", "the server is busy working out other hints: ask again in a moment"
    )
    set_language("fr")
    assert describe(busy) == (
        "le serveur calcule encore d’autres indices : redemandez dans un instant"
    )
    assert describe(ProtocolError("room_full", "room K7QF2M has 8 players")) == (
        "ce salon est plein (room K7QF2M has 8 players)"
    )
    assert describe(TimeoutError()) == "le serveur n’a pas répondu à temps : réessayez"
    assert describe(ProtocolError("stale_ply", "ply 3 is not 4")).startswith("la partie avait")
    set_language("en")
    assert describe(busy) == busy.message
