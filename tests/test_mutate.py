"""``bench/mutate.py``, the mutation testing of the scoring core: what it mutates, and its list of equivalent
mutants kept in step with the core."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _mutate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_mutate", ROOT / "bench" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


mutate = _mutate()

SOURCE = b'''"""A docstring: 1 == 1 is not mutated."""
LIMIT = 30


def score(before: int, points: int, elder: bool) -> int:
    """Thirty or more: 30 more."""
    if before < LIMIT <= before + points and elder:
        points += 30
    assert points >= 0
    return points if elder else -1
'''


def test_each_kind_of_mutant_is_found_and_changes_only_its_own_text() -> None:
    found = mutate.mutants_of("toy.py", SOURCE)
    described = {(m.kind, m.before, m.after) for m in found}
    assert ("compare", "before < LIMIT <= before + points", "(before <= LIMIT <= before + points)") in described
    assert ("compare", "before < LIMIT <= before + points", "(before < LIMIT < before + points)") in described
    assert ("constant", "30", "31") in described  # LIMIT, and the thirty added
    assert ("constant", "1", "0") in described  # the -1
    assert ("boolop", "before < LIMIT <= before + points and elder",
            "(before < LIMIT <= before + points or elder)") in described
    assert ("negate", "before < LIMIT <= before + points and elder",
            "(not (before < LIMIT <= before + points and elder))") in described
    assert ("negate", "elder", "(not (elder))") in described  # the x if c else y
    assert ("delete", "points += 30", "pass") in described
    assert ("delete", "return points if elder else -1", "pass") in described
    # Docstrings, annotations and asserts are left alone.
    assert not any("docstring" in m.before or "points >= 0" in m.before or m.before == "int" for m in found)
    original = ast.dump(ast.parse(SOURCE))
    for m in found:
        mutated = mutate.apply(SOURCE, m)
        assert mutate.valid(SOURCE, m) and ast.dump(ast.parse(mutated)) != original
        # The bytes outside the mutated text are the original's.
        assert mutated[:m.start] == SOURCE[:m.start] and mutated.endswith(SOURCE[m.end:])
    assert len({m.id for m in found}) == len(found)  # every id names one mutant


def test_the_core_has_the_mutants_of_the_issue() -> None:
    """The four survivors of issue 20 are among the mutants (and tests/test_mutants.py kills them)."""
    ids = {m.id for m in mutate.all_mutants(mutate.FILES)}
    assert "deal.py|Deal._verify_play|compare|self.lead >= 0|(self.lead > 0)|0" in ids
    assert "deal.py|Deal._score|boolop|kind == S_PLAY and role == ELDER|(kind == S_PLAY or role == ELDER)|0" in ids
    assert any(i.startswith("combinations.py|sequences_ok|constant|1|0|") for i in ids)  # run >> 1 as run >> 0


def test_every_mutant_listed_equivalent_exists_and_says_why() -> None:
    data = json.loads((ROOT / "bench" / "mutants-equivalent.json").read_text())
    ids = {m.id for m in mutate.all_mutants(mutate.FILES)}
    listed = [e["id"] for e in data["mutants"]]
    assert len(listed) == len(set(listed))
    for entry in data["mutants"]:
        assert entry["id"] in ids, f"no longer a mutant of the core: {entry['id']}"
        assert len(entry["why"].split()) >= 5
    assert mutate.load_equivalent().keys() == set(listed)


def test_a_mutant_knows_the_lines_whose_running_may_run_it_and_whether_it_runs_at_import() -> None:
    """The selection of tests (``Coverage.select``) rests on these: a mutant in a function's body runs when the
    function is called, from its statement's first line; one at the module's level runs at import."""
    found = mutate.mutants_of("toy.py", SOURCE)
    limit = next(m for m in found if m.kind == "constant" and m.line == 2)  # LIMIT = 30
    assert not limit.at_call and list(limit.lines) == [2]
    inner = next(m for m in found if m.after == "(before < LIMIT < before + points)")
    assert inner.at_call and list(inner.lines) == [7]  # the if's header
    added = next(m for m in found if m.before == "points += 30")
    assert added.at_call and list(added.lines) == [8]
    ret = next(m for m in found if m.kind == "negate" and m.before == "elder")  # in the return's x if c else y
    assert ret.at_call and list(ret.lines) == [10]
    two_lines = b"def f(a: int) -> int:\n    return (a +\n            1)\n"
    one = next(m for m in mutate.mutants_of("toy.py", two_lines) if m.kind == "constant")
    assert one.line == 3 and list(one.lines) == [2, 3]  # the statement begins a line above the constant


def test_the_tests_chosen_for_a_mutant_are_those_that_ran_its_lines() -> None:
    """Every test that ran a line of the mutant, in the order of the tests; every test when the line ran at import
    (the context ""), as a change there reaches every test; none when no test ran it (a survivor at once), the
    module's own doctests being run apart."""
    found = mutate.mutants_of("toy.py", SOURCE)
    inner = next(m for m in found if m.after == "(before < LIMIT < before + points)")
    added = next(m for m in found if m.before == "points += 30")
    limit = next(m for m in found if m.kind == "constant" and m.line == 2)
    doctest = f"{mutate.CORE}/toy.py::toy.score"
    order = ["tests/test_a.py::test_one", "tests/test_a.py::test_two[x]", "tests/test_b.py::test_three", doctest]
    cover = mutate.Coverage({"toy.py": {7: frozenset({"tests/test_b.py::test_three", "tests/test_a.py::test_one",
                                                      doctest}),
                                        2: frozenset({""}), 8: frozenset({doctest})}},
                            order, {"tests/test_a.py::test_one": 1.5, "tests/test_b.py::test_three": 2.0,
                                    doctest: 0.25})
    assert cover.select(inner) == ["tests/test_a.py::test_one", "tests/test_b.py::test_three"]
    assert cover.select(limit) is None  # at import: every test
    assert cover.select(added) == [] and cover.doctests_reach(added)  # only its doctests run it
    ret = next(m for m in found if m.kind == "negate" and m.before == "elder")
    assert cover.select(ret) == [] and not cover.doctests_reach(ret)  # run by nothing: survives unrun
    assert cover.cost(["tests/test_a.py::test_one"], "toy.py") == 1.75


def test_a_results_file_gives_back_what_still_holds(tmp_path: Path) -> None:
    """``--results``: a result holds for the core it was run on; a survivor only for the tests too (a new test may
    kill it), a kill whatever the tests; the last line for a mutant wins; a line cut short by a stop is skipped."""
    path = tmp_path / "run.jsonl"
    lines = [
        {"id": "a", "status": "failed", "core": "C1", "tests_print": "T0"},  # killed under older tests: holds
        {"id": "b", "status": "passed", "core": "C1", "tests_print": "T0"},  # survived older tests: run again
        {"id": "c", "status": "passed", "core": "C1", "tests_print": "T1"},  # survived these tests: holds
        {"id": "d", "status": "timeout", "core": "C0", "tests_print": "T1"},  # another core: run again
        {"id": "e", "status": "uncovered", "core": "C1", "tests_print": "T0"},  # run by no test then: run again
        {"id": "f", "status": "error", "core": "C1", "tests_print": "T1"},  # pytest could not run it: again
        {"id": "c", "status": "failed", "core": "C1", "tests_print": "T1"},  # a later line for c wins
    ]
    path.write_text("".join(json.dumps(e) + "\n" for e in lines) + '{"id": "g", "sta')
    held = mutate.recorded(path, "C1", "T1")
    assert set(held) == {"a", "c"}
    assert held["a"]["status"] == "failed" and held["c"]["status"] == "failed"
    assert mutate.recorded(tmp_path / "none.jsonl", "C1", "T1") == {}


def test_the_fingerprints_follow_the_core_and_the_tests(tmp_path: Path) -> None:
    for name in mutate.FILES:
        (tmp_path / mutate.CORE).mkdir(parents=True, exist_ok=True)
        (tmp_path / mutate.CORE / name).write_text("x = 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_x() -> None: ...\n")
    core, tests = mutate.core_print(tmp_path), mutate.tests_print(tmp_path)
    (tmp_path / "tests" / "test_x.py").write_text("def test_x() -> None:\n    assert True\n")
    assert mutate.core_print(tmp_path) == core and mutate.tests_print(tmp_path) != tests
    (tmp_path / mutate.CORE / "deal.py").write_text("x = 2\n")
    assert mutate.core_print(tmp_path) != core
