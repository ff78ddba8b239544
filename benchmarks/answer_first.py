"""Answer-first scoring speed: one call from an answer's text to a decision, and JSON Lines.

Reads ../shared/data/halueval_qa_dev.jsonl in place (HaluEval QA: a question, its knowledge
passage, a right and a hallucinated answer). Each of the first --rows rows gives two records,
its right and its hallucinated answer, with the passage as the one context (a string: the
HaluEval shape).

1. Per answer, in one process: ``assay_answer.score_answer(question, answer, [passage])`` is
   timed call by call with ``time.perf_counter_ns`` over every record, in --repeat passes; the
   median and 90th percentile of the pass with the lowest median are printed (microseconds),
   and the median over all passes, then the medians of each question's first answer (which reads
   the passage) and of its second answer. Every pass starts cold: the detector's memoized passages,
   questions and tables are cleared first (``clear_answer_caches``), so the first answer to
   each question pays for reading its question and passage, as a new question does, and the
   second (its other answer) reuses them. The whole call
   is timed: checking the record, the text detector, the mapping, the candidates and the
   scorecard. For the breakdown, the same records through
   ``assay_faithfulness.analyze_answer`` alone; checking the record, mapping its (already
   found) evidence and making its candidates alone; and ``compute_confidence`` alone on the
   signals the first pass derived.
2. JSON Lines: the records written as answer-record lines to a temporary file and scored by
   ``assay_scorecard.score_jsonl`` (what ``assay score --jsonl`` runs) into /dev/null, in a
   fresh process each time, with 0 workers (that process) and with --workers processes;
   records per second from the first line read to the last written, the median of --repeat
   runs.
3. Decisions: the held-out rows 2,000-4,999 (the rows the detector was not tuned on), every
   right and every hallucinated answer scored the same way; how many of each were answered,
   reviewed and abstained on. With the passage as a plain string there is no retrieval score,
   so nothing is answered: *review* is "the text supports it", *abstain* "it does not".

Wall-clock time: the machine should be otherwise idle.

Run: uv run --all-packages --all-extras python benchmarks/answer_first.py [--rows N] [--workers W]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assay_answer import reading_from_evidence, score_answer
from assay_faithfulness import analyze_answer
from assay_faithfulness.answer_support import clear_answer_caches
from assay_scorecard import candidate_signals, compute_confidence, read_answer_record

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "halueval_qa_dev.jsonl"


def records(rows: int) -> list[dict[str, Any]]:
    out = []
    with DATA.open(encoding="utf-8") as file:
        for index, line in enumerate(file):
            if index >= rows:
                break
            row = json.loads(line)
            for answer in (row["right_answer"], row["hallucinated_answer"]):
                out.append(
                    {"question": row["question"], "answer": answer, "contexts": [row["knowledge"]]}
                )
    return out


def per_call(
    call: Callable[[dict[str, Any]], Any], items: list[Any], repeat: int
) -> list[list[int]]:
    """Nanoseconds of every call, per pass, over ``repeat`` passes (after one warm-up pass),
    each pass from cold detector caches (what was memoized for a question in an earlier pass
    would flatter the pass)."""
    for item in items:
        call(item)
    passes = []
    clock = time.perf_counter_ns
    for _ in range(repeat):
        clear_answer_caches()
        times = []
        for item in items:
            start = clock()
            call(item)
            times.append(clock() - start)
        passes.append(times)
    return passes


def show(title: str, passes: list[list[int]]) -> None:
    """The median and 90th percentile of the least disturbed pass (the lowest median: on a
    machine shared with other jobs the others are slowed by them), and the median of all."""
    best = min(passes, key=statistics.median)
    every = [t for times in passes for t in times]
    print(
        f"{title:<40} median {statistics.median(best) / 1000:6.1f} us   "
        f"p90 {statistics.quantiles(best, n=10)[8] / 1000:6.1f} us   "
        f"(all {len(passes)} passes: median {statistics.median(every) / 1000:6.1f} us)"
    )
    if len(best) > 1:  # records alternate: a question's first answer, then its second
        print(
            f"{'':<42}first answer to a question {statistics.median(best[0::2]) / 1000:6.1f} us, "
            f"second {statistics.median(best[1::2]) / 1000:6.1f} us (medians)"
        )


_STREAM = """
import os, sys, time
from assay_scorecard import score_jsonl
with open(sys.argv[1], "rb") as source, open(os.devnull, "wb") as sink:
    start = time.perf_counter()
    summary = score_jsonl(source, sink, workers=int(sys.argv[2]))
    elapsed = time.perf_counter() - start
assert summary.failed == 0, summary
print(summary.rows / elapsed)
"""


def stream_rate(path: Path, workers: int, repeat: int) -> float:
    """Records per second of ``score_jsonl`` on ``path``, each run in a fresh process (timed
    from the first line read to the last written: start-up and imports are left out), the
    median of ``repeat`` runs."""
    rates = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", _STREAM, str(path), str(workers)],
            capture_output=True,
            text=True,
            check=True,
        )
        rates.append(float(done.stdout))
    return statistics.median(rates)


def decisions(first: int, last: int) -> None:
    counts = {kind: Counter[str]() for kind in ("right_answer", "hallucinated_answer")}
    with DATA.open(encoding="utf-8") as file:
        for index, line in enumerate(file):
            if not first <= index < last:
                continue
            row = json.loads(line)
            for kind, counter in counts.items():
                card = score_answer(row["question"], row[kind], [row["knowledge"]]).scorecard
                counter[card.recommended_action] += 1
    for kind, counter in counts.items():
        total = sum(counter.values())
        shares = ", ".join(
            f"{action} {counter[action]} ({counter[action] / total:.1%})"
            for action in ("answer", "review", "abstain")
        )
        print(f"rows {first}-{last - 1}, {kind}: {shares}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1000, help="HaluEval rows (2 answers each)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--stream-copies", type=int, default=5, help="JSON Lines: copies of the records"
    )
    args = parser.parse_args()

    items = records(args.rows)
    print(f"{len(items)} answers from {args.rows} HaluEval rows, one context each")
    whole = per_call(
        lambda r: score_answer(r["question"], r["answer"], r["contexts"]), items, args.repeat
    )
    show("score_answer (text -> decision)", whole)
    show(
        "  of which analyze_answer",
        per_call(
            lambda r: analyze_answer(r["question"], r["answer"], r["contexts"]), items, args.repeat
        ),
    )
    found = {id(r): analyze_answer(r["question"], r["answer"], r["contexts"]) for r in items}

    def the_rest(record: dict[str, Any]) -> None:
        answer = read_answer_record(record)
        reading_from_evidence(found[id(record)], answer, "answer-support")
        candidate_signals(answer.contexts)

    show("  of which the record and the mapping", per_call(the_rest, items, args.repeat))
    signals = [score_answer(r["question"], r["answer"], r["contexts"]).inputs for r in items]
    config = {"preset": "grounded-v1"}
    show(
        "  of which compute_confidence",
        per_call(lambda inputs: compute_confidence(inputs, config), signals, args.repeat),
    )

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "answers.jsonl"
        with path.open("w", encoding="utf-8") as file:
            for _ in range(args.stream_copies):
                for record in items:
                    file.write(json.dumps(record) + "\n")
        lines = len(items) * args.stream_copies
        for workers in (0, args.workers):
            rate = stream_rate(path, workers, args.repeat)
            print(f"score_jsonl, {lines} answer records, workers={workers}: {rate:,.0f} records/s")
    decisions(2000, 5000)


if __name__ == "__main__":
    main()
