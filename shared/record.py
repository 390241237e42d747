"""Game records: (variant, options, deal, actions) as a map or as text.

The map form (``Game.record()``) is what the server stores and what msgpack
carries. The text form is for people, files and bug reports::

    patience-club record 1
    variant freecell
    seed 617
    option autoplay true
    actions t3>f0 t2>r0 undo deal
    resigned

Lines may come in any order after the first; ``option`` repeats; ``actions``
may repeat and its words are appended; ``resigned`` is present only for a
resigned game. Values are JSON-like: true/false and integers.

The deal is exactly one of ``seed`` (a numbered deal), ``key`` (a keyed deal:
64 hex digits, written lower case) or ``commitment`` (a keyed deal whose key
is still secret: such a record is read, but replays only once it holds the
key). Records written before keyed deals hold a seed, and read as they did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from shared.deals import check_seed, parse_key
from shared.errors import IllegalMove, InvalidNotation, InvalidOptions, InvalidRecord

HEADER = "patience-club record 1"
#: the longest record the engine agrees to replay, in actions
MAX_ACTIONS = 100_000
#: the fields that may name a record's deal; a record has exactly one
DEAL_FIELDS = ("seed", "key", "commitment")


def check_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record's fields, type-checked (not yet replayed)."""
    if not isinstance(record, Mapping):
        raise InvalidRecord(f"a record is a map, not {type(record).__name__}")
    variant = record.get("variant")
    options = record.get("options", {})
    actions = record.get("actions", [])
    resigned = record.get("resigned", False)
    if not isinstance(variant, str):
        raise InvalidRecord(f"record field 'variant' must be a string, not {variant!r}")
    deal = _check_deal(record)
    if not isinstance(options, Mapping):
        raise InvalidRecord(f"record field 'options' must be a map, not {options!r}")
    if not isinstance(actions, list | tuple) or not all(isinstance(a, str) for a in actions):
        raise InvalidRecord("record field 'actions' must be a list of strings")
    if len(actions) > MAX_ACTIONS:
        raise InvalidRecord(f"record has {len(actions)} actions; at most {MAX_ACTIONS} replay")
    if not isinstance(resigned, bool):
        raise InvalidRecord(f"record field 'resigned' must be true or false, not {resigned!r}")
    return {
        "variant": variant,
        "options": dict(options),
        **deal,
        "actions": list(actions),
        "resigned": resigned,
    }


def _check_deal(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record's one deal field, checked: the seed, or the key or commitment in lower
    case. No message shows a key or a commitment: a key is a secret until revealed."""
    named = [name for name in DEAL_FIELDS if name in record]
    if len(named) != 1:
        found = ", ".join(named) or "none"
        raise InvalidRecord(f"a record holds exactly one of seed, key, commitment (found {found})")
    name = named[0]
    value = record[name]
    try:
        if name == "seed":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRecord(f"record field 'seed' must be an integer, not {value!r}")
            return {"seed": check_seed(value)}
        # A commitment is written as a key is: 32 bytes in 64 hex digits.
        return {name: parse_key(value, what=f"a deal {name}").hex()}
    except InvalidOptions as exc:
        raise InvalidRecord(f"record field {name!r}: {exc}") from None


class Playable(Protocol):
    """What replaying a record needs of a game (:class:`shared.game.Game` is one)."""

    def play(self, action: str) -> str: ...


def play_actions(game: Playable, actions: list[str]) -> None:
    """Play recorded actions in order; a refused one names its ply."""
    for ply, action in enumerate(actions):
        try:
            game.play(action)
        except (IllegalMove, InvalidNotation) as exc:
            raise InvalidRecord(f"action {ply} ({action!r}) does not replay: {exc}") from exc


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(text: str) -> object:
    """True, False or an int (typed ``object``: as ``bool | int``, which is ``int`` to mypy,
    the compiled build would hand back ``1`` for True)."""
    if text == "true":
        return True
    if text == "false":
        return False
    try:
        return int(text)
    except ValueError:
        raise InvalidRecord(f"option value {text!r} is not true, false or an integer") from None


def to_text(record: Mapping[str, Any]) -> str:
    """The text form of a record."""
    checked = check_record(record)
    deal = next(name for name in DEAL_FIELDS if name in checked)
    lines = [HEADER, f"variant {checked['variant']}", f"{deal} {checked[deal]}"]
    for name, value in sorted(checked["options"].items()):
        lines.append(f"option {name} {_value_text(value)}")
    lines.append(" ".join(["actions", *checked["actions"]]))
    if checked["resigned"]:
        lines.append("resigned")
    return "\n".join(lines) + "\n"


def from_text(text: str) -> dict[str, Any]:
    """Read the text form of a record back into its map form."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0] != HEADER:
        raise InvalidRecord(f"a record starts with {HEADER!r}")
    record: dict[str, Any] = {"options": {}, "actions": [], "resigned": False}
    for number, line in enumerate(lines[1:], start=2):
        word, _, rest = line.partition(" ")
        if word == "variant":
            record["variant"] = rest
        elif word in DEAL_FIELDS and word in record:
            raise InvalidRecord(f"line {number}: a second {word!r} line")
        elif word == "seed":
            try:
                record["seed"] = int(rest)
            except ValueError:
                raise InvalidRecord(f"line {number}: seed {rest!r} is not an integer") from None
        elif word in ("key", "commitment"):
            record[word] = rest
        elif word == "option":
            name, _, value = rest.partition(" ")
            record["options"][name] = _parse_value(value)
        elif word == "actions":
            record["actions"].extend(rest.split())
        elif word == "resigned" and not rest:
            record["resigned"] = True
        else:
            raise InvalidRecord(f"line {number}: unknown line {line!r}")
    return check_record(record)
