"""Your own metric in a few lines: :func:`metric` turns a function of a sample into a
registered :class:`~assay.Metric` (in the spirit of inspect_ai's ``@scorer``)."""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable, Iterable
from typing import Any

from assay import AssayError, EvalSample, MetricContext, MetricResult, Registry, default_registry
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import check_threshold, suggest
from assay_evaluation._outcome import missing_requirement
from assay_evaluation._samples import has_question

__all__ = ["REQUIREMENTS", "FunctionMetric", "metric"]

REQUIREMENTS = ("question", "answer", "contexts", "ground_truth")
"""Sample fields a decorated metric may require; without one, the metric is undetermined (by
design, not an error) and the function is not called."""

MetricFunction = Callable[..., Any]


def _missing(sample: EvalSample, field: str) -> bool:
    if field == "question":
        return not has_question(sample)
    if field == "ground_truth":
        return sample.ground_truth is None
    if field == "contexts":
        return not sample.contexts
    return not sample.answer


class FunctionMetric:
    """A :class:`~assay.Metric` whose score comes from a plain function (made by
    :func:`metric`). Calling it calls the function.

    The function gets the :class:`~assay.EvalSample` (and the :class:`~assay.MetricContext`
    when it takes two parameters) and returns a score in [0, 1] (a ``bool`` counts as 1 or 0),
    a ``(score, reason)`` pair, a :class:`~assay.MetricResult`, or ``None`` (undetermined). A
    function that raises, or returns anything else, gives an error result: never a pass.

    Attributes:
        id: the metric id.
        default_threshold: the pass threshold when the caller gives none.
        higher_is_better: ``False`` when a low score is good (the pass test is then
            ``score <= threshold``).
        requires: sample fields without which the metric is undetermined.
        function: the function.
    """

    def __init__(
        self,
        function: MetricFunction,
        id: str,
        default_threshold: float,
        higher_is_better: bool,
        requires: frozenset[str],
    ) -> None:
        self.function = function
        self.id = id
        self.default_threshold = default_threshold
        self.higher_is_better = higher_is_better
        self.requires = requires
        parameters = inspect.signature(function).parameters
        self._with_context = len(parameters) >= 2

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<metric {self.id!r} threshold={self.default_threshold:g}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by reference to where it is defined (a worker process finds it by module
        and name, importing the module again when it is not loaded there)."""
        module = sys.modules.get(self.function.__module__)
        return (_find, (self.function.__module__, self.function.__qualname__, _file(module)))

    def compute(self, sample: EvalSample, context: MetricContext, threshold: float) -> MetricResult:
        """Call the function unless a required field is missing, and judge its score at
        ``threshold``.

        :raises TypeError: when the function returns something that is not a score.
        """
        for field in self.requires:
            if _missing(sample, field):
                return missing_requirement(self.id, threshold, field)
        value = self.function(sample, context) if self._with_context else self.function(sample)
        reason = None
        if isinstance(value, MetricResult):
            return value
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], str):
            value, reason = value
        if value is None:
            return MetricResult(self.id, None, None, threshold, reason or "no score (undetermined)")
        if not isinstance(value, int | float):
            raise TypeError(
                f"{self.id} returned {type(value).__name__}; return a number in [0, 1], a "
                "(number, reason) pair, a MetricResult or None"
            )
        score = float(value)
        passed = score >= threshold if self.higher_is_better else score <= threshold
        return MetricResult(
            self.id, score, passed, threshold, reason or f"{self.id}: {score:.3f}", (), {}
        )


def _file(module: Any) -> str | None:
    return getattr(module, "__file__", None)


def _find(module_name: str, qualname: str, file: str | None) -> Any:
    """The object ``qualname`` of module ``module_name`` (imported, or loaded from ``file``)."""
    module = sys.modules.get(module_name)
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            if file is None:
                raise
            from assay_evaluation._user_modules import load_module

            module = load_module(file)
    found: Any = module
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def metric(
    function: MetricFunction | None = None,
    *,
    name: str | None = None,
    threshold: float = 0.5,
    requires: Iterable[str] = (),
    higher_is_better: bool = True,
    register: bool = True,
    registry: Registry | None = None,
) -> Any:
    """Make ``function`` a metric and register it (kind ``metric``, provider ``runtime``), so
    ``evaluate_batch(..., ["name"])`` and ``assay eval --plugin file.py --metrics name`` find it.
    Used bare (``@metric``) or with settings (``@metric(name=..., threshold=...)``).

    :param name: the metric id (default: the function's name).
    :param threshold: the default pass threshold, in [0, 1].
    :param requires: sample fields (:data:`REQUIREMENTS`; ``groundTruth`` is accepted) without
        which the metric is undetermined and the function is not called.
    :param higher_is_better: ``False`` for a metric where low scores are good.
    :param register: ``False`` makes the object without registering it (pass it in
        ``metrics`` directly).
    :param registry: where to register (default: the process registry).
    :return: a :class:`FunctionMetric` (or, used with settings, a decorator making one).
    :raises AssayError: ``INVALID_OPTION`` for an unknown requirement or a name that is not a
        non-empty string; ``INVALID_THRESHOLD`` for a threshold outside [0, 1];
        ``DUPLICATE_NAME`` when a runtime metric of that name is already registered.
    """

    def make(fn: MetricFunction) -> FunctionMetric:
        metric_id = fn.__name__ if name is None else name
        if not isinstance(metric_id, str) or not metric_id:
            raise AssayError(Code.INVALID_OPTION, "a metric name is a non-empty string", "name")
        needed = set()
        for field in [requires] if isinstance(requires, str) else requires:
            field = "ground_truth" if field == "groundTruth" else field
            if field not in REQUIREMENTS:
                raise AssayError(
                    Code.INVALID_OPTION,
                    f"{field!r} is not a sample field{suggest(str(field), REQUIREMENTS)} "
                    f"(fields: {', '.join(REQUIREMENTS)})",
                    f"{metric_id}.requires",
                )
            needed.add(field)
        made = FunctionMetric(
            fn,
            metric_id,
            check_threshold(threshold, f"{metric_id}.threshold"),
            bool(higher_is_better),
            frozenset(needed),
        )
        if register:
            (default_registry() if registry is None else registry).register(made, kind="metric")
        return made

    return make if function is None else make(function)
