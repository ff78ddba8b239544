"""Per-document relevance scorers for the paper's routing mode and for knowledge refinement.

A *document scorer* is any object with a ``name`` and
``score_documents(query, documents) -> tuple[float | None, ...]``: one relevance score in [0, 1]
per document, or ``None`` when the scorer could not tell (an undetermined metric result, an
unparseable judge reply). Four are provided:

* :class:`LexicalRelevanceScorer`: built in, no model; weighted share of the query's content
  words found in the document.
* :class:`TopicalRelevanceScorer`: built in, no model, opt-in; the lexical score corrected by
  what the retrieved documents are about (their opening subjects) and how they name each
  other.
* :class:`MetricDocumentScorer`: wraps any registered :class:`assay.Metric` (for example
  ``context_relevance`` from assay-faithfulness) by scoring ``EvalSample(question=query,
  contexts=(document,))``.
* :class:`JudgeDocumentScorer`: wraps any registered :class:`assay.Judge` with a prompt asking
  for a relevance number.

:func:`resolve_document_scorer` turns a name (``"topical"``, ``"lexical"``, ``"metric:<id>"``,
``"judge:<name>"``, or a bare registered metric / judge name) into a scorer.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import assay
from assay_crag.subjects import names, names_person, opening_subject
from assay_crag.text import STOP_WORDS

__all__ = [
    "DocumentScorer",
    "JudgeDocumentScorer",
    "LexicalRelevanceScorer",
    "MetricDocumentScorer",
    "TopicalRelevanceScorer",
    "resolve_document_scorer",
]


@runtime_checkable
class DocumentScorer(Protocol):
    """Scores documents' relevance to a query.

    Attributes:
        name: identifies the scorer in decisions and reports.

    Contract of :meth:`score_documents`: one entry per document, in order, each a number in
    [0, 1] or ``None`` (undetermined); deterministic given the same inputs (and, for a judge,
    the same replies).
    """

    name: str

    def score_documents(self, query: str, documents: Sequence[str]) -> tuple[float | None, ...]: ...


_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
STEM_LENGTH = 6
"""Query words of this many letters or more match any document word they begin (a crude stem:
``national`` matches ``nationality``); shorter ones must match a whole word."""


def _has_word(document: str, stem: str) -> bool:
    """Whether lower-cased ``document`` holds ``stem`` at the start of a word, and, for a stem
    shorter than :data:`STEM_LENGTH`, as the whole word."""
    whole = len(stem) < STEM_LENGTH
    position = document.find(stem)
    while position != -1:
        end = position + len(stem)
        if (position == 0 or not document[position - 1].isalnum()) and (
            not whole or end == len(document) or not document[end].isalnum()
        ):
            return True
        position = document.find(stem, position + 1)
    return False


class LexicalRelevanceScorer:
    """Built-in relevance: the weighted share of the query's content words present in the
    document.

    Query words are the tokens of the query that are not stop words (see
    :data:`assay_crag.text.STOP_WORDS`) and longer than one character, lower-cased and cut to
    their first :data:`STEM_LENGTH` letters; a word is present when the lower-cased document
    holds it at the start of a word (as a whole word when shorter than six letters). A word
    written with a capital letter in the query (other than the query's first word) or containing
    a digit weighs ``name_weight`` (default 2), others weigh 1. Score = present weight / total
    weight; a query without content words scores 0.
    """

    name = "lexical"

    def __init__(self, name_weight: float = 2.0) -> None:
        self.name_weight = name_weight

    def query_weights(self, query: str) -> dict[str, float]:
        """Stem -> weight for the query's content words (the largest weight when repeated)."""
        weights: dict[str, float] = {}
        for position, match in enumerate(_TOKEN.finditer(query)):
            word = match.group()
            lower = word.lower()
            if len(lower) <= 1 or lower in STOP_WORDS:
                continue
            is_name = (word[0].isupper() and position > 0) or any(ch.isdigit() for ch in word)
            weight = self.name_weight if is_name else 1.0
            stem = lower[:STEM_LENGTH]
            weights[stem] = max(weights.get(stem, 0.0), weight)
        return weights

    def score_weighted(self, weights: Mapping[str, float], document: str) -> float:
        """Score one document against precomputed :meth:`query_weights`."""
        total = sum(weights.values())
        if total == 0:
            return 0.0
        lowered = document.lower()
        return sum(w for stem, w in weights.items() if _has_word(lowered, stem)) / total

    def score_documents(self, query: str, documents: Sequence[str]) -> tuple[float | None, ...]:
        weights = self.query_weights(query)
        return tuple(self.score_weighted(weights, document) for document in documents)


OFF_TOPIC_WEIGHT = 0.3
"""The factor on the lexical score of a document about something else (see
:class:`TopicalRelevanceScorer`). At 0.3 such a document, even one holding every query word
(1.0), stays at or below the paper mode's default lower threshold (0.37): alone it can only route
incorrect. Chosen on the tuning part of benchmarks/route_default.py (even-indexed HotpotQA
questions), where factors from 0.2 to 0.35 route the same."""


class TopicalRelevanceScorer:
    """The lexical score corrected by what the documents of one retrieval are about.

    A retrieval of several documents is judged as a whole. A document is *on topic* when its
    opening subject (:func:`~assay_crag.subjects.opening_subject`) is named in the query as a
    name of its own (not inside a longer name: ``Kirton`` is not ``Kirton End``), or is a
    person named there by first and last names, or, by links repeated until none is added,
    when an on-topic document names its subject or it names an on-topic document's subject
    (the bridge of a multi-hop question).

    * Some document on topic: each on-topic document scores the larger of its own lexical score
      and the share of the query's words that the retrieval's documents hold together (the
      lexical scorer's weights); the other documents keep their lexical score.
    * None on topic: a document that opens with a subject, which the query does not name, is
      about something else and scores its lexical score times :data:`OFF_TOPIC_WEIGHT`;
      a document whose subject cannot be read keeps its lexical score.

    One document alone is scored as :class:`LexicalRelevanceScorer` scores it.

    Use it where retrievals hold several passages and a relevant one is about something the
    question names (multi-hop questions over encyclopaedic passages). It is not the default
    because the same rule that drops passages about entities the question does not name drops
    answer passages about the entity the question only describes (``Paris is the capital of
    France`` for *What is the capital of France?*) when nothing named is retrieved with them;
    docs/route.md gives the measured cost.
    """

    name = "topical"

    def __init__(self, lexical: LexicalRelevanceScorer | None = None) -> None:
        self.lexical = lexical or LexicalRelevanceScorer()

    def score_documents(self, query: str, documents: Sequence[str]) -> tuple[float | None, ...]:
        weights = self.lexical.query_weights(query)
        scores = [self.lexical.score_weighted(weights, document) for document in documents]
        if len(documents) < 2:
            return tuple(scores)
        subjects = [opening_subject(document) for document in documents]
        on_topic = _on_topic(query, documents, subjects)
        if any(on_topic):
            together = self.lexical.score_weighted(weights, " ".join(documents))
            return tuple(
                max(score, together) if on else score
                for score, on in zip(scores, on_topic, strict=True)
            )
        return tuple(
            score * OFF_TOPIC_WEIGHT if subject else score
            for score, subject in zip(scores, subjects, strict=True)
        )


def _on_topic(query: str, documents: Sequence[str], subjects: Sequence[str | None]) -> list[bool]:
    """Which documents are on topic (see :class:`TopicalRelevanceScorer`)."""
    on_topic = [
        subject is not None
        and (names(query, subject, standalone=True) or names_person(query, subject))
        for subject in subjects
    ]
    added = True
    while added:
        added = False
        for i, subject in enumerate(subjects):
            if on_topic[i]:
                continue
            on_topic[i] = any(
                on_topic[j]
                and (
                    (subject is not None and names(documents[j], subject))
                    or (other is not None and names(documents[i], other))
                )
                for j, other in enumerate(subjects)
                if j != i
            )
            added = added or on_topic[i]
    return on_topic


class _SampleContext:
    """A minimal :class:`assay.MetricContext` for scoring one document with one metric."""

    def __init__(self, options: Mapping[str, Any], judge: assay.Judge | None) -> None:
        self.options = options
        self.judge = judge
        self._cache: dict[str, Any] = {}

    def shared(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]


class MetricDocumentScorer:
    """Relevance from a registered :class:`assay.Metric`: each document is scored alone as
    ``EvalSample(question=query, answer="", contexts=(document,))`` at the metric's default
    threshold. The metric's score is the document's relevance; an undetermined result is
    ``None``. ``options`` and ``judge`` are passed to the metric through its context.
    """

    def __init__(
        self,
        metric: assay.Metric,
        options: Mapping[str, Any] | None = None,
        judge: assay.Judge | None = None,
    ) -> None:
        self.metric = metric
        self.options = dict(options or {})
        self.judge = judge
        self.name = f"metric:{metric.id}"

    def score_documents(self, query: str, documents: Sequence[str]) -> tuple[float | None, ...]:
        scores: list[float | None] = []
        for document in documents:
            sample = assay.EvalSample(question=query, answer="", contexts=(document,))
            context = _SampleContext(self.options, self.judge)
            result = self.metric.compute(sample, context, self.metric.default_threshold)
            scores.append(None if result.score is None else float(result.score))
        return tuple(scores)


JUDGE_PROMPT = (
    "You grade retrieval for a question-answering system.\n"
    "Question: {query}\n"
    "Document: {document}\n"
    "How relevant is the document to answering the question? Reply with one number between "
    '0 (irrelevant) and 1 (directly answers it), or JSON {{"score": <number>}}.'
)
"""Default prompt of :class:`JudgeDocumentScorer` (``{query}`` and ``{document}`` filled in)."""

_FIRST_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def parse_relevance_reply(text: str) -> float | None:
    """A judge's relevance reply as a number in [0, 1]: JSON ``{"score": x}`` or the first
    number in the text; ``None`` when there is none or it lies outside [0, 1]."""
    value: Any = None
    try:
        parsed = json.loads(text)
        value = parsed.get("score") if isinstance(parsed, dict) else parsed
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        match = _FIRST_NUMBER.search(text)
        value = float(match.group()) if match else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value <= 1 and math.isfinite(value) else None


class JudgeDocumentScorer:
    """Relevance from a registered :class:`assay.Judge`: one prompt per document (``prompt``
    with ``{query}`` and ``{document}``), reply read by :func:`parse_relevance_reply`.
    A judge error (:class:`assay.AssayError`) propagates."""

    def __init__(self, judge: assay.Judge, prompt: str = JUDGE_PROMPT) -> None:
        self.judge = judge
        self.prompt = prompt
        self.name = f"judge:{judge.name}"

    def score_documents(self, query: str, documents: Sequence[str]) -> tuple[float | None, ...]:
        return tuple(
            parse_relevance_reply(
                self.judge.complete(self.prompt.format(query=query, document=document)).text
            )
            for document in documents
        )


def resolve_document_scorer(
    spec: str | DocumentScorer, registry: assay.Registry | None = None
) -> DocumentScorer:
    """The document scorer named by ``spec``.

    ``"lexical"`` is the built-in :class:`LexicalRelevanceScorer` (the default router's),
    ``"topical"`` the built-in :class:`TopicalRelevanceScorer`; ``"metric:<id>"`` and
    ``"judge:<name>"`` look the object up in ``registry`` (default: the default registry); a bare
    name is tried as a metric, then as a judge. An object that already is a document scorer is
    returned as is.

    :raises assay.AssayError: ``UNKNOWN_NAME`` (or ``AMBIGUOUS_NAME``) when the name resolves to
        nothing (or to several providers; qualify it as ``metric:plugin/id``).
    """
    if not isinstance(spec, str):
        return spec
    if spec == "lexical":
        return LexicalRelevanceScorer()
    if spec == "topical":
        return TopicalRelevanceScorer()
    registry = registry or assay.default_registry()
    kind, sep, name = spec.partition(":")
    if sep and kind == "metric":
        return MetricDocumentScorer(registry.metric(name))
    if sep and kind == "judge":
        return JudgeDocumentScorer(registry.judge(name))
    if registry.has("metric", spec):
        return MetricDocumentScorer(registry.metric(spec))
    if registry.has("judge", spec):
        return JudgeDocumentScorer(registry.judge(spec))
    raise assay.AssayError(
        assay.ErrorCode.UNKNOWN_NAME,
        f"no document scorer {spec!r}: use 'lexical', 'topical', 'metric:<id>' or "
        f"'judge:<name>' "
        f"(metrics: {', '.join(registry.names('metric')) or 'none'}; "
        f"judges: {', '.join(registry.names('judge')) or 'none'})",
        "scorer",
    )
