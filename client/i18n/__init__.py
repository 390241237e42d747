"""The terminal client's words, in the player's language: one table per language
(:mod:`client.i18n.en`, :mod:`client.i18n.fr`), plain dicts of key -> text with named
placeholders (``{name}``), and :func:`t` to read them.

The French is the product's French: where the browser client (client/web/js/i18n/fr.js) says
the same thing, this table says it in the same words. Every key is in both tables with the same
placeholders (tests/client/test_i18n.py). The language is chosen once, at start
(:func:`choose_language`): ``--lang``, ``PATIENCE_LANG``, the config file's ``lang``, then the
locale; it is the app's, so it is kept here rather than passed to every screen.
"""

from __future__ import annotations

from collections.abc import Mapping

from client.i18n.en import EN
from client.i18n.fr import FR

#: language code -> its table; English is the fallback of every other
TABLES: dict[str, dict[str, str]] = {"en": EN, "fr": FR}
LANGUAGES = tuple(TABLES)
DEFAULT = "en"

_current = {"lang": DEFAULT}


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on (one of :data:`LANGUAGES`)."""
    if lang not in TABLES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    _current["lang"] = lang


def language() -> str:
    return _current["lang"]


def t(key: str, **values: object) -> str:
    """The text of ``key`` in the current language, its placeholders filled from ``values``.
    A key no table has is a bug: it raises, so a test finds it."""
    text = TABLES[_current["lang"]].get(key)
    if text is None:
        text = EN[key]
    return text.format(**values) if values else text


def tn(key: str, count: int, **values: object) -> str:
    """``key.one`` when ``count`` is 1, else ``key.many``; ``{n}`` is the count."""
    return t(f"{key}.one" if count == 1 else f"{key}.many", n=count, **values)


def known(key: str) -> bool:
    return key in EN


def from_locale(environ: Mapping[str, str]) -> str | None:
    """The language the locale asks for (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, the
    first one set wins, as POSIX reads them), or None when it is not one of ours."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in TABLES else None
    return None


def choose_language(
    flag: str | None, environ: Mapping[str, str], setting: object = None
) -> tuple[str, list[str]]:
    """The language to speak, and what was ignored on the way (said on stderr): ``--lang``,
    else ``PATIENCE_LANG``, else the config file's ``lang``, else the locale, else English.
    A value that is not one of ours is passed over (and said), not fatal."""
    ignored: list[str] = []
    for where, value in (
        ("--lang", flag),
        ("PATIENCE_LANG", environ.get("PATIENCE_LANG")),
        ("lang in the config file", setting),
    ):
        if value is None or value == "":
            continue
        if isinstance(value, str) and value.lower() in TABLES:
            return value.lower(), ignored
        ignored.append(f"{where}: {value!r} is not one of {', '.join(LANGUAGES)}")
    return from_locale(environ) or DEFAULT, ignored


__all__ = ["LANGUAGES", "TABLES", "choose_language", "language", "set_language", "t", "tn"]
