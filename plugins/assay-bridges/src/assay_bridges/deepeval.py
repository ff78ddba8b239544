"""DeepEval results into scoring signals, by duck typing (deepeval is never imported).

Accepted shapes (deepeval 1.x-4.x): an ``EvaluationResult`` (``test_results``), a ``TestResult``
(``name``, ``metrics_data``), a list of either, a list of ``MetricData`` lists, a measured metric
object (``score``, ``threshold``, ``success``, ``error``, ``__name__``), each as objects or as
dicts (snake_case or the camelCase aliases), and the ``.deepeval/.latest_test_run.json`` file
(``{"testRunData": {"testCases": [{"name", "metricsData": [...]}, ...]}}``).

**Direction.** ``HallucinationMetric`` has not always pointed the same way: the first releases
scored factual consistency with ``minimum_score`` (higher is better); the LLM-judge metric scores
the share of contexts the output contradicts and passes when ``score <= threshold`` (lower is
better); and deepeval pull request #3102, "Refactor metrics to standardize score. (Higher is
better)", sets out to make every metric higher-is-better. The default mapping therefore *infers* the direction from each
record: a metric that passed with a score above its threshold (or failed below it) is
higher-is-better, and the reverse is lower-is-better. A hallucination score becomes
``faithfulnessScore`` as ``1 - score`` when lower is better. When the record cannot tell (score
equal to the threshold, no success flag) the metric is not used and a warning says so; pass
``metrics={"Hallucination": MetricMapping("faithfulnessScore", direction="lower")}`` to decide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import assay
from assay.cli import read_json_file
from assay_bridges.extraction import (
    BridgeResult,
    MetricMapping,
    MetricMappings,
    SignalCollector,
    is_real_number,
    record_field,
    resolve_mappings,
    unreadable,
)

__all__ = [
    "DEEPEVAL_METRICS",
    "from_deepeval",
    "from_deepeval_metrics",
    "from_deepeval_test_result",
    "from_deepeval_test_run",
    "read_deepeval_test_run",
    "stated_direction",
]

DEEPEVAL_METRICS: dict[str, MetricMapping] = {
    "Faithfulness": MetricMapping("faithfulnessScore"),
    "Answer Relevancy": MetricMapping("answerRelevanceScore"),
    "Hallucination": MetricMapping("faithfulnessScore", direction="infer"),
}
"""Default DeepEval metric names (``metric.__name__``) -> signals."""


def stated_direction(score: Any, threshold: Any, success: Any) -> bool | None:
    """What a record's own verdict implies: ``True`` when higher is better, ``False`` when lower
    is better, ``None`` when it cannot tell (a missing or non-finite value, a score equal to the
    threshold, where both directions pass)."""
    if not (is_real_number(score) and is_real_number(threshold) and isinstance(success, bool)):
        return None
    if score != score or threshold != threshold or score == threshold:  # NaN or a tie
        return None
    return bool((score > threshold) == success)


def _metrics_list(metrics_data: Any, path: str) -> list[Any]:
    if metrics_data is None:
        return []
    if isinstance(metrics_data, Iterable) and not isinstance(metrics_data, str | bytes | Mapping):
        return list(metrics_data)
    raise assay.AssayError(
        assay.ErrorCode.MALFORMED_INPUT,
        f"metrics data must be a list of MetricData, got {type(metrics_data).__name__}",
        path,
    )


def _extract(
    metrics_data: Iterable[Any], mappings: Mapping[str, MetricMapping], sample_id: str | None
) -> BridgeResult:
    collector = SignalCollector(mappings)
    for metric in metrics_data:
        name = record_field(metric, "name", "__name__", "metric")
        if not isinstance(name, str):
            continue
        score = record_field(metric, "score")
        collector.offer(
            name,
            score,
            stated_higher_is_better=stated_direction(
                score, record_field(metric, "threshold"), record_field(metric, "success")
            ),
            error=record_field(metric, "error"),
        )
    return collector.result(sample_id)


def from_deepeval_metrics(
    metrics_data: Iterable[Any],
    *,
    metrics: MetricMappings | None = None,
    sample_id: str | None = None,
) -> BridgeResult:
    """Signals from one test case's ``MetricData`` list (or measured metric objects).

    :param metrics: mappings added to (or, with ``None`` values, removed from)
        :data:`DEEPEVAL_METRICS`; names match after lower-casing and spaces -> underscores.
    :raises AssayError: ``MALFORMED_INPUT`` when ``metrics_data`` is not a list;
        ``INVALID_CONFIG`` for a bad mapping.
    """
    mappings = resolve_mappings(DEEPEVAL_METRICS, metrics)
    return _extract(_metrics_list(metrics_data, "metricsData"), mappings, sample_id)


def _from_test_case(
    test_case: Any, mappings: Mapping[str, MetricMapping], path: str
) -> BridgeResult:
    metrics_data = record_field(test_case, "metrics_data", "metricsData")
    name = record_field(test_case, "name")
    return _extract(
        _metrics_list(metrics_data, f"{path}.metricsData"),
        mappings,
        name if isinstance(name, str) else None,
    )


def from_deepeval_test_result(
    test_result: Any, *, metrics: MetricMappings | None = None
) -> BridgeResult:
    """Signals from one ``TestResult`` (or API test case): its ``metrics_data``, named by its
    ``name``. A test case without metrics data yields no signals and no warnings.

    :raises AssayError: ``MALFORMED_INPUT`` when its metrics data is not a list.
    """
    return _from_test_case(test_result, resolve_mappings(DEEPEVAL_METRICS, metrics), "testResult")


def _is_metric_record(item: Any) -> bool:
    return record_field(item, "score") is not None or record_field(item, "threshold") is not None


def _readable(value: Any) -> bool:
    """A shape :func:`from_deepeval` reads: test results, a test case, a test run, or a
    non-empty list of ``MetricData``."""
    if isinstance(value, list):
        return bool(value) and all(map(_is_metric_record, value))
    keys = ("test_results", "testResults", "metrics_data", "metricsData", "testRunData")
    return isinstance(value, Mapping) and any(key in value for key in keys)


def from_deepeval(result: Any, *, metrics: MetricMappings | None = None) -> list[BridgeResult]:
    """One :class:`BridgeResult` per test case of a DeepEval result (see the module for shapes).

    :raises AssayError: ``MALFORMED_INPUT`` for a shape that is none of those; ``INVALID_CONFIG``
        for a bad mapping.
    """
    if isinstance(result, Mapping) and ("testRunData" in result or "testCases" in result):
        return from_deepeval_test_run(result, metrics=metrics)
    mappings = resolve_mappings(DEEPEVAL_METRICS, metrics)
    test_results = record_field(result, "test_results", "testResults")
    if test_results is not None:
        items = _metrics_list(test_results, "testResults")
    elif isinstance(result, Iterable) and not isinstance(result, str | bytes | Mapping):
        items = list(result)
    elif record_field(result, "metrics_data", "metricsData") is not None:
        items = [result]
    else:
        raise unreadable(
            "expected a DeepEval EvaluationResult (test_results), TestResult(s) (metrics_data), "
            "MetricData lists or a .latest_test_run.json (testRunData); found {found}",
            result,
            _readable,
            "DeepEval results",
            "result",
        )
    if items and all(_is_metric_record(item) for item in items):  # one test case's MetricData
        return [_extract(items, mappings, None)]
    results = []
    for index, item in enumerate(items):
        if isinstance(item, Iterable) and not isinstance(item, str | bytes | Mapping):
            results.append(_extract(list(item), mappings, None))
        else:
            results.append(_from_test_case(item, mappings, f"[{index}]"))
    return results


def from_deepeval_test_run(
    document: Any, *, metrics: MetricMappings | None = None
) -> list[BridgeResult]:
    """One :class:`BridgeResult` per test case of a parsed ``.latest_test_run.json`` document.

    The document is ``{"testRunData": TestRun, "testRunLink": ...}`` (a bare ``TestRun`` is also
    accepted); its ``testCases`` and ``conversationalTestCases`` carry ``metricsData`` with the
    camelCase aliases (``strictMode``, ``evaluationModel``, ...).

    :raises AssayError: ``MALFORMED_INPUT`` (path ``testRunData.testCases``) without a
        ``testCases`` list.
    """
    test_run = document.get("testRunData", document) if isinstance(document, Mapping) else None
    if not isinstance(test_run, Mapping) or not isinstance(test_run.get("testCases"), list):
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            "not a DeepEval test run: no testCases list",
            "testRunData.testCases",
        )
    mappings = resolve_mappings(DEEPEVAL_METRICS, metrics)
    results = []
    for key in ("testCases", "conversationalTestCases"):
        for index, test_case in enumerate(test_run.get(key) or []):
            results.append(_from_test_case(test_case, mappings, f"testRunData.{key}[{index}]"))
    return results


def read_deepeval_test_run(
    path: str | Path, *, metrics: MetricMappings | None = None
) -> list[BridgeResult]:
    """:func:`from_deepeval_test_run` on the file at ``path`` (``.deepeval/.latest_test_run.json``).

    :raises AssayError: ``IO_ERROR`` when unreadable; ``MALFORMED_INPUT`` when not JSON or not a
        test run.
    """
    document = read_json_file(str(path))
    return from_deepeval_test_run(document, metrics=metrics)
