"""Types of the compiled twin of the scorecard hot path (_speedups.pyx)."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from assay._scorecard.engine import Scorer
from assay._scorecard.lines import BlockResult
from assay._scorecard.signal_policy import SignalPolicyOutcome
from assay._scorecard.types import (
    DimensionScore,
    Scorecard,
    ScoreWarning,
    ScoringInputs,
    TierResult,
)

def bind_engine(
    algorithm_version: str,
    schema_version: str,
    missing_signal_of: Mapping[str, str],
    not_addressed: TierResult,
    scoring_inputs_to_wire: Callable[[Any], dict[str, Any]],
    no_outcome: SignalPolicyOutcome,
) -> None: ...
def dimension_score(
    *,
    raw: float,
    max_points: float,
    explanation: str,
    components: Mapping[str, float] | None = None,
    adjustments: Mapping[str, float] | None = None,
    diagnostics: Mapping[str, Any] | None = None,
    uncapped_raw: float | None = None,
    warnings: Sequence[ScoreWarning] | None = (),
    normalized: float | None = None,
) -> DimensionScore: ...
def check_common_inputs(inputs: Any) -> list[ScoreWarning]: ...
def compute(self: Scorer, inputs: ScoringInputs | Mapping[str, Any]) -> Scorecard: ...
def scorecard_to_wire(scorecard: Scorecard) -> dict[str, Any]: ...
def all_finite(value: Any) -> bool: ...
def float_text(value: float) -> str: ...
def scorecard_json(scorecard: Scorecard) -> str | None: ...
def bind_lines(
    block_result: type[BlockResult],
    parse_line: Callable[[str | bytes, str], Any],
    card_to_json: Callable[[Scorecard], str],
    utf8: Callable[[str], bytes],
) -> None: ...
def score_block(
    scorer: Scorer, block: bytes, config_key: str, skip_blank: bool = True
) -> BlockResult: ...
