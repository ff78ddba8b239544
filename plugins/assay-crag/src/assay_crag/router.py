"""The CRAG retrieval router as an :class:`assay.Policy`: correct / ambiguous / incorrect.

Two routing modes decide the classification:

* ``"paper"`` (Corrective RAG, arXiv 2401.15884; the default): each retrieved document gets a
  relevance score from a pluggable document scorer (:mod:`assay_crag.scorers`, the built-in
  lexical one by default); with ``m`` the highest: ``m > upper`` (any document above the upper
  threshold) is *correct*; else ``m > lower`` is *ambiguous*; else (every document at or below
  the lower threshold, or no document) is *incorrect*. Confidence: ``m`` for correct and
  ambiguous, ``1 - m`` for incorrect. Undetermined document scores (``None``) count as not
  relevant and are reported. Needs only the query and the documents.
* ``"composite"`` (the context-quality specification): on the composite context-quality score
  ``q`` (:mod:`assay_crag.composite`): ``q >= correct_at`` (0.7) is *correct*; else
  ``q <= incorrect_at`` (0.3) is *incorrect*; else *ambiguous*. Confidence: ``q`` for correct
  and ambiguous, ``1 - q`` for incorrect. The composite reads the retriever's scores; chunks
  without one are counted as 0 and the classification says so (``warnings``, ``reason``).

Each classification carries the specification's corrective action: *correct* -> ``use_retrieved``;
*ambiguous* -> ``decompose_and_recompose`` with sub-queries; *incorrect* ->
``supplemental_search`` with a keyword query. With ``refine=True`` the *correct* and *ambiguous*
actions also carry the paper's refined knowledge (best sentence strips of the documents).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

import assay
from assay_crag.actions import (
    RefinedContext,
    decompose_query,
    refine_knowledge,
    reformulate_query,
)
from assay_crag.checks import config_number
from assay_crag.composite import ContextQualityScore, QualityConfig, QualityScorer
from assay_crag.dimensions import MISSING_SCORE
from assay_crag.inputs import QualityInput, parse_quality_input
from assay_crag.scorers import DocumentScorer, resolve_document_scorer

__all__ = [
    "COMPOSITE_CORRECT_AT",
    "COMPOSITE_INCORRECT_AT",
    "PAPER_LOWER",
    "PAPER_UPPER",
    "CorrectiveAction",
    "CragClassification",
    "CragRouter",
    "RoutingMode",
]

RoutingMode = Literal["composite", "paper"]
Classification = Literal["correct", "ambiguous", "incorrect"]

PAPER_UPPER = 0.46
"""Default upper threshold of the paper mode with the lexical scorer. Chosen by
:func:`assay_crag.tuning.tune_thresholds` (ambiguous share at most 5%, a wrong call costing twice
a right one) on the tuning part of benchmarks/route_default.py: HaluEval questions with an even
index, each with its own passage and the passage a BM25 retriever returns from 49 other rows'
passages that lack the answer. See docs/route.md for the held-out results."""
PAPER_LOWER = 0.37
"""Default lower threshold of the paper mode with the lexical scorer (same provenance)."""
COMPOSITE_CORRECT_AT = 0.7
"""The specification's composite threshold for *correct* (``overall >= 0.7``)."""
COMPOSITE_INCORRECT_AT = 0.3
"""The specification's composite threshold for *incorrect* (``overall <= 0.3``)."""


def _str_tuple(value: Iterable[str]) -> tuple[str, ...]:
    """Typed tuple converter (keeps mypy aware of the element type)."""
    return tuple(value)


@attrs.frozen
class CorrectiveAction:
    """What to do with the retrieval (``CRAGAction`` of the JSON input format).

    Attributes:
        type: ``"use_retrieved"``, ``"decompose_and_recompose"`` or ``"supplemental_search"``.
        sub_queries: for ``decompose_and_recompose``, the queries to retrieve for.
        search_query: for ``supplemental_search``, the keyword query.
        refined_context: the paper's knowledge refinement of the retrieved documents, when the
            router was asked to refine (``correct`` and ``ambiguous`` only).
    """

    type: Literal["use_retrieved", "decompose_and_recompose", "supplemental_search"]
    sub_queries: tuple[str, ...] = attrs.field(default=(), converter=_str_tuple)
    search_query: str | None = None
    refined_context: RefinedContext | None = None

    def to_wire(self) -> dict[str, Any]:
        """Wire shape: ``{"type"}`` plus ``subQueries`` / ``searchQuery``, and
        ``refinedContext`` when present."""
        wire: dict[str, Any] = {"type": self.type}
        if self.type == "decompose_and_recompose":
            wire["subQueries"] = list(self.sub_queries)
        if self.type == "supplemental_search":
            wire["searchQuery"] = self.search_query
        if self.refined_context is not None:
            wire["refinedContext"] = self.refined_context.to_wire()
        return wire


@attrs.frozen
class CragClassification:
    """The router's verdict on one retrieval (``CRAGClassification`` of the JSON input format, and
    more).

    Attributes:
        classification: ``"correct"``, ``"ambiguous"`` or ``"incorrect"``.
        confidence: in [0, 1]; see the module docs for each mode.
        action: the corrective action.
        mode: the routing mode that decided.
        score: the number compared with the thresholds (composite ``overall``, or the highest
            document score).
        rule: stable id of the deciding rule, ``crag-<mode>-<classification>``.
        reason: the rule with the numbers it compared.
        thresholds: the thresholds in force, by name.
        quality: the composite score (composite mode), else ``None``.
        document_scores: each document's relevance (paper mode), else ``None``.
        warnings: inputs the deciding score needed but did not get (composite mode:
            ``missing-retrieval-score`` naming the first chunk without a retriever score).
    """

    classification: Classification
    confidence: float
    action: CorrectiveAction
    mode: RoutingMode
    score: float
    rule: str
    reason: str
    thresholds: Mapping[str, float]
    quality: ContextQualityScore | None = None
    document_scores: tuple[float | None, ...] | None = None
    warnings: tuple[assay.ScoreWarning, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        """The specification's ``{classification, confidence, action}`` plus ``mode``, ``score``,
        ``rule``, ``reason``, ``thresholds``, ``quality`` or ``documentScores``, and ``warnings``
        (``{code, severity, message, path}`` records) when there are any."""
        wire: dict[str, Any] = {
            "classification": self.classification,
            "confidence": self.confidence,
            "action": self.action.to_wire(),
            "mode": self.mode,
            "score": self.score,
            "rule": self.rule,
            "reason": self.reason,
            "thresholds": dict(self.thresholds),
        }
        if self.quality is not None:
            wire["quality"] = self.quality.to_wire()
        if self.document_scores is not None:
            wire["documentScores"] = list(self.document_scores)
        if self.warnings:
            wire["warnings"] = [attrs.asdict(w) for w in self.warnings]
        return wire

    def to_decision(self) -> assay.Decision:
        """As an :class:`assay.Decision`: action = classification, details = :meth:`to_wire`."""
        return assay.Decision(
            action=self.classification, rule=self.rule, reason=self.reason, details=self.to_wire()
        )


def _ordered(low: float, high: float, low_path: str, high_path: str) -> None:
    if low > high:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"{low_path} ({low:g}) must not exceed {high_path} ({high:g})",
            low_path,
        )


class CragRouter:
    """Classifies a retrieval and picks the corrective action (an :class:`assay.Policy`).

    :param mode: ``"paper"`` (the default: per-document relevance, needs no retriever scores) or
        ``"composite"`` (the context-quality specification's rule, compatible behaviour).
    :param correct_at: composite mode: ``overall >= correct_at`` is correct (0.7).
    :param incorrect_at: composite mode: ``overall <= incorrect_at`` is incorrect (0.3).
    :param upper: paper mode: a document scoring above this makes the retrieval correct
        (:data:`PAPER_UPPER`).
    :param lower: paper mode: the best document at or below this makes it incorrect
        (:data:`PAPER_LOWER`).
    :param quality: composite configuration (weights, warning thresholds), or a ready
        :class:`~assay_crag.composite.QualityScorer` (or subclass) to score with.
    :param scorer: paper mode and refinement: a document scorer or a name for
        :func:`~assay_crag.scorers.resolve_document_scorer` (default ``"lexical"``).
    :param decompose: ``query -> sub-queries`` (default :func:`decompose_query`).
    :param reformulate: ``query -> search query`` (default :func:`reformulate_query`).
    :param refine: attach refined knowledge to correct and ambiguous actions.
    :param refine_top_k: strips kept by refinement.
    :param refiner: ``(query, documents, scorer, top_k) -> RefinedContext`` (default
        :func:`refine_knowledge`).
    :param name: the policy's registry name (default ``crag-paper`` or ``crag-composite``).
    :raises assay.AssayError: ``INVALID_CONFIG`` for an unknown mode, a threshold outside
        [0, 1] or a lower threshold above the upper one; ``UNKNOWN_NAME`` for an unknown scorer.
    """

    evidence_type = QualityInput

    def __init__(
        self,
        mode: RoutingMode = "paper",
        *,
        correct_at: float = COMPOSITE_CORRECT_AT,
        incorrect_at: float = COMPOSITE_INCORRECT_AT,
        upper: float = PAPER_UPPER,
        lower: float = PAPER_LOWER,
        quality: QualityConfig | QualityScorer | None = None,
        scorer: str | DocumentScorer = "lexical",
        decompose: Callable[[str], Sequence[str]] = decompose_query,
        reformulate: Callable[[str], str] = reformulate_query,
        refine: bool = False,
        refine_top_k: int = 5,
        refiner: Callable[..., RefinedContext] = refine_knowledge,
        name: str | None = None,
        registry: assay.Registry | None = None,
    ) -> None:
        if mode not in ("composite", "paper"):
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG,
                f"unknown routing mode {mode!r}; use 'composite' or 'paper'",
                "mode",
            )
        self.mode: RoutingMode = mode
        self.correct_at = config_number(correct_at, "correctAt")
        self.incorrect_at = config_number(incorrect_at, "incorrectAt")
        _ordered(self.incorrect_at, self.correct_at, "incorrectAt", "correctAt")
        self.upper = config_number(upper, "upper")
        self.lower = config_number(lower, "lower")
        _ordered(self.lower, self.upper, "lower", "upper")
        self.name = name or f"crag-{mode}"
        self._quality = quality if isinstance(quality, QualityScorer) else QualityScorer(quality)
        self._scorer_spec = scorer
        self._registry = registry
        self._scorer: DocumentScorer | None = None
        if mode == "paper" or refine:
            self._scorer = resolve_document_scorer(scorer, registry)
        self.decompose = decompose
        self.reformulate = reformulate
        self.refine = refine
        self.refine_top_k = refine_top_k
        self.refiner = refiner

    @property
    def thresholds(self) -> dict[str, float]:
        """The thresholds of this router's mode, by wire name."""
        if self.mode == "composite":
            return {"correctAt": self.correct_at, "incorrectAt": self.incorrect_at}
        return {"upper": self.upper, "lower": self.lower}

    def _document_scorer(self) -> DocumentScorer:
        if self._scorer is None:
            self._scorer = resolve_document_scorer(self._scorer_spec, self._registry)
        return self._scorer

    def classify(self, evidence: QualityInput | Mapping[str, Any]) -> CragClassification:
        """Classify one retrieval (wire mapping or :class:`QualityInput`).

        :raises assay.AssayError: ``MALFORMED_INPUT`` for a broken input.
        """
        parsed = parse_quality_input(evidence)
        if self.mode == "composite":
            return self._classify_composite(parsed)
        return self._classify_paper(parsed)

    def decide(self, evidence: Any) -> assay.Decision:
        """:meth:`classify` as an :class:`assay.Decision` (the Policy contract)."""
        return self.classify(evidence).to_decision()

    def _classify_composite(self, parsed: QualityInput) -> CragClassification:
        quality = self._quality.score(parsed)
        missing = tuple(w for w in quality.warnings if w.code == MISSING_SCORE)
        q = quality.overall
        if q >= self.correct_at:
            label: Classification = "correct"
            reason = f"composite quality {q:.4f} >= correctAt {self.correct_at:g}"
        elif q <= self.incorrect_at:
            label = "incorrect"
            reason = f"composite quality {q:.4f} <= incorrectAt {self.incorrect_at:g}"
        else:
            label = "ambiguous"
            reason = (
                f"composite quality {q:.4f} between incorrectAt {self.incorrect_at:g} "
                f"and correctAt {self.correct_at:g}"
            )
        if missing:
            reason += self._missing_reason(parsed, quality)
        return self._finish(parsed, label, q, reason, quality=quality, warnings=missing)

    def _missing_reason(self, parsed: QualityInput, quality: ContextQualityScore) -> str:
        """What the missing retriever scores do to the composite; with none at all, the highest
        composite the retrieval could reach (the other sub-scores at their maximum, factual
        density's 0.4 part of estimatedFaithfulness) when that is below ``correct_at``."""
        unscored = sum(c.score is None and c.rerank_score is None for c in parsed.chunks)
        reason = (
            f"; {unscored} of {len(parsed.chunks)} chunk(s) have no retriever score, counted as 0"
        )
        if unscored == len(parsed.chunks):
            w = quality.weights
            ceiling = (
                w["contextSufficiency"] + w["diversityScore"] + 0.4 * w["estimatedFaithfulness"]
            )
            if ceiling < self.correct_at:
                reason += (
                    f": without retriever scores the composite is at most {ceiling:.2f}, below "
                    f"correctAt {self.correct_at:g}, so no retrieval can route correct "
                    "(use mode 'paper', or pass the retriever's scores)"
                )
        return reason

    def _classify_paper(self, parsed: QualityInput) -> CragClassification:
        scorer = self._document_scorer()
        scores = scorer.score_documents(parsed.query, [c.content for c in parsed.chunks])
        known = [s for s in scores if s is not None]
        best = max(known, default=0.0)
        undetermined = len(scores) - len(known)
        above_upper = sum(s > self.upper for s in known)
        if best > self.upper:
            label: Classification = "correct"
            reason = f"{above_upper} document(s) above upper {self.upper:g} (best {best:.4f})"
        elif best > self.lower:
            label = "ambiguous"
            reason = (
                f"best document {best:.4f} above lower {self.lower:g} "
                f"but not above upper {self.upper:g}"
            )
        else:
            label = "incorrect"
            reason = (
                f"no document above lower {self.lower:g} (best {best:.4f} of {len(scores)})"
                if scores
                else "no documents were retrieved"
            )
        if undetermined:
            reason += f"; {undetermined} document score(s) undetermined, counted as irrelevant"
        reason += f" [scorer {scorer.name}]"
        return self._finish(parsed, label, best, reason, document_scores=tuple(scores))

    def _finish(
        self,
        parsed: QualityInput,
        label: Classification,
        score: float,
        reason: str,
        *,
        quality: ContextQualityScore | None = None,
        document_scores: tuple[float | None, ...] | None = None,
        warnings: tuple[assay.ScoreWarning, ...] = (),
    ) -> CragClassification:
        refined = None
        if self.refine and label != "incorrect":
            refined = self.refiner(
                parsed.query,
                [c.content for c in parsed.chunks],
                self._document_scorer(),
                top_k=self.refine_top_k,
            )
        if label == "correct":
            action = CorrectiveAction("use_retrieved", refined_context=refined)
        elif label == "ambiguous":
            action = CorrectiveAction(
                "decompose_and_recompose",
                sub_queries=tuple(str(q) for q in self.decompose(parsed.query)),
                refined_context=refined,
            )
        else:
            action = CorrectiveAction(
                "supplemental_search", search_query=self.reformulate(parsed.query)
            )
        return CragClassification(
            classification=label,
            confidence=1.0 - score if label == "incorrect" else score,
            action=action,
            mode=self.mode,
            score=score,
            rule=f"crag-{self.mode}-{label}",
            reason=reason,
            thresholds=self.thresholds,
            quality=quality,
            document_scores=document_scores,
            warnings=warnings,
        )

    def __repr__(self) -> str:
        return f"<CragRouter {self.name} mode={self.mode} {self.thresholds}>"
