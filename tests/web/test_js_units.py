"""The browser client's pure modules (codec, moves from the legal list, words, layouts, the deal
check), tested by node's own test runner: one pytest test per file."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.web.conftest import need

HERE = Path(__file__).parent / "js"
FILES = sorted(HERE.glob("*.test.mjs"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_module(path: Path) -> None:
    node = shutil.which("node")
    need(node, "no node for the client's module tests: install it with `apt-get install -y nodejs`")
    assert node is not None
    done = subprocess.run(
        [node, "--test", "--test-reporter=tap", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# pass 0" not in done.stdout, "the file ran no test"


def test_every_module_test_file_is_collected() -> None:
    assert len(FILES) >= 3
