"""claim_support: a metric of our own design (not in rag-eval-node-ts), for hallucination detection.

The rag-eval-node-ts answer-side metrics compare an answer with its contexts by overlap ratios
that grow with the answer's length and shrink with the context's, so a short correct answer
("Delhi") scores lower than a long invented sentence that repeats the question. On HaluEval QA
they rank right answers *below* hallucinated ones (AUROC 0.16-0.28). claim_support instead asks,
for each claim of the answer, whether the contexts say it:

1. Claims are the answer's sentences, read without their citation markers ("[1]", "[doc2]",
   "【1】": see :mod:`.citations`). Their *content tokens* are the tokens that are not
   function words (articles, auxiliaries, pronouns, prepositions, connectives such as "so",
   "yes"/"no": see :data:`FUNCTION_WORDS`). Tokens are compared by stem (:mod:`.inflection`:
   "wrote" = "written", "moons" = "moon").
2. **Token support**: each claim is matched with the single context sentence that contains the
   most of its content tokens (a fact is usually stated within one sentence; tokens gathered from
   different sentences are how a mixed-up claim looks). Token support is the share of all
   content tokens of the answer found in their claim's best sentence (1 when the answer has no
   content token: it asserts nothing checkable).
3. **Order support**: the share of the answer's adjacent token pairs that also occur adjacently
   in some context ("Brooks Garth" is not "Garth Brooks"); for a one-token answer, whether the
   token occurs at all.
4. ``score = 0.8 * token_support + 0.2 * order_support``.

Context sentences are cut after ``.``, ``!`` or ``?`` before a capital letter even without a
space ("...century.First for Women..."), because scraped passages often glue sentences.

The weights (0.8 / 0.2) and the default threshold (0.8) were chosen on the first 1,000 rows of
``shared/data/halueval_qa_dev.jsonl``; ``benchmarks/metrics_halueval.py`` reports the AUROC on
the other 4,000 rows. Deterministic, no model; undetermined (``None``) without contexts or when
the answer has no token.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from functools import lru_cache
from itertools import pairwise

from assay_faithfulness.analysis import SampleAnalysis
from assay_faithfulness.base import HeuristicMetric, Measured, Signal
from assay_faithfulness.citations import blank_citations, citation_spans
from assay_faithfulness.features import text_features
from assay_faithfulness.inflection import STEMS_LIMIT, stems
from assay_faithfulness.jsnumbers import to_fixed3
from assay_faithfulness.options import HeuristicOptions
from assay_faithfulness.text import JS_WHITESPACE, tokenize

__all__ = ["FUNCTION_WORDS", "ClaimSupport", "split_passage_sentences"]

FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "s",
        "t",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "not",
        "no",
        "yes",
        "also",
        "than",
        "then",
        "there",
        "their",
        "they",
        "he",
        "she",
        "his",
        "her",
        "him",
        "them",
        "we",
        "you",
        "i",
        "our",
        "your",
        "my",
        "me",
        "us",
        "into",
        "about",
        "over",
        "after",
        "before",
        "under",
        "between",
        "both",
        "either",
        "neither",
        "same",
        "such",
        "only",
        "other",
        "another",
        "one",
        "so",
        "thus",
        "hence",
        "therefore",
    ]
)
"""Tokens that carry no checkable content of their own (a connective such as "so" links two
statements; what it links is checked, the link is not)."""

TOKEN_WEIGHT = 0.8
ORDER_WEIGHT = 0.2
UNSUPPORTED_CLAIM = 0.5
"""A claim whose token support is below this gets a critical signal."""
STATED_CLAIM = 0.8
"""A claim counts as stated by a context sentence, in the reason, from this token support on
(the metric's default threshold), so the count agrees with a passing or failing score."""

_PASSAGE_BOUNDARY = re.compile(f"(?<=[.!?])[{re.escape(JS_WHITESPACE)}]*(?=[A-Z])")
_KEY_TERM = re.compile(r"(?<=\W)[A-Z][^\W_]*|(?<![^\W_])[^\W_]*\d[^\W_]*")
"""A key term: a word (a run of letters and digits) that holds a digit, or a capitalised one
that does not open the claim and follows no ``_`` (it follows a character that is no letter,
digit or ``_``). Each form is only tried where a word starts: the second would otherwise be
tried inside every word, at a cost quadratic in the word's length."""


def split_passage_sentences(text: str) -> list[str]:
    """Sentences of a passage, also where a sentence end is glued to the next capital."""
    return [piece for piece in _PASSAGE_BOUNDARY.split(text) if piece.strip(JS_WHITESPACE)]


class _ContextIndex:
    """What claim_support looks up in one context, or in the contexts of one sample: the stem
    set of each sentence, every stem, and every two adjacent stems."""

    __slots__ = ("pairs", "sentence_sets", "tokens")

    def __init__(
        self,
        sentence_sets: list[frozenset[str]],
        tokens: frozenset[str],
        pairs: frozenset[tuple[str, str]],
    ) -> None:
        self.sentence_sets = sentence_sets
        self.tokens = tokens
        self.pairs = pairs


@lru_cache(maxsize=4096)
def _passage_index(context: str) -> _ContextIndex:
    """The :class:`_ContextIndex` of one context (memoized by text: passages recur across
    samples)."""
    sentence_sets = [frozenset(stems(tokenize(s))) for s in split_passage_sentences(context)]
    tokens = stems(text_features(context).tokens)
    return _ContextIndex(sentence_sets, frozenset(tokens), frozenset(pairwise(tokens)))


@lru_cache(maxsize=256)
def _context_index(contexts: tuple[str, ...]) -> _ContextIndex:
    """The :class:`_ContextIndex` of the contexts (memoized: answers to one question share it)."""
    if len(contexts) == 1:
        return _passage_index(contexts[0])
    indexes = [_passage_index(context) for context in contexts]
    return _ContextIndex(
        [s for index in indexes for s in index.sentence_sets],
        frozenset().union(*(index.tokens for index in indexes)),
        frozenset().union(*(index.pairs for index in indexes)),
    )


class ClaimSupport(HeuristicMetric):
    """Share of the answer's claims the contexts state: best-sentence token support (x0.8) plus
    word-order support (x0.2). See the module docstring for the design and its evaluation."""

    id = "claim_support"
    wire_id = "claimSupport"
    default_threshold = STATED_CLAIM
    requires = frozenset({"contexts"})

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        if not analysis.sample.contexts:
            return Measured(None, "No contexts to check the answer's claims against.")
        answer_tokens = analysis.answer_tokens
        if not answer_tokens:
            return Measured(None, "The answer has no words, so it makes no claim to check.")
        claims = analysis.answer_sentences
        claim_tokens = [part.tokens for part in analysis.answer_parts]
        if citation_spans(analysis.sample.answer):
            claims = [blank_citations(claim) for claim in claims]
            claim_tokens = [tokenize(claim) for claim in claims]
            if not any(claim_tokens):
                return Measured(None, "The answer has only citation markers, no claim to check.")
        claim_stems = [stems(tokens) for tokens in claim_tokens]
        answer_tokens = [token_stem for token_stems in claim_stems for token_stem in token_stems]
        index = _context_index(tuple(analysis.sample.contexts))
        supported_total = 0
        content_total = 0
        signals: list[Signal] = []
        claim_supports: list[float] = []
        claimed = zip(claims, claim_tokens, claim_stems, strict=True)
        for i, (claim, tokens, token_stems) in enumerate(claimed):
            content = [
                s for t, s in zip(tokens, token_stems, strict=True) if t not in FUNCTION_WORDS
            ]
            best = max((sum(map(s.__contains__, content)) for s in index.sentence_sets), default=0)
            supported_total += best
            content_total += len(content)
            support = best / len(content) if content else 1.0
            claim_supports.append(support)
            missing = _missing_key_terms(claim, index.tokens)
            if support < UNSUPPORTED_CLAIM:
                signals.append(
                    Signal(
                        f"claim-unsupported-{i}",
                        "critical",
                        f"No context sentence states this claim (support={to_fixed3(support)}).",
                        analysis.answer_sentences[i],
                    )
                )
            if missing:
                signals.append(
                    Signal(
                        f"claim-unsupported-terms-{i}",
                        "warning",
                        f"Names or numbers found in no context: {', '.join(missing)}.",
                        analysis.answer_sentences[i],
                    )
                )
        token_support = supported_total / content_total if content_total else 1.0
        pairs = list(pairwise(answer_tokens))
        if pairs:
            order_support = sum(map(index.pairs.__contains__, pairs)) / len(pairs)
        else:
            order_support = sum(t in index.tokens for t in answer_tokens) / len(answer_tokens)
        score = TOKEN_WEIGHT * token_support + ORDER_WEIGHT * order_support
        stated = sum(1 for s in claim_supports if s >= STATED_CLAIM)
        return Measured(
            score,
            f"{stated}/{len(claim_supports)} claim(s) stated by a context sentence (at least "
            f"{STATED_CLAIM:.0%} of a claim's content words in one sentence); token support "
            f"{to_fixed3(token_support)}, word-order support {to_fixed3(order_support)}, "
            f"score={to_fixed3(score)}.",
            tuple(signals),
            {
                "token_support": token_support,
                "order_support": order_support,
                "claim_support": claim_supports,
            },
        )


def _key_terms(claim: str) -> list[str]:
    """Capitalised words (not the claim's first, nor after a ``_``) and words with a digit."""
    return _KEY_TERM.findall(claim)


def _missing_key_terms(claim: str, context_tokens: AbstractSet[str]) -> list[str]:
    """Capitalised words (not the claim's first) and numbers whose tokens no context has."""
    missing: list[str] = []
    if len(_TERMS) > STEMS_LIMIT:
        _TERMS.clear()
    for term in _key_terms(claim):
        word, term_stems = _TERMS[term]
        if term_stems and not all(t in context_tokens for t in term_stems) and word not in missing:
            missing.append(word)
    return missing


class _TermCache(dict[str, tuple[str, tuple[str, ...]]]):
    """Key term as written -> its tokens joined by spaces, and their stems; filled on first
    sight of a term (names and numbers recur across answers)."""

    def __missing__(self, term: str) -> tuple[str, tuple[str, ...]]:
        tokens = tokenize(term)
        value = self[term] = (" ".join(tokens), tuple(stems(tokens)))
        return value


_TERMS = _TermCache()
