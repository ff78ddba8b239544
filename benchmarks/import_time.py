"""How long ``import assay`` adds to an interpreter start.

Runs ``python -c "import assay"`` and a bare ``python -c "pass"`` in fresh processes, alternating
(so that a noisy neighbour slows both alike), and prints the median wall time of each and their
difference. The kernel's budget is 50 ms above a bare start.

    uv run python benchmarks/import_time.py            # 20 runs each
    uv run python benchmarks/import_time.py --runs 50 --module assay_scorecard

Prints, for example::

    bare interpreter   median 18.9 ms (20 runs)
    import assay       median 41.2 ms (20 runs)
    import assay adds  22.3 ms
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def _wall_ms(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return (time.perf_counter() - start) * 1000


def measure(module: str, runs: int) -> tuple[float, float]:
    """Median wall milliseconds of a bare start and of a start that imports ``module``."""
    _wall_ms(f"import {module}")  # warm the file-system cache and the bytecode
    bare, loaded = [], []
    for _ in range(runs):
        bare.append(_wall_ms("pass"))
        loaded.append(_wall_ms(f"import {module}"))
    return statistics.median(bare), statistics.median(loaded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each (default 20)")
    parser.add_argument("--module", default="assay", help="module to import (default assay)")
    args = parser.parse_args()
    bare, loaded = measure(args.module, args.runs)
    print(f"bare interpreter   median {bare:.1f} ms ({args.runs} runs)")
    print(f"import {args.module:<11} median {loaded:.1f} ms ({args.runs} runs)")
    print(f"import {args.module} adds  {loaded - bare:.1f} ms")


if __name__ == "__main__":
    main()
