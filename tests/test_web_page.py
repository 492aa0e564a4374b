"""The page's scripts parse, and its card drawings and words are right (node, no browser needed); they pass
the type check (TypeScript over their JSDoc types, tsconfig.json) and the linter (ESLint, eslint.config.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "src/piquet/web/static/check.mjs"
STATIC = ROOT / "src/piquet/web/static"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: install Node.js 20 or later with npm (apt-get install nodejs npm), "
                    "then run `npm ci` in the repository", pytrace=False)
    return node


def _tool(name: str) -> Path:
    """A tool installed from package-lock.json into node_modules; missing, the test fails (it does not skip)."""
    _node()
    path = ROOT / "node_modules" / ".bin" / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `npm ci` in {ROOT} (it installs TypeScript and ESLint from "
                    "package-lock.json)", pytrace=False)
    return path


def test_the_page_scripts_check() -> None:
    done = subprocess.run([_node(), str(CHECK)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 failed" in done.stdout


def test_the_page_scripts_pass_the_type_check() -> None:
    """``tsc -p tsconfig.json``: checkJs over every script of the page, nothing emitted."""
    done = subprocess.run([str(_tool("tsc")), "-p", "tsconfig.json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"tsc found:\n{done.stdout}{done.stderr}"


def test_the_page_scripts_pass_the_linter() -> None:
    """``eslint src/piquet/web/static``; and the linter does read every script (an empty run would pass)."""
    done = subprocess.run([str(_tool("eslint")), "--format", "json", str(STATIC)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode in (0, 1), f"eslint could not run:\n{done.stdout}{done.stderr}"
    results = json.loads(done.stdout)
    linted = sorted(Path(r["filePath"]).name for r in results)
    scripts = sorted(p.name for p in STATIC.iterdir() if p.suffix in (".js", ".mjs"))
    assert linted == scripts
    problems = [f"{Path(r['filePath']).name}:{m.get('line')}:{m.get('column')}: {m['message']} ({m.get('ruleId')})"
                for r in results for m in r["messages"]]
    assert done.returncode == 0 and not problems, "eslint found:\n" + "\n".join(problems)
