"""Robustness of assay's own trust decision: the scorecard's recommended action under perturbation.

Copies scorecard/ (an adapter pipeline that turns the variant's passages into scorecard inputs
and runs `assay score FILE --json`, plus three cases) to a temporary working directory, runs the
check through the Python API (the same as `assay perturb check` run in scorecard/), and prints
one line per case with its baseline action and each variant's action, then the overall signals:

    refund-supported: baseline answer; reorder-1 answer, reorder-2 answer, pad-1 answer, swap review
    trial-conflict: baseline review; reorder-1 review, reorder-2 review, pad-1 review, swap answer
    warranty-single-source: baseline review; reorder-1 review, pad-1 review, swap abstain
    invariance 1.00  sensitivity 1.00  failed 0

It needs the scorecard's Dimension plugins installed (uv run --all-packages ...); without them
`assay score` fails and the script prints "every baseline failed: ..." and exits 1.
The recommended action ignores the order of the passages and added filler, and moves when the
supporting evidence is swapped for contradicting (or absent) evidence.
"""

from __future__ import annotations

import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import assay_perturb

HERE = Path(__file__).resolve().parent / "scorecard"


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="assay-perturb-scorecard-") as tmp:
        work = Path(tmp) / "scorecard"
        shutil.copytree(HERE, work)
        config_file = work / "assay-perturb.yaml"
        text = config_file.read_text(encoding="utf-8")
        # run the pipeline with this interpreter, so the example works without `python3`
        config_file.write_text(
            text.replace("command: python3 ", f"command: {shlex.quote(sys.executable)} -S ")
        )
        config, text = assay_perturb.load_config(config_file)
        run = assay_perturb.run_check(config, workdir=work, config_text=text)
        if run.all_baselines_failed:  # e.g. no Dimension plugin installed for `assay score`
            first = run.cases[0].baseline_runs[0]
            print(f"every baseline failed: {first.failure}: {first.stderr_tail.strip()}")
            return 1
        for case in run.cases:
            variants = ", ".join(f"{o.variant} {o.decision}" for o in case.variants)
            print(f"{case.name}: baseline {case.baseline_decision}; {variants}")
        print(
            f"invariance {run.invariance:.2f}  sensitivity {run.sensitivity:.2f}  "
            f"failed {run.failed}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
