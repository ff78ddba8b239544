"""Labelled retrievals for the routing benchmarks, built from ../shared/data (read in place).

Used by benchmarks/route_default.py and tests/test_route_default.py. Every choice is
deterministic (no random draw) and documented here and in docs/route.md.

HaluEval QA (``halueval_qa_dev.jsonl``, 5,000 rows): two single-passage retrievals per question.

* relevant: the row's own knowledge passage (it supports the question by construction);
* irrelevant: the passage a BM25 retriever returns for the question from a pool of other rows'
  passages that lacks the answer. The pool is the question's block of ``pool`` consecutive rows
  (rows 0-49, 50-99, ... for the default 50); ``pool=None`` uses all 5,000 rows. Left out of the
  pool, because they may well support the question: the row itself, a passage with the same
  text, a passage holding the right answer (whole words, case-insensitive) and a passage sharing
  a sentence with the row's own passage. BM25 (k1 1.5, b 0.75) counts words as
  :func:`assay_crag.text.content_tokens` does, with document frequencies over all 5,000 passages.

HotpotQA distractor (``hotpotqa_distractor_100.json``, 100 questions, ten titled paragraphs
each, two of them gold, no supporting-fact labels): the gold pair is identified by
:func:`hotpot_gold`; questions where it cannot be identified are left out and counted. Per
question: relevant = the two gold paragraphs; irrelevant = the two distractors BM25 ranks highest
for the question (what a retriever that missed the gold paragraphs would return; document
frequencies over all paragraphs of the file). :func:`hotpot_paragraphs` gives every paragraph as
a one-paragraph retrieval as well.

:func:`halueval_pairs` joins each HaluEval question's two passages into one retrieval of two
(its own passage first), relevant because it holds the question's own passage.

Split: questions with an even index are the tuning part, odd ones the held-out part
(:func:`held_out`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
from scipy import sparse

from assay_crag.text import content_tokens, split_sentences

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
HALUEVAL = DATA / "halueval_qa_dev.jsonl"
HOTPOT = DATA / "hotpotqa_distractor_100.json"
POOL = 50
"""Default pool of the HaluEval irrelevant passage: the question's block of 50 rows."""


class Retrieval(NamedTuple):
    """One labelled retrieval: ``index`` is the question's position in its data set."""

    dataset: str
    index: int
    relevant: bool
    query: str
    documents: tuple[str, ...]


def held_out(index: int) -> bool:
    """The split: odd-indexed questions are held out, even-indexed ones are for tuning."""
    return index % 2 == 1


# ----------------------------------------------------------------------------------- BM25


def bm25_scores(queries: Sequence[str], passages: Sequence[str]) -> np.ndarray:
    """BM25 (k1 1.5, b 0.75, idf ``ln(1 + (N - df + 0.5) / (df + 0.5))``) of every query
    against every passage, words as :func:`content_tokens` gives them; shape (queries,
    passages)."""
    k1, b = 1.5, 0.75
    vocabulary: dict[str, int] = {}
    rows, cols, counts, lengths = [], [], [], []
    for j, passage in enumerate(passages):
        tokens = Counter(content_tokens(passage))
        lengths.append(sum(tokens.values()))
        for token, count in tokens.items():
            rows.append(j)
            cols.append(vocabulary.setdefault(token, len(vocabulary)))
            counts.append(count)
    tf = sparse.coo_matrix(
        (np.array(counts, float), (rows, cols)), shape=(len(passages), len(vocabulary))
    )
    length = np.array(lengths, float)
    df = np.bincount(tf.col, minlength=len(vocabulary))
    idf = np.log1p((len(passages) - df + 0.5) / (df + 0.5))
    weight = tf.data * (k1 + 1) / (tf.data + k1 * (1 - b + b * length[tf.row] / length.mean()))
    weights = sparse.csr_matrix((weight * idf[tf.col], (tf.row, tf.col)), shape=tf.shape)
    q_rows, q_cols = [], []
    for i, query in enumerate(queries):
        for token in set(content_tokens(query)):
            if token in vocabulary:
                q_rows.append(i)
                q_cols.append(vocabulary[token])
    query_matrix = sparse.csr_matrix(
        (np.ones(len(q_rows)), (q_rows, q_cols)), shape=(len(queries), len(vocabulary))
    )
    return np.asarray((query_matrix @ weights.T).todense())


# ----------------------------------------------------------------------------------- text


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip()


def _span(haystack: str, needle: str) -> tuple[int, int] | None:
    """Where ``needle`` occurs in ``haystack`` as whole words, case-insensitive."""
    pattern = r"(?<!\w)" + re.escape(_normal(needle)) + r"(?!\w)"
    match = re.search(pattern, _normal(haystack))
    return (match.start(), match.end()) if match and needle.strip() else None


def _sentences(text: str) -> set[str]:
    return {s for s in split_sentences(text) if len(s) > 20}


# ----------------------------------------------------------------------------------- HaluEval


def halueval_rows() -> list[dict[str, str]]:
    with HALUEVAL.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def halueval_retrievals(pool: int | None = POOL) -> list[Retrieval]:
    """Two retrievals per HaluEval row (relevant first); see the module docs."""
    rows = halueval_rows()
    queries = [row["question"].strip() for row in rows]
    passages = [row["knowledge"] for row in rows]
    scores = bm25_scores(queries, passages)
    sentences = [_sentences(p) for p in passages]
    size = pool or len(rows)
    out = []
    for i, row in enumerate(rows):
        start = i // size * size
        block = scores[i, start : start + size]
        for j in start + np.argsort(-block, kind="stable"):
            if (
                j == i
                or passages[j] == passages[i]
                or _span(passages[j], row["right_answer"])
                or sentences[i] & sentences[j]
            ):
                continue
            out.append(Retrieval("halueval", i, True, queries[i], (passages[i],)))
            out.append(Retrieval("halueval", i, False, queries[i], (passages[int(j)],)))
            break
    return out


def halueval_pairs(retrievals: Sequence[Retrieval]) -> list[Retrieval]:
    """Per question of ``retrievals`` (from :func:`halueval_retrievals`): one relevant retrieval
    of its own passage followed by its irrelevant passage."""
    own = {r.index: r for r in retrievals if r.relevant}
    return [
        Retrieval("halueval-pairs", r.index, True, r.query, own[r.index].documents + r.documents)
        for r in retrievals
        if not r.relevant and r.index in own
    ]


# ----------------------------------------------------------------------------------- HotpotQA


def _base_title(title: str) -> str:
    """A title without its trailing qualifier: ``Ed Wood (film)`` -> ``Ed Wood``."""
    return re.sub(r"\s*\([^)]*\)$", "", title).strip()


def _links(text: str, title: str) -> bool:
    """Whether ``text`` names the paragraph titled ``title`` (its base title, or the part of it
    before a comma: ``Boston, Lincolnshire`` -> ``Boston``)."""
    name = _base_title(title)
    return bool(_span(text, name) or _span(text, name.split(",")[0]))


def hotpot_gold(item: dict[str, object]) -> tuple[tuple[int, int] | None, str]:
    """The indices of the two gold paragraphs of a HotpotQA question, or None with the reason.

    Rules (HotpotQA builds each question from exactly two linked paragraphs):

    1. *named*: a paragraph whose title, without a trailing qualifier in parentheses, occurs in
       the question as whole words (a title found only inside a longer named title is not
       counted; when several paragraphs share the named title, the one whose full title occurs
       is taken, or none);
    2. *answer* (not for yes/no answers): the paragraph whose title is the answer, else the one
       paragraph whose text holds the answer (none when several do);
    3. the question counts when rules 1 and 2 give exactly two paragraphs, and either both
       titles are named in the question (a comparison question) or one paragraph's title (or
       its part before a comma) occurs in the other's text (the link of a bridge question).
    """
    question = str(item["question"])
    answer = str(item["answer"])
    paragraphs = [(str(t), "".join(s)) for t, s in item["context"]]  # type: ignore[attr-defined]
    named = {
        i: span
        for i, (title, _) in enumerate(paragraphs)
        if (span := _span(question, _base_title(title)))
    }
    named = {
        i: (a, b)
        for i, (a, b) in named.items()
        if not any(c <= a and b <= d and d - c > b - a for o, (c, d) in named.items() if o != i)
    }
    by_span: dict[tuple[int, int], list[int]] = {}
    for i, span in named.items():
        by_span.setdefault(span, []).append(i)
    gold: set[int] = set()
    for ids in by_span.values():
        exact = [i for i in ids if len(ids) == 1 or _span(question, paragraphs[i][0])]
        if len(exact) != 1:
            return None, "a named title is shared by several paragraphs"
        gold.add(exact[0])
    if _normal(answer) not in ("yes", "no"):
        titled = [
            i for i, (t, _) in enumerate(paragraphs) if _normal(_base_title(t)) == _normal(answer)
        ]
        holding = [i for i, (_, text) in enumerate(paragraphs) if _span(text, answer)]
        if len(titled) == 1:
            gold.add(titled[0])
        elif len(holding) == 1:
            gold.add(holding[0])
    if len(gold) != 2:
        return None, f"the rules find {len(gold)} gold paragraph(s), not 2"
    a, b = sorted(gold)
    (title_a, text_a), (title_b, text_b) = paragraphs[a], paragraphs[b]
    if (a in named and b in named) or _links(text_a, title_b) or _links(text_b, title_a):
        return (a, b), "identified"
    return None, "the two paragraphs are not linked"


def hotpot_items() -> list[dict[str, object]]:
    return json.loads(HOTPOT.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _hotpot_scored() -> Iterable[tuple[int, str, list[str], tuple[int, int], np.ndarray]]:
    items = hotpot_items()
    texts = [["".join(s) for _, s in item["context"]] for item in items]  # type: ignore[attr-defined]
    flat = [t for paragraphs in texts for t in paragraphs]
    scores = bm25_scores([str(item["question"]) for item in items], flat)
    offset = 0
    for i, item in enumerate(items):
        n = len(texts[i])
        gold, _ = hotpot_gold(item)
        if gold is not None and n > 4:
            yield i, str(item["question"]).strip(), texts[i], gold, scores[i, offset : offset + n]
        offset += n


def hotpot_retrievals() -> list[Retrieval]:
    """Per identified question: the two gold paragraphs (relevant) and the two distractors BM25
    ranks highest (irrelevant), each ranked by BM25."""
    out = []
    for i, query, paragraphs, gold, scores in _hotpot_scored():
        order = [int(j) for j in np.argsort(-scores, kind="stable")]
        golds = tuple(paragraphs[j] for j in order if j in gold)
        distractors = tuple(paragraphs[j] for j in order if j not in gold)[:2]
        out.append(Retrieval("hotpotqa", i, True, query, golds))
        out.append(Retrieval("hotpotqa", i, False, query, distractors))
    return out


def hotpot_paragraphs() -> list[Retrieval]:
    """Every paragraph of every identified question as a one-paragraph retrieval (2 gold, 8
    distractors per question)."""
    return [
        Retrieval("hotpotqa-paragraphs", i, j in gold, query, (text,))
        for i, query, paragraphs, gold, _ in _hotpot_scored()
        for j, text in enumerate(paragraphs)
    ]


def hotpot_identified() -> tuple[int, Counter[str]]:
    """How many questions have their gold pair identified, and why the others do not."""
    reasons = Counter(hotpot_gold(item)[1] for item in hotpot_items())
    return reasons.pop("identified", 0), reasons


def split_counts(retrievals: Iterable[Retrieval]) -> dict[str, int]:
    """Questions in each part, for the report."""
    parts = Counter("held-out" if held_out(r.index) else "tuning" for r in retrievals if r.relevant)
    return dict(sorted(parts.items()))


__all__ = [
    "POOL",
    "Retrieval",
    "bm25_scores",
    "halueval_pairs",
    "halueval_retrievals",
    "held_out",
    "hotpot_gold",
    "hotpot_identified",
    "hotpot_paragraphs",
    "hotpot_retrievals",
    "split_counts",
]
