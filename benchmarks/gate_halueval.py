"""Benchmark: the gate on HaluEval QA at full size.

Runs the pipeline of examples/gate/halueval_gate.py on rows 1,001-5,000 of
shared/data/halueval_qa_dev.jsonl (rows 1-1,000 were used to design claim_support): 8,000
answers scored with assay-faithfulness (faithfulness, answer_relevance, claim_support), the
hypotheses fit on the answers of rows 1,001-3,000, the 4,000 answers of rows 3,001-5,000
decided. Prints the example's report, then the time taken.

Run by hand:  uv run --all-packages --all-extras python benchmarks/gate_halueval.py
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "gate" / "halueval_gate.py"


def main() -> None:
    spec = importlib.util.spec_from_file_location("halueval_gate", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    start = time.perf_counter()
    for line in example.report(rows=4000, first=1001):
        print(line)
    print(f"time: {time.perf_counter() - start:.1f} s (scoring 8,000 answers, fitting, deciding)")


if __name__ == "__main__":
    main()
