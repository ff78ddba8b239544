"""Evaluation options: one validated record built from a mapping in snake_case or the camelCase
keys of the JSON input format."""

from __future__ import annotations

import difflib
import functools
import math
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from datetime import datetime
from typing import Any

import attrs

from assay import AssayError
from assay_evaluation._codes import EvaluationErrorCode as Code

__all__ = [
    "LIMITS",
    "MODES",
    "SCHEDULER_PATH",
    "EvaluateOptions",
    "check_scheduler",
    "check_threshold",
    "check_timestamp",
    "parse_options",
    "snake_case",
    "suggest",
]

MODES = ("heuristic", "llm", "hybrid")
"""Evaluation modes: heuristic metrics only, judge-backed metrics only, or routed per metric."""

LIMITS = {"repeats": 100, "concurrency": 1024, "chunk_size": 100_000}
"""The largest value accepted for each size-like option: ``repeats`` (judge calls per prompt),
``concurrency`` (chunks in flight), ``chunk_size`` (samples per task)."""

SCHEDULER_PATH = "options.scheduler"
"""Where errors about the dask scheduler point."""

_WIRE = {"repeats": "repeats", "concurrency": "concurrency", "chunk_size": "chunkSize"}

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


@functools.lru_cache(maxsize=4096)
def snake_case(name: str) -> str:
    """``answerRelevance`` -> ``answer_relevance``; snake_case names are returned unchanged."""
    return _CAMEL.sub(r"_\1", name).lower()


def suggest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices`` to ``word``, else ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_threshold(value: Any, path: str) -> float:
    """``value`` as a float in [0, 1], or raise ``INVALID_THRESHOLD`` at ``path``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise AssayError(
            Code.INVALID_THRESHOLD, f"a threshold must be a number in [0, 1], got {value!r}", path
        )
    return float(value)


def check_timestamp(value: Any, path: str) -> str:
    """``value`` unchanged when it is an ISO-8601 date-time string (``2024-05-01T12:00:00Z``,
    with or without an offset), or raise ``INVALID_OPTION`` at ``path``. The library never reads
    the clock: a timestamp is always the caller's."""
    if not isinstance(value, str):
        raise AssayError(
            Code.INVALID_OPTION,
            f"a timestamp must be an ISO-8601 string, got {type(value).__name__}",
            path,
        )
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise AssayError(
            Code.INVALID_OPTION,
            f"a timestamp must be an ISO-8601 date-time (e.g. 2024-05-01T12:00:00Z), got {value!r}",
            path,
        ) from None
    return value


def check_scheduler(value: Any, path: str = SCHEDULER_PATH) -> Any:
    """``value`` when it is a scheduler address (``tcp://host:port``, ``tls://...``, or
    ``host:port``) or a ``distributed.Client``.

    :raises AssayError: ``INVALID_OPTION`` naming what is wrong with the address.
    """
    if callable(getattr(value, "get_executor", None)) and callable(getattr(value, "scatter", None)):
        return value
    if not isinstance(value, str) or not value.strip():
        raise AssayError(
            Code.INVALID_OPTION,
            f"a scheduler is an address, [PROTOCOL://]HOST:PORT (tcp://10.0.0.5:8786), or a "
            f"distributed.Client; got {value!r}",
            path,
        )
    scheme, sep, rest = value.rpartition("://")
    host, colon, port = (rest if sep else value).rpartition(":")
    if (sep and not scheme) or not colon or not host or not port.isdigit():
        raise AssayError(
            Code.INVALID_OPTION,
            f"a scheduler address is [PROTOCOL://]HOST:PORT (tcp://10.0.0.5:8786), got {value!r}",
            path,
        )
    return value


def _number_map(value: Any, path: str) -> dict[str, float]:
    if not isinstance(value, Mapping):
        raise AssayError(Code.INVALID_OPTION, "must be an object of metric id -> number", path)
    out: dict[str, float] = {}
    for key, number in value.items():
        if (
            isinstance(number, bool)
            or not isinstance(number, int | float)
            or not math.isfinite(number)
        ):
            raise AssayError(
                Code.INVALID_OPTION, f"must be a finite number, got {number!r}", f"{path}.{key}"
            )
        out[str(key)] = float(number)
    return out


def _mapping(value: Any, path: str) -> dict[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise AssayError(
            Code.INVALID_OPTION, f"must be an object, got {type(value).__name__}", path
        )
    return dict(value)


@attrs.frozen
class EvaluateOptions:
    """Everything that tunes an evaluation (rag-eval-node-ts 0.3 ``EvaluateOptions``
    and ``BatchEvaluateOptions``).

    Metric ids used as keys may be registry ids (``answer_relevance``) or the camelCase of the
    JSON input format (``answerRelevance``).

    Attributes:
        mode: ``"heuristic"`` (default), ``"llm"`` or ``"hybrid"``.
        judge: a :class:`~assay.Judge`, a registered judge's or judge factory's name, or
            ``{"type": <factory>, ...settings}``; required in llm and hybrid mode.
        thresholds: metric id -> pass threshold in [0, 1], replacing the metric's default.
        metric_modes: metric id -> ``"heuristic"`` or ``"llm"``, overriding ``mode``.
        composite_threshold: minimum composite score for a sample to pass (default 0.6).
        composite_weights: metric id -> weight in the composite (default 1).
        heuristic: tuning handed to heuristic metrics through ``context.options["heuristic"]``.
        prompt_overrides: metric id -> prompt template for judge-backed metrics.
        repeats: how many times a judge-backed metric asks the judge (mean, spread, pass rate).
        judge_cache: a folder where judge-backed metrics cache replies by hash of (judge name,
            prompt), so a re-run costs nothing.
        executor: a :class:`concurrent.futures.Executor` (threads, processes, a dask client's
            ``get_executor()``) for :func:`~assay_evaluation.evaluate_batch`; ``None`` runs
            in-process.
        workers: evaluate in a pool of this many worker processes that evaluation starts and
            stops (default 0: in-process, unless ``executor`` or ``scheduler`` is given); the
            plan reaches each worker once and the rows travel unparsed.
        scheduler: a dask.distributed scheduler address (``tcp://10.0.0.5:8786``) or a
            ``distributed.Client``: evaluate on that cluster (needs the ``dask`` extra).
        clock: a :class:`~assay_evaluation.Clock` timing the run for ``BatchEvalResult.stats``
            (default: the system's clocks); never written into results.
        concurrency: at most this many chunks in flight on the executor (default 4; with
            ``workers`` or ``scheduler``, at least twice the workers).
        chunk_size: samples per executor task, and results per durable write of ``output``
            (default 128: smaller tasks cost the calling process more in pickling than the
            workers gain).
        on_progress: ``(completed, total)`` called after each sample is finished; ``True`` for
            a progress line on standard error (``n/total``, samples/s, ETA).
        baseline_result: a :class:`~assay_evaluation.BatchEvalResult`, its JSON form or the
            path of a JSON file holding it, for regression detection.
        regression_threshold: a mean drop larger than this is a regression (default 0.05).
        output: a JSON Lines path; each finished sample's result is appended as it finishes.
        resume: with ``output``, skip samples whose id is already in that file and keep their
            stored results.
        keep_results: keep every sample's :class:`~assay_evaluation.EvalResult` in the returned
            batch (default). ``False`` keeps only what the aggregates need (scores and pass
            flags), so a run over a million samples, or the resume of one, holds no explanations,
            signals or samples; ``BatchEvalResult.results`` is then empty (the full results are
            in ``output``).
        keep_worst: with ``keep_results=False``, still keep the full results of this many worst
            samples (errors first, then undetermined composites, then the lowest composite),
            which the HTML report shows (default 0; in [0, 1000]).
        profile: a named list of metrics used when ``metrics`` is not given (``"default"``:
            ``claim_support``; ``"grounded"``: ``answer_support`` and ``claim_support``;
            ``"compatible"``: the seven metrics of rag-eval-node-ts 0.3; a registry
            ``metric-set`` of that name also counts); ``None`` (default) uses the default list.
        timestamp: an ISO-8601 date-time stamped on every result evaluated in this call
            (``EvalResult.timestamp``); ``None`` (default) stamps nothing. Never read from a
            clock, so results stay deterministic; resumed results keep their stored stamp.
    """

    mode: str = "heuristic"
    judge: Any = None
    thresholds: Mapping[str, float] = attrs.field(factory=dict)
    metric_modes: Mapping[str, str] = attrs.field(factory=dict)
    composite_threshold: float = 0.6
    composite_weights: Mapping[str, float] = attrs.field(factory=dict)
    heuristic: Mapping[str, Any] = attrs.field(factory=dict)
    prompt_overrides: Mapping[str, str] = attrs.field(factory=dict)
    repeats: int = 1
    judge_cache: str | None = None
    executor: Executor | None = None
    workers: int = 0
    scheduler: Any = None
    clock: Any = None
    concurrency: int = 4
    chunk_size: int = 128
    on_progress: Callable[[int, int], None] | None = None
    baseline_result: Any = None
    regression_threshold: float = 0.05
    output: str | None = None
    resume: bool = False
    keep_results: bool = True
    keep_worst: int = 0
    timestamp: str | None = None
    profile: str | None = None

    def merged(self, overrides: EvaluateOptions | Mapping[str, Any] | None) -> EvaluateOptions:
        """These options with the fields set in ``overrides`` taking precedence (for
        :func:`~assay_evaluation.create_evaluator`). Per-metric mappings (``thresholds``,
        ``composite_weights``, ``metric_modes``, ``prompt_overrides``) and ``heuristic`` are
        merged key by key: a call that sets one metric's threshold keeps the others'."""
        if overrides is None:
            return self
        if isinstance(overrides, EvaluateOptions):
            defaults = EvaluateOptions()
            changes = {
                name: getattr(overrides, name)
                for name in _FIELDS
                if getattr(overrides, name) != getattr(defaults, name)
            }
        elif isinstance(overrides, Mapping):
            changes = _normalise_keys(overrides)
        else:
            raise AssayError(
                Code.INVALID_OPTION,
                f"options must be a mapping, got {type(overrides).__name__}",
                "options",
            )
        base = attrs.asdict(self, recurse=False)
        for name in _MERGED & set(changes):
            if isinstance(changes[name], Mapping):
                changes[name] = {**base[name], **changes[name]}
        return parse_options({**base, **changes})


_FIELDS = {f.name for f in attrs.fields(EvaluateOptions)}
_MERGED = {"thresholds", "composite_weights", "metric_modes", "prompt_overrides", "heuristic"}
_ALIASES = {"baseline": "baseline_result", "stream_to": "output"}


def _normalise_keys(mapping: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in mapping.items():
        name = _ALIASES.get(snake_case(str(key)), snake_case(str(key)))
        if name not in _FIELDS:
            raise AssayError(
                Code.INVALID_OPTION,
                f"unknown option {key!r}{suggest(name, _FIELDS)} (known: "
                f"{', '.join(sorted(_FIELDS))})",
                f"options.{key}",
            )
        out[name] = value
    return out


def parse_options(options: EvaluateOptions | Mapping[str, Any] | None) -> EvaluateOptions:
    """Validate ``options`` and return them as :class:`EvaluateOptions`.

    ``None`` values fall back to the defaults (as in rag-eval-node-ts 0.3).

    :raises AssayError: ``INVALID_OPTION`` for an unknown key, a value of the wrong type, a
        size-like option above its :data:`LIMITS` or a regression threshold outside [0, 1];
        ``INVALID_THRESHOLD`` for a threshold or composite threshold outside [0, 1].
    """
    if options is None:
        return EvaluateOptions()
    if isinstance(options, EvaluateOptions):
        raw = attrs.asdict(options, recurse=False)
    elif isinstance(options, Mapping):
        raw = {k: v for k, v in _normalise_keys(options).items() if v is not None}
    else:
        raise AssayError(Code.INVALID_OPTION, "options must be a mapping", "options")
    if raw.get("mode", "heuristic") not in MODES:
        raise AssayError(
            Code.INVALID_OPTION, f"mode must be one of {', '.join(MODES)}", "options.mode"
        )
    thresholds = {
        str(k): check_threshold(v, f"options.thresholds.{k}")
        for k, v in _mapping(raw.get("thresholds"), "options.thresholds").items()
    }
    modes = _mapping(raw.get("metric_modes"), "options.metricModes")
    for key, mode in modes.items():
        if mode not in ("heuristic", "llm"):
            raise AssayError(
                Code.INVALID_OPTION,
                f"a metric mode is 'heuristic' or 'llm', got {mode!r}",
                f"options.metricModes.{key}",
            )
    for name, limit in LIMITS.items():
        value = raw.get(name, 1)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
            raise AssayError(
                Code.INVALID_OPTION,
                f"must be an integer in [1, {limit}], got {value!r}",
                f"options.{_WIRE[name]}",
            )
    regression = raw.get("regression_threshold", 0.05)
    if (
        isinstance(regression, bool)
        or not isinstance(regression, int | float)
        or not 0 <= regression <= 1  # also refuses NaN
    ):
        raise AssayError(
            Code.INVALID_OPTION,
            f"must be a number in [0, 1], got {regression!r}",
            "options.regressionThreshold",
        )
    executor = raw.get("executor")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise AssayError(
            Code.INVALID_OPTION, "must be a concurrent.futures.Executor", "options.executor"
        )
    keep_worst = raw.get("keep_worst", 0)
    if (
        isinstance(keep_worst, bool)
        or not isinstance(keep_worst, int)
        or not 0 <= keep_worst <= 1000
    ):
        raise AssayError(
            Code.INVALID_OPTION,
            f"must be an integer in [0, 1000], got {keep_worst!r}",
            "options.keepWorst",
        )
    workers = raw.get("workers", 0)
    if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= 1024:
        raise AssayError(
            Code.INVALID_OPTION,
            f"must be an integer in [0, 1024] (0: in-process), got {workers!r}",
            "options.workers",
        )
    if raw.get("scheduler") is not None:
        check_scheduler(raw["scheduler"])
    given = [
        name for name in ("executor", "workers", "scheduler") if raw.get(name) not in (None, 0)
    ]
    if len(given) > 1:
        raise AssayError(
            Code.INVALID_OPTION,
            f"give one of executor, workers and scheduler, not {' and '.join(given)}",
            f"options.{given[1]}",
        )
    clock = raw.get("clock")
    if clock is not None and not all(
        callable(getattr(clock, name, None)) for name in ("wall", "cpu", "worker_cpu")
    ):
        raise AssayError(
            Code.INVALID_OPTION,
            "must be an assay_evaluation.Clock (wall, cpu and worker_cpu callables)",
            "options.clock",
        )
    if not isinstance(raw.get("keep_results", True), bool):
        raise AssayError(
            Code.INVALID_OPTION,
            f"must be true or false, got {raw['keep_results']!r}",
            "options.keepResults",
        )
    if raw.get("timestamp") is not None:
        check_timestamp(raw["timestamp"], "options.timestamp")
    if raw.get("profile") is not None and not isinstance(raw["profile"], str):
        raise AssayError(Code.UNKNOWN_PROFILE, "a profile is a name", "options.profile")
    if raw.get("on_progress") is True:  # a progress line on standard error, as assay eval shows
        from assay_evaluation._progress import ProgressLine

        raw["on_progress"] = ProgressLine(sys.stderr)
    elif raw.get("on_progress") is False:
        raw["on_progress"] = None
    if raw.get("on_progress") is not None and not callable(raw["on_progress"]):
        raise AssayError(
            Code.INVALID_OPTION,
            "must be True (a progress line on standard error) or a callable (completed, total)",
            "options.onProgress",
        )
    raw.update(
        thresholds=thresholds,
        metric_modes=modes,
        composite_weights=_number_map(
            raw.get("composite_weights") or {}, "options.compositeWeights"
        ),
        composite_threshold=check_threshold(
            raw.get("composite_threshold", 0.6), "options.compositeThreshold"
        ),
        regression_threshold=float(regression),
        heuristic=_mapping(raw.get("heuristic"), "options.heuristic"),
        prompt_overrides=_mapping(raw.get("prompt_overrides"), "options.promptOverrides"),
    )
    return EvaluateOptions(**raw)
