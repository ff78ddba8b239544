"""How batch evaluation scales with worker processes and dask workers, and what it costs the
calling process.

Builds a JSON Lines input of --samples samples (default 20,000) from the 5,000 rows of
../shared/data/halueval_qa_dev.jsonl (read in place; the input is written to a temporary
folder, or to --input): sample i takes row i mod 5,000, its right answer on even passes over
the rows and its hallucinated answer on odd ones, the row's passage as its only context, the
right answer as ground truth, and the id ``h<i>``. Then, for each profile (--profiles: the
default metric list and ``compatible``), it evaluates the file with ``--output``-style
streaming and ``keep_results=False`` (what ``assay eval FILE --output out.jsonl`` does):

* in one process (no workers);
* with ``workers=N`` for each N of --workers (default 2): a process pool;
  chunks of --chunk samples (default 512, as ``assay eval`` sends);
* with --dask, on a dask cluster on 127.0.0.1 (scheduler and N single-threaded workers, each
  in its own process) for each N, through ``scheduler=<address>``.

It prints wall-clock samples/s, the speed-up over one process, the calling process's CPU per
sample against the workers' (``RunStats.parent_overhead``), the speed-up those CPU times allow
on free cores, and whether every output file is byte-identical to the in-process one. On a shared machine the wall clock measures the other
load too: compare numbers of one run only.

Run: uv run --all-packages --all-extras python benchmarks/evaluation_scaling.py \\
         --samples 20000 --workers 2 [--dask] [--profiles default,compatible]
A 16-core machine gives the curve with --workers 1,2,4,8,16 --dask.

With --memory-check N[,N...] it measures memory instead: for each N, a fresh Python process
runs ``assay eval INPUT --metrics M --workers W --output OUT`` (in that process, through the
command's own entry point) on N samples built as above (in --folder, default a temporary
one; an input already there is reused) and prints the calling process's peak resident memory
(``getrusage(RUSAGE_SELF)``: the workers are other processes and are not counted):

    uv run --all-packages --all-extras python benchmarks/evaluation_scaling.py \\
        --memory-check 100000,1000000 --metrics answer_correctness --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from assay_evaluation import RunStats, evaluate_batch

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "halueval_qa_dev.jsonl"


def make_input(path: Path, samples: int) -> None:
    """Write ``samples`` samples built from the HaluEval rows (see the module docstring)."""
    rows = [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line.strip()]
    with path.open("w", encoding="utf-8") as handle:
        for index in range(samples):
            row = rows[index % len(rows)]
            side = "right_answer" if (index // len(rows)) % 2 == 0 else "hallucinated_answer"
            sample = {
                "id": f"h{index}",
                "question": row["question"],
                "answer": row[side],
                "contexts": [row["knowledge"]],
                "groundTruth": row["right_answer"],
            }
            handle.write(json.dumps(sample, ensure_ascii=False) + "\n")


def run(data: Path, out: Path, profile: str | None, **where: Any) -> tuple[RunStats, bytes]:
    """One evaluation of ``data`` streamed to ``out``: its stats and the output's bytes."""
    options: dict[str, Any] = {"output": str(out), "keep_results": False, **where}
    if profile is not None:
        options["profile"] = profile
    batch = evaluate_batch(str(data), options=options)
    assert batch.stats is not None
    return batch.stats, out.read_bytes()


def line(
    label: str, stats: RunStats, base: RunStats | None, identical: bool | None, workers: int = 1
) -> str:
    """One result line; with ``base`` (the in-process run) the wall-clock speed-up and the
    CPU bound: the speed-up the run's CPU times allow when ``workers`` cores are free, the
    in-process CPU per sample over the larger of the parent's and a worker's share."""
    text = f"  {label:<22}{stats.samples_per_second:>9,.0f} samples/s"
    if base is not None:
        text += f"  x{stats.samples_per_second / base.samples_per_second:.2f}"
    n = stats.samples
    text += f"  parent CPU {1e6 * stats.parent_cpu_seconds / n:,.1f} us/sample"
    if stats.worker_cpu_seconds:
        text += f", workers {1e6 * stats.worker_cpu_seconds / n:,.1f} us/sample"
        text += f" (parent overhead {stats.parent_overhead:.2%})"
        if base is not None:
            share = max(stats.parent_cpu_seconds, stats.worker_cpu_seconds / workers)
            text += f"; CPU bound x{base.parent_cpu_seconds / share:.2f}"
    if identical is not None:
        text += f"  identical output: {identical}"
    return text


def peak_rss(args: list[str]) -> None:
    """Run ``assay eval ARGS`` in this process, then print its peak resident memory in MB."""
    from assay._cli.main import main as assay_main

    sys.argv = ["assay", "eval", *args]
    try:
        assay_main()
    except SystemExit as done:
        if done.code not in (0, 1):  # 1: the gate failed, the run itself finished
            raise
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(f"peak {peak / 1024:.1f} MB")


def memory_check(sizes: list[int], metrics: str, workers: str, folder: Path) -> None:
    """For each size: the calling process's peak memory over one ``assay eval`` run."""
    print(f"assay eval --metrics {metrics} --workers {workers} --output OUT, {os.cpu_count()} CPUs")
    for size in sizes:
        data = folder / f"samples-{size}.jsonl"
        if not data.exists():
            make_input(data, size)
        out = folder / f"out-{size}.jsonl"
        argv = [str(data), "--metrics", metrics, "--workers", workers, "--output", str(out)]
        done = subprocess.run(
            [sys.executable, __file__, "--peak-rss", json.dumps(argv)],
            check=True,
            capture_output=True,
            text=True,
        )
        peak = done.stdout.strip().splitlines()[-1]  # after the command's own summary
        written = out.stat().st_size / 1e9
        print(f"  {size:>9,} samples: calling process {peak} ({written:.2f} GB written)")
        out.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20_000)
    parser.add_argument("--workers", default="2", help="comma-separated worker counts")
    parser.add_argument("--profiles", default="default,compatible")
    parser.add_argument("--dask", action="store_true", help="also on a dask cluster")
    parser.add_argument(
        "--chunk", type=int, default=512, help="samples per chunk (assay eval's default: 512)"
    )
    parser.add_argument("--input", type=Path, help="keep the generated input here")
    parser.add_argument("--memory-check", help="comma-separated sample counts: peak memory")
    parser.add_argument("--metrics", default="answer_correctness", help="for --memory-check")
    parser.add_argument("--folder", type=Path, help="--memory-check's inputs and outputs")
    parser.add_argument("--peak-rss", help=argparse.SUPPRESS)  # one measured run (JSON argv)
    args = parser.parse_args()
    if args.peak_rss:
        peak_rss(json.loads(args.peak_rss))
        return
    if args.memory_check:
        sizes = [int(n) for n in args.memory_check.split(",")]
        if args.folder:
            memory_check(sizes, args.metrics, args.workers, args.folder)
        else:
            with tempfile.TemporaryDirectory() as folder:
                memory_check(sizes, args.metrics, args.workers, Path(folder))
        return
    counts = [int(n) for n in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        data = args.input or Path(folder) / "samples.jsonl"
        if not data.exists():
            make_input(data, args.samples)
        out = Path(folder) / "out.jsonl"
        print(f"{args.samples} samples, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
        for name in args.profiles.split(","):
            profile = None if name == "default" else name
            print(f"profile {name}:")
            head = [json.loads(text) for text in data.read_text("utf-8").splitlines()[:200]]
            evaluate_batch(head, options={"profile": profile})  # warm-up: imports, tables
            base, reference = run(data, out, profile)
            print(line("1 process", base, None, None))
            for n in counts:
                stats, output = run(data, out, profile, workers=n, chunk_size=args.chunk)
                print(line(f"{n} worker processes", stats, base, output == reference, n))
            if args.dask:
                dask_runs(data, out, profile, counts, base, reference, args.chunk)


def dask_runs(
    data: Path,
    out: Path,
    profile: str | None,
    counts: list[int],
    base: RunStats,
    ref: bytes,
    chunk: int,
) -> None:
    """The same on a cluster of ``n`` single-threaded dask workers, the scheduler and each
    worker in a process of its own (as on real machines), through ``scheduler=<address>``."""
    from distributed.deploy.subprocess import SubprocessCluster

    for n in counts:
        with SubprocessCluster(
            host="127.0.0.1", n_workers=n, threads_per_worker=1, dashboard_address=":0"
        ) as cluster:
            address = cluster.scheduler_address
            stats, output = run(data, out, profile, scheduler=address, chunk_size=chunk)
        print(line(f"dask, {n} workers", stats, base, output == ref, n))


if __name__ == "__main__":
    main()
