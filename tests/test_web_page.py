"""The page's scripts parse, and its card drawings and words are right (node, no browser needed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CHECK = Path(__file__).resolve().parent.parent / "src/piquet/web/static/check.mjs"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_scripts_check() -> None:
    done = subprocess.run(["node", str(CHECK)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 failed" in done.stdout
