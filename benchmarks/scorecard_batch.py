"""One-at-a-time vs batch scoring throughput on the scorecard conformance inputs.

The non-error computeConfidence inputs of ../shared/conformance/scorecard/cases.jsonl that use the
default config are repeated to N rows (default 100,000) and scored
  1. one at a time: `scorer.compute(row)` in a loop, one process (Scorecard objects), and
     `score_many(rows)` in one process (the same, as a stream);
  2. one at a time plus the wire dict (`scorecard_to_wire`), one process;
  3. `score_many(rows, workers=W, as_wire=True)`: wire dicts in, wire dicts out, W processes;
  4. JSON text lines in, JSON text lines out through `score_many(lines, as_json=True)`, in one
     process and with `workers=W` processes (the rows travel as blocks of lines);
  5. a JSON Lines file scored into a JSON Lines file, as `assay score --jsonl` does:
     `score_jsonl(source, sink)` in one process, and with `workers=W` (forked workers write
     their blocks straight to the output file, in turn).
Each is run --repeat times (default 3); the median calls per second is printed, with the best.
Wall-clock time: the machine should be otherwise idle.

Run: uv run --all-packages --all-extras python benchmarks/scorecard_batch.py [--rows N] [--workers W]
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import assay
import assay.wire
import assay_scorecard

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "scorecard"


def default_config_inputs() -> list[dict]:
    rows = []
    for line in (VECTORS / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "fn" in record or "error" in record["expected"] or record["config"]:
            continue
        rows.append(assay.wire.from_json_safe(record["inputs"]))
    return rows


def rate(run: Callable[[], int], repeat: int) -> tuple[float, float]:
    """(median, best) calls per second of ``run`` (which returns how many rows it scored)."""
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates), max(rates)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    base = default_config_inputs()
    rows = list(itertools.islice(itertools.cycle(base), args.rows))
    lines = [json.dumps(row) for row in rows]
    scorer = assay_scorecard.create_scorer()
    to_wire = assay_scorecard.scorecard_to_wire
    workers = args.workers

    def one_at_a_time() -> int:
        for row in rows:
            scorer.compute(row)
        return len(rows)

    def batch_one_process() -> int:
        return sum(1 for _ in assay_scorecard.score_many(rows))

    def one_at_a_time_wire() -> int:
        for row in rows:
            to_wire(scorer.compute(row))
        return len(rows)

    def batch_wire() -> int:
        return sum(1 for _ in assay_scorecard.score_many(rows, workers=workers, as_wire=True))

    def lines_one_process() -> int:
        return sum(1 for _ in assay_scorecard.score_many(lines, as_json=True))

    def lines_batch() -> int:
        return sum(1 for _ in assay_scorecard.score_many(lines, workers=workers, as_json=True))

    folder = tempfile.TemporaryDirectory()
    source = Path(folder.name) / "requests.jsonl"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")

    def file_to_file(count: int) -> Callable[[], int]:
        def run() -> int:
            with source.open("rb") as requests, (Path(folder.name) / "out.jsonl").open("wb") as out:
                return assay_scorecard.score_jsonl(requests, out, workers=count).rows

        return run

    print(
        f"rows: {len(rows)} ({len(base)} distinct default-config inputs), {args.repeat} runs each"
    )
    for label, run in (
        ("one at a time (Scorecard)", one_at_a_time),
        ("score_many Scorecards, 1 process", batch_one_process),
        ("one at a time + wire dict", one_at_a_time_wire),
        (f"score_many wire dicts, {workers} processes", batch_wire),
        ("JSON lines, one process", lines_one_process),
        (f"JSON lines, score_many {workers} processes", lines_batch),
        ("JSON Lines file, score_jsonl 1 process", file_to_file(1)),
        (f"JSON Lines file, score_jsonl {workers} processes", file_to_file(workers)),
    ):
        median, best = rate(run, args.repeat)
        print(f"{label:<42} median {median:>9,.0f} calls/s  best {best:>9,.0f}")
    folder.cleanup()


if __name__ == "__main__":
    main()
