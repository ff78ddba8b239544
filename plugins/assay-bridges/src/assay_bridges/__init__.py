"""assay-bridges: evaluator outputs (RAGAS, DeepEval, TruLens, custom judges) into scoring signals.

Two layers:

* the specification's plain-object adapters, exact to the reference: :func:`from_ragas_like`,
  :func:`from_deepeval_like`, :func:`from_trulens_like`, :func:`from_custom_judge`, and
  :func:`merge_evaluation_signals`, which fills gaps in scoring inputs and never overwrites;
* framework adapters for what the frameworks really return, by duck typing (no evaluator SDK is
  imported): :func:`from_ragas`, :func:`from_deepeval`, :func:`read_deepeval_test_run`,
  :func:`from_trulens`, :func:`from_trulens_feedback` and their one-record forms. They normalize
  scale and direction, treat NaN / ``None`` as not provided, and return a :class:`BridgeResult`
  whose warnings say what could not be used.
"""

from assay_bridges.deepeval import (
    DEEPEVAL_METRICS,
    from_deepeval,
    from_deepeval_metrics,
    from_deepeval_test_result,
    from_deepeval_test_run,
    read_deepeval_test_run,
)
from assay_bridges.extraction import (
    SCORE_SIGNALS,
    BridgeResult,
    MetricMapping,
    WarningCode,
    normalize_metric_name,
)
from assay_bridges.merge import MergeResult, merge_evaluation_signals
from assay_bridges.plain import (
    from_custom_judge,
    from_deepeval_like,
    from_ragas_like,
    from_trulens_like,
)
from assay_bridges.ragas import RAGAS_METRICS, from_ragas, from_ragas_row
from assay_bridges.signals import SIGNAL_KEYS, EvaluationSignals
from assay_bridges.trulens import (
    TRULENS_METRICS,
    from_trulens,
    from_trulens_feedback,
    from_trulens_row,
)

__all__ = [
    "DEEPEVAL_METRICS",
    "RAGAS_METRICS",
    "SCORE_SIGNALS",
    "SIGNAL_KEYS",
    "TRULENS_METRICS",
    "BridgeResult",
    "EvaluationSignals",
    "MergeResult",
    "MetricMapping",
    "WarningCode",
    "from_custom_judge",
    "from_deepeval",
    "from_deepeval_like",
    "from_deepeval_metrics",
    "from_deepeval_test_result",
    "from_deepeval_test_run",
    "from_ragas",
    "from_ragas_like",
    "from_ragas_row",
    "from_trulens",
    "from_trulens_feedback",
    "from_trulens_like",
    "from_trulens_row",
    "merge_evaluation_signals",
    "normalize_metric_name",
    "read_deepeval_test_run",
]
