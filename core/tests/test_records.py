"""Records validate what they can check themselves, with the kernel's own error codes."""

from __future__ import annotations

import pytest

import assay


def test_eval_sample_refuses_a_bare_string_as_contexts() -> None:
    with pytest.raises(assay.AssayError) as caught:
        assay.EvalSample(question="q", answer="a", contexts="one passage")  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.path) == (assay.ErrorCode.INVALID_INPUT, "contexts")
    assert assay.EvalSample(question="q", answer="a", contexts=["p"]).contexts == ("p",)


def test_dimension_score_keeps_its_breakdown_consistent() -> None:
    score = assay.dimension_score(raw=3, max_points=4, explanation="three of four")
    assert (score.normalized, score.breakdown.raw, score.breakdown.uncapped_raw) == (75, 3, 3)
    assert score.warnings == ()
