"""A team's own metrics, used without packaging anything.

    assay eval data/pipeline_outputs.csv --plugin examples/evaluation/my_metrics.py \
        --metrics has_citation,short_answer

(or ASSAY_EVAL_PLUGINS=examples/evaluation/my_metrics.py). Importing this file registers both
metrics in the process registry; docs/evaluation.md walks through it.
"""

from __future__ import annotations

import re

from assay_evaluation import metric

CITATION = re.compile(r"\[\d+\]")


@metric(name="has_citation", threshold=0.5, requires={"answer", "contexts"})
def has_citation(sample):
    """1 when the answer cites a retrieved passage as [n] with n in range, else 0."""
    cited = [int(n) for n in re.findall(r"\[(\d+)\]", sample.answer)]
    if not cited:
        return 0.0, "the answer cites no passage"
    wrong = [n for n in cited if not 1 <= n <= len(sample.contexts)]
    if wrong:
        return 0.0, f"cites passage {wrong[0]}, but only {len(sample.contexts)} were retrieved"
    return 1.0, f"cites passage(s) {', '.join(map(str, cited))}"


@metric(threshold=0.5)
def short_answer(sample):
    """1 for an answer of at most 25 words, falling to 0 at 50 words."""
    words = len(sample.answer.split())
    return max(0.0, min(1.0, (50 - words) / 25)), f"{words} words"
