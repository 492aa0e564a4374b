"""Mutation testing of the scoring core: do the tests notice when the laws are coded wrong?

Each *mutant* changes one thing in ``src/piquet/core/combinations.py``, ``deal.py`` or ``rules.py``, read from
the module's syntax tree:

- ``compare``: a comparison's operator moved across its boundary or turned over (``<`` and ``<=``, ``>`` and
  ``>=``, ``==`` and ``!=``, ``in`` and ``not in``, ``is`` and ``is not``);
- ``constant``: a number one more (a one, none); ``True`` and ``False`` exchanged;
- ``boolop``: ``and`` and ``or`` exchanged;
- ``negate``: the condition of an ``if``, ``while`` or ``x if c else y`` negated;
- ``delete``: a statement that changes state or stops a function (a call, an assignment to an attribute or an
  item, ``+=`` and its kind, ``return``, ``raise``, ``break``, ``continue``) replaced by ``pass``.

Docstrings, messages, f-strings, annotations and ``assert`` are left alone.  For each mutant the script writes
the mutated module into a copy of ``src/`` and ``tests/`` in a temporary directory (the working tree is never
touched), runs the fast tests of the core there with ``PIQUET_PURE=1`` (the engine as Python source), stops at
the first failure, and counts the mutant *killed* if a test fails (or the tests run past the time limit),
*survived* if every test passes.  ``bench/mutants-equivalent.json`` lists the mutants that change nothing a
player could see, each with why: they are not run, and not counted.  It prints each mutant as it goes, then
the kill rate over the mutants that are not equivalent and every survivor, and exits 1 if any survived.

    python bench/mutate.py                          # every mutant (long: hours on one core)
    python bench/mutate.py --sample 150 --seed 1    # 150 drawn at random
    python bench/mutate.py --file combinations.py   # one module (repeatable)
    python bench/mutate.py --list                   # the mutants and their ids, nothing run
    python bench/mutate.py --show ID                # one mutant's change, as a diff
    python bench/mutate.py --only 'deal.py|Deal._score|'   # the mutants whose id contains this
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = Path("src/piquet/core")
FILES = ("combinations.py", "deal.py", "rules.py")
EQUIVALENT = Path(__file__).resolve().parent / "mutants-equivalent.json"
#: The tests run against each mutant, quickest to fail first; the mutated module's doctests are added.
FAST_TESTS = (
    "tests/test_mutants.py",
    "tests/test_combinations.py",
    "tests/test_illegal.py",
    "tests/test_examples.py",
    "tests/test_au_cent.py",
    "tests/test_rules.py",
    "tests/test_law_56.py",
    "tests/test_club.py",
    "tests/test_irregular_deals.py",
    "tests/test_record.py",
)
KINDS = ("compare", "constant", "boolop", "negate", "delete")

_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Mutant:
    """One change to one module: the bytes ``start:end`` of its source replaced by ``after``."""

    file: str
    line: int
    scope: str  # the enclosing class and function, dotted, or "<module>"
    kind: str
    before: str  # the source replaced, on one line
    after: str
    start: int
    end: int
    n: int = 0  # to tell apart mutants alike in everything else

    @property
    def id(self) -> str:
        """Stable across edits elsewhere in the module: no line number in it."""
        return f"{self.file}|{self.scope}|{self.kind}|{self.before}|{self.after}|{self.n}"

    def describe(self) -> str:
        return f"{self.file}:{self.line} {self.scope} [{self.kind}] {self.before}  ->  {self.after}"


def _one_line(text: str, most: int = 100) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= most else text[:most - 3] + "..."


class _Finder(ast.NodeVisitor):
    """Walks a module and lists its mutants."""

    def __init__(self, file: str, source: bytes) -> None:
        self.file = file
        self.source = source
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.scope: list[tuple[str, bool]] = []  # (name, whether a function)
        self.found: list[Mutant] = []

    def _span(self, node: ast.AST) -> tuple[int, int]:
        start = self.starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = self.starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        return start, end

    def _add(self, node: ast.AST, kind: str, after: str) -> None:
        start, end = self._span(node)
        before = self.source[start:end].decode()
        scope = ".".join(name for name, _ in self.scope) or "<module>"
        self.found.append(Mutant(self.file, node.lineno, scope, kind,  # type: ignore[attr-defined]
                                 _one_line(before), after, start, end))

    # -------------------------------------------------------------- what is not mutated

    def _body(self, body: list[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                continue  # a docstring
            self.visit(stmt)

    def visit_Module(self, node: ast.Module) -> None:
        self._body(node.body)

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        for d in node.decorator_list:
            self.visit(d)
        if not isinstance(node, ast.ClassDef):
            for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
                self.visit(default)
        self.scope.append((node.name, not isinstance(node, ast.ClassDef)))
        self._body(node.body)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Assert(self, node: ast.Assert) -> None:
        pass  # for the type checker: a failing assert is no law

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        pass  # words

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            if isinstance(node.target, ast.Attribute | ast.Subscript) and self._in_function():
                self._add(node, "delete", "pass")

    def visit_Raise(self, node: ast.Raise) -> None:
        if self._in_function():
            self._add(node, "delete", "pass")  # its message is not mutated

    # -------------------------------------------------------------- the mutations

    def _in_function(self) -> bool:
        return any(is_function for _, is_function in self.scope)

    def visit_Compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            flipped = _FLIP.get(type(op))
            if flipped is not None:
                new = ast.Compare(node.left, [*node.ops[:i], flipped(), *node.ops[i + 1:]], node.comparators)
                self._add(node, "compare", f"({ast.unparse(new)})")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        v = node.value
        if isinstance(v, bool):
            self._add(node, "constant", repr(not v))
        elif isinstance(v, int):
            self._add(node, "constant", repr(0 if v == 1 else v + 1))  # one off; a one becomes none

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self._add(node, "boolop", f"({ast.unparse(ast.BoolOp(other, node.values))})")
        self.generic_visit(node)

    def _negate(self, test: ast.expr) -> None:
        start, end = self._span(test)
        self._add(test, "negate", f"(not ({self.source[start:end].decode()}))")

    def visit_If(self, node: ast.If) -> None:
        self._negate(node.test)
        self.visit(node.test)
        self._body(node.body)
        self._body(node.orelse)

    def visit_While(self, node: ast.While) -> None:
        self._negate(node.test)
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._negate(node.test)
        self.generic_visit(node)

    def _deletable(self, node: ast.stmt) -> None:
        if self._in_function():
            self._add(node, "delete", "pass")
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Call | ast.Await | ast.Yield | ast.YieldFrom):
            self._deletable(node)
        else:
            self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if all(isinstance(t, ast.Attribute | ast.Subscript) for t in node.targets):
            self._deletable(node)
        else:
            self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._deletable(node)

    def visit_Return(self, node: ast.Return) -> None:
        self._deletable(node)

    def visit_Break(self, node: ast.Break) -> None:
        self._deletable(node)

    def visit_Continue(self, node: ast.Continue) -> None:
        self._deletable(node)

    def visit_arg(self, node: ast.arg) -> None:
        pass  # annotations


def mutants_of(file: str, source: bytes) -> list[Mutant]:
    """Every mutant of one module of the core, in the order of its source (``valid`` checks that one compiles)."""
    finder = _Finder(file, source)
    finder.visit(ast.parse(source))
    seen: Counter[tuple[str, str, str, str]] = Counter()
    out = []
    for m in finder.found:
        key = (m.scope, m.kind, m.before, m.after)
        out.append(Mutant(m.file, m.line, m.scope, m.kind, m.before, m.after, m.start, m.end, seen[key]))
        seen[key] += 1
    return out


def valid(source: bytes, m: Mutant) -> bool:
    """The mutated module compiles and differs from the original (so a failure of the tests is a kill)."""
    try:
        mutated = apply(source, m)
        return ast.dump(ast.parse(mutated)) != ast.dump(ast.parse(source)) and bool(compile(mutated, m.file, "exec"))
    except SyntaxError:
        return False


def apply(source: bytes, m: Mutant) -> bytes:
    return source[:m.start] + m.after.encode() + source[m.end:]


def all_mutants(files: Sequence[str]) -> list[Mutant]:
    out: list[Mutant] = []
    for f in files:
        out += mutants_of(f, (ROOT / CORE / f).read_bytes())
    return out


def load_equivalent(path: Path = EQUIVALENT) -> dict[str, str]:
    """The equivalent mutants, by id: why each changes nothing a player could see."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    out: dict[str, str] = {}
    for entry in data["mutants"]:
        if not entry.get("why", "").strip():
            raise SystemExit(f"{path.name}: {entry['id']!r} says no why")
        out[entry["id"]] = entry["why"]
    return out


# ------------------------------------------------------------------ running the tests


class Sandbox:
    """A copy of the tree's ``src``, ``tests`` and configuration in a temporary directory, where one module at a
    time is mutated and the tests are run; the copy is deleted at the end."""

    def __init__(self, tests: Sequence[str]) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="piquet-mutants-"))
        for name in ("src", "tests"):
            shutil.copytree(ROOT / name, self.dir / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.egg-info"))
        for name in ("conftest.py", "pyproject.toml"):
            shutil.copy2(ROOT / name, self.dir / name)
        self.tests = list(tests)
        self.env = {**os.environ, "PIQUET_PURE": "1", "PYTHONPATH": str(self.dir / "src"),
                    "PYTHONDONTWRITEBYTECODE": "1"}

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def check_import(self) -> None:
        """The copy's modules are the ones the tests import, as source."""
        out = subprocess.run([sys.executable, "-c", "import piquet.core.deal as d, piquet.core.native as n; "
                              "print(d.__file__); print(n.COMPILED)"],
                             env=self.env, cwd=self.dir, capture_output=True, text=True, check=True).stdout.split()
        if not out[0].startswith(str(self.dir)) or out[1] != "False":
            raise SystemExit(f"the tests would not run the copy's core as source: {out}")

    def run(self, file: str | None, timeout: float) -> tuple[str, float, str]:
        """Run the tests (and ``file``'s doctests): ("passed" | "failed" | "timeout", seconds, the first failure)."""
        args = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                "-o", "addopts=--doctest-modules -q --strict-markers", "--no-header", "-rN", "--tb=line",
                *self.tests]
        if file is not None:
            args.append(str(CORE / file))
        start = time.perf_counter()
        proc = subprocess.Popen(args, cwd=self.dir, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the pytest this script started, and anything it started
            proc.communicate()
            return "timeout", time.perf_counter() - start, ""
        took = time.perf_counter() - start
        if proc.returncode == 0:
            return "passed", took, ""
        first = next((line for line in out.splitlines() if re.search(r"(Error|error|assert|Failed)", line)), "")
        return "failed", took, _one_line(first, 160)

    def mutate(self, m: Mutant | None, originals: dict[str, bytes]) -> None:
        """Put one mutant in the copy, every other module as it was."""
        for f, src in originals.items():
            (self.dir / CORE / f).write_bytes(apply(src, m) if m is not None and m.file == f else src)


def show(m: Mutant) -> str:
    src = (ROOT / CORE / m.file).read_bytes()
    a = src.decode().splitlines(keepends=True)
    b = apply(src, m).decode().splitlines(keepends=True)
    return "".join(difflib.unified_diff(a, b, f"a/{CORE / m.file}", f"b/{CORE / m.file}", n=2))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", action="append", choices=FILES, help="only this module of the core (repeatable)")
    ap.add_argument("--sample", type=int, help="run this many mutants drawn at random (not counting equivalent)")
    ap.add_argument("--seed", type=int, default=1, help="the draw of --sample")
    ap.add_argument("--only", action="append", help="only the mutants whose id contains this (repeatable)")
    ap.add_argument("--kind", action="append", choices=KINDS, help="only mutants of this kind (repeatable)")
    ap.add_argument("--tests", nargs="+", default=list(FAST_TESTS), help="the test files run against each mutant")
    ap.add_argument("--timeout", type=float, default=0, help="seconds before a mutant counts killed by time "
                    "(default: five times the tests' time unmutated, and at least 30)")
    ap.add_argument("--check-equivalent", action="store_true",
                    help="run the mutants listed equivalent too: each must survive")
    ap.add_argument("--list", action="store_true", help="list the mutants with their ids; run nothing")
    ap.add_argument("--show", metavar="ID", help="print the change one mutant makes, as a diff; run nothing")
    ap.add_argument("--json", type=Path, help="write every result to this file")
    ns = ap.parse_args(argv)

    files = ns.file or list(FILES)
    every = all_mutants(FILES)
    mutants = [m for m in every if m.file in files]
    equivalent = load_equivalent()
    known = {m.id for m in every}
    stale = sorted(set(equivalent) - known)
    if stale:
        print(f"{EQUIVALENT.name}: {len(stale)} listed mutants no longer exist (the core has changed):")
        for s in stale:
            print(f"  {s}")
    if ns.show:
        chosen = [m for m in mutants if m.id == ns.show] or [m for m in mutants if ns.show in m.id]
        for m in chosen:
            print(m.id)
            print(show(m))
        return 0 if chosen else 1
    if ns.only:
        mutants = [m for m in mutants if any(s in m.id for s in ns.only)]
    if ns.kind:
        mutants = [m for m in mutants if m.kind in ns.kind]
    by_file = Counter(m.file for m in mutants)
    n_equivalent = sum(m.id in equivalent for m in mutants)
    if ns.list:
        for m in mutants:
            print(f"{m.describe()}\n    {m.id}{'   (equivalent)' if m.id in equivalent else ''}")
        print(f"{len(mutants)} mutants ({', '.join(f'{f} {n}' for f, n in by_file.items())}); "
              f"{n_equivalent} listed equivalent")
        return 0

    to_run = mutants if ns.check_equivalent else [m for m in mutants if m.id not in equivalent]
    if ns.sample is not None and ns.sample < len(to_run):
        to_run = sorted(random.Random(ns.seed).sample(to_run, ns.sample), key=mutants.index)
    print(f"{len(mutants)} mutants of the scoring core ({', '.join(f'{f} {n}' for f, n in by_file.items())}), "
          f"{n_equivalent} of them listed equivalent in {EQUIVALENT.name}; running {len(to_run)}"
          + (f" (a sample, seed {ns.seed})" if ns.sample is not None else ""))
    originals = {f: (ROOT / CORE / f).read_bytes() for f in FILES}
    box = Sandbox(ns.tests)
    results: list[dict[str, object]] = []
    try:
        box.check_import()
        box.mutate(None, originals)
        status, base, first = box.run(None, timeout=3600)
        if status != "passed":
            print(f"the tests fail with no mutant: {first}")
            return 2
        timeout = ns.timeout or max(30.0, 5 * base)
        print(f"the tests pass unmutated in {base:.1f} s ({len(ns.tests)} files, PIQUET_PURE=1); "
              f"a mutant still running after {timeout:.0f} s counts killed")
        start = time.perf_counter()
        for i, m in enumerate(to_run, 1):
            if not valid(originals[m.file], m):
                print(f"[{i}/{len(to_run)}] not run: the mutated module does not compile  {m.describe()}")
                results.append({"id": m.id, "line": m.line, "status": "invalid", "equivalent": False})
                continue
            box.mutate(m, originals)
            status, took, first = box.run(m.file, timeout)
            eq = m.id in equivalent
            verdict = {"failed": "killed", "timeout": "killed (time)", "passed": "SURVIVED"}[status]
            if eq:
                verdict = "equivalent, " + ("survived as listed" if status == "passed" else "but KILLED: unlist it")
            print(f"[{i}/{len(to_run)}] {verdict:<14} {took:5.1f} s  {m.describe()}", flush=True)
            results.append({"id": m.id, "line": m.line, "status": status, "seconds": round(took, 2),
                            "equivalent": eq, "first_failure": first})
        box.mutate(None, originals)
        elapsed = time.perf_counter() - start
    finally:
        box.close()

    invalid = sum(r["status"] == "invalid" for r in results)
    ran = [r for r in results if not r["equivalent"] and r["status"] != "invalid"]
    killed = [r for r in ran if r["status"] != "passed"]
    survivors = [r for r in ran if r["status"] == "passed"]
    wrongly_listed = [r for r in results if r["equivalent"] and r["status"] != "passed"]
    timeouts = sum(r["status"] == "timeout" for r in ran)
    rate = 100 * len(killed) / len(ran) if ran else 100.0
    print(f"\n{len(results)} mutants run in {elapsed / 60:.1f} min; {len(killed)} killed ({timeouts} by time), "
          f"{len(survivors)} survived; {n_equivalent} equivalent not counted"
          + (f"; {invalid} did not compile (not counted)" if invalid else ""))
    print(f"kill rate: {len(killed)}/{len(ran)} = {rate:.1f}% of the mutants that are not equivalent")
    if survivors:
        print("survivors (a test should notice each, or it belongs in the equivalent list with why):")
        by_id = {m.id: m for m in mutants}
        for r in survivors:
            print(f"  {by_id[str(r['id'])].describe()}\n      {r['id']}")
    for r in wrongly_listed:
        print(f"listed equivalent but killed: {r['id']}")
    if ns.json:
        ns.json.write_text(json.dumps({"kill_rate": rate, "results": results}, indent=1) + "\n")
    return 1 if survivors or wrongly_listed else 0


if __name__ == "__main__":
    sys.exit(main())
