"""The screenshots of docs/screenshots: every game's board after the line of moves that grows
its columns, on a desktop (1280x800), a phone (390x844, touch) and a phone held sideways
(844x390, touch), light and dark, English and French, every combination.
tests/web/test_fit.py takes them when ``PATIENCE_SCREENSHOTS`` names a folder::

    PATIENCE_SCREENSHOTS=docs/screenshots python -m pytest -q -n 2 tests/web/test_fit.py

Each PNG is then made small with pngquant (256 colours, Debian's ``pngquant``) when it is
installed, else kept as Chromium wrote it."""

from __future__ import annotations

import itertools
import shutil
import subprocess
from pathlib import Path
from typing import Any

#: (device, colour scheme, language) of every screenshot of a game
SHOTS = tuple(itertools.product(("desktop", "phone", "sideways"), ("light", "dark"), ("en", "fr")))


def save_shot(page: Any, path: Path) -> None:
    """The page as it shows now (the window, not the whole page), made small."""
    page.wait_for_timeout(150)  # the board drawn again for its room, and still
    page.screenshot(path=str(path))
    quant = shutil.which("pngquant")
    if quant:
        small = ["--force", "--skip-if-larger", "--strip", "--output", str(path), "256"]
        subprocess.run([quant, *small, str(path)], check=False)
