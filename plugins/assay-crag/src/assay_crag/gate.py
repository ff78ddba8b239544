"""The context-quality CI gate: a benchmark's retrievals must score well on average and none badly.

The specification's two checks on the composite context-quality score of a benchmark
(:mod:`assay_crag.composite`), kept as it words them:

* *maintains average quality score above 0.65*: the mean must be strictly above ``threshold``
  (a mean at or below it fails);
* *no query scores below 0.3 (hard floor)*: no score may be strictly below ``floor`` (a score
  of exactly 0.3 passes).

:func:`check_context_quality` returns the verdict; :func:`assert_context_quality` raises
``AssertionError`` with a readable message for pytest; ``assay route gate`` is the CLI form.

Each result may be a :class:`~assay_crag.composite.ContextQualityScore`, a :class:`GateItem`, a
number in [0, 1],
a :class:`~assay_crag.inputs.QualityInput`, or a JSON-shaped mapping: a retrieval
(``{"query", "chunks", "context"}``, or the specification's benchmark item ``{"query",
"expectedChunks", "expectedContext"}``), scored with the composite; or a score record with
``overall``, ``qualityScore`` or ``score`` (a number, or an object with ``overall``). A record's
``id`` or ``queryId`` names it in messages, else its ``query``, else its position ``#i``.
``results`` may also be a mapping from names to such results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

import assay
from assay_crag.checks import config_number, score_input
from assay_crag.composite import ContextQualityScore, QualityScorer
from assay_crag.dimensions import MISSING_SCORE
from assay_crag.inputs import QualityInput, parse_quality_input

if TYPE_CHECKING:
    from assay_crag.router import CragRouter

__all__ = [
    "GATE_FLOOR",
    "GATE_MEAN",
    "GateItem",
    "GateResult",
    "assert_context_quality",
    "check_context_quality",
    "gate_items",
]

GATE_MEAN = 0.65
"""The specification's bar for the mean: it must be above 0.65."""
GATE_FLOOR = 0.3
"""The specification's hard floor: no query may score below 0.3."""
_SCORE_KEYS = ("overall", "qualityScore", "score")


@attrs.frozen
class GateItem:
    """One gated result.

    Attributes:
        name: how messages name it (its id, its query, or ``#i``).
        score: its context-quality score in [0, 1].
        unscored: whether it is a retrieval whose chunks had no retriever score.
    """

    name: str
    score: float
    unscored: bool = False


@attrs.frozen
class GateResult:
    """The gate's verdict.

    Attributes:
        passed: both checks passed.
        mean: the mean score.
        threshold: the mean had to be above this.
        floor: no score could be below this.
        items: every result, in input order.
        below_floor: the results under the floor, lowest first.
    """

    passed: bool
    mean: float
    threshold: float
    floor: float
    items: tuple[GateItem, ...]
    below_floor: tuple[GateItem, ...]

    @property
    def mean_passed(self) -> bool:
        """The mean is above the threshold."""
        return self.mean > self.threshold

    def worst(self, n: int = 5) -> tuple[GateItem, ...]:
        """The ``n`` lowest-scoring results, lowest first (input order among equals)."""
        return tuple(sorted(self.items, key=lambda item: item.score)[:n])

    def message(self, worst: int = 5) -> str:
        """One paragraph: the verdict of each check, the worst results, and a note when
        retrievals had no retriever scores."""
        n = len(self.items)
        verdict = "passed" if self.passed else "failed"
        parts = [
            f"context-quality gate {verdict} on {n} quer{'y' if n == 1 else 'ies'}: "
            f"mean {self.mean:.3f} {'is' if self.mean_passed else 'is not'} above "
            f"{self.threshold:g}"
        ]
        if self.below_floor:
            names = ", ".join(_named(item) for item in self.below_floor[:worst])
            more = (
                f" and {len(self.below_floor) - worst} more"
                if len(self.below_floor) > worst
                else ""
            )
            parts.append(f"{len(self.below_floor)} below the floor {self.floor:g}: {names}{more}")
        else:
            parts.append(f"none below the floor {self.floor:g}")
        text = "; ".join(parts) + "."
        if not self.passed:
            text += " Worst: " + ", ".join(_named(item) for item in self.worst(worst)) + "."
        unscored = sum(item.unscored for item in self.items)
        if unscored:
            text += (
                f" {unscored} of {n} retrievals have no retriever scores: the composite counts "
                "them as 0 (see the missing-retrieval-score warnings)."
            )
        return text

    def to_wire(self) -> dict[str, Any]:
        """JSON shape: verdicts, the numbers compared, and every score by name."""
        return {
            "passed": self.passed,
            "meanPassed": self.mean_passed,
            "mean": self.mean,
            "threshold": self.threshold,
            "floor": self.floor,
            "belowFloor": [attrs.asdict(item) for item in self.below_floor],
            "items": [attrs.asdict(item) for item in self.items],
        }


def _named(item: GateItem) -> str:
    name = item.name if len(item.name) <= 60 else item.name[:57] + "..."
    return f"{name} ({item.score:.3f})"


def _retrieval(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    """The specification's benchmark item as a retrieval (``expectedChunks`` ->
    ``chunks``, ``expectedContext`` -> ``context``); other mappings unchanged."""
    if "expectedChunks" not in raw:
        return raw
    rest = {k: v for k, v in raw.items() if k not in ("expectedChunks", "expectedContext")}
    return {**rest, "chunks": raw["expectedChunks"], "context": raw.get("expectedContext", {})}


def _item(
    raw: Any, name: str | None, position: int, scorer: QualityScorer, router: CragRouter | None
) -> GateItem:
    default = name or f"#{position}"
    if isinstance(raw, GateItem):
        return raw
    if isinstance(raw, ContextQualityScore):
        return GateItem(default, raw.overall)
    if isinstance(raw, QualityInput) or (
        isinstance(raw, Mapping) and ("chunks" in raw or "expectedChunks" in raw)
    ):
        parsed = parse_quality_input(raw if isinstance(raw, QualityInput) else _retrieval(raw))
        label = name or _label(raw) or parsed.query.strip() or default
        if router is not None:
            return GateItem(label, router.classify(parsed).score)
        quality = scorer.score(parsed)
        unscored = any(w.code == MISSING_SCORE for w in quality.warnings)
        return GateItem(label, quality.overall, unscored)
    if isinstance(raw, Mapping):
        for key in _SCORE_KEYS:
            if key in raw:
                value = raw[key]
                if isinstance(value, Mapping):
                    value = value.get("overall")
                return GateItem(name or _label(raw) or default, score_input(value, key))
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT,
            "expected a retrieval (query, chunks), a score record (overall, qualityScore or "
            "score) or a number",
            "",
        )
    return GateItem(default, score_input(raw, ""))


def _label(raw: Any) -> str | None:
    if isinstance(raw, QualityInput):
        return None
    for key in ("id", "queryId", "query"):
        value = raw.get(key)
        if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
            return str(value).strip()
    return None


def _at(error: assay.AssayError, where: str) -> assay.AssayError:
    """The same error with its path under ``where`` (``[3]``, ``line 4``)."""
    inner = "" if error.path in (None, "", "$") else f".{error.path}"
    return assay.AssayError(error.code, error.message, where + inner)


def gate_items(
    results: Iterable[Any] | Mapping[str, Any],
    scorer: QualityScorer | None = None,
    *,
    router: CragRouter | None = None,
) -> list[GateItem]:
    """Each result as a :class:`GateItem` (see the module docs for what a result may be).

    :param router: when given, a retrieval's score is this router's score for it (in paper
        mode, its best document's relevance) instead of the composite's.

    :raises assay.AssayError: ``INVALID_INPUT`` / ``MALFORMED_INPUT`` for a result that is none
        of those, with its position (``[3]``, or ``[name]``) in the path.
    """
    scorer = scorer or QualityScorer()
    entries: Iterable[tuple[str | None, Any]] = (
        ((str(k), v) for k, v in results.items())
        if isinstance(results, Mapping)
        else ((None, v) for v in results)
    )
    items = []
    for position, (name, raw) in enumerate(entries):
        try:
            items.append(_item(raw, name, position, scorer, router))
        except assay.AssayError as error:
            raise _at(error, f"[{name if name is not None else position}]") from error
    return items


def check_context_quality(
    results: Iterable[Any] | Mapping[str, Any],
    threshold: float = GATE_MEAN,
    floor: float = GATE_FLOOR,
    *,
    scorer: QualityScorer | None = None,
    router: CragRouter | None = None,
) -> GateResult:
    """The gate's verdict on a benchmark's results: passed when the mean score is above
    ``threshold`` and no score is below ``floor``.

    :param scorer: the composite used for retrievals (default :class:`QualityScorer` with the
        specification's weights).
    :param router: score retrievals with this router instead (see :func:`gate_items`); pass
        its thresholds too (``router.upper``, ``router.lower`` in paper mode).
    :raises assay.AssayError: ``INVALID_CONFIG`` for a threshold or floor outside [0, 1];
        ``INVALID_INPUT`` for no results or a result that is not one (see :func:`gate_items`).
    """
    threshold = config_number(threshold, "threshold")
    floor = config_number(floor, "floor")
    items = gate_items(results, scorer, router=router)
    if not items:
        raise assay.AssayError(assay.ErrorCode.INVALID_INPUT, "no results to gate", "results")
    mean = sum(item.score for item in items) / len(items)
    below = tuple(sorted((i for i in items if i.score < floor), key=lambda i: i.score))
    return GateResult(mean > threshold and not below, mean, threshold, floor, tuple(items), below)


def assert_context_quality(
    results: Iterable[Any] | Mapping[str, Any],
    threshold: float = GATE_MEAN,
    floor: float = GATE_FLOOR,
    *,
    worst: int = 5,
    scorer: QualityScorer | None = None,
    router: CragRouter | None = None,
) -> GateResult:
    """:func:`check_context_quality` for a test: returns the result when the gate passes.

    :raises AssertionError: when it fails, with :meth:`GateResult.message` (the mean, the
        results under the floor and the ``worst`` lowest).
    :raises assay.AssayError: as :func:`check_context_quality`.
    """
    result = check_context_quality(results, threshold, floor, scorer=scorer, router=router)
    if not result.passed:
        raise AssertionError(result.message(worst))
    return result
