"""assay-crag: context quality, CRAG retrieval routing, A/B analysis and quality alerts.

Public modules (this package imports nothing heavy at load time; :mod:`assay_crag.ab` loads
numpy and scipy when an analysis runs):

* :mod:`assay_crag.inputs` — the retrieval being judged (query, ranked chunks, context).
* :mod:`assay_crag.dimensions` — the four context-quality Dimensions.
* :mod:`assay_crag.composite` — the weighted composite with the specification's warnings.
* :mod:`assay_crag.scorers` — per-document relevance scorers (topical, lexical, any Metric,
  any Judge).
* :mod:`assay_crag.subjects` — what a passage opens with, and whether a text names it.
* :mod:`assay_crag.actions` — decomposition, reformulation, knowledge refinement.
* :mod:`assay_crag.router` — the CRAG router Policy (paper mode by default, and the
  specification's composite mode).
* :mod:`assay_crag.tuning` — choosing router thresholds on labelled retrievals.
* :mod:`assay_crag.gate` — the context-quality CI gate (mean above 0.65, no query below 0.3).
* :mod:`assay_crag.ab` — A/B analysis of retrieval variants.
* :mod:`assay_crag.alerts` — quality alerts and the streaming monitor.
"""

from assay_crag.actions import decompose_query, refine_knowledge, reformulate_query
from assay_crag.composite import ContextQualityScore, QualityConfig, QualityScorer
from assay_crag.gate import assert_context_quality, check_context_quality
from assay_crag.inputs import AssembledContext, QualityInput, RankedChunk, parse_quality_input
from assay_crag.router import CorrectiveAction, CragClassification, CragRouter
from assay_crag.scorers import (
    LexicalRelevanceScorer,
    TopicalRelevanceScorer,
    resolve_document_scorer,
)
from assay_crag.tuning import route_counts, tune_thresholds

__all__ = [
    "AssembledContext",
    "ContextQualityScore",
    "CorrectiveAction",
    "CragClassification",
    "CragRouter",
    "LexicalRelevanceScorer",
    "QualityConfig",
    "QualityInput",
    "QualityScorer",
    "RankedChunk",
    "TopicalRelevanceScorer",
    "assert_context_quality",
    "check_context_quality",
    "decompose_query",
    "parse_quality_input",
    "refine_knowledge",
    "reformulate_query",
    "resolve_document_scorer",
    "route_counts",
    "tune_thresholds",
]
