"""assay-faithfulness: the seven heuristic RAG metrics compatible with
rag-eval-node-ts 0.3, and their text primitives.

Metrics (``assay.Metric`` objects, registered by the ``faithfulness`` plugin): faithfulness,
answer_relevance, context_precision, context_recall, context_relevance, answer_correctness,
hallucination_rate. Their scores match the reference implementation bit for bit.

Primitives: :func:`tokenize`, :func:`get_ngrams`, :func:`ngram_overlap`,
:func:`weighted_ngram_overlap`, :func:`build_tfidf_vectors`, :func:`cosine_similarity`,
:func:`tfidf_similarity`, :func:`token_f1`, :func:`split_sentences`,
:func:`filter_factual_sentences`.

Our own metrics (registered, not in the ``default`` set): ``claim_support`` (:class:`ClaimSupport`),
built for hallucination detection, and ``answer_support`` (:class:`AnswerSupport`), which also
checks the answer against the question; :func:`analyze_answer` gives its per-claim evidence
(:class:`AnswerEvidence`, :class:`ClaimEvidence`, :class:`SupportSpan`, :class:`UnsupportedItem`).

Standalone use: :func:`score_sample` (with :class:`SimpleMetricContext`); wire form:
:func:`result_to_wire`.
"""

# first: with ASSAY_PURE_PYTHON set, it has every module of the package load from its source
from assay_faithfulness import _compiled  # noqa: F401  # isort: skip
from assay_faithfulness.answer_metrics import (
    AnswerCorrectness,
    AnswerRelevance,
    Faithfulness,
    HallucinationRate,
)
from assay_faithfulness.answer_support import AnswerSupport
from assay_faithfulness.base import HeuristicMetric, Measured, Signal
from assay_faithfulness.claim_support import ClaimSupport
from assay_faithfulness.context_metrics import ContextPrecision, ContextRecall, ContextRelevance
from assay_faithfulness.detector import analyze_answer
from assay_faithfulness.evidence import AnswerEvidence, ClaimEvidence, SupportSpan, UnsupportedItem
from assay_faithfulness.ngrams import get_ngrams, ngram_overlap, weighted_ngram_overlap
from assay_faithfulness.options import HeuristicOptions
from assay_faithfulness.standalone import (
    DEFAULT_METRIC_IDS,
    DEFAULT_METRICS,
    EXTRA_METRICS,
    SimpleMetricContext,
    get_metric,
    score_sample,
)
from assay_faithfulness.text import filter_factual_sentences, split_sentences, tokenize
from assay_faithfulness.tfidf import (
    build_tfidf_vectors,
    cosine_similarity,
    tfidf_similarity,
    token_f1,
)
from assay_faithfulness.wire import WIRE_IDS, metric_id_from_wire, result_to_wire

__all__ = [
    "DEFAULT_METRICS",
    "DEFAULT_METRIC_IDS",
    "EXTRA_METRICS",
    "WIRE_IDS",
    "AnswerCorrectness",
    "AnswerEvidence",
    "AnswerRelevance",
    "AnswerSupport",
    "ClaimEvidence",
    "ClaimSupport",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "Faithfulness",
    "HallucinationRate",
    "HeuristicMetric",
    "HeuristicOptions",
    "Measured",
    "Signal",
    "SimpleMetricContext",
    "SupportSpan",
    "UnsupportedItem",
    "analyze_answer",
    "build_tfidf_vectors",
    "cosine_similarity",
    "filter_factual_sentences",
    "get_metric",
    "get_ngrams",
    "metric_id_from_wire",
    "ngram_overlap",
    "result_to_wire",
    "score_sample",
    "split_sentences",
    "tfidf_similarity",
    "token_f1",
    "tokenize",
    "weighted_ngram_overlap",
]
