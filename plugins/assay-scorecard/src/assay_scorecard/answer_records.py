"""Answer records: a RAG pipeline's output (question, answer, retrieved contexts) as the
scorecard reads it, and the retrieval candidates their metadata gives.

An answer record in the JSON input format::

    {"question": "...", "answer": "...",
     "contexts": ["text", {"id": "doc-1", "text": "...", "score": 0.82, "rank": 1}, ...],
     "signals": {...}?, "config": {...}?, "id": ...?, "metadata": {...}?, "groundTruth": ...?}

A context is a string (its text) or an object with ``text`` and optional retrieval metadata
(see :class:`Context`). ``signals`` holds scoring inputs the pipeline already knows (e.g.
``answerRelevanceScore`` from an evaluator); they take precedence over the derived ones. Their
names and values are checked when the record is scored, as the scorer checks scoring inputs (an
unknown name or an unreadable value is a warning and set aside, or an error in strict
validation).
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from typing import Any

import attrs

from assay import AssayError
from assay_scorecard.signals import json_kind

__all__ = [
    "ANSWER_FIELD_ALIASES",
    "INVALID_ANSWER_RECORD",
    "INVALID_CONTEXT",
    "AnswerRecord",
    "Context",
    "candidate_signals",
    "is_answer_record",
    "read_answer_record",
]

INVALID_ANSWER_RECORD = "INVALID_ANSWER_RECORD"
"""Error code: an answer record is not an object, has an unknown key, or its ``question``,
``answer``, ``contexts`` or ``signals`` has the wrong type (the path names the field); in strict
validation also a signal of an unknown name or an unreadable value (path ``signals.<name>``)."""
INVALID_CONTEXT = "INVALID_CONTEXT"
"""Error code: a context is neither a string nor an object, lacks ``text``, has an unknown key
or a field of the wrong type (the path names it, e.g. ``contexts[2].score``)."""

_SAMPLE_KEYS = (
    "metadata",
    "groundTruth",
    "ground_truth",
    "reference",
    "expected_output",
    # the other columns of a ragas SingleTurnSample (those assay eval skips too)
    "reference_contexts",
    "retrieved_context_ids",
    "reference_context_ids",
    "multi_responses",
    "rubrics",
    "reference_tool_calls",
    "persona_name",
    "query_style",
    "query_length",
    "synthesizer_name",
)
# the eval sample's own fields (and ragas's / DeepEval's names for the expected answer, and
# ragas's other sample columns): a golden file or a ragas dataset scored as it is evaluated;
# the scorecard does not read them
_RECORD_KEYS = ("question", "answer", "contexts", "signals", "config", "id", *_SAMPLE_KEYS)
ANSWER_FIELD_ALIASES: Mapping[str, str] = {
    # ragas 0.2 and later (SingleTurnSample, EvaluationDataset)
    "user_input": "question",
    "response": "answer",
    "retrieved_contexts": "contexts",
    # DeepEval (LLMTestCase)
    "input": "question",
    "actual_output": "answer",
    "retrieval_context": "contexts",
}
"""Other tools' names for the fields of an answer record, read as the field they name (the
names ``assay eval`` recognises in its columns)."""
_ANSWER_KEYS = frozenset(("question", "answer", "contexts", *ANSWER_FIELD_ALIASES))
# names other tools give these fields, for the did-you-mean of an unknown key
_ALIASES = {
    "content": "text",
    "page_content": "text",
    "pageContent": "text",
    "chunk": "text",
    "passage": "text",
    "scores": "retrievalScores",
    "similarity": "score",
    "relevanceScore": "score",
    "relevance_score": "score",
    "documentId": "id",
    "document_id": "id",
    "doc_id": "id",
    "source": "id",
    "updatedAt": "date",
    "updated_at": "date",
    "timestamp": "date",
    "type": "sourceType",
    "query": "question",
    "output": "answer",
    "generated_answer": "answer",
    "documents": "contexts",
    "context": "contexts",
}


@attrs.frozen
class Context:
    """One retrieved context of an answer.

    Attributes:
        text: the context's text (what the answer is checked against).
        id: its document id (``documentId`` of the candidate: source diversity).
        title: a display label (used where ``id`` is absent).
        retrieval_scores: score per retrieval method, e.g. ``{"dense": 0.8, "bm25": 0.6}``.
        score: the retriever's final score: the ``combinedScore``, and the one method
            ``retrieval`` when no ``retrievalScores`` are given.
        combined_score: the blended score, when the pipeline gives it under that name.
        rank: 1-based retrieval position.
        last_updated: when the document last changed (ISO-8601), from ``date`` or
            ``lastUpdated``.
        document_type: its type label (authority tiers), from ``sourceType`` or
            ``documentType``.
        authority_rank: explicit authority rank (lower is more authoritative).
        extra: ``contentHash``, ``extractionQuality`` and ``isAmendment`` when given (passed to
            the candidate as they are).
    """

    text: str
    id: str | int | None = None
    title: str | None = None
    retrieval_scores: Mapping[str, float] | None = None
    score: float | None = None
    combined_score: float | None = None
    rank: int | None = None
    last_updated: str | None = None
    document_type: str | None = None
    authority_rank: float | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def is_scored(self) -> bool:
        """Whether the pipeline gave a retrieval score for this context."""
        return (
            bool(self.retrieval_scores)
            or self.score is not None
            or (self.combined_score is not None)
        )

    def label(self, index: int) -> str:
        """How to name this context to a person: its ``id``, its ``title``, else ``context N``
        (``index`` 0-based)."""
        if self.id is not None:
            return str(self.id)
        return self.title if self.title is not None else f"context {index + 1}"


def _context_tuple(contexts: Iterable[Context]) -> tuple[Context, ...]:
    return tuple(contexts)


@attrs.frozen
class AnswerRecord:
    """A question, the answer a RAG pipeline gave and the contexts it retrieved.

    Attributes:
        question: the user's question.
        answer: the generated answer.
        contexts: the retrieved contexts, in retrieval order.
        signals: scoring inputs the pipeline already knows (wire shape, camelCase); they take
            precedence over what a signal reader derives.
    """

    question: str
    answer: str
    contexts: tuple[Context, ...] = attrs.field(converter=_context_tuple)
    signals: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def texts(self) -> list[str]:
        """The contexts' texts, in order."""
        return [context.text for context in self.contexts]


def is_answer_record(record: Any) -> bool:
    """Whether a JSON request is an answer record rather than a request of scoring inputs: an
    object without ``inputs`` that has ``question``, ``answer`` or ``contexts`` (or a name of
    :data:`ANSWER_FIELD_ALIASES`), none of which is a scoring input. A record missing one of
    them is then told so by :func:`read_answer_record`, not read as scoring inputs."""
    return (
        isinstance(record, Mapping)
        and "inputs" not in record
        and not _ANSWER_KEYS.isdisjoint(record)
    )


def _canonical(record: Mapping[Any, Any]) -> tuple[Mapping[Any, Any], Mapping[str, str]]:
    """``record`` with the names of :data:`ANSWER_FIELD_ALIASES` read as the fields they name,
    and the name each field was given under (for the paths of errors).

    :raises AssayError: :data:`INVALID_ANSWER_RECORD` when a field is given under two names.
    """
    if _ALIAS_NAMES.isdisjoint(record):  # the usual record: nothing to rename
        return record, _OWN_NAMES
    fields: dict[Any, Any] = {}
    named: dict[str, Any] = {}
    for key, value in record.items():
        field = ANSWER_FIELD_ALIASES.get(key, key) if isinstance(key, str) else key
        if field in fields:
            raise AssayError(
                INVALID_ANSWER_RECORD,
                f"give one of {named[field]} and {key} (both are the {field})",
                str(key),
            )
        fields[field] = value
        named[field] = key
    return fields, named


_ALIAS_NAMES = frozenset(ANSWER_FIELD_ALIASES)
_NAMES = (*_RECORD_KEYS, *ANSWER_FIELD_ALIASES)
# every key a record may have: a misspelled ragas or DeepEval name (respons) is told its name
_NAMES_LISTED = (
    "question, answer, contexts, signals, config, id, metadata, groundTruth, their ragas and "
    "DeepEval names (user_input, response, retrieved_contexts, input, actual_output, "
    "retrieval_context) and the other fields of an assay eval sample or a ragas sample"
)
_OWN_NAMES = {field: field for field in ("question", "answer", "contexts")}


def _unknown(key: str, known: Sequence[str], listed: str | None = None) -> str:
    """``unknown key 'x'`` with a did-you-mean when a known key is close, else the known keys
    (``listed``, when given, says them in fewer words)."""
    guess = _ALIASES.get(key)
    if guess is None or guess not in known:
        close = difflib.get_close_matches(key, known, n=1)
        guess = close[0] if close else None
    hint = f"; did you mean {guess!r}?" if guess else f" (known: {listed or ', '.join(known)})"
    return f"unknown key {key!r}{hint}"


def _also_named(field: str) -> str:
    return " or ".join(alias for alias, named in ANSWER_FIELD_ALIASES.items() if named == field)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _plain_number(value: Any) -> int | float | None:
    """A number of another type (numpy's ``float32`` of a FAISS or sentence-transformers
    similarity, ``int64`` of an ``argsort`` rank: :class:`numbers.Real`) as the Python ``int``
    or ``float`` it equals, so that the scorecard and its JSON output read it; ``None`` for
    anything else (a bool, a string, a decimal of no fixed precision is a float too)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    exact = float(value)
    try:  # float32(0.9) is 0.8999999761...: read it as the 0.9 it was written as, which
        # scores in the band of 0.9, when that is the number of its own type it holds
        shown = float(str(value))
        own_type: Any = type(value)
        return shown if own_type(shown) == value else exact
    except (TypeError, ValueError, OverflowError):
        return exact


def read_answer_record(record: Any) -> AnswerRecord:
    """An :class:`AnswerRecord` from its JSON form (or the record itself). ``config``, ``id``
    and the other fields of an ``assay eval`` sample (``metadata``, ``groundTruth`` /
    ``ground_truth`` / ``reference`` / ``expected_output``) are accepted and not part of the
    record (the caller reads the config), so one golden file serves both commands; so are the
    other columns of a ragas ``SingleTurnSample`` (``reference_contexts``,
    ``retrieved_context_ids``, ...), so a ragas dataset's samples are scored as they are.

    :raises AssayError: :data:`INVALID_ANSWER_RECORD` or :data:`INVALID_CONTEXT`, with the path
        of the field at fault.
    """
    if isinstance(record, AnswerRecord):
        return record
    if not isinstance(record, Mapping):
        raise AssayError(
            INVALID_ANSWER_RECORD,
            f"an answer record must be an object with question, answer and contexts, not "
            f"{json_kind(record)}",
        )
    for key in record:
        if key not in _RECORD_KEYS and key not in ANSWER_FIELD_ALIASES:
            raise AssayError(
                INVALID_ANSWER_RECORD, _unknown(str(key), _NAMES, _NAMES_LISTED), str(key)
            )
    record, named = _canonical(record)
    for key in ("question", "answer", "contexts"):
        if key not in record:
            raise AssayError(
                INVALID_ANSWER_RECORD,
                f"{key} is missing: an answer record needs question, answer and contexts "
                f"({key} is also read as {_also_named(key)})",
                key,
            )
    for key in ("question", "answer"):
        if not isinstance(record[key], str):
            raise AssayError(
                INVALID_ANSWER_RECORD,
                f"{named[key]} must be a string, not {json_kind(record[key])}",
                named[key],
            )
    contexts = record["contexts"]
    if not isinstance(contexts, list | tuple):
        contexts = _as_list(contexts)
    if contexts is None:
        raise AssayError(
            INVALID_ANSWER_RECORD,
            f"{named['contexts']} must be an array of strings or objects with text, not "
            f"{json_kind(record['contexts'])}",
            named["contexts"],
        )
    return AnswerRecord(
        record["question"],
        record["answer"],
        tuple(
            _context(item, f"{named['contexts']}[{index}]") for index, item in enumerate(contexts)
        ),
        _signals(record.get("signals")),
    )


def _as_list(contexts: Any) -> list[Any] | None:
    """Contexts given as another ordered collection, as a list: a numpy array or a pandas
    Series (what a ragas dataset's ``retrieved_contexts`` is once read from Parquet or a
    DataFrame), or any other sequence; ``None`` for a string, an object, a set or a scalar."""
    if isinstance(contexts, str | bytes | Mapping | Set):
        return None
    tolist = getattr(contexts, "tolist", None)
    if callable(tolist) and getattr(contexts, "ndim", 1) == 1:
        listed = tolist()
        return listed if isinstance(listed, list) else None
    return list(contexts) if isinstance(contexts, Sequence) else None


def _signals(signals: Any) -> Mapping[str, Any]:
    if signals is None:
        return {}
    if not isinstance(signals, Mapping):
        raise AssayError(
            INVALID_ANSWER_RECORD,
            f"signals must be an object of scoring inputs, not {json_kind(signals)}",
            "signals",
        )
    return {key: _plain(value) for key, value in signals.items()}


_NATIVE = frozenset({str, float, int, bool, type(None)})


def _plain(value: Any) -> Any:
    """``value`` with the numbers of other types in it (numpy's ``float32`` of an evaluator's
    score) as the Python ``int`` or ``float`` they equal, inside objects and arrays too; other
    values as they are (the scorer's checks judge them)."""
    if type(value) in _NATIVE:
        return value
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    plain = _plain_number(value)
    return value if plain is None else plain


def _bad(where: str, key: str, value: Any, what: str) -> AssayError:
    return AssayError(
        INVALID_CONTEXT, f"{key} must be {what}, not {json_kind(value)}", f"{where}.{key}"
    )


# A check returns None when the value is good as it is, or the plain Python value it stands for
# (a numpy number as int or float), which then replaces it; it raises when the value is bad.
def _string(where: str, key: str, value: Any) -> None:
    if not isinstance(value, str):
        raise _bad(where, key, value, "a string")


def _number(where: str, key: str, value: Any) -> float | None:
    kind = type(value)
    if kind is float or kind is int or _is_number(value):
        return None
    plain = _plain_number(value)
    if plain is None:
        raise _bad(where, key, value, "a number")
    return plain


def _rank(where: str, key: str, value: Any) -> int | None:
    plain: int | None = None
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
        number = _plain_number(value) if isinstance(value, numbers.Integral) else None
        if number is None:
            raise _bad(where, key, value, "an integer >= 1")
        plain = int(number)
    if value < 1:
        shown = value if plain is None else plain
        raise AssayError(
            INVALID_CONTEXT, f"rank must be an integer >= 1, got {shown!r}", f"{where}.rank"
        )
    return plain


def _scores(where: str, key: str, value: Any) -> dict[str, Any] | None:
    if not isinstance(value, Mapping):
        raise _bad(where, key, value, "an object of method -> score")
    plain: dict[str, Any] | None = None
    for method, score in value.items():
        kind = type(score)
        if kind is float or kind is int or _is_number(score):
            fixed = None
        else:
            fixed = _plain_number(score)
            if fixed is None:
                method = method if isinstance(method, str) else repr(method)
                raise AssayError(
                    INVALID_CONTEXT,
                    f"a retrieval score must be a number, not {json_kind(score)}",
                    f"{where}.retrievalScores.{method}",
                )
        if not isinstance(method, str):
            raise AssayError(
                INVALID_CONTEXT,
                f"a retrieval method must be named by a string, got {method!r}",
                f"{where}.retrievalScores",
            )
        if fixed is not None:
            plain = dict(value) if plain is None else plain
            plain[method] = fixed
    return plain


def _identity(where: str, key: str, value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, str | int):
        number = _plain_number(value) if isinstance(value, numbers.Integral) else None
        if number is None:
            raise AssayError(
                INVALID_CONTEXT,
                f"id must be a string or an integer, not {json_kind(value)}",
                f"{where}.id",
            )
        return int(number)
    return None


def _boolean(where: str, key: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise _bad(where, key, value, "true or false")


def _mapping(where: str, key: str, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise _bad(where, key, value, "an object")


_CHECKS: dict[str, Callable[[str, str, Any], Any]] = {
    "text": _string,
    "id": _identity,
    "title": _string,
    "retrievalScores": _scores,
    "score": _number,
    "combinedScore": _number,
    "rank": _rank,
    "date": _string,
    "lastUpdated": _string,
    "sourceType": _string,
    "documentType": _string,
    "authorityRank": _number,
    "contentHash": _string,
    "extractionQuality": _number,
    "isAmendment": _boolean,
    "metadata": _mapping,
}
"""The check of each context field (``null`` is "not given" and not checked)."""
_CONTEXT_KEYS = tuple(_CHECKS)
_PAIRS = (("score", "combinedScore"), ("date", "lastUpdated"), ("sourceType", "documentType"))
_EXTRA = ("contentHash", "extractionQuality", "isAmendment")


def _context(item: Any, where: str) -> Context:
    if isinstance(item, str):
        return Context(str(item))
    if not isinstance(item, Mapping):
        raise AssayError(
            INVALID_CONTEXT,
            f"a context must be a string or an object with text, not {json_kind(item)}",
            where,
        )
    plain: dict[Any, Any] | None = None
    for key, value in item.items():
        check = _CHECKS.get(key)
        if check is None:
            raise AssayError(INVALID_CONTEXT, _unknown(str(key), _CONTEXT_KEYS), f"{where}.{key}")
        if value is not None:
            fixed = check(where, key, value)
            if fixed is not None:  # a numpy number: as the int or float it equals
                plain = dict(item) if plain is None else plain
                plain[key] = fixed
    if plain is not None:
        item = plain
    get = item.get
    if get("text") is None:
        raise AssayError(INVALID_CONTEXT, "a context object needs text (a string)", f"{where}.text")
    for first, second in _PAIRS:
        if get(first) is not None and get(second) is not None:
            message = (
                "give the final score once, as score or as combinedScore"
                if first == "score"
                else f"give one of {first} and {second} (they mean the same)"
            )
            raise AssayError(INVALID_CONTEXT, message, f"{where}.{second}")
    scores = get("retrievalScores")
    date = get("date")
    kind = get("sourceType")
    return Context(
        text=item["text"],
        id=get("id"),
        title=get("title"),
        retrieval_scores=None if scores is None else dict(scores),
        score=get("score"),
        combined_score=get("combinedScore"),
        rank=get("rank"),
        last_updated=date if date is not None else get("lastUpdated"),
        document_type=kind if kind is not None else get("documentType"),
        authority_rank=get("authorityRank"),
        extra={key: item[key] for key in _EXTRA if get(key) is not None},
    )


def candidate_signals(contexts: Sequence[Context]) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The retrieval candidates the contexts' metadata gives, and notes on what is missing.

    A context with a retrieval score becomes a candidate: ``retrievalScores`` as given (or
    ``{"retrieval": score}`` when only ``score`` is given); ``combinedScore`` is ``score`` /
    ``combinedScore`` as given, else the mean of the method scores (equal-weight fusion);
    ``documentId``, ``rank``, ``lastUpdated``, ``documentType``, ``authorityRank``,
    ``contentHash``, ``extractionQuality`` and ``isAmendment`` where given. A context without
    any retrieval score is evidence for the answer's text but no candidate: no confidence is
    made up for it, and a note says so.
    """
    candidates: list[dict[str, Any]] = []
    unscored: list[str] = []
    for index, context in enumerate(contexts):
        if not context.is_scored:
            unscored.append(f"contexts[{index}]")
            continue
        scores = context.retrieval_scores
        final = context.score if context.score is not None else context.combined_score
        if not scores:
            scores = {"retrieval": context.score} if context.score is not None else {}
        if final is None:
            final = sum(scores.values()) / len(scores)
        candidate: dict[str, Any] = {"retrievalScores": dict(scores), "combinedScore": final}
        for key, value in (
            ("documentId", context.id),
            ("rank", context.rank),
            ("lastUpdated", context.last_updated),
            ("documentType", context.document_type),
            ("authorityRank", context.authority_rank),
        ):
            if value is not None:
                candidate[key] = value
        candidate.update(context.extra)
        candidates.append(candidate)
    if not unscored:
        return candidates, ()
    if not candidates:
        note = (
            "No context carries a retrieval score (retrievalScores or score): the scorecard has "
            "no retrieval candidates, so the retrieval dimensions have nothing to score (missing "
            "signal: candidates)."
        )
    else:
        note = (
            f"{', '.join(unscored)} {'carries' if len(unscored) == 1 else 'carry'} no retrieval "
            "score: checked against the answer's text, but not a retrieval candidate."
        )
    return candidates, (note,)
