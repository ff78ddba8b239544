"""The retrieval being judged: a query, its ranked chunks and the assembled context.

Wire shape (camelCase JSON, ``QualityInput`` of the JSON input format)::

    {"query": "...",
     "chunks": [{"content": "...", "documentId": "d1", "score": 0.82,
                 "rerankScore": 0.9, "metadata": {"sectionTitle": "Intro"}}],
     "context": {"text": "...", "tokenCount": 312}}

:func:`parse_quality_input` turns that mapping into a :class:`QualityInput`, checking every field
and naming the path of the first bad one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

import assay
from assay_crag.checks import is_finite_number, show

__all__ = ["AssembledContext", "QualityInput", "RankedChunk", "parse_quality_input"]


def _frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return dict(value or {})


def _chunk_tuple(value: Iterable[RankedChunk]) -> tuple[RankedChunk, ...]:
    """Typed tuple converter (keeps mypy aware of the element type)."""
    return tuple(value)


@attrs.frozen
class RankedChunk:
    """One retrieved chunk, in rank order.

    Attributes:
        content: the chunk's text.
        document_id: the source document's id (source diversity).
        score: the retriever's similarity score, nominally in [0, 1]; ``None`` when the
            retriever gave none (the composite then counts it as 0 and warns).
        rerank_score: the reranker's score when a reranker ran; preferred over ``score`` for
            retrieval confidence.
        metadata: free data; ``sectionTitle`` is read by source diversity.
    """

    content: str
    document_id: str
    score: float | None = None
    rerank_score: float | None = None
    metadata: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_mapping)


@attrs.frozen
class AssembledContext:
    """The context handed to the generator.

    Attributes:
        text: the assembled text.
        token_count: its size in tokens (when the wire shape omits it, the number of
            whitespace-separated words of ``text``).
    """

    text: str
    token_count: int


@attrs.frozen
class QualityInput:
    """One retrieval to judge.

    Attributes:
        query: the user's question.
        chunks: the ranked chunks, best first.
        context: the assembled context.
    """

    query: str
    chunks: tuple[RankedChunk, ...] = attrs.field(converter=_chunk_tuple)
    context: AssembledContext

    @classmethod
    def from_texts(
        cls,
        query: str,
        documents: Sequence[str],
        scores: Sequence[float | None] | None = None,
    ) -> QualityInput:
        """A retrieval built from plain passages: document ids ``doc-1``, ``doc-2``, ...; without
        ``scores`` the chunks have no retriever score (``None``); the context is the passages
        joined by blank lines."""
        scores = list(scores) if scores is not None else [None] * len(documents)
        if len(scores) != len(documents):
            raise assay.AssayError(
                assay.ErrorCode.INVALID_INPUT,
                f"{len(scores)} scores for {len(documents)} documents",
                "scores",
            )
        chunks = [
            RankedChunk(
                content=text,
                document_id=f"doc-{i + 1}",
                score=None if score is None else float(score),
            )
            for i, (text, score) in enumerate(zip(documents, scores, strict=True))
        ]
        text = "\n\n".join(documents)
        return cls(query, chunks, AssembledContext(text, len(text.split())))

    def to_wire(self) -> dict[str, Any]:
        """The camelCase JSON shape (inverse of :func:`parse_quality_input`; a chunk without a
        retriever score has no ``score`` field)."""
        chunks = []
        for chunk in self.chunks:
            item: dict[str, Any] = {"content": chunk.content, "documentId": chunk.document_id}
            if chunk.score is not None:
                item["score"] = chunk.score
            if chunk.rerank_score is not None:
                item["rerankScore"] = chunk.rerank_score
            item["metadata"] = dict(chunk.metadata)
            chunks.append(item)
        return {
            "query": self.query,
            "chunks": chunks,
            "context": {"text": self.context.text, "tokenCount": self.context.token_count},
        }


def _malformed(message: str, path: str) -> assay.AssayError:
    return assay.AssayError(assay.ErrorCode.MALFORMED_INPUT, message, path)


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _malformed(f"expected a string, got {type(value).__name__}", path)
    return value


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _malformed(f"expected a number, got {type(value).__name__}", path)
    if not is_finite_number(value):
        raise _malformed(f"expected a finite number, got {show(value)}", path)
    return float(value)


def _chunk(raw: Any, path: str) -> RankedChunk:
    if not isinstance(raw, Mapping):
        raise _malformed(f"expected an object, got {type(raw).__name__}", path)
    if "documentId" not in raw:
        raise _malformed("missing documentId", f"{path}.documentId")
    rerank = raw.get("rerankScore")
    score = raw.get("score")
    metadata = raw.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        raise _malformed("expected an object", f"{path}.metadata")
    section = metadata.get("sectionTitle")
    if section is not None and not isinstance(section, str):
        raise _malformed(
            f"expected a string or null, got {type(section).__name__}",
            f"{path}.metadata.sectionTitle",
        )
    return RankedChunk(
        content=_string(raw.get("content"), f"{path}.content"),
        document_id=str(raw["documentId"]),
        score=None if score is None else _number(score, f"{path}.score"),
        rerank_score=None if rerank is None else _number(rerank, f"{path}.rerankScore"),
        metadata=metadata,
    )


def _context(raw: Any) -> AssembledContext:
    if not isinstance(raw, Mapping):
        raise _malformed(f"expected an object, got {type(raw).__name__}", "context")
    text = _string(raw.get("text", ""), "context.text")
    count = raw.get("tokenCount")
    if count is None:
        return AssembledContext(text, len(text.split()))
    count = _number(count, "context.tokenCount")
    if count < 0:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT, f"must be >= 0, got {count:g}", "context.tokenCount"
        )
    return AssembledContext(text, int(count))


def parse_quality_input(raw: Any) -> QualityInput:
    """Read a :class:`QualityInput` from its wire mapping (a :class:`QualityInput` passes
    through unchanged).

    :raises assay.AssayError: ``MALFORMED_INPUT`` when the value is not an object, ``query`` is
        not a string, ``chunks`` is not a list of chunk objects (``content`` string,
        ``documentId`` present, ``score`` and ``rerankScore`` absent, null or a finite number, ``metadata`` an object) or ``context`` is not an object; ``INVALID_INPUT``
        when ``context.tokenCount`` is negative. The path names the field, e.g.
        ``chunks[3].score``.
    """
    if isinstance(raw, QualityInput):
        return raw
    if not isinstance(raw, Mapping):
        raise _malformed(f"expected an object, got {type(raw).__name__}", "$")
    query = _string(raw.get("query"), "query")
    chunks_raw = raw.get("chunks")
    if not isinstance(chunks_raw, list | tuple):
        raise _malformed("expected a list of chunks", "chunks")
    chunks = [_chunk(item, f"chunks[{i}]") for i, item in enumerate(chunks_raw)]
    context = _context(raw.get("context", {"text": ""}))
    return QualityInput(query, chunks, context)
