import assay
from assay_example import Shout


def test_registers_through_entry_point() -> None:
    registry = assay.build_registry()
    assert isinstance(registry.dimension("example/shout"), Shout)


def test_scores_high_support() -> None:
    score = Shout().score({"supportLevel": "high", "candidates": []}, {})
    assert score.raw == 5.0 and score.breakdown.raw == score.raw
