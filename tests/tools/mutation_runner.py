"""The mutation lane's runner (issue 41 item 3; README, "The mutation lane").

mutmut 3's own loop starts a fresh pytest session for every mutant (collecting the
tests again each time) and repeats its mypy filter on every run: about 0.4 mutants a
second here. This runner keeps mutmut's own pieces for everything but the loop:

1. it generates the mutants into `mutants/` with mutmut's code and settings
   (`[tool.mutmut]` in pyproject.toml);
2. it filters them through the `type_check_command` (mypy --strict), once: the
   result is kept in `mutants/` until a mutated file changes;
3. it collects mutmut's per-test stats (which tests reach which mutated function),
   or loads them, exactly as `mutmut run` does;
4. it collects the tests once, then runs each mutant in a forked child with only
   the tests that reach its function, fastest first, stopping at the first failure
   (`-x`), under a CPU-time limit.

The verdicts are written to mutmut's own meta files, so `mutmut results`,
`mutmut show NAME` and a later `mutmut run` read them. Run it from the repository's
root, at low priority, one process:

    nice -n 19 .venv/bin/python -m tests.tools.mutation_runner            # all not yet run
    nice -n 19 .venv/bin/python -m tests.tools.mutation_runner 'sombra_tui.engine.wounds*'
    .venv/bin/python -m tests.tools.mutation_runner --rerun NAME ...      # again, even if run
    .venv/bin/python -m tests.tools.mutation_runner --report              # figures, survivors
    .venv/bin/python -m tests.tools.mutation_runner --rerun NAME --tests tests/engine/F.py
        # NAME against those tests only (does a new test kill a survivor?)

Written against mutmut 3.8 (the extra `mutation`); it imports mutmut's internals, so
a later mutmut may need this file adjusted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

TYPE_CHECK_CACHE = Path("mutants") / "mutation-runner-typecheck.json"
KILLED = {1, 3, 36, -24, 24, 152, 255, -9}


def _setup() -> dict[str, str]:
    """Generate the mutants, filter them with mypy (cached), collect the stats."""
    from mutmut.__main__ import (
        CatchOutput,
        collect_or_load_stats,
        create_mutants,
    )
    from mutmut.configuration import config
    from mutmut.mutation.file_mutation import filter_mutants_with_type_checker
    from mutmut.mutation.trampoline import set_mutant_under_test
    from mutmut.utils.file_utils import (
        copy_also_copy_files,
        copy_src_dir,
        setup_source_paths,
        walk_all_files,
        walk_mutatable_files,
    )
    from mutmut.workers.isolation import get_mutant_runner

    set_mutant_under_test("mutant_generation")
    os.makedirs("mutants", exist_ok=True)
    started = time.monotonic()
    with CatchOutput(spinner_title="Generating mutants"):
        copy_src_dir()
        _refresh_data_files(walk_all_files())
        copy_also_copy_files()
        setup_source_paths()
        create_mutants(1)
    print(f"mutants generated in {time.monotonic() - started:.0f} s", flush=True)

    digest = hashlib.sha256()
    for path in sorted(walk_mutatable_files()):
        digest.update(str(path).encode())
        digest.update((Path("mutants") / path).read_bytes())
    key = digest.hexdigest()
    caught: dict[str, str] = {}
    cached = json.loads(TYPE_CHECK_CACHE.read_text()) if TYPE_CHECK_CACHE.exists() else {}
    if cached.get("key") == key:
        caught = cached["caught"]
    elif config().type_check_command:
        started = time.monotonic()
        with CatchOutput(spinner_title="Filtering mutants with the type checker"):
            found = filter_mutants_with_type_checker()
        caught = {name: m.error.error_description for name, m in found.items()}
        TYPE_CHECK_CACHE.write_text(json.dumps({"key": key, "caught": caught}))
        print(
            f"type checker: {len(caught)} mutants rejected in {time.monotonic() - started:.0f} s",
            flush=True,
        )

    os.environ["PY_IGNORE_IMPORTMISMATCH"] = "1"
    collect_or_load_stats(
        get_mutant_runner(1),
        mutants_caught_by_type_checker=caught,
        apply_config_invalidation=True,
    )
    set_mutant_under_test("")
    return caught


def _refresh_data_files(files: Any) -> None:
    """mutmut copies the package's other files (the catalog's .mo...) into mutants/ only
    once: bring those that changed since up to date."""
    for root, name in files:
        source = Path(root) / name
        target = Path("mutants") / source
        if source.suffix != ".py" and source.is_file() and (
                not target.exists() or source.read_bytes() != target.read_bytes()):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _plan(
    patterns: list[str], rerun: bool, caught: dict[str, str], chosen: bool = False
) -> list[tuple[Any, str, list[str], float]]:
    """Record the mutants mypy rejects or no test reaches; return the rest to run."""
    from mutmut.__main__ import collect_source_file_mutation_data
    from mutmut.state import state
    from mutmut.utils.format_utils import mangled_name_from_mutant_name

    mutants, _ = collect_source_file_mutation_data(mutant_names=patterns)
    durations = state().duration_by_test
    to_run = []
    for data, name, result in mutants:
        if result is not None and not rerun:
            continue
        name = name.replace("__init__.", "")
        function = mangled_name_from_mutant_name(name)
        tests = state().tests_by_mangled_function_name.get(function, set())
        estimate = sum(durations[t] for t in tests)
        data.estimated_time_of_tests_by_mutant[name] = estimate
        if name in caught:
            data.exit_code_by_key[name] = 37
            data.type_check_error_by_key[name] = caught[name]
            data.save()
        elif not tests and not chosen:
            data.exit_code_by_key[name] = 33
            data.save()
        else:
            ordered = sorted(tests, key=lambda t: (durations[t], t))
            to_run.append((data, name, ordered, estimate))
    to_run.sort(key=lambda entry: (entry[3], entry[1]))
    return to_run


def _run_child(name: str, items: list[Any], cpu_limit: int) -> None:
    """In the forked child: run the items against the mutant; exit 1 at a failure."""
    from _pytest.runner import runtestprotocol
    from mutmut.mutation.trampoline import set_mutant_under_test

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))
    code = 0
    try:
        set_mutant_under_test(name)
        for index, item in enumerate(items):
            following = items[index + 1] if index + 1 < len(items) else None
            reports = runtestprotocol(item, log=False, nextitem=following)
            if any(report.failed for report in reports):
                code = 1
                break
    except BaseException:  # anything the mutant breaks is a kill
        code = 3
    os._exit(code)


class _Loop:
    """A pytest plugin: collection happens once; the loop runs the mutants."""

    def __init__(self, to_run: list[tuple[Any, str, list[str], float]], budget_s: float,
                 chosen: bool = False) -> None:
        self.to_run = to_run
        self.chosen = chosen  # every test collected runs (--tests), not the stats' choice
        self.budget_s = budget_s
        self.counts: Counter[str] = Counter()

    def pytest_runtestloop(self, session: Any) -> bool:
        from mutmut.configuration import config

        by_id = {item.nodeid: item for item in session.items}
        started = time.monotonic()
        total = len(self.to_run)
        for number, (data, name, tests, estimate) in enumerate(self.to_run, 1):
            if time.monotonic() - started > self.budget_s:
                print(f"budget spent: {total - number + 1} mutants left for a later run",
                      flush=True)
                break
            items = (list(session.items) if self.chosen
                     else [by_id[t] for t in tests if t in by_id])
            if not items:
                data.exit_code_by_key[name] = 33
                data.save()
                continue
            cfg = config()
            cpu_limit = int((estimate + cfg.timeout_constant) * cfg.timeout_multiplier * 2) + 5
            wall_limit = cpu_limit * 10 + 60
            begun = time.monotonic()
            pid = os.fork()
            if pid == 0:
                _run_child(name, items, cpu_limit)
            code = self._wait(pid, wall_limit)
            spent = time.monotonic() - begun
            data.exit_code_by_key[name] = code
            data.durations_by_key[name] = spent
            data.save()
            verdict = "killed" if code in KILLED else ("survived" if code == 0 else f"exit {code}")
            self.counts[verdict] += 1
            print(f"[{number}/{total}] {verdict:8} {spent:6.1f} s  {name}", flush=True)
        print("done: " + ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items())), flush=True)
        return True

    @staticmethod
    def _wait(pid: int, wall_limit: float) -> int:
        deadline = time.monotonic() + wall_limit
        try:
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    return os.waitstatus_to_exitcode(status)
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    return 36
                time.sleep(0.02)
        except BaseException:  # stopped (Ctrl-C, kill): the child goes too
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise


def _report(patterns: list[str]) -> None:
    """Per module: mutants, by mypy, killed, survived, not run; then the survivors."""
    from mutmut.__main__ import collect_source_file_mutation_data

    mutants, _ = collect_source_file_mutation_data(mutant_names=patterns)
    rows: dict[str, Counter[str]] = {}
    survivors: list[str] = []
    for data, name, result in mutants:
        row = rows.setdefault(str(data.path), Counter())
        row["mutants"] += 1
        if result == 37:
            row["by mypy"] += 1
        elif result in KILLED:
            row["killed"] += 1
        elif result == 0:
            row["survived"] += 1
            survivors.append(name)
        elif result is None:
            row["not run"] += 1
        else:
            row[f"exit {result}"] += 1
    for path, row in sorted(rows.items()):
        run = row["mutants"] - row["not run"]
        scored = run - row["survived"]
        score = f"{100 * scored / run:.1f} %" if run else "-"
        figures = ", ".join(f"{k} {v}" for k, v in row.items())
        print(f"{path}: {figures}; killed of run {score}")
    for name in sorted(survivors):
        print("survived:", name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("patterns", nargs="*", help="mutant names or globs (mutmut's)")
    parser.add_argument("--rerun", action="store_true", help="run even those with a verdict")
    parser.add_argument("--report", action="store_true", help="print the figures and stop")
    parser.add_argument("--tests", nargs="+", default=[],
                        help="run these test files (paths from the root) against each mutant")
    parser.add_argument("--minutes", type=float, default=24 * 60, help="stop after this long")
    args = parser.parse_args(argv)
    if not Path("pyproject.toml").exists():
        parser.error("run it from the repository's root")
    if args.report:
        _report(args.patterns)
        return 0
    # mypy, as the type_check_command names it, is the one beside this interpreter.
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]

    # This file is in the package `tests`: forget it, so that the tests (and their
    # conftest) are imported from mutants/, next to the mutated code.
    for module in [m for m in sys.modules if m == "tests" or m.startswith("tests.")]:
        del sys.modules[module]
    caught = _setup()
    to_run = _plan(args.patterns, args.rerun, caught, chosen=bool(args.tests))
    print(f"{len(to_run)} mutants to run", flush=True)
    if not to_run:
        return 0

    import pytest
    from mutmut.configuration import config

    # A plain `kill` stops the run like Ctrl-C: the mutant under test is stopped too.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    cfg = config()
    loop = _Loop(to_run, args.minutes * 60, chosen=bool(args.tests))
    for data, _, _, _ in to_run:  # the tests run inside mutants/
        data.meta_path = data.meta_path.absolute()
    os.chdir("mutants")
    params = ["--rootdir=.", "-q", "-p", "no:randomly", "-p", "no:random-order"]
    params += cfg.pytest_add_cli_args_test_selection + cfg.pytest_add_cli_args
    # Only the files some mutant needs are collected.
    needed = set(args.tests) or {t.split("::")[0] for _, _, tests, _ in to_run for t in tests}
    params = [p for p in params if not p.startswith("tests/")] + sorted(needed)
    return int(pytest.main(params, plugins=[loop]))


if __name__ == "__main__":
    sys.exit(main())
