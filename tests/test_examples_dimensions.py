"""The extension-dimensions example runs and prints what its header says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dimensions" / "extensions.py"

EXPECTED = """\
total 88  Strong  -> answer
tier1 Answer Confidence  93  Strong
tier2 System Readiness   80  Good
authority       15/20  weightedAuthority 13, bonuses 2
corpus           9/15  base 12, missingRelevantTypePenalty -3
freshness       15/15  selectedAge 99, decayPenalty -0.4
indexIntegrity  12/15  embeddingVersion 4, sourceVersionMatch 2, staleness 3, \
ingestionFailures 2, aclFilter 0, deletedSourceLeakage 1
warnings: missing-faithfulness, ambiguous-top-results, authority-unclassified, \
acl-filter-unconfirmed
freshness alone, clock 400 days later: 0/15 (hard cutoff? no; decay 20.4)
"""


def test_extensions_example_prints_its_header() -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, check=True, timeout=120
    )
    assert run.stdout == EXPECTED
    header = EXAMPLE.read_text(encoding="utf-8")
    for line in EXPECTED.splitlines():
        shown = line if len(line) <= 90 else line[: line.rindex(",", 0, 80) + 1] + " ..."
        assert f"    {shown}" in header, f"header does not show: {shown}"
