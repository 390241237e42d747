"""The table of names both clients show (cards, pile keys, the notation they translate), read
from the browser client's ``web/js/names.js``: one table drives the wording of both.

That file is an ES module whose one object, ``export const NAMES = {...};``, is written as
JSON; this reads that object. The browser client's files ship inside this package (they
are what the server serves), so the table is always beside this module.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TABLE = Path(__file__).resolve().parent / "web" / "js" / "names.js"
START = "\nexport const NAMES ="


def read_table(path: Path = TABLE) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    start = text.index(START) + len(START)
    body = text[start : text.rindex("}") + 1]
    table = json.loads(body)
    if not isinstance(table, dict):
        raise ValueError(f"{path}: the names table is not an object")
    return table


NAMES: dict[str, Any] = read_table()
SUITS: dict[str, str] = NAMES["suits"]
RANKS: dict[str, str] = NAMES["ranks"]
#: pile kind -> the label above each of its piles, by number
KEY_LABELS: dict[str, tuple[str, ...]] = {kind: tuple(keys) for kind, keys in NAMES["keys"].items()}
PILE_PATTERN: str = NAMES["notation"]["pile"]
CARD_PATTERN: str = NAMES["notation"]["card"]
