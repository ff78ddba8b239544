"""assay-scorecard: how far to trust one RAG answer, in microseconds.

Composes registered :class:`~assay.Dimension` objects into a 0-100 scorecard with tiers, labels,
per-point reasons and warnings, and lets a :class:`~assay.Policy` recommend ``answer``,
``review`` or ``abstain``, naming the rule that decided. Compatible with transparent-confidence
0.3 (TypeScript): the same numbers, and the same JSON input format and scorecard shape.

Start with :func:`compute_confidence` (one answer) or :func:`create_scorer` (many answers, one
config); :func:`score_many` and :func:`score_jsonl` score batches and JSON Lines streams.

Answer-first: :func:`score_answer_record` / :func:`create_answer_scorer` score an answer from its
text (question, answer, contexts): a registered :class:`SignalReader` derives the signals and the
:class:`TextEvidence` behind them, and preset ``grounded-v1`` never answers an unsupported
answer. The default reader comes with the assay-answer plugin (``assay_answer.score_answer``).
"""

from assay_scorecard.answer_records import (
    ANSWER_FIELD_ALIASES,
    INVALID_ANSWER_RECORD,
    INVALID_CONTEXT,
    AnswerRecord,
    Context,
    candidate_signals,
    is_answer_record,
    read_answer_record,
)
from assay_scorecard.answers import (
    AnswerResult,
    AnswerScorer,
    create_answer_scorer,
    score_answer_record,
)
from assay_scorecard.batch import score_many
from assay_scorecard.engine import (
    ALGORITHM_VERSION,
    SCHEMA_VERSION,
    Scorer,
    compute_confidence,
    create_scorer,
)
from assay_scorecard.jsonl import JsonlSummary, score_jsonl
from assay_scorecard.observability import log_record, otel_attributes, record_on_span
from assay_scorecard.policy import ScorecardEvidence, ThresholdActionPolicy
from assay_scorecard.presets import GROUNDED_PRESET, Preset
from assay_scorecard.readers import (
    DEFAULT_READER,
    READER_FAILED,
    READER_KIND,
    SignalReader,
    SignalReading,
    find_reader,
    register_reader,
)
from assay_scorecard.render import render_html, render_markdown, render_text
from assay_scorecard.signal_policy import LOW_SUPPORT, UNSUPPORTED_ANSWER, effective_support
from assay_scorecard.text_evidence import ClaimFinding, TextEvidence, UnsupportedFinding
from assay_scorecard.types import (
    ActionPolicyConfig,
    Candidate,
    ClaimSupport,
    IndexIntegrityInputs,
    Scorecard,
    ScorecardMeta,
    ScoringConfig,
    ScoringInputs,
    SignalPolicyConfig,
    TierResult,
)
from assay_scorecard.wire import (
    scorecard_to_json,
    scorecard_to_wire,
    scoring_config_from_wire,
    scoring_config_to_wire,
    scoring_inputs_from_wire,
    scoring_inputs_to_wire,
)

__all__ = [
    "ALGORITHM_VERSION",
    "ANSWER_FIELD_ALIASES",
    "DEFAULT_READER",
    "GROUNDED_PRESET",
    "INVALID_ANSWER_RECORD",
    "INVALID_CONTEXT",
    "LOW_SUPPORT",
    "READER_FAILED",
    "READER_KIND",
    "SCHEMA_VERSION",
    "UNSUPPORTED_ANSWER",
    "ActionPolicyConfig",
    "AnswerRecord",
    "AnswerResult",
    "AnswerScorer",
    "Candidate",
    "ClaimFinding",
    "ClaimSupport",
    "Context",
    "IndexIntegrityInputs",
    "JsonlSummary",
    "Preset",
    "Scorecard",
    "ScorecardEvidence",
    "ScorecardMeta",
    "Scorer",
    "ScoringConfig",
    "ScoringInputs",
    "SignalPolicyConfig",
    "SignalReader",
    "SignalReading",
    "TextEvidence",
    "ThresholdActionPolicy",
    "TierResult",
    "UnsupportedFinding",
    "candidate_signals",
    "compute_confidence",
    "create_answer_scorer",
    "create_scorer",
    "effective_support",
    "find_reader",
    "is_answer_record",
    "log_record",
    "otel_attributes",
    "read_answer_record",
    "record_on_span",
    "register_reader",
    "render_html",
    "render_markdown",
    "render_text",
    "score_answer_record",
    "score_jsonl",
    "score_many",
    "scorecard_to_json",
    "scorecard_to_wire",
    "scoring_config_from_wire",
    "scoring_config_to_wire",
    "scoring_inputs_from_wire",
    "scoring_inputs_to_wire",
]
