"""The seven TypeScript-compatible metrics' speed: this tree, the tree before the plugin move, and
the TypeScript reference (rag-eval-node-ts 0.3.2), measured in one invocation.

Two workloads, each a list of samples in the JSON input format:

  conformance  the 300 distinct samples of ../shared/conformance/metrics/samples.jsonl;
  halueval     the first ``--halueval-rows`` rows of ../shared/data/halueval_qa_dev.jsonl, each
               giving two samples (the right and the hallucinated answer) with the knowledge
               passage as the only context and the right answer as ground truth, so that every
               one of the seven metrics has work to do.

Two measures per workload, heuristic mode, per sample:

  (a) metrics   the seven metric functions one after the other: ``metric.compute`` with one
                shared context per sample (assay), ``await scoreX(sample)`` (TypeScript);
  (b) evaluate  ``evaluate(sample)`` with the default seven metrics: per-metric results,
                composite and pass (``assay.evaluation`` before the move, ``assay_evaluation``
                now, the reference's ``evaluate``).

Implementations:

  old  the tree before the move, run with its own interpreter (``--old-python``, default
       ../before/.venv/bin/python beside this repository: ``git worktree add ../before d253c94``
       (0.1.0, the last commit before the move), then ``cd ../before && uv sync --all-packages
       --all-extras``; its compiled twins are used when built, and they then
       also built each MetricResult, which the new tree does in Python only);
       Any other checkout compares the same way: ``--old-python`` names an interpreter at
       ``<tree>/.venv/bin/python`` that imports it (a script that puts the checkout's ``src``
       folders first on ``PYTHONPATH`` and runs this tree's interpreter will do);
  new  this tree, with whatever ``ASSAY_PURE_PYTHON`` says (compiled kernels by default);
  ts   ../shared/references/rag-eval-node-ts-0.3.2/dist, read in place, run by ``node``.

Each round runs every implementation in a fresh process, in turn; a process makes one warm-up
pass, then times ``--passes`` passes (each starting with assay's text cache cleared, so a pass
profits only from texts repeated within it) and reports its median pass. Printed: the median over
rounds in samples per second, by the wall clock and by the process's CPU time (which other
processes on a shared machine disturb less; Node's includes its compiler and collector threads),
and the ratios new/old and new/ts (above 1: new is faster). Before timing, every implementation's
scores on every sample are compared as JSON numbers: they must agree exactly.

Run: uv run python benchmarks/metrics_compare.py [--rounds 5] [--passes 7] [--halueval-rows 500]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
SAMPLES = SHARED / "conformance" / "metrics" / "samples.jsonl"
HALUEVAL = SHARED / "data" / "halueval_qa_dev.jsonl"
REFERENCE = SHARED / "references" / "rag-eval-node-ts-0.3.2" / "dist" / "index.js"

NODE_DRIVER = r"""
const fs = require("node:fs");
const [referencePath, samplesPath, passesText] = process.argv.slice(1);
const ref = require(referencePath);
const passes = Number(passesText);
const samples = JSON.parse(fs.readFileSync(samplesPath, "utf8"));
const seven = [ref.scoreFaithfulness, ref.scoreAnswerRelevance, ref.scoreContextPrecision,
  ref.scoreContextRecall, ref.scoreContextRelevance, ref.scoreAnswerCorrectness,
  ref.scoreHallucinationRate];
const runMetrics = async () => {
  const scores = [];
  for (const s of samples) { for (const f of seven) { scores.push((await f(s)).score); } }
  return scores;
};
const runEvaluate = async () => {
  const scores = [];
  for (const s of samples) { scores.push((await ref.evaluate(s)).compositeScore); }
  return scores;
};
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
(async () => {
  const out = { check: JSON.stringify([await runMetrics(), await runEvaluate()]) };
  for (const [key, run] of [["a", runMetrics], ["b", runEvaluate]]) {
    const wall = [], cpu = [];
    for (let p = 0; p < passes; p++) {
      const t = process.hrtime.bigint(), c = process.cpuUsage();
      await run();
      const used = process.cpuUsage(c);
      wall.push(samples.length / (Number(process.hrtime.bigint() - t) / 1e9));
      cpu.push(samples.length / ((used.user + used.system) / 1e6));
    }
    out[key + "_wall"] = median(wall);
    out[key + "_cpu"] = median(cpu);
  }
  console.log(JSON.stringify(out));
})();
"""


# ------------------------------------------------------------------ the workloads (orchestrator)
def conformance_samples() -> list[dict[str, Any]]:
    """The distinct samples scored by the default-option vectors, in first-seen order."""
    samples: dict[str, dict[str, Any]] = {}
    for line in SAMPLES.read_text(encoding="utf-8").split("\n"):  # U+2028 is not a line end
        if not line:
            continue
        vector = json.loads(line)
        name, _, rest = vector["id"].partition("/")
        if rest.endswith("/opt") or vector["fn"] == "computeMetric" or name in samples:
            continue
        samples[name] = {"id": name, **vector["args"][0]}
    return list(samples.values())


def halueval_samples(rows: int) -> list[dict[str, Any]]:
    out = []
    lines = HALUEVAL.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate((x for x in lines if x), start=1):
        if number > rows:
            break
        row = json.loads(line)
        for side in ("right_answer", "hallucinated_answer"):
            out.append(
                {
                    "id": f"halueval-{number}-{side}",
                    "question": row["question"],
                    "answer": row[side],
                    "contexts": [row["knowledge"]],
                    "groundTruth": row["right_answer"],
                }
            )
    return out


# ------------------------------------------------------------------ a worker (old or new tree)
def _api() -> tuple[Any, Any, Callable[..., Any], Callable[[], None], Any]:
    """(assay, the seven metrics, evaluate, clear_text_cache, SimpleMetricContext) of whichever
    tree runs this."""
    import assay
    import assay_faithfulness as af
    from assay_faithfulness.features import clear_text_cache

    try:
        from assay_evaluation import evaluate
    except ImportError:  # the tree before the move: the runner was in the core
        from assay.evaluation import evaluate  # type: ignore[import-not-found,no-redef]
    seven = getattr(af, "DEFAULT_METRICS", None) or af.SEED_METRICS  # before: the old name
    return assay, seven, evaluate, clear_text_cache, af.SimpleMetricContext


def work(samples_path: str, passes: int) -> dict[str, Any]:
    assay, seven, evaluate, clear_text_cache, context_type = _api()
    wire = json.loads(Path(samples_path).read_text(encoding="utf-8"))
    samples = [
        assay.EvalSample(
            question=s["question"],
            answer=s["answer"],
            contexts=s["contexts"],
            ground_truth=s.get("groundTruth"),
            id=s["id"],
        )
        for s in wire
    ]
    ids = [m.id for m in seven]

    def run_metrics() -> list[Any]:
        scores = []
        for sample in samples:
            context = context_type()
            for metric in seven:
                scores.append(metric.compute(sample, context, metric.default_threshold).score)
        return scores

    def run_evaluate() -> list[Any]:
        return [evaluate(sample, ids).composite_score for sample in samples]

    clear_text_cache()
    out: dict[str, Any] = {"check": json.dumps([run_metrics(), run_evaluate()])}
    for key, run in (("a", run_metrics), ("b", run_evaluate)):
        wall, cpu = [], []
        for _ in range(passes):
            clear_text_cache()
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall.append(len(samples) / (time.perf_counter() - start))
            cpu.append(len(samples) / (time.process_time() - start_cpu))
        out[f"{key}_wall"] = statistics.median(wall)
        out[f"{key}_cpu"] = statistics.median(cpu)
    return out


# ------------------------------------------------------------------ orchestration
def run_python(python: str, tree: Path, samples: Path, passes: int) -> dict[str, Any]:
    result = subprocess.run(
        [python, str(Path(__file__).resolve()), "--worker", str(samples), str(passes)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def run_node(samples: Path, passes: int) -> dict[str, Any]:
    result = subprocess.run(
        ["node", "-e", NODE_DRIVER, str(REFERENCE), str(samples), str(passes)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def _same_numbers(check: str, other: str) -> bool:
    """Whether two JSON lists of scores hold the same numbers (JavaScript writes 1 for 1.0)."""
    return json.loads(check) == json.loads(other)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--passes", type=int, default=7)
    parser.add_argument("--halueval-rows", type=int, default=500)
    parser.add_argument(
        "--old-python", default=str(Path(__file__).resolve().parents[2] / "before/.venv/bin/python")
    )
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(work(args.worker[0], int(args.worker[1]))))
        return

    old_python = Path(args.old_python)
    old_tree = old_python.parents[2] if old_python.exists() else None
    if old_tree is None:
        print(f"no old tree: {old_python} not found; measuring new and ts only")
    runners: dict[str, Callable[[Path], dict[str, Any]]] = {
        "new": lambda path: run_python(sys.executable, HERE.parent, path, args.passes),
        "ts": lambda path: run_node(path, args.passes),
    }
    if old_tree is not None:
        runners = {
            "old": lambda path: run_python(str(old_python), old_tree, path, args.passes),
            **runners,
        }
    workloads = {
        "conformance": conformance_samples(),
        "halueval": halueval_samples(args.halueval_rows),
    }
    from assay_faithfulness._compiled import COMPILED

    node = subprocess.check_output(["node", "--version"], text=True).strip()
    kernels = "compiled" if COMPILED else "pure Python"
    print(f"new kernels: {kernels}; rounds {args.rounds}, passes {args.passes}; node {node}")
    rates: dict[tuple[str, str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for name, samples in workloads.items():
            paths[name] = Path(folder) / f"{name}.json"
            paths[name].write_text(json.dumps(samples), encoding="utf-8")
        for round_number in range(args.rounds):
            for workload, path in paths.items():
                checks = {}
                for implementation, run in runners.items():
                    measured = run(path)
                    checks[implementation] = measured["check"]
                    for key in ("a_wall", "a_cpu", "b_wall", "b_cpu"):
                        rates.setdefault((workload, key, implementation), []).append(measured[key])
                if round_number == 0:
                    agree = all(_same_numbers(checks["new"], c) for c in checks.values())
                    print(
                        f"{workload}: {len(workloads[workload])} samples; scores of "
                        f"{', '.join(checks)} agree exactly: {agree}"
                    )
                    if not agree:
                        raise SystemExit(1)

    names = list(runners)
    labels = {"a": "seven metrics", "b": "evaluate()"}
    for clock in ("wall", "cpu"):
        title = "wall clock" if clock == "wall" else "process CPU time (less disturbed by load)"
        header = f"{'samples/s, ' + clock:<28}" + "".join(f"{n:>9}" for n in names)
        print(f"\nby {title}\n{header}{'new/old':>9}{'new/ts':>8}")
        for workload in workloads:
            for key, label in labels.items():
                median = {
                    n: statistics.median(rates[(workload, f"{key}_{clock}", n)]) for n in names
                }
                cells = "".join(f"{median[n]:>9,.0f}" for n in names)
                old = f"{median['new'] / median['old']:.2f}" if "old" in median else "-"
                ts = median["new"] / median["ts"]
                print(f"{workload + ' / ' + label:<28}{cells}{old:>9}{ts:>8.2f}")
    print("\nmedians over rounds of each process's median pass; ratios above 1: new is faster")


if __name__ == "__main__":
    main()
