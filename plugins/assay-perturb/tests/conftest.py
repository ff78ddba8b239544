"""Shared fixtures: a working directory with a real (tiny) pipeline script and cases."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

CASE = """\
# {name}

## Query
{query}

## Context

### {key}
{key_text}

### other
{other_text}

### third
Nothing relevant lives in this chunk at all.

## Key evidence
- {key}

## Counterfactual

### {key}
{counterfactual}

## Padding

### pad-a
Padding text number one.

### pad-b
Padding text number two.
"""

# Answers with the label found in the chunk whose id is "key" (wherever it sits), so reorder and
# pad never change the decision and swap does. Other behaviours are switched on by the query.
PIPELINE = """\
import json, os, sys, time
variant = json.load(sys.stdin)
from_file = json.load(open(os.environ["ASSAY_PERTURB_INPUT"], encoding="utf-8"))
assert from_file == variant, "file and stdin differ"
query = variant["query"]
if "CRASH" in query and variant["variant"] != "baseline":
    print("boom: pipeline exploded", file=sys.stderr)
    sys.exit(3)
if "SLEEP" in query and variant["variant"].startswith("pad"):
    time.sleep(30)
if "FIRST" in query:
    text = variant["chunks"][0]["text"]
else:
    text = next(c["text"] for c in variant["chunks"] if c["id"] == "key")
label = text.split()[0]
print(json.dumps({"answer": {"label": label, "score": len(text), "prose": "because"}}))
"""


def write_case(folder: Path, name: str, **fields: str) -> Path:
    values = {
        "name": name,
        "query": "Which label?",
        "key": "key",
        "key_text": "approve this request",
        "other_text": "deny something else",
        "counterfactual": "deny this request",
    }
    values.update(fields)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.md"
    path.write_text(CASE.format(**values), encoding="utf-8")
    return path


def write_config(folder: Path, extra: str = "", **fields: str) -> Path:
    values = {
        "command": f"[{sys.executable!r}, -S, pipeline.py]",
        "field": "answer.label",
        "type": "enum",
        "perturbations": "{reorder: {count: 2}, pad: {count: 2, source: case}, swap: {}}",
    }
    values.update(fields)
    text = textwrap.dedent(
        """\
        pipeline:
          command: {command}
          timeout: 10
        decision:
          field: {field}
          type: {type}
        cases: cases
        perturbations: {perturbations}
        seed: 3
        jobs: 2
        """
    ).format(**values)
    path = folder / "assay-perturb.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return path


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A working directory with pipeline.py, assay-perturb.yaml and two cases."""
    (tmp_path / "pipeline.py").write_text(PIPELINE, encoding="utf-8")
    write_config(tmp_path)
    write_case(tmp_path / "cases", "alpha")
    write_case(tmp_path / "cases", "beta", key_text="hold for review", counterfactual="ship now")
    return tmp_path


@pytest.fixture
def make_case():  # type: ignore[no-untyped-def]
    """``make_case(folder, name, **fields)`` writes a case file from the template."""
    return write_case


@pytest.fixture
def make_config():  # type: ignore[no-untyped-def]
    """``make_config(folder, extra="", **fields)`` writes assay-perturb.yaml."""
    return write_config
