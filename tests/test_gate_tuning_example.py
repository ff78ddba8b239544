"""The threshold-tuning example of docs/gate.md prints what the page shows, on the labeled file
its generator writes."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DOC = REPO_ROOT / "docs" / "gate.md"
GATE = REPO_ROOT / "examples" / "gate"


def _blocks_after(heading: str) -> tuple[str, str]:
    """The first fenced code block under ``heading`` and the plain block right after it."""
    text = DOC.read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    code = text.split("```python\n", 1)[1].split("```\n", 1)
    shown = code[1].split("```\n", 1)[1].split("```\n", 1)[0]
    return code[0], shown


def test_the_labeled_file_is_what_its_generator_writes(tmp_path):
    out = tmp_path / "labeled.csv"
    subprocess.run(
        [sys.executable, str(GATE / "make_labeled.py"), str(out)], check=True, capture_output=True
    )
    assert out.read_bytes() == (GATE / "data" / "labeled.csv").read_bytes()


def test_the_tuning_example_prints_what_the_page_shows(monkeypatch):
    code, shown = _blocks_after("## Tune thresholds on your own labeled data")
    monkeypatch.chdir(REPO_ROOT)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(DOC), "exec"), {"__name__": "__main__"})
    lines = [line.rstrip() for line in printed.getvalue().splitlines()]
    assert lines == shown.rstrip("\n").split("\n")
