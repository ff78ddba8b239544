"""Hostile configurations and case files, fuzzed: only a coded AssayError may escape."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.testing import mutated_json, only_assay_errors
from assay_perturb import config_from_mapping, parse_case

FULL = {
    "pipeline": {"command": "python3 p.py", "timeout": 30},
    "decision": {"field": "answer.value", "type": "numeric", "distance": "numeric"},
    "cases": "cases",
    "perturbations": {"reorder": {"variants": 2}, "pad": {}, "swap": {}},
    "seed": 7,
    "jobs": 2,
    "baseline_runs": 2,
    "cache": True,
}

CASE = """\
## Query
How long is the warranty?

## Context
### a1
The warranty lasts 3 years.

### b2
Shipping takes a week.

## Key evidence
- a1

## Counterfactual
### a1
The warranty lasts 5 years.

## Padding
### p
Our office is open on weekdays.

## Expected decision
3
"""


def test_the_fuzzed_inputs_start_valid() -> None:
    assert config_from_mapping(FULL).jobs == 2
    assert parse_case(CASE, "cases/warranty.md").query == "How long is the warranty?"


@settings(max_examples=300, derandomize=True, deadline=None)
@given(mutated_json(FULL))
def test_fuzz_config_raises_only_assay_error(data: object) -> None:
    only_assay_errors(lambda: config_from_mapping(data))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [*CASE.splitlines(), "## Context", "### a1", "## Key evidence", "- zz", "```", ""]
        )
    )
    | st.text(max_size=300).map(str.splitlines)
)
def test_fuzz_case_files_raise_only_assay_error(lines: list[str]) -> None:
    only_assay_errors(lambda: parse_case("\n".join(lines), "cases/fuzzed.md"))
