"""Answer verification on real questions: HaluEval QA rows as perturbation cases.

Reads ../shared/data/halueval_qa_dev.jsonl in place (the shared folder beside the repository; a
path can be given as the first argument) and turns the first 12 usable rows into cases, written
to a temporary folder with assay_perturb.format_case (nothing is copied into the repository):

* query: the question and its right answer as the proposed answer;
* context: the row's own knowledge passage (the key evidence, "own") and the knowledge passages
  of the next three rows as distractors ("d1".."d3"), own passage placed second;
* counterfactual: the own passage with the right answer replaced by the next usable row's right
  answer, so the proposed answer is no longer supported.

It runs verifier.py (fair) and verifier.py --biased on them (3 reorders, 2 pads from other
cases, 1 swap) and prints one line per verifier:

    fair:   cases 12  invariance 1.00  sensitivity 1.00  failed 0
    biased: cases 12  invariance 0.68  sensitivity 0.75  failed 0

The fair verifier finds the own passage wherever it sits and flips to "unsupported" on every
swap. The biased one reads the first passage that shares a keyword with the question: in the
retrieved order that is often distractor d1, so some baselines are already wrong (and then a swap
changes nothing: sensitivity 0.75), and reordering changes its verdict (invariance 0.68).
Usable rows are those whose right answer (at least 4 characters) appears in their own passage
and in no distractor.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import assay
import assay_perturb

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "shared" / "data" / "halueval_qa_dev.jsonl"
CASES = 12

CONFIG = """\
pipeline:
  command: [{python}, -S, verifier.py{flag}]
  timeout: 30
decision: {{field: verdict, type: enum}}
cases: cases
perturbations:
  reorder: {{count: 3}}
  pad: {{count: 2, chunks: 2, source: others}}
  swap: {{}}
seed: 5
jobs: 2
"""


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def build_cases(rows: list[dict[str, str]], count: int) -> list[assay.PerturbationCase]:
    cases: list[assay.PerturbationCase] = []
    for i in range(len(rows) - 4):
        row, distractors = rows[i], [r["knowledge"] for r in rows[i + 1 : i + 4]]
        answer = row["right_answer"].strip()
        replacement = rows[i + 1]["right_answer"].strip()
        own = row["knowledge"]
        if (
            len(answer) < 4
            or answer.lower() not in own.lower()
            or any(answer.lower() in d.lower() for d in distractors)
            or answer.lower() in replacement.lower()
        ):
            continue
        chunks = [assay.Chunk("d1", distractors[0]), assay.Chunk("own", own)]
        chunks += [assay.Chunk(f"d{n}", d) for n, d in enumerate(distractors[1:], start=2)]
        cases.append(
            assay.PerturbationCase(
                name=f"row-{i:04d}",
                query=f"Question: {row['question'].strip()}\nProposed answer: {answer}",
                chunks=chunks,
                key_evidence=["own"],
                counterfactual=[_replace(own, answer, replacement)],
                expected_decision="supported",
            )
        )
        if len(cases) == count:
            break
    return cases


def _replace(text: str, old: str, new: str) -> str:
    lower, out, start = text.lower(), [], 0
    while (at := lower.find(old.lower(), start)) >= 0:
        out += [text[start:at], new]
        start = at + len(old)
    return "".join([*out, text[start:]])


def main() -> int:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    cases = build_cases(read_rows(data), CASES)
    with tempfile.TemporaryDirectory(prefix="assay-perturb-halueval-") as tmp:
        work = Path(tmp)
        for name in ("verifier.py", "answerer.py"):
            shutil.copy(HERE / name, work)
        (work / "cases").mkdir()
        for case in cases:
            (work / "cases" / f"{case.name}.md").write_text(assay_perturb.format_case(case))
        for label, flag in (("fair", ""), ("biased", ", --biased")):
            config_file = work / f"{label}.yaml"
            config_file.write_text(CONFIG.format(python=json.dumps(sys.executable), flag=flag))
            config, text = assay_perturb.load_config(config_file)
            run = assay_perturb.run_check(config, workdir=work, run_dir=label, config_text=text)
            print(
                f"{label + ':':<7} cases {len(run.cases)}  invariance {run.invariance:.2f}  "
                f"sensitivity {run.sensitivity:.2f}  failed {run.failed}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
