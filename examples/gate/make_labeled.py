"""Write examples/gate/data/labeled.csv: 600 labeled outputs for tuning a gate (docs/gate.md).

The scores look like the ones heuristic metrics give real answers, with the three problems the
default gate is built for:

* ``support`` piles up: many outputs score exactly 1 or exactly 0.8 (four claims of five
  supported), which no Beta density describes;
* ``overlap`` reads the same evidence as ``support`` with noise, so the two are strongly
  correlated within each label and the independent sum would count that evidence twice;
* ``length`` points the wrong way: good outputs are short and score low on it.

Rows alternate high and low (300 of each), drawn from PCG64 generators started from fixed
integers, so every run writes the same file.

Run:  uv run --all-packages --all-extras python examples/gate/make_labeled.py [OUT]
      (OUT defaults to examples/gate/data/labeled.csv)
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "data" / "labeled.csv"
ROWS = 300  # per label


def support(rng: np.random.Generator, label: str) -> float:
    """Exactly 1, exactly 0.8, exactly 0, or a Beta draw, in label-dependent shares."""
    shares, shape = (
        ((0.55, 0.15, 0.01), (8, 2)) if label == "high" else ((0.03, 0.03, 0.15), (2, 5))
    )
    draw = rng.random()
    for value, share in zip((1.0, 0.8, 0.0), shares, strict=True):
        if draw < share:
            return value
        draw -= share
    return float(rng.beta(*shape))


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    rngs = {
        label: np.random.Generator(np.random.PCG64(seed))
        for label, seed in (("high", 1), ("low", 2))
    }
    rows = []
    for _ in range(ROWS):
        for label in ("high", "low"):
            rng = rngs[label]
            s = support(rng, label)
            overlap = min(1.0, max(0.0, 0.8 * s + rng.normal(0.1, 0.08)))
            length = float(rng.beta(3, 4) if label == "high" else rng.beta(4, 3))
            rows.append((f"{s:.4f}", f"{overlap:.4f}", f"{length:.4f}", label))
    with out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["support", "overlap", "length", "label"])
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {out}")


if __name__ == "__main__":
    main()
