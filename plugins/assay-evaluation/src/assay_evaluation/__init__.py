"""assay_evaluation: how good is a RAG pipeline, and did it regress? (Compatible with
rag-eval-node-ts 0.3.)

Run registered :class:`~assay.Metric` objects over samples, with thresholds, a weighted composite,
per-metric aggregates, regression detection against a baseline, tri-state results (an
undetermined score is never a failure; a metric or judge error is never a pass), a
:class:`Gate` a CI job fails on, threshold replay, and batch runs on any
:class:`concurrent.futures.Executor` that stream results to JSON Lines and resume.

Public API (covered by the versioning policy); the underscore modules are private.
"""

from assay_evaluation._aggregate import baseline_means, detect_regressions, summarize
from assay_evaluation._api import Evaluator, create_evaluator, evaluate, evaluate_batch
from assay_evaluation._batch import summarize_batch
from assay_evaluation._batch_result import BatchEvalResult
from assay_evaluation._codes import EvaluationErrorCode
from assay_evaluation._columns import (
    COLUMN_ALIASES,
    FIELDS,
    IGNORED_COLUMNS,
    SampleFieldWarning,
)
from assay_evaluation._context import SampleContext
from assay_evaluation._decorator import REQUIREMENTS, FunctionMetric, metric
from assay_evaluation._export import OUTPUT_FORMATS, save_results, to_pandas, to_records
from assay_evaluation._gate import FAIL_ON, Gate, GateVerdict
from assay_evaluation._options import MODES, EvaluateOptions, parse_options, snake_case
from assay_evaluation._outcome import STATUSES, error_of, status_of
from assay_evaluation._plan import LLM_METRIC_KIND, METRIC_SET_KIND, profile_metrics
from assay_evaluation._profiles import (
    COMPATIBLE_METRICS,
    DEFAULT_METRICS,
    PROFILES,
    QUESTION_METRICS,
    metric_label,
)
from assay_evaluation._progress import Clock, ProgressLine, RunStats
from assay_evaluation._readers import FORMATS, read_samples
from assay_evaluation._replay import replay_thresholds
from assay_evaluation._report_html import render_html
from assay_evaluation._samples import coerce_sample, has_question, sample_to_wire
from assay_evaluation._single import composite_score, judge_pass
from assay_evaluation._stream import read_results
from assay_evaluation._types import (
    BatchCounts,
    Cost,
    EvalResult,
    MetricAggregate,
    MetricRegression,
)
from assay_evaluation._user_modules import PLUGINS_ENV, load_plugins
from assay_evaluation._wire import (
    aggregate_to_wire,
    batch_to_wire,
    cost_to_wire,
    metric_result_from_wire,
    metric_result_to_wire,
    result_from_wire,
    result_to_wire,
)

__all__ = [
    "COLUMN_ALIASES",
    "COMPATIBLE_METRICS",
    "DEFAULT_METRICS",
    "FAIL_ON",
    "FIELDS",
    "FORMATS",
    "IGNORED_COLUMNS",
    "LLM_METRIC_KIND",
    "METRIC_SET_KIND",
    "MODES",
    "OUTPUT_FORMATS",
    "PLUGINS_ENV",
    "PROFILES",
    "QUESTION_METRICS",
    "REQUIREMENTS",
    "STATUSES",
    "BatchCounts",
    "BatchEvalResult",
    "Clock",
    "Cost",
    "EvalResult",
    "EvaluateOptions",
    "EvaluationErrorCode",
    "Evaluator",
    "FunctionMetric",
    "Gate",
    "GateVerdict",
    "MetricAggregate",
    "MetricRegression",
    "ProgressLine",
    "RunStats",
    "SampleContext",
    "SampleFieldWarning",
    "aggregate_to_wire",
    "baseline_means",
    "batch_to_wire",
    "coerce_sample",
    "composite_score",
    "cost_to_wire",
    "create_evaluator",
    "detect_regressions",
    "error_of",
    "evaluate",
    "evaluate_batch",
    "has_question",
    "judge_pass",
    "load_plugins",
    "metric",
    "metric_label",
    "metric_result_from_wire",
    "metric_result_to_wire",
    "parse_options",
    "profile_metrics",
    "read_results",
    "read_samples",
    "render_html",
    "replay_thresholds",
    "result_from_wire",
    "result_to_wire",
    "sample_to_wire",
    "save_results",
    "snake_case",
    "status_of",
    "summarize",
    "summarize_batch",
    "to_pandas",
    "to_records",
]
