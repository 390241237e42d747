"""No word a player reads in the terminal client is written in its code: each comes from the
tables of client/i18n (English and French). An ``ast`` scan of client/*.py and client/screens/
finds every string handed to what shows text (a widget, a label, a button, a notice, a line of
rich text, a screen's ``say``, a footer's Binding) and fails on a literal with a word in it;
and every key read with ``t``/``tn`` or named by a Binding is in the tables.

The bot (client/bot.py, client/commands/) is not scanned: its lines go to a log, not to a
player (docs/client.md).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from client.i18n.en import EN

ROOT = Path(__file__).resolve().parents[2]
SCANNED = sorted(
    p
    for p in [*ROOT.glob("client/*.py"), *ROOT.glob("client/screens/*.py")]
    if p.name not in {"bot.py"}
)
#: calls whose string arguments a player reads
SHOWN = {
    "Static", "Label", "Button", "Input", "ListItem", "Text", "Binding", "notify", "say",
    "update", "append", "push_screen", "set_view", "add_column", "add_columns", "add_row",
    "Table", "Group", "DataTable",
}  # fmt: skip
#: keyword arguments that are not words: ids, classes, styles, kinds of widget
NOT_WORDS = {
    "id", "classes", "style", "variant", "type", "group", "severity", "justify", "overflow",
    "header_style", "key", "action", "priority", "show", "box", "name", "cursor_type",
}  # fmt: skip
#: a word: two letters in a row (a lone letter is a key, like "v", or a unit)
WORD = re.compile(r"[^\W\d_]{2,}")
#: literals with letters that are not words a player reads in a language: the app's name
ALLOWED = {"Patience Club"}


def literal_parts(node: ast.AST) -> list[str]:
    """The text written in the code of a string argument (an f-string's literal parts)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.BinOp):
        return literal_parts(node.left) + literal_parts(node.right)
    if isinstance(node, ast.IfExp):
        return literal_parts(node.body) + literal_parts(node.orelse)
    return []


def called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def bare_words(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or called(node) not in SHOWN:
            continue
        args = list(node.args)
        if called(node) == "Binding":
            args = args[3:]  # key, action, description (a key of the tables: checked below)
        args += [k.value for k in node.keywords if k.arg not in NOT_WORDS]
        for arg in args:
            for text in literal_parts(arg):
                if WORD.search(text) and text not in ALLOWED:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
    return found


def keys_named(path: Path) -> list[tuple[int, str]]:
    """Every literal key read with ``t``/``tn`` or given as a Binding's description."""
    keys = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name, args = called(node), node.args
        index = {"t": 0, "Binding": 2}.get(name)
        if name == "tn":
            arg = args[0] if args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys += [(node.lineno, f"{arg.value}.one"), (node.lineno, f"{arg.value}.many")]
            continue
        if index is None or len(args) <= index:
            continue
        arg = args[index]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            keys.append((node.lineno, arg.value))
    return keys


def test_no_player_visible_string_is_a_bare_literal() -> None:
    assert len(SCANNED) > 30
    found = [line for path in SCANNED for line in bare_words(path)]
    assert found == []


def test_every_key_the_code_names_is_in_the_tables() -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{line}: {key}"
        for path in SCANNED
        for line, key in keys_named(path)
        if key not in EN
    ]
    assert missing == []


def test_the_scan_finds_a_bare_word(tmp_path: Path) -> None:
    """The scan itself: a word written in a widget, a notice, a footer is found."""
    code = tmp_path / "screen.py"
    code.write_text(
        "Static('Hello there', id='x')\n"
        "self.notify(f'{n} cards left')\n"
        "Binding('q', 'quit', 'key.quit', tooltip='Leave now')\n"
        "text.append(' ', style='bold reverse')\n"
        "Static(t('key.quit'), classes='title')\n",
        encoding="utf-8",
    )
    global ROOT
    root, ROOT = ROOT, tmp_path
    try:
        assert [line.split(": ", 1)[1] for line in bare_words(code)] == [
            "'Hello there'",
            "' cards left'",
            "'Leave now'",
        ]
    finally:
        ROOT = root
