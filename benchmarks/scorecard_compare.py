"""The scorecard's speed against the code before the plugin move and the TypeScript reference.

Measures, in one invocation, alternating the implementations round after round:

  (a) ``Scorer.compute(inputs)`` on a scorer built beforehand for the case's config;
  (b) ``compute_confidence(inputs, config)``, each call with its own config;
  (c) ``score_jsonl`` with 2 workers over a JSON Lines file of ~100k rows (default config);

over every computeConfidence input of ../shared/conformance/scorecard/cases.jsonl and
examples.jsonl (records with an ``fn`` are other functions; a case whose config is refused is left
out of (a), and a call that raises counts as a call). Implementations:

  old   the tree before the move (compiled scorecard engine, grounding and retrieval), run with
        its own interpreter (``--old-python``, default ../before/.venv/bin/python beside
        this repository: ``git worktree add ../before d253c94`` (0.1.0, the last commit before the
        move) and ``cd ../before && uv sync --all-packages --all-extras``);
  new   this tree (pure Python);
  ts    transparent-confidence 0.3.1 from the npm registry, (a) and (b) only: install it with
        ``npm install --prefix benchmarks/.node transparent-confidence@0.3.1``.

Each round runs every implementation in a fresh process; a process times ``--passes`` passes
over the cases after one warm-up pass and reports its median pass. Printed: the median over
rounds, in microseconds per call (rows per second for (c)), and the ratios new/old and new/ts.

``--clock cpu`` times (a) and (b) in CPU time of the measuring process (Python's
``time.process_time``, node's ``process.cpuUsage``, node then run with ``--single-threaded`` so
that V8's background compiler and GC threads are not counted) instead of wall time: on a
machine shared with other work, waiting for a core then does not count. (c) runs worker
processes and is always timed in wall time.

Run: uv run python benchmarks/scorecard_compare.py [--rounds 5] [--passes 15] [--rows 100000]
[--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VECTORS = HERE.parent.parent / "shared" / "conformance" / "scorecard"
NODE_DIR = HERE / ".node"

NODE_DRIVER = r"""
import { readFileSync } from "node:fs";
import { computeConfidence, createScorer } from "transparent-confidence";
const [casesPath, passesText, clock] = process.argv.slice(1);
const passes = Number(passesText);
const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const wallSeconds = () => Number(process.hrtime.bigint()) / 1e9;
const now = clock === "cpu" ? cpuSeconds : wallSeconds;
const revive = (key, value) =>
  value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1
    && typeof value["$float"] === "string" ? Number(value["$float"]) : value;
const cases = readFileSync(casesPath, "utf8").split("\n").filter(Boolean)
  .map((line) => JSON.parse(line, revive));
const built = [];
for (const c of cases) {
  try { built.push([createScorer(c.config), c.inputs]); } catch (e) { /* refused config */ }
}
const runA = () => { for (const [s, i] of built) { try { s.compute(i); } catch (e) {} } };
const runB = () => {
  for (const c of cases) { try { computeConfidence(c.inputs, c.config); } catch (e) {} }
};
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
runA(); runB();
const a = [], b = [];
for (let p = 0; p < passes; p++) {
  let t = now(); runA(); a.push(now() - t);
  t = now(); runB(); b.push(now() - t);
}
console.log(JSON.stringify({ a: median(a) / built.length * 1e6, b: median(b) / cases.length * 1e6,
  a_calls: built.length, b_calls: cases.length }));
"""


# ------------------------------------------------------------------ the cases (orchestrator)
def load_records() -> list[dict[str, Any]]:
    """``{"inputs", "config"}`` of every computeConfidence vector, as in the files ($float tags
    kept, so that each implementation reads them back its own way)."""
    records = []
    for name in ("cases.jsonl", "examples.jsonl"):
        for line in (VECTORS / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "fn" in record:
                continue
            records.append(
                {
                    "inputs": record["inputs"],
                    "config": record["config"],
                    "error": "error" in record["expected"],
                }
            )
    return records


def write_inputs(records: list[dict[str, Any]], folder: Path, rows: int) -> tuple[Path, Path]:
    cases = folder / "cases.jsonl"
    cases.write_text(
        "".join(json.dumps({"inputs": r["inputs"], "config": r["config"]}) + "\n" for r in records),
        encoding="utf-8",
    )
    plain = [r["inputs"] for r in records if not r["config"] and not r["error"]]
    lines = folder / "rows.jsonl"
    with lines.open("w", encoding="utf-8") as out:
        for index in range(rows):
            out.write(json.dumps(plain[index % len(plain)]) + "\n")
    return cases, lines


# ------------------------------------------------------------------ a worker (old or new tree)
def _api() -> tuple[Any, Any, Any, Any]:
    """(create_scorer, compute_confidence, score_jsonl, from_json_safe) of whichever tree runs."""
    try:
        from assay.wire import from_json_safe
        from assay_scorecard import compute_confidence, create_scorer, score_jsonl
    except ImportError:  # the tree before the move: everything on the core package
        import assay

        return (
            assay.create_scorer,
            assay.compute_confidence,
            assay.score_jsonl,
            assay.from_json_safe,
        )
    return create_scorer, compute_confidence, score_jsonl, from_json_safe


def work_compute(cases_path: str, passes: int, clock: str = "wall") -> dict[str, float]:
    create_scorer, compute_confidence, _, from_json_safe = _api()
    cases = []
    for line in Path(cases_path).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        cases.append((from_json_safe(record["inputs"]), from_json_safe(record["config"])))
    built = []
    for inputs, config in cases:
        try:
            built.append((create_scorer(config), inputs))
        except Exception:  # a refused config
            continue

    def run_a() -> None:
        for scorer, inputs in built:
            try:  # noqa: SIM105 (suppress() would add its own cost to every call)
                scorer.compute(inputs)
            except Exception:
                pass

    def run_b() -> None:
        for inputs, config in cases:
            try:  # noqa: SIM105
                compute_confidence(inputs, config)
            except Exception:
                pass

    now = time.process_time if clock == "cpu" else time.perf_counter
    run_a()
    run_b()
    a, b = [], []
    for _ in range(passes):
        start = now()
        run_a()
        a.append(now() - start)
        start = now()
        run_b()
        b.append(now() - start)
    return {
        "a": statistics.median(a) / len(built) * 1e6,
        "b": statistics.median(b) / len(cases) * 1e6,
        "a_calls": len(built),
        "b_calls": len(cases),
    }


def work_jsonl(rows_path: str) -> dict[str, float]:
    _, _, score_jsonl, _ = _api()
    with open(rows_path, "rb") as source, open(os.devnull, "wb") as sink:
        start = time.perf_counter()
        summary = score_jsonl(source, sink, {}, workers=2)
        elapsed = time.perf_counter() - start
    return {"c": summary.rows / elapsed, "c_rows": summary.rows}


# ------------------------------------------------------------------ orchestration
def run_worker(python: str, tree: Path, *args: str) -> dict[str, float]:
    result = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker", *args],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def run_node(cases: Path, passes: int, clock: str) -> dict[str, float]:
    # in CPU time, V8's background threads (compiler, concurrent GC) would count too
    threads = ["--single-threaded"] if clock == "cpu" else []
    result = subprocess.run(
        [
            "node",
            *threads,
            "--input-type=module",
            "-e",
            NODE_DRIVER,
            str(cases),
            str(passes),
            clock,
        ],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--passes", type=int, default=15)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument(
        "--old-python", default=str(Path(__file__).resolve().parents[2] / "before/.venv/bin/python")
    )
    parser.add_argument("--no-ts", action="store_true", help="skip the TypeScript reference")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time (a) and (b) in wall time or in CPU time of the measuring process",
    )
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, path, *rest = args.worker
        out = work_compute(path, int(rest[0]), *rest[1:]) if kind == "compute" else work_jsonl(path)
        print(json.dumps(out))
        return

    old_python = args.old_python
    old_tree = Path(old_python).resolve().parents[2] if Path(old_python).exists() else None
    if old_tree is None:
        print(f"no old tree: {old_python} not found; measuring new (and ts) only")
    new_python, new_tree = sys.executable, HERE.parent
    has_ts = not args.no_ts and (NODE_DIR / "node_modules" / "transparent-confidence").exists()
    if not has_ts and not args.no_ts:
        print(
            f"no TypeScript reference: npm install --prefix {NODE_DIR} transparent-confidence@0.3.1"
        )

    results: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}, "ts": {}}
    counts: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        cases, rows = write_inputs(load_records(), Path(folder), args.rows)
        for _ in range(args.rounds):
            runs: list[tuple[str, Any]] = []
            if old_tree is not None:
                runs.append(
                    (
                        "old",
                        lambda: run_worker(
                            old_python,
                            old_tree,
                            "compute",
                            str(cases),
                            str(args.passes),
                            args.clock,
                        ),
                    )
                )
            runs.append(
                (
                    "new",
                    lambda: run_worker(
                        new_python, new_tree, "compute", str(cases), str(args.passes), args.clock
                    ),
                )
            )
            if has_ts:
                runs.append(("ts", lambda: run_node(cases, args.passes, args.clock)))
            if old_tree is not None:
                runs.append(("old", lambda: run_worker(old_python, old_tree, "jsonl", str(rows))))
            runs.append(("new", lambda: run_worker(new_python, new_tree, "jsonl", str(rows))))
            for name, run in runs:
                measured = run()
                for key, value in measured.items():
                    if key in ("a", "b", "c"):
                        results[name].setdefault(key, []).append(value)
                    else:
                        counts.setdefault(name, {})[key] = value

    median = {name: {k: statistics.median(v) for k, v in m.items()} for name, m in results.items()}
    print(
        f"rounds {args.rounds}, passes {args.passes}, clock {args.clock} for (a) and (b); "
        f"calls per pass: {counts}"
    )
    print(f"{'measure':<44}{'old':>10}{'new':>10}{'ts':>10}{'new/old':>9}{'new/ts':>8}")
    labels = {
        "a": "(a) Scorer.compute, prebuilt [us/call]",
        "b": "(b) compute_confidence(in, cfg) [us/call]",
        "c": "(c) score_jsonl 2 workers [rows/s]",
    }
    for key, label in labels.items():
        cells = [median[n].get(key) for n in ("old", "new", "ts")]
        text = ["-" if v is None else (f"{v:,.0f}" if key == "c" else f"{v:.1f}") for v in cells]
        old, new, ts = cells

        def ratio(x: float | None, y: float | None) -> str:
            return "-" if x is None or y is None else f"{x / y:.2f}"

        print(
            f"{label:<44}{text[0]:>10}{text[1]:>10}{text[2]:>10}{ratio(new, old):>9}{ratio(new, ts):>8}"
        )
    print(
        "ratios are new/old and new/ts of the numbers shown: for (a) and (b) lower is faster, "
        "for (c) (a rate) higher is faster"
    )


if __name__ == "__main__":
    main()
