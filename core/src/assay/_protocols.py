"""The five extension contracts of assay: Dimension, Metric, Perturbation, Policy, Judge.

Each is a :class:`typing.Protocol`: any object with the listed attributes and methods qualifies,
no subclassing needed. Subclassing is allowed and gives the documented defaults of the optional
methods (``Dimension.is_active``, ``validate_config``, ``check_inputs``).

Objects are registered once, at discovery (see :mod:`assay._hookspecs`), and then called directly
on the hot path: no hook dispatch per scored answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from assay._records import (
    Decision,
    DimensionScore,
    EvalSample,
    JudgeReply,
    MetricResult,
    PerturbationCase,
    ScoreWarning,
    Variant,
)

if TYPE_CHECKING:
    import random

__all__ = ["Dimension", "Judge", "Metric", "MetricContext", "Perturbation", "Policy"]


@runtime_checkable
class Dimension(Protocol):
    """One scored aspect of an answer or of its retrieved context, worth up to ``max_points``.

    Attributes:
        name: wire name, unique in a composition (``"politeness"``, say).
        tier: 1 (answer confidence) or 2 (system readiness); decides which tier it counts in.
        max_points: the native maximum of ``raw``.
        default_weight: its weight in the total when the config gives none (usually
            ``max_points``, so that the weighted contribution equals ``raw``).

    Optional attributes a composing job reads when present (not protocol members, so objects
    without them still satisfy the protocol):
        extension: counted among the active extensions when active (default ``True``).
        check_order: where this dimension's :meth:`check_inputs` runs among the others' (lower
            first; default 1000).
        config_activated: ``True`` when :meth:`is_active` depends on the config alone (as for
            a dimension that is active when its config section is present): the scorer then
            asks once, when it is built, with empty inputs, instead of for every answer.
            Default ``False``.
        reads: the input fields (wire names) this dimension reads, e.g.
            ``frozenset({"answerText"})``; documentation for users and tooling (which signals
            a composition needs). Default: empty.
        missing_signals: which missing input signal each of its warning codes means, e.g.
            ``{"missing-answer-text": "answerText"}``; a job lists those signals in its output.
            Default: empty.

    Contract of :meth:`score`:
        * Input: ``inputs`` and ``config`` are mappings in the composing job's wire shape
          (camelCase keys). An absent key means "not provided"; a present ``None`` is a
          provided null.
        * Output: a :class:`DimensionScore` with ``0 <= raw <= max_points``,
          ``max == max_points`` and ``breakdown.raw == raw``; every point change is named in
          ``breakdown.components`` or ``breakdown.adjustments``.
        * Deterministic: no clock, no randomness, no I/O. Time (``now``) comes from config.
        * Errors: input problems are reported as warnings, not exceptions; structurally broken
          input may raise :class:`~assay.AssayError` with code ``MALFORMED_INPUT``.
    """

    name: str
    tier: int
    max_points: float
    default_weight: float

    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        """Whether this dimension takes part in this call. Default: always."""
        return True

    def validate_config(self, config: Mapping[str, Any]) -> None:
        """Raise :class:`~assay.AssayError` (``INVALID_CONFIG``, with the field path) when this
        dimension's part of ``config`` is invalid. Called once, when a scorer is created. Default:
        nothing to check."""
        return None

    def check_inputs(
        self, inputs: Mapping[str, Any], config: Mapping[str, Any]
    ) -> Sequence[ScoreWarning]:
        """Input problems of an active dimension, before scoring. In ``validation="strict"`` the
        first one (in composition order) is raised as ``INVALID_INPUT``. Default: none."""
        return ()

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> DimensionScore:
        """Score one input record; see the class docstring for the contract."""
        ...


class MetricContext(Protocol):
    """What the job running a metric hands it besides the sample.

    Attributes:
        options: the run's options (mode, thresholds, judge settings) as a mapping.
        judge: the configured :class:`Judge`, or ``None`` in heuristic mode.

    :meth:`shared` memoizes per-sample work across metrics (tokenizing once, not once per metric).
    """

    options: Mapping[str, Any]
    judge: Judge | None

    def shared(self, key: str, compute: Any) -> Any:
        """Return ``compute()`` the first time ``key`` is asked for on this sample, then the
        cached value."""
        ...


@runtime_checkable
class Metric(Protocol):
    """A metric over one :class:`~assay.EvalSample`.

    Attributes:
        id: stable metric id, e.g. ``"answer_length"``.
        default_threshold: pass threshold in [0, 1] used when the caller gives none.
        higher_is_better: ``False`` for metrics such as hallucination rate, where the pass test
            is ``score <= threshold``.
        requires: sample fields the metric needs (``"ground_truth"``, ``"contexts"``); without
            them the result is undetermined, not a failure.

    Contract of :meth:`compute`:
        * Output: a :class:`~assay.MetricResult` whose ``score`` is in [0, 1] or ``None``
          (undetermined); ``passed`` follows ``threshold`` and ``higher_is_better``, or is
          ``None`` when undetermined.
        * Deterministic in heuristic mode; a judge-backed metric is deterministic given the
          judge's replies.
        * Errors: bad sample fields raise :class:`~assay.AssayError` (``INVALID_INPUT``);
          an unusable judge reply yields an undetermined result with the reply as evidence.
    """

    id: str
    default_threshold: float
    higher_is_better: bool
    requires: frozenset[str]

    def compute(self, sample: EvalSample, context: MetricContext, threshold: float) -> MetricResult:
        """Score one sample at ``threshold``."""
        ...


@runtime_checkable
class Perturbation(Protocol):
    """A change to a test case's retrieved context that a robust pipeline should (or should not)
    react to.

    Attributes:
        name: stable name, e.g. ``"shuffle"``.
        signal: ``"invariance"`` when the decision should not change under this perturbation
            (a new chunk order, say), ``"sensitivity"`` when it should (the key evidence
            replaced by its counterfactual).

    Contract of :meth:`variants`:
        * Input: the case, the other cases of the run (padding material), a seeded
          :class:`random.Random` (the only source of randomness), and this perturbation's
          parameters from the configuration.
        * Output: zero or more :class:`~assay.Variant` with unique names within the case.
        * Deterministic: same case, same random state, same parameters -> same variants.
        * Errors: a case that lacks what this perturbation needs raises
          :class:`~assay.AssayError` (``INVALID_INPUT``) naming the case's file.
    """

    name: str
    signal: str

    def variants(
        self,
        case: PerturbationCase,
        others: Sequence[PerturbationCase],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Iterable[Variant]:
        """Produce this perturbation's variants of ``case``."""
        ...


@runtime_checkable
class Policy(Protocol):
    """Turns evidence into an action, naming the rule that decided.

    Attributes:
        name: stable name, e.g. ``"score-floor"``.
        evidence_type: what :meth:`decide` accepts (a class or a short description), so a
            composition can check that it feeds the policy the right evidence.

    Contract of :meth:`decide`:
        * Output: a :class:`~assay.Decision` whose ``rule`` is a stable id and whose ``reason``
          names the rule and the numbers it compared.
        * Deterministic and side-effect free (sealing decisions in an audit chain is the
          caller's job).
        * Errors: evidence of the wrong shape raises :class:`~assay.AssayError`.
    """

    name: str
    evidence_type: Any

    def decide(self, evidence: Any) -> Decision:
        """Decide on one piece of evidence."""
        ...


@runtime_checkable
class Judge(Protocol):
    """A model (or anything else) that answers a prompt with text.

    Attributes:
        name: identifies the judge and its model in caches and reports, e.g.
            ``"provider:model-name"``; two judges with the same name must answer alike.

    Contract of :meth:`complete`:
        * Input: the full prompt text.
        * Output: a :class:`~assay.JudgeReply` (raw text plus token counts when known).
        * Errors: transport or configuration failures raise :class:`~assay.AssayError` with a
          code the judge documents (``INVALID_CONFIG`` for configuration); the metric then
          reports an undetermined result rather than a failure.
    """

    name: str

    def complete(self, prompt: str) -> JudgeReply:
        """Answer one prompt."""
        ...


# The helpers below are used by the registry to check registered objects against a protocol
# without relying on runtime_checkable's attribute-only check.
PROTOCOL_REQUIREMENTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "dimension": (("name", "tier", "max_points", "default_weight"), ("score",)),
    "metric": (("id", "default_threshold", "higher_is_better", "requires"), ("compute",)),
    "perturbation": (("name", "signal"), ("variants",)),
    "policy": (("name",), ("decide",)),
    "judge": (("name",), ("complete",)),
}
