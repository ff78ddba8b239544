"""Batch evaluation on worker processes, streaming results to JSON Lines, and resuming a run.

Prints:
  * whether a run on 2 worker processes gives exactly the in-process results (True);
  * how many lines the results stream holds after a run that stopped after 3 of 6 samples;
  * how many samples the resumed run evaluated (3) and kept from the stream (3), and whether
    its aggregates equal the uninterrupted run's (True).

The same code runs on a dask cluster: pass client.get_executor() as the executor
(pip install 'assay[dask]').

Run: uv run --all-packages python examples/evaluation/scale_out.py
(needs the assay-faithfulness plugin installed).
"""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from assay_evaluation import batch_to_wire, evaluate_batch

DATA = Path(__file__).parent / "data" / "rag_answers.jsonl"


def main() -> None:
    samples = [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line]
    in_process = evaluate_batch(samples)
    with ProcessPoolExecutor(2) as pool:
        parallel = evaluate_batch(samples, options={"executor": pool, "chunkSize": 2})
    print(
        f"2 processes give the in-process results: "
        f"{batch_to_wire(parallel) == batch_to_wire(in_process)}"
    )
    with tempfile.TemporaryDirectory() as folder:
        stream = Path(folder) / "results.jsonl"
        evaluate_batch(samples[:3], options={"output": str(stream)})  # "interrupted" here
        print(f"lines in the stream after the interruption: {len(stream.read_text().splitlines())}")
        progress: list[int] = []
        resumed = evaluate_batch(
            samples,
            options={
                "output": str(stream),
                "resume": True,
                "onProgress": lambda done, total: progress.append(done),
            },
        )
        print(
            f"resumed run evaluated {len(progress)} samples and kept "
            f"{len(samples) - len(progress)} from the stream"
        )
        same = batch_to_wire(resumed)["aggregates"] == batch_to_wire(in_process)["aggregates"]
        print(f"aggregates equal the uninterrupted run: {same}")


if __name__ == "__main__":
    main()
