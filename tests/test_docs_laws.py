"""docs/laws.md: every Law 1-78 and every Case I-XXII has its row, and every module, name and test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "laws.md"
SRC = ROOT / "src" / "piquet"

KINDS = {"code", "impossible", "not yet", "wrong"}
ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI",
         "XVII", "XVIII", "XIX", "XX", "XXI", "XXII"]
#: `core/deal.py` `Deal._verify_discard` (or `src/piquet/core/deal.py` ...); further names may follow, by commas.
CODE_REF = re.compile(r"`((?:src/piquet/)?[a-z_]+(?:/[a-z_]+)*\.py)`((?:(?:,| and)? `[A-Za-z_][\w.]*`)*)")
NAME = re.compile(r"`([A-Za-z_][\w.]*)`")
TEST_REF = re.compile(r"`(tests/test_\w+\.py)::(\w+)`")


def rows() -> list[list[str]]:
    """The table rows of the document, each a list of its five cells (header and rule lines left out)."""
    found = []
    for line in DOC.read_text().splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] in ("Law", "Case", "Page") or set(cells[0]) <= {"-", " "}:
            continue
        assert len(cells) == 5, line
        found.append(cells)
    return found


def code_refs(text: str) -> list[tuple[str, str]]:
    """(module path under src/piquet, name) for each code reference in a cell."""
    refs = []
    for m in CODE_REF.finditer(text):
        path = m.group(1).removeprefix("src/piquet/")
        names = NAME.findall(m.group(2))
        refs.extend((path, n) for n in names)
        if not names:
            refs.append((path, ""))
    return refs


def defines(source: str, name: str) -> bool:
    """Whether ``source`` defines ``name``: a function, class or assignment; ``A.b`` looks for ``b`` in class A."""
    *outer, last = name.split(".")
    body = source
    if outer:
        m = re.search(rf"^class {re.escape(outer[-1])}\b.*?(?=^class |\Z)", source, re.M | re.S)
        if m is None:
            return False
        body = m.group(0)
    return re.search(rf"^\s*(?:def|class)\s+{re.escape(last)}\b|^\s*{re.escape(last)}\s*(?::|=)", body,
                     re.M) is not None


def defined_tests(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text())
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.name.startswith("test_")}


def test_every_law_has_exactly_one_row() -> None:
    laws = [r[0] for r in rows() if r[0].startswith("Law ")]
    assert sorted(laws, key=lambda s: int(s.split()[1])) == [f"Law {n}" for n in range(1, 79)]


def test_every_case_has_exactly_one_row() -> None:
    cases = [r[0].removeprefix("Case ") for r in rows() if r[0].startswith("Case ")]
    assert sorted(cases, key=ROMAN.index) == ROMAN


def test_the_laws_of_piquet_au_cent_have_rows() -> None:
    pages = [r[0] for r in rows() if r[0].startswith("p. ")]
    assert len(pages) == len(set(pages)) >= 20
    assert {p.split()[1] for p in pages} >= {"16", "17", "18", "19", "20"}


def test_each_row_says_something_and_its_kind_matches_its_where() -> None:
    for key, says, kind, where, test in rows():
        assert says and where and test, key
        assert kind in KINDS, (key, kind)
        if kind == "code":
            assert code_refs(where), f"{key}: a law the code applies names where"
        if kind in ("not yet", "wrong"):
            assert "not yet (issue 15" in where.lower(), key
        assert test == "—" or TEST_REF.search(test), (key, test)


def test_law_56_and_every_case_are_accounted_for() -> None:
    """Case IV's bar is applied (tests/test_law_56.py), Law 56 with it; no law or case is left "not yet" or
    "wrong", and every case has its test."""
    found = rows()
    kinds = {r[0]: r[2] for r in found}
    assert kinds["Law 56"] == "code" and kinds["Case IV"] == "code"
    assert not [r[0] for r in found if r[2] in ("not yet", "wrong")]
    assert all(r[4] != "—" for r in found if r[0].startswith("Case "))


def test_every_code_reference_exists() -> None:
    refs = [(r[0], path, name) for r in rows() for path, name in code_refs(r[3])]
    assert len(refs) > 100
    for key, path, name in refs:
        module = SRC / path
        assert module.is_file(), f"{key}: src/piquet/{path} does not exist"
        if name:
            assert defines(module.read_text(), name), f"{key}: {name} is not defined in src/piquet/{path}"


def test_every_test_reference_names_a_test_that_exists() -> None:
    refs = [(r[0], *m) for r in rows() for m in TEST_REF.findall(r[4])]
    assert len(refs) > 50
    functions: dict[str, set[str]] = {}
    for key, path, name in refs:
        assert (ROOT / path).is_file(), f"{key}: {path} does not exist"
        if path not in functions:
            functions[path] = defined_tests(path)
        assert name in functions[path], f"{key}: {path} has no {name}"


def test_the_checks_can_fail() -> None:
    assert not defines("class Deal:\n    def verify(self): ...\n", "Deal.apply")
    assert not defines("class A:\n    x = 1\nclass Deal:\n    pass\n", "Deal.x")
    assert defines("class Deal:\n    rules = 1\n", "Deal.rules")
    assert code_refs("`core/deal.py` `Deal.apply`, `Deal.undo`") == [("core/deal.py", "Deal.apply"),
                                                                     ("core/deal.py", "Deal.undo")]
