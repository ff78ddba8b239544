import pytest

import assay
from assay_bridges import from_custom_judge, from_deepeval_like, from_ragas_like, from_trulens_like


@pytest.mark.parametrize(
    "adapter", [from_ragas_like, from_deepeval_like, from_trulens_like, from_custom_judge]
)
def test_non_objects_raise_malformed_input(adapter):
    with pytest.raises(assay.AssayError) as caught:
        adapter(["faithfulness", 0.9])
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "result")


def test_numbers_count_but_not_booleans():
    assert from_ragas_like({"faithfulness": 1}).faithfulness_score == 1
    assert from_ragas_like({"faithfulness": True}).is_empty()


def test_custom_judge_claim_counts_keep_optional_fields_out():
    signals = from_custom_judge({"totalClaims": 4, "supportedClaims": 3, "unsupportedClaims": "1"})
    assert signals.to_wire() == {"claimSupport": {"totalClaims": 4, "supportedClaims": 3}}
