"""Stable error codes raised by the evaluation runner, its CLI and judges."""

from __future__ import annotations

__all__ = ["EvaluationErrorCode"]


class EvaluationErrorCode:
    """Codes of :class:`~assay.AssayError` specific to evaluation.

    The string values are public API (they appear in ``error [CODE] ...`` lines and JSON error
    records) and are never renamed.
    """

    MISSING_ANSWER = "MISSING_ANSWER"
    """A sample has no ``answer`` field, or it is not a string."""
    INVALID_CONTEXTS = "INVALID_CONTEXTS"
    """A sample's ``contexts`` is not a list of strings."""
    INVALID_SAMPLE = "INVALID_SAMPLE"
    """A sample is not an object, or its question / groundTruth / id has the wrong type."""
    UNKNOWN_METRIC = "UNKNOWN_METRIC"
    """A metric id (in ``metrics``, ``thresholds``, ``composite_weights`` or ``metric_modes``)
    names no registered metric."""
    INVALID_THRESHOLD = "INVALID_THRESHOLD"
    """A threshold is not a number in [0, 1]."""
    INVALID_OPTION = "INVALID_OPTION"
    """An evaluation option has the wrong type or value."""
    JUDGE_MISCONFIGURED = "JUDGE_MISCONFIGURED"
    """A judge is required but missing, or its configuration (URL, model, key) is unusable."""
    JUDGE_ERROR = "JUDGE_ERROR"
    """A judge call failed after its retries (transport error, HTTP error, bad response)."""
    INVALID_METRIC_RESULT = "INVALID_METRIC_RESULT"
    """A metric returned something other than a MetricResult with a score in [0, 1] or None."""
    INVALID_BASELINE = "INVALID_BASELINE"
    """A baseline result has no usable ``aggregates``."""
    UNKNOWN_PROFILE = "UNKNOWN_PROFILE"
    """A profile name (``--profile``, ``options.profile``) names no profile or metric set."""
    MISSING_DEPENDENCY = "MISSING_DEPENDENCY"
    """An optional dependency is not installed (pandas for DataFrames, pyarrow for Parquet);
    the message names the extra to install."""
