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
    python bench/mutate.py --results run.jsonl      # each result appended as it comes; run again to go on

With ``--results`` a stopped run loses nothing: each mutant's result is appended to the file (one JSON object a
line) as soon as it is known, and a later run with the same file reuses every result recorded against the same
core (the three modules, byte for byte) instead of running it again.  A kill is reused as it stands (tests are
added, not weakened); a survivor is run again when the tests have changed since it was recorded, so that a new
test may kill it.  The figures printed at the end are over every mutant chosen, reused or run.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

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
    end_line: int = 0
    stmt_line: int = 0  # the first line of the innermost statement around it (a compound one's header)
    at_call: bool = False  # inside a function's body: it runs when the function is called, not at import

    @property
    def lines(self) -> range:
        """The lines whose running means the mutated code may run: its statement's first line to its own last."""
        return range(min(self.stmt_line or self.line, self.line), max(self.end_line, self.line) + 1)

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
        self.stmts: list[int] = [0]  # the first lines of the statements being visited, innermost last
        self.found: list[Mutant] = []

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            self.stmts.append(node.lineno)
            try:
                super().visit(node)
            finally:
                self.stmts.pop()
        else:
            super().visit(node)

    def _span(self, node: ast.AST) -> tuple[int, int]:
        start = self.starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = self.starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        return start, end

    def _add(self, node: ast.AST, kind: str, after: str) -> None:
        start, end = self._span(node)
        before = self.source[start:end].decode()
        scope = ".".join(name for name, _ in self.scope) or "<module>"
        self.found.append(Mutant(self.file, node.lineno, scope, kind,  # type: ignore[attr-defined]
                                 _one_line(before), after, start, end, 0,
                                 node.end_lineno, self.stmts[-1], self._in_function()))  # type: ignore[attr-defined]

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
        out.append(Mutant(m.file, m.line, m.scope, m.kind, m.before, m.after, m.start, m.end, seen[key],
                          m.end_line, m.stmt_line, m.at_call))
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


def core_print(root: Path = ROOT) -> str:
    """A fingerprint of the three modules of the core: a recorded result holds only for the core it was run on."""
    h = hashlib.sha256()
    for f in FILES:
        h.update((root / CORE / f).read_bytes())
    return h.hexdigest()[:16]


def tests_print(root: Path = ROOT) -> str:
    """A fingerprint of the tests (every ``.py`` under ``tests/`` and the root ``conftest.py``): a survivor
    recorded against other tests is run again."""
    h = hashlib.sha256()
    for path in sorted((root / "tests").rglob("*.py")) + [root / "conftest.py"]:
        if path.exists() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


#: The statuses of a result that a change of the tests may change: a survivor (run, or run by no test).
_SURVIVED = ("passed", "uncovered")


def recorded(path: Path, core: str, tests: str) -> dict[str, dict[str, object]]:
    """The results in a ``--results`` file that still hold, by mutant id (the last recorded for each): those run
    on this core, and, for a survivor, with these tests too.  A line cut short by a stop is skipped."""
    out: dict[str, dict[str, object]] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # the last line of a run killed while writing it
        if not isinstance(entry, dict) or entry.get("core") != core or entry.get("status") in ("error", None):
            continue
        if entry["status"] in _SURVIVED and entry.get("tests_print") != tests:
            out.pop(str(entry["id"]), None)
            continue
        out[str(entry["id"])] = entry
    return out


# ------------------------------------------------------------------ running the tests

_PYTEST = ("-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
           "-o", "addopts=--doctest-modules -q --strict-markers", "--no-header", "-rN", "--tb=line")


#: The modules of other projects that the tests import, loaded once by the fork server (``Sandbox.run``); never
#: ``piquet``, which each run imports afresh from the copy, one module of it mutated.
PRELOAD = ("_pytest.python", "_pytest.doctest", "hypothesis", "_hypothesis_pytestplugin", "pytest_cov.plugin",
           "pytest_timeout", "starlette.testclient", "starlette.applications", "sqlalchemy", "sqlalchemy.orm",
           "httpx", "platformdirs")

#: A process that imports pytest and ``PRELOAD`` once, then for each line of JSON ``[args, log]`` on its input forks
#: a child that runs ``pytest.main(args)`` with its output in ``log``, and answers the child's pid, then its exit
#: code and CPU seconds.  It saves each mutant the start of Python and pytest (about two seconds of CPU in three).
_SERVER = r"""
import json, os, sys, warnings
warnings.simplefilter("ignore")
import pytest
for name in sys.argv[1:]:
    try:
        __import__(name)
    except Exception:
        pass
assert not any(m == "piquet" or m.startswith("piquet.") for m in sys.modules), "piquet preloaded"
warnings.resetwarnings()
print("ready", flush=True)
for line in sys.stdin:
    args, log = json.loads(line)
    pid = os.fork()
    if pid == 0:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            code = int(pytest.main(args))
        except BaseException:
            code = 3
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    print(pid, flush=True)
    _, status, usage = os.wait4(pid, 0)
    print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime]), flush=True)
"""


@dataclass(frozen=True)
class Outcome:
    """One run of the tests: "passed", "failed", "timeout" (past the limit of CPU time) or "error" (pytest could
    not run them: a usage error, or no test collected), its wall and CPU seconds, and the first failure."""

    status: str
    seconds: float
    cpu: float
    first: str = ""


def _cpu_of(pid: int) -> float:
    """The CPU seconds a running process has used (Linux: /proc), 0 if it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class Coverage:
    """Which tests run which lines of the core: recorded once, unmutated, with coverage.py's dynamic contexts
    (pytest-cov's ``--cov-context=test``).  A line run while the modules are imported (the context "") may be
    needed by every test."""

    def __init__(self, lines: dict[str, dict[int, frozenset[str]]], order: Sequence[str],
                 seconds: dict[str, float]) -> None:
        self.lines = lines  # file of the core -> line -> the ids of the tests (and doctests) that ran it
        self.order = {t: i for i, t in enumerate(order)}
        self.seconds = seconds  # test id -> its seconds under coverage (setup, call and teardown)

    def cost(self, tests: Sequence[str], file: str) -> float:
        """The seconds ``tests`` and ``file``'s doctests took unmutated, under coverage (slower than without)."""
        doctests = f"{CORE / file}::"
        return sum(self.seconds.get(t, 0.0) for t in tests) + \
            sum(s for t, s in self.seconds.items() if t.startswith(doctests))

    def select(self, m: Mutant) -> list[str] | None:
        """The test ids that run the mutated code, in the order of the tests; ``None``: every test (the mutant
        is run at import, or is in code that runs then).  The mutated module's doctests are run apart."""
        if not m.at_call:
            return None
        by_line = self.lines.get(m.file, {})
        tests: set[str] = set()
        for line in m.lines:
            ran = by_line.get(line, frozenset())
            if "" in ran:
                return None
            tests |= ran
        doctests = str(CORE)  # every module's doctests ran in the recording, but a mutant runs its own only
        return sorted((t for t in tests if t in self.order and not t.startswith(doctests)),
                      key=self.order.__getitem__)

    def doctests_reach(self, m: Mutant) -> bool:
        """Whether the mutated module's own doctests run the mutated code (they are run with each mutant)."""
        prefix = f"{CORE / m.file}::"
        return any(t.startswith(prefix) for line in m.lines for t in self.lines.get(m.file, {}).get(line, ()))


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
        self.server: subprocess.Popen[str] | None = None
        self.log = self.dir / ".pytest-output"

    def close(self) -> None:
        if self.server is not None:
            self.server.kill()  # in the job's process group, like the children it forks
            self.server.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _serve(self) -> subprocess.Popen[str]:
        """The fork server of this copy, started on first use."""
        if self.server is None:
            self.server = subprocess.Popen([sys.executable, "-c", _SERVER, *PRELOAD], cwd=self.dir, env=self.env,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, text=True)
            assert self.server.stdout is not None
            if self.server.stdout.readline().strip() != "ready":
                raise SystemExit("the fork server of the tests did not start")
        return self.server

    @staticmethod
    def _outcome(code: int, out: str, took: float, cpu: float) -> Outcome:
        if code == 0:
            return Outcome("passed", took, cpu)
        if code in (4, 5) and re.search(r"ERROR: not found|no tests ran|found no collectors", out):
            return Outcome("error", took, cpu, _one_line(out[-400:], 400))  # a test id the copy does not have
        if code < 0:
            return Outcome("failed", took, cpu, f"pytest ended by signal {-code}")  # the mutant crashed Python
        first = next((line for line in out.splitlines() if re.search(r"(Error|error|assert|Failed)", line)), "")
        return Outcome("failed", took, cpu, _one_line(first, 160))

    def _forked(self, args: Sequence[str], cpu_limit: float) -> Outcome:
        """``pytest.main(args)`` in a child of the fork server; past ``cpu_limit`` seconds of CPU it is killed."""
        server = self._serve()
        assert server.stdin is not None and server.stdout is not None
        start = time.perf_counter()
        server.stdin.write(json.dumps([[*_PYTEST[2:], *args], str(self.log)]) + "\n")
        server.stdin.flush()
        pid = int(server.stdout.readline())
        killed = 0.0
        while not select.select([server.stdout], [], [], 0.05 if killed or _cpu_of(pid) < 1 else 0.25)[0]:
            cpu = _cpu_of(pid)
            if not killed and cpu > cpu_limit:
                os.kill(pid, signal.SIGKILL)  # the server's child, which runs the tests in its own process
                killed = cpu
        code, cpu = json.loads(server.stdout.readline())
        took = time.perf_counter() - start
        if killed:
            return Outcome("timeout", took, max(cpu, killed))
        return self._outcome(code, self.log.read_text(errors="replace"), took, cpu)

    def check_import(self) -> None:
        """The copy's modules are the ones the tests import, as source."""
        out = subprocess.run([sys.executable, "-c", "import piquet.core.deal as d, piquet.core.native as n; "
                              "print(d.__file__); print(n.COMPILED)"],
                             env=self.env, cwd=self.dir, capture_output=True, text=True, check=True).stdout.split()
        if not out[0].startswith(str(self.dir)) or out[1] != "False":
            raise SystemExit(f"the tests would not run the copy's core as source: {out}")

    def _pytest(self, args: Sequence[str], cpu_limit: float, env: dict[str, str] | None = None
                ) -> tuple[Outcome, str]:
        """Run pytest in the copy; past ``cpu_limit`` seconds of CPU time it is killed.  CPU time, not wall
        time: the run may be paused (SIGSTOP to the process group, which the child shares) or slowed by load."""
        with tempfile.TemporaryFile("w+") as log:
            start = time.perf_counter()
            proc = subprocess.Popen([sys.executable, *_PYTEST, *args], cwd=self.dir, env={**self.env, **(env or {})},
                                    stdout=log,
                                    stderr=subprocess.STDOUT, text=True)
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    proc.returncode = os.waitstatus_to_exitcode(status)
                    cpu = usage.ru_utime + usage.ru_stime
                    break
                cpu = _cpu_of(proc.pid)
                if cpu > cpu_limit:
                    proc.kill()  # pytest runs the tests in its own process: nothing else to stop
                    proc.wait()
                    return Outcome("timeout", time.perf_counter() - start, cpu), ""
                time.sleep(0.05 if cpu < 1 else 0.25)
            took = time.perf_counter() - start
            log.seek(0)
            out = log.read()
        return self._outcome(proc.returncode, out, took, cpu), out

    def run(self, file: str | None, timeout: float, tests: Sequence[str] | None = None) -> Outcome:
        """Run the tests, or these test ids, and ``file``'s doctests; stop at the first failure."""
        args = ["-x", *(self.tests if tests is None else tests)]
        if file is not None:
            args.append(str(CORE / file))
        return self._forked(args, timeout)

    def record(self) -> tuple[Outcome, Coverage]:
        """Run the tests and the core's doctests once, unmutated, under coverage: which test runs which line."""
        doctests = [str(CORE / f) for f in FILES]
        outcome, out = self._pytest(["--collect-only", "-v", *self.tests, *doctests], 3600)  # -v: one -q
        if outcome.status != "passed":
            raise SystemExit(f"the tests cannot be collected: {outcome.first or out[-2000:]}")
        order = [line for line in out.splitlines() if "::" in line]
        data_file = self.dir / ".coverage-contexts"
        outcome, out = self._pytest(["--cov=src/piquet/core", "--cov-report=", "--cov-context=test",
                                     "--durations=0", "--durations-min=0", *self.tests, *doctests], 3600,
                                    {"COVERAGE_FILE": str(data_file)})
        if outcome.status != "passed":
            return outcome, Coverage({}, order, {})
        seconds: dict[str, float] = {}
        for found in re.finditer(r"^([0-9.]+)s (?:setup|call|teardown) +(\S.*)$", out, re.M):
            seconds[found[2]] = seconds.get(found[2], 0.0) + float(found[1])
        import coverage  # the test extra; only this mode needs it

        data = coverage.CoverageData(basename=str(data_file))
        data.read()
        lines: dict[str, dict[int, frozenset[str]]] = {}
        for measured in data.measured_files():
            path = Path(measured)
            if path.parent != self.dir / CORE or path.name not in FILES:
                continue
            lines[path.name] = {n: frozenset(c.rsplit("|", 1)[0] for c in contexts)
                                for n, contexts in data.contexts_by_lineno(measured).items()}
        if set(lines) != set(FILES):
            raise SystemExit(f"coverage measured {sorted(lines)} of the core, not all of {FILES}")
        return outcome, Coverage(lines, order, dict(seconds))

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
    ap.add_argument("--all-tests", action="store_true",
                    help="run every test of --tests against each mutant, not only those that run the mutated line")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once, each in its own copy of the tree")
    ap.add_argument("--timeout", type=float, default=0, help="CPU seconds before a mutant counts killed by time "
                    "(default: twice the time of the tests it runs, unmutated under coverage, which is about three "
                    "times slower, and at least 20; with --all-tests five times their time, and at least 30)")
    ap.add_argument("--check-equivalent", action="store_true",
                    help="run the mutants listed equivalent too: each must survive")
    ap.add_argument("--list", action="store_true", help="list the mutants with their ids; run nothing")
    ap.add_argument("--show", metavar="ID", help="print the change one mutant makes, as a diff; run nothing")
    ap.add_argument("--json", type=Path, help="write every result to this file")
    ap.add_argument("--results", type=Path, help="append each result to this file (JSON lines) as it comes, and "
                    "reuse those it holds for the same core (a survivor only with the same tests): a stopped run "
                    "goes on where it stopped")
    ns = ap.parse_args(argv)
    if ns.jobs < 1:
        ap.error("--jobs must be at least 1")

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
    chosen = to_run
    fingerprints: dict[str, object] = {"core": core_print(), "tests_print": tests_print()}
    previous = recorded(ns.results, str(fingerprints["core"]), str(fingerprints["tests_print"])) \
        if ns.results else {}
    reused = [{**previous[m.id], "equivalent": m.id in equivalent, "line": m.line, "reused": True}
              for m in chosen if m.id in previous]
    to_run = [m for m in chosen if m.id not in previous]
    print(f"{len(mutants)} mutants of the scoring core ({', '.join(f'{f} {n}' for f, n in by_file.items())}), "
          f"{n_equivalent} of them listed equivalent in {EQUIVALENT.name}; "
          + (f"{len(reused)} of the {len(chosen)} chosen already recorded in {ns.results}; " if ns.results else "")
          + f"running {len(to_run)}"
          + (f" (a sample, seed {ns.seed})" if ns.sample is not None else ""), flush=True)
    originals = {f: (ROOT / CORE / f).read_bytes() for f in FILES}
    boxes = [Sandbox(ns.tests) for _ in range(min(ns.jobs, len(to_run)))]
    results: list[dict[str, object]] = []
    cpu_start = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    log = ns.results.open("a") if ns.results else None
    try:
        if to_run:
            code = _run(ns, to_run, boxes, originals, equivalent, results, log, fingerprints)
            if code is not None:
                return code
    finally:
        for b in boxes:
            b.close()
        if log is not None:
            log.close()
    elapsed = time.perf_counter() - start
    cpu_end = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_total = (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime)
    if len(results) < len(to_run):
        print(f"stopped after {len(results)} of {len(to_run)} mutants")
        return 2

    results += reused
    order = {m.id: i for i, m in enumerate(chosen)}
    results.sort(key=lambda r: order[str(r["id"])])
    invalid = sum(r["status"] == "invalid" for r in results)
    errors = [r for r in results if r["status"] == "error"]
    ran = [r for r in results if not r["equivalent"] and r["status"] not in ("invalid", "error")]
    killed = [r for r in ran if r["status"] in ("failed", "timeout")]
    survivors = [r for r in ran if r["status"] in _SURVIVED]
    wrongly_listed = [r for r in results if r["equivalent"] and r["status"] in ("failed", "timeout")]
    timeouts = sum(r["status"] == "timeout" for r in ran)
    uncovered = sum(r["status"] == "uncovered" for r in ran)
    rate = 100 * len(killed) / len(ran) if ran else 100.0
    mutant_cpu = sum(float(str(r["cpu"])) for r in results)
    print(f"\n{len(results) - len(reused)} mutants run in {elapsed / 60:.1f} min ({cpu_total / 60:.1f} min of CPU "
          f"in the tests, {len(boxes)} at once)"
          + (f", {len(reused)} results reused from {ns.results}" if reused else "")
          + f"; of the {len(results)}: {len(killed)} killed ({timeouts} by time), {len(survivors)} survived"
          + (f" ({uncovered} run by no test)" if uncovered else "")
          + f"; {n_equivalent} equivalent not counted"
          + (f"; {invalid} did not compile (not counted)" if invalid else ""))
    if reused:
        print(f"the {len(results)} mutants' own CPU time, reused ones included: {mutant_cpu / 60:.1f} min")
    print(f"kill rate: {len(killed)}/{len(ran)} = {rate:.1f}% of the mutants that are not equivalent")
    if survivors:
        print("survivors (a test should notice each, or it belongs in the equivalent list with why):")
        by_id = {m.id: m for m in mutants}
        for r in survivors:
            print(f"  {by_id[str(r['id'])].describe()}\n      {r['id']}")
    for r in wrongly_listed:
        print(f"listed equivalent but killed: {r['id']}")
    for r in errors:
        print(f"not run, pytest could not find its tests (not counted): {r['id']}: {r['first_failure']}")
    if ns.json:
        ns.json.write_text(json.dumps({"kill_rate": rate, "selected": not ns.all_tests, "jobs": len(boxes),
                                       "minutes": round(elapsed / 60, 2), "cpu_minutes": round(cpu_total / 60, 2),
                                       "mutant_cpu_minutes": round(mutant_cpu / 60, 2), "reused": len(reused),
                                       "results": results}, indent=1) + "\n")
    return 2 if errors else 1 if survivors or wrongly_listed else 0


def _run(ns: argparse.Namespace, to_run: list[Mutant], boxes: list[Sandbox], originals: dict[str, bytes],
         equivalent: dict[str, str], results: list[dict[str, object]], log: IO[str] | None,
         fingerprints: dict[str, object]) -> int | None:
    """Record the unmutated tests under coverage, then run ``to_run`` on ``boxes``, one thread each, appending to
    ``results`` (and to ``log``, a line each, as it comes); an exit code if the tests fail unmutated."""
    box = boxes[0]
    box.check_import()
    box.mutate(None, originals)
    cover: Coverage | None = None
    if ns.all_tests:
        base = box.run(None, timeout=3600)
    else:
        base, cover = box.record()
    if base.status != "passed":
        print(f"the tests fail with no mutant: {base.first}")
        return 2
    print(f"the tests pass unmutated in {base.seconds:.1f} s, {base.cpu:.1f} s of CPU ({len(ns.tests)} files, "
          f"PIQUET_PURE=1" + (", under coverage: each mutant runs the tests that run its lines)"
                              if cover else ", each mutant runs them all)"), flush=True)
    lock = threading.Lock()
    todo = list(enumerate(to_run, 1))

    def limit(m: Mutant, tests: list[str] | None) -> float:
        """The CPU seconds a mutant may take: about six times what its tests take unmutated."""
        if ns.timeout:
            return float(ns.timeout)
        if cover is None:
            return max(30.0, 5 * base.cpu)
        return max(20.0, 2 * (base.cpu if tests is None else cover.cost(tests, m.file)))

    def work(box: Sandbox) -> None:
        while True:
            with lock:
                if not todo:
                    return
                i, m = todo.pop(0)
            eq = m.id in equivalent
            entry: dict[str, object] = {"id": m.id, "line": m.line, "equivalent": eq}
            tests = cover.select(m) if cover else None
            if not valid(originals[m.file], m):
                outcome, line = Outcome("invalid", 0, 0), "not run: the mutated module does not compile"
            elif tests == [] and cover is not None and not cover.doctests_reach(m):
                outcome = Outcome("uncovered", 0, 0)
                line = ("equivalent, survived as listed" if eq else "SURVIVED") + " (no test runs its lines)"
            else:
                cap = limit(m, tests)
                box.mutate(m, originals)
                outcome = box.run(m.file, cap, tests)
                if outcome.status == "error" and tests is not None:
                    tests = None  # the mutant changed the tests' ids (a parameter from the core): run them all
                    outcome = box.run(m.file, limit(m, tests), tests)
                verdict = {"failed": "killed", "timeout": "killed (time)", "passed": "SURVIVED",
                           "error": "NOT RUN"}[outcome.status]
                if eq:
                    verdict = "equivalent, " + ("survived as listed" if outcome.status == "passed"
                                                else "but KILLED: unlist it")
                n_tests = "all" if tests is None else str(len(tests))
                line = f"{verdict:<14} {outcome.cpu:5.1f} s CPU, {n_tests:>3} tests"
            entry.update(status=outcome.status, seconds=round(outcome.seconds, 2), cpu=round(outcome.cpu, 2),
                         tests=None if tests is None else len(tests), first_failure=outcome.first,
                         all_tests=bool(ns.all_tests))
            with lock:
                print(f"[{i}/{len(to_run)}] {line}  {m.describe()}", flush=True)
                results.append(entry)
                if log is not None:
                    log.write(json.dumps({**entry, **fingerprints}) + "\n")
                    log.flush()
                    os.fsync(log.fileno())

    failures: list[BaseException] = []

    def guarded(box: Sandbox) -> None:
        try:
            work(box)
        except BaseException as e:  # a thread's exception would otherwise end it silently
            with lock:
                failures.append(e)
                todo.clear()

    threads = [threading.Thread(target=guarded, args=(b,), daemon=True) for b in boxes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    return None


if __name__ == "__main__":
    sys.exit(main())
