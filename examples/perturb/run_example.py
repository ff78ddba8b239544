"""Robustness check of a fair and a position-biased answerer (assay perturb).

Copies this folder's pipeline (answerer.py), cases and two configurations to a temporary working
directory, runs the check for each through the Python API (the same as `assay perturb check` and
`assay perturb check --config biased.yaml`), and prints, for each configuration, one line:

    fair:   invariance 1.00  sensitivity 0.67  nondeterminism 0.00  failed 0
    biased: invariance 0.64  sensitivity 0.67  nondeterminism 0.00  failed 0

then the reorder invariance of each case for the biased answerer (0.38 to 0.67), and the verdict
"biased answerer caught: reorder invariance 0.48 < 1.00". The fair answerer picks the best-matching
chunk wherever it sits, so reordering and padding never change its answer; the biased one
trusts the first relevant-looking chunk, so reordering changes its answer on most cases.
Swap changes both answers (the counterfactual carries another number), so sensitivity is the
same for both.
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import assay_perturb

HERE = Path(__file__).resolve().parent


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="assay-perturb-example-") as tmp:
        work = Path(tmp)
        shutil.copy(HERE / "answerer.py", work)
        shutil.copytree(HERE / "cases", work / "cases")
        runs = {}
        for label, config_file in (("fair", "assay-perturb.yaml"), ("biased", "biased.yaml")):
            text = (HERE / config_file).read_text(encoding="utf-8")
            # run the pipeline with this interpreter, so the example works without `python3`
            text = text.replace("command: python3 ", f"command: {shlex.quote(sys.executable)} -S ")
            (work / config_file).write_text(text, encoding="utf-8")
            config, text = assay_perturb.load_config(work / config_file)
            runs[label] = run = assay_perturb.run_check(
                config, workdir=work, run_dir=f"run-{label}", config_text=text
            )
            print(
                f"{label + ':':<7} invariance {run.invariance:.2f}  sensitivity "
                f"{run.sensitivity:.2f}  nondeterminism {run.nondeterminism:.2f}  "
                f"failed {run.failed}"
            )
        biased = runs["biased"]
        for case in biased.cases:
            reorders = [o.distance for o in case.variants if o.perturbation == "reorder"]
            invariance = 1 - sum(d for d in reorders if d is not None) / len(reorders)
            print(f"  biased {case.name}: reorder invariance {invariance:.2f}")
        reorder = next(s for s in biased.by_perturbation if s.perturbation == "reorder")
        verdict = "caught" if reorder.value is not None and reorder.value < 1 else "NOT caught"
        print(f"biased answerer {verdict}: reorder invariance {reorder.value:.2f} < 1.00")
    return 0


if __name__ == "__main__":
    sys.exit(main())
