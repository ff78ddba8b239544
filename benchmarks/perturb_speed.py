"""Speed of `assay perturb check`: parallel invocations and the content-hash cache.

Builds a temporary working directory with N cases (default 50) of four chunks each and a
pipeline that sleeps 50 ms, configured for 10 variants per case (6 reorders, 3 pads, 1 swap)
plus the baseline: 11 invocations per case. Runs the check serially (--jobs 1), with --jobs 2,
then again with the cache on, and prints wall-clock seconds, the parallel/serial ratio (the
target is <= 0.6) and how many invocations the cached re-run executed (the target is 0).

Run by hand: uv run --all-packages --all-extras python benchmarks/perturb_speed.py [--cases 50]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import assay_perturb

PIPELINE = """\
import json, sys, time
variant = json.load(sys.stdin)
time.sleep(0.05)
key = next(c["text"] for c in variant["chunks"] if c["id"] == "key")
print(json.dumps({"decision": key.split()[0]}))
"""

CASE = """\
## Query
Question number {n}?

## Context
### key
approve request {n}
### b
unrelated text {n}
### c
more unrelated text {n}
### d
even more unrelated text {n}

## Key evidence
- key

## Counterfactual
### key
deny request {n}
"""

CONFIG = """\
pipeline:
  command: [{python!r}, -S, pipeline.py]
  timeout: 30
decision: {{field: decision, type: enum}}
cases: cases
perturbations:
  reorder: {{count: 6}}
  pad: {{count: 3, chunks: 2, source: filler}}
  swap: {{}}
seed: 1
"""


def timed(work: Path, run_dir: str, jobs: int, cache: bool) -> tuple[float, int, int]:
    config, text = assay_perturb.load_config(work / "assay-perturb.yaml")
    started = time.perf_counter()
    run = assay_perturb.run_check(
        config, workdir=work, run_dir=run_dir, config_text=text, jobs=jobs, use_cache=cache
    )
    elapsed = time.perf_counter() - started
    assert run.failed == 0 and run.invariance == 1.0 and run.sensitivity == 1.0
    return elapsed, run.executed, run.invocations


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="assay-perturb-bench-") as tmp:
        work = Path(tmp)
        (work / "pipeline.py").write_text(PIPELINE)
        (work / "assay-perturb.yaml").write_text(CONFIG.format(python=sys.executable))
        (work / "cases").mkdir()
        for n in range(args.cases):
            (work / "cases" / f"case-{n:03d}.md").write_text(CASE.format(n=n))
        serial, executed, planned = timed(work, "serial", jobs=1, cache=False)
        parallel, _, _ = timed(work, "parallel", jobs=2, cache=False)
        cached, cached_executed, _ = timed(work, "parallel", jobs=2, cache=True)
    print(f"cpus: {os.cpu_count()}, cases: {args.cases}, invocations per run: {planned}")
    print(f"serial (--jobs 1):   {serial:7.2f} s  ({executed} invocations)")
    print(f"parallel (--jobs 2): {parallel:7.2f} s  ratio {parallel / serial:.2f} (target <= 0.60)")
    print(f"cached re-run:       {cached:7.2f} s  {cached_executed} invocations (target 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
