"""answer_support: is the answer supported *as an answer to the question* by its contexts?

``claim_support`` asks whether the contexts state the answer's words; a wrong name taken from
the right passage, a flipped "yes" or a date swapped for another date of the passage pass it.
``answer_support`` also reads the question. Deterministic, no model; every constant is below.

**Claims.** The answer's sentences, cut as :mod:`.answer_text` cuts them ("James K. Polk.",
"the U.S. Army" and "Dr. Smith" stay whole), read without their citation markers ("[1]",
"[doc2]", "【1】": :mod:`.citations`; a claim's offsets still point into the answer as written). A claim's *content words* are its words that are
not function words (:data:`~assay_faithfulness.claim_support.FUNCTION_WORDS`), compared by
stem ("churros" = "churro", "based" = "base").

**Per claim** ``c`` with ``n`` content words:

1. ``tokens(c)``: the share of its content words found in the one context sentence holding the
   most of them (a fact is stated within one sentence); 1 when ``n = 0``.
2. ``order(c)``: the share of its adjacent word pairs found adjacent in a context ("Brooks
   Garth" is not "Garth Brooks"); for one word, whether a context has it; 1 without words. A
   context sentence stating the claim in the other voice holds the pairs from the agent to
   the patient ("Mary Shelley wrote Frankenstein" / "Frankenstein is an 1818 novel written by
   English author Mary Shelley": the verb by stem, the agent heading the "by" phrase; see
   :func:`_restated_pairs`).
3. ``base(c) = TOKEN_WEIGHT * tokens(c) + ORDER_WEIGHT * order(c)``.
4. Factors, each in ``[floor, 1]``, for what the question asks (:mod:`.answer_relation`,
   :mod:`.answer_polarity`):

   * every **name** and **number** of the claim that the question does not already give and
     that a context holds gets ``RELATION_FLOOR + (1 - RELATION_FLOOR) * s(RELATION_GAIN * m)``
     with ``s`` the logistic function and ``m`` its margin: its fit to the question minus the
     best fit of the other names (numbers of the same kind) of the contexts; no competitor, no
     factor. A number's neighbouring content words in the claim must also be near it in the
     context ("14 years old", "May 30, 1943"; at most ``UNIT_REACH`` words away, passing over
     a month or a day number: "completed 1889" / "completed in March 1889"):
     ``UNIT_FLOOR + (1 - UNIT_FLOOR) * share``.
   * a **yes/no** answer to a yes/no question (a leading "yes"/"no") gets
     ``POLARITY_FLOOR + (1 - POLARITY_FLOOR) * p`` with ``p`` the probability the contexts give
     to the answer's side.
   * a claim whose best sentence disagrees with it on **negation** gets ``NEGATION_FACTOR``
     (compared only for a claim stating ``NEGATION_WORDS`` content words outside its names and
     numbers).
   * every claim of an answer **off the question** gets ``OFF_QUESTION_FACTOR``: to a
     wh-question, an answer without a content word ("After"), or, to a choice question that
     ends on its options ("..., A or B?"), an answer naming neither option.

5. ``support(c) = base(c) * items(c) * polarity(c) * negation(c) * off(c)``, where
   ``items(c)`` is the smallest factor among the claim's names and numbers (a number's is its
   relation factor times its neighbour factor).

The floors are high on purpose: the relation and yes/no judgements are heuristics that are wrong
for some right answers, and a mild penalty keeps those above invented answers (right vs
invented AUROC on the design rows: 0.9927 with these floors, 0.9574 with ``RELATION_FLOOR`` and
``POLARITY_FLOOR`` 0.5). How decisive a judgement was shows in the evidence instead: a name,
number or yes/no the contexts tie to the question less well than another is an unsupported
item, and its claim is not ``supported``.

**Score** ``= sum(weight(c) * support(c)) / sum(weight(c))`` with ``weight(c) = max(n, 1)``: a
weighted mean of the claims, so an answer whose every claim is supported (``support(c) >=
CLAIM_THRESHOLD`` and nothing unsupported) scores at least ``CLAIM_THRESHOLD``, the metric's
default threshold.

Undetermined (``None``) without contexts or when the answer has no word. The constants were
chosen on rows 0-1,999 of ``shared/data/halueval_qa_dev.jsonl``;
``benchmarks/answer_detector.py`` reports rows 2,000-4,999.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Literal

from assay_faithfulness.analysis import SampleAnalysis
from assay_faithfulness.answer_conflicts import clear_conflict_caches, find_conflicts
from assay_faithfulness.answer_polarity import is_negated, yes_probability
from assay_faithfulness.answer_question import AUXILIARIES, OPTION_WORDS, question_info
from assay_faithfulness.answer_relation import (
    BY_MODIFIERS,
    Found,
    clear_relation_caches,
    heading_by,
    name_margin,
    number_kind,
    number_margin,
)
from assay_faithfulness.answer_text import MONTHS, TextInfo, split_words, text_info
from assay_faithfulness.base import HeuristicMetric, Measured, Signal
from assay_faithfulness.citations import blank_citations
from assay_faithfulness.evidence import (
    AnswerEvidence,
    ClaimEvidence,
    SupportSpan,
    UnsupportedItem,
)
from assay_faithfulness.jsnumbers import to_fixed3
from assay_faithfulness.options import HeuristicOptions

__all__ = ["AnswerSupport", "analyze_answer", "clear_answer_caches"]

TOKEN_WEIGHT = 0.8
ORDER_WEIGHT = 0.2
RELATION_FLOOR = 0.9
RELATION_GAIN = 2.0
UNIT_FLOOR = 0.5
UNIT_REACH = 2
"""A number's neighbouring word in the answer may stand this many words away from it in a
context (one word between: "two moons" / "two small moons"), not counting date parts."""
POLARITY_FLOOR = 0.85
NEGATION_FACTOR = 0.5
CLAIM_THRESHOLD = 0.9
"""A claim is supported from this support on (with nothing unsupported); the metric's default
threshold: on the design rows it passes 98.8% of right answers and fails 97.6% of invented
ones."""
NEGATION_WORDS = 3
"""Negation is compared only for a claim of at least this many content words outside its names
and numbers (a bare name states nothing to negate: "Saturday Night Live" is no negated "Not
Ready for Prime Time Players")."""
OFF_QUESTION_FACTOR = 0.5
"""Factor of every claim of an answer to a wh-question that has no content word ("After" to
"what other town?") or that names neither option of a choice question ("A or B?")."""
NEGATION_CHECK = 0.5
"""Negation is compared only for a claim whose best sentence holds at least this share of its
content words (otherwise the sentence does not state the claim anyway)."""

_YES_NO = frozenset(["yes", "no"])


def analyze_answer(question: str | None, answer: str, contexts: Sequence[str]) -> AnswerEvidence:
    """How far ``contexts`` support ``answer`` as an answer to ``question``, claim by claim,
    for arguments of the annotated types: the public :func:`assay_faithfulness.analyze_answer`
    checks them first (this module may be compiled, and a compiled function refuses an
    argument of another type with a plain ``TypeError``)."""
    contexts = tuple(contexts)
    if not contexts:
        return AnswerEvidence(None, "No contexts to check the answer against.", ())
    info = TextInfo(blank_citations(answer))
    if not info.raw:
        return AnswerEvidence(None, "The answer has no words, so it makes no claim to check.", ())
    return _Analysis(question or "", answer, info, contexts).evidence()


def clear_answer_caches() -> None:
    """Forget everything :func:`analyze_answer` memoizes (the analysis of each context and
    question, and what is derived from them), so that the next answer is checked as the first
    answer to a new question with new passages: benchmarks use it to time that cold path."""
    for cache in (text_info, question_info, _held_by_any, yes_probability):
        cache.cache_clear()
    clear_relation_caches()
    clear_conflict_caches()


class _Analysis:
    """One answer checked against its question and contexts."""

    def __init__(
        self, question: str, answer: str, info: TextInfo, contexts: tuple[str, ...]
    ) -> None:
        self.question = question
        self.answer = answer
        self.asked = question_info(question)
        self.info = info
        self.contexts = contexts
        self.infos = [text_info(context) for context in contexts]
        self.known = _held_by_any(contexts)
        self.answer_content = info.content_stems()
        self._covered: set[int] | None = None
        self.off_question = self._off_question()

    @property
    def covered(self) -> set[int]:
        """The answer's words that stand in its names and numbers (on first need: most
        answers ask for it only for a word no context has)."""
        if self._covered is None:
            info = self.info
            spans = [*info.names, *((n.first, n.end) for n in info.numbers)]
            self._covered = {i for first, end in spans for i in range(first, end)}
        return self._covered

    def evidence(self) -> AnswerEvidence:
        claims = [self._claim(index) for index in range(len(self.info.sentences))]
        weights = [weight for _, weight in claims]
        score = sum(c.support * w for c, w in claims) / sum(weights)
        evidence = tuple(c for c, _ in claims)
        conflicts = find_conflicts(self.contexts)
        return AnswerEvidence(score, _reason(score, evidence, conflicts), evidence, conflicts)

    def _claim(self, index: int) -> tuple[ClaimEvidence, int]:
        info = self.info
        first, end = info.sentence_starts[index], info.sentence_starts[index + 1]
        start, stop = info.sentences[index]
        polar = index == 0 and self.asked.expects == "yes-no" and info.raw[first].lower() in _YES_NO
        words = range(first + 1 if polar else first, end)
        mask = info.content
        content = [info.stems[i] for i in words if mask[i]]
        span, found = self._best_sentence(content)
        tokens = found / len(content) if content else 1.0
        base = TOKEN_WEIGHT * tokens + ORDER_WEIGHT * self._order(words)
        unsupported: list[UnsupportedItem] = []
        factor = 1.0
        for item_factor, items in self._items(first, end):
            factor = min(factor, item_factor)
            unsupported.extend(items)
        if self.off_question is not None:
            factor *= OFF_QUESTION_FACTOR
            unsupported.append(self.off_question)
        if polar:
            item_factor, item = self._polarity(info.raw[first])
            factor *= item_factor
            if item is not None:
                unsupported.append(item)
        if (
            span is not None
            and tokens >= NEGATION_CHECK
            and self._stated_words(words) >= NEGATION_WORDS
        ):
            words_said = [info.raw[i] for i in words]
            if is_negated(words_said) != is_negated(self._span_words(span)):
                factor *= NEGATION_FACTOR
                unsupported.append(_negation_item(is_negated(words_said), span))
        unsupported.extend(self._missing_terms(words))
        support = base * factor
        claim = ClaimEvidence(
            text=self.answer[start:stop],
            start=start,
            end=stop,
            support=support,
            supported=support >= CLAIM_THRESHOLD and not unsupported,
            span=span,
            unsupported=tuple(unsupported),
        )
        return claim, max(len(content), 1)

    def _off_question(self) -> UnsupportedItem | None:
        """What makes the whole answer no answer to a wh-question: it has no content word, or
        it names neither option of a choice question that ends on its options ("..., A or
        B?"); None when neither holds (or for a question that opens like a yes/no one: "Are
        X and Y members of bands which...?")."""
        asked = self.asked
        raw = asked.info.raw
        if asked.expects == "yes-no" or not raw or raw[0].lower() in AUXILIARIES:
            return None
        text = self.info.text.strip()
        if asked.options and _ends_on_options(self.question):
            if any(self.answer_content & option for option in asked.options):
                return None
            reason = "The answer names neither option the question offers."
            return UnsupportedItem("relation", text, reason)
        if not self.answer_content:
            reason = "The answer has no content word to answer the question with."
            return UnsupportedItem("relation", text, reason)
        return None

    def _stated_words(self, words: range) -> int:
        """How many content words of ``words`` stand outside the answer's names and numbers."""
        content, covered = self.info.content, self.covered
        return sum(1 for i in words if content[i] and i not in covered)

    def _best_sentence(self, content: list[str]) -> tuple[SupportSpan | None, int]:
        """The first context sentence holding the most of ``content`` (counted with
        repetitions), and how many it holds; None and 0 when none holds any."""
        best: tuple[int, int, int] | None = None
        best_count = 0
        for context_index, context in enumerate(self.infos):
            counts = _count_by_sentence(content, context.holding)
            if not counts:
                continue
            count = max(counts.values())
            if count > best_count:
                best_count = count
                sentence_index = min(k for k, n in counts.items() if n == count)
                best = (context_index, *context.sentences[sentence_index])
        if best is None:
            return None, 0
        context_index, start, stop = best
        text = self.contexts[context_index][start:stop]
        return SupportSpan(context_index, start, stop, text), best_count

    def _order(self, words: range) -> float:
        """The share of the adjacent word pairs of ``words`` that a context sentence holds,
        counting those a restatement in the other voice covers (:func:`_restated_pairs`)."""
        if not words:
            return 1.0
        stems = self.info.stems
        if len(words) == 1:
            return 1.0 if stems[words[0]] in self.known else 0.0
        held = _adjacent_in(self.infos, stems[words.start : words.stop])
        count = held.count(True)
        if count < len(held):  # the rule costs nothing while every pair is held
            restated = _restated_pairs(self.info, words, self.infos, _stems_before_by(self.infos))
            count += sum(1 for i in restated if not held[i - words.start])
        return count / len(held)

    def _span_words(self, span: SupportSpan) -> tuple[str, ...]:
        context = self.infos[span.context_index]
        index = context.sentences.index((span.start, span.end))
        return context.raw[context.sentence_starts[index] : context.sentence_starts[index + 1]]

    def _items(self, first: int, end: int) -> list[tuple[float, list[UnsupportedItem]]]:
        """The factor of every name and number of words ``first`` to ``end - 1`` (its fit to
        the question, and for a number its neighbouring words), with what is unsupported."""
        results: list[tuple[float, list[UnsupportedItem]]] = []
        info = self.info
        asked = self.asked
        for name in info.names:
            if name.first < first or name.end > end:
                continue
            sequence = info.stems[name.first : name.end]
            content = info.content_stems(name.first, name.end)
            if not content or content <= asked.content:
                continue
            text = info.span_text(name.first, name.end)
            found = self._locate(sequence)
            if not found:
                if not any(all(s in c.positions for s in content) for c in self.infos):
                    results.append((1.0, [UnsupportedItem("name", text, "No context names it.")]))
                continue
            if asked.content:
                margin = name_margin(self.question, self.contexts, found, self.answer_content)
                results.append(_relation("name", text, margin))
        values = [n.value for n in info.numbers if first <= n.first and n.end <= end]
        for number in info.numbers:
            if number.first < first or number.end > end or number.value in asked.numbers:
                continue
            text = info.span_text(number.first, number.end)
            found = [
                Found(index, n.first, n.end)
                for index, context in enumerate(self.infos)
                for n in context.numbers
                if n.value == number.value
            ]
            if not found:
                results.append((1.0, [UnsupportedItem("number", text, "No context gives it.")]))
                continue
            factor, items = self._unit(number.first, number.end, first, end, found, text)
            if asked.content:
                others = frozenset(v for v in values if v != number.value)
                kind = number_kind(info, number.first, number.end, number.value)
                margin = number_margin(
                    self.question, self.contexts, number.value, kind, found, others
                )
                relation, unrelated = _relation("number", text, margin)
                factor *= relation
                items += unrelated
            results.append((factor, items))
        return results

    def _locate(self, sequence: tuple[str, ...]) -> list[Found]:
        found = []
        size = len(sequence)
        for index, context in enumerate(self.infos):
            for position in context.positions.get(sequence[0], ()):
                if context.stems[position : position + size] == sequence:
                    found.append(Found(index, position, position + size))
        return found

    def _unit(
        self, first: int, end: int, claim_first: int, claim_end: int, found: list[Found], text: str
    ) -> tuple[float, list[UnsupportedItem]]:
        """Whether the number's neighbouring content words in the claim ("October 22", "14
        years") are its neighbours in a context ("in 2003" says nothing of the number)."""
        info = self.info
        sides = []
        if first > claim_first and info.content[first - 1]:
            sides.append((-1, info.stems[first - 1]))
        if end < claim_end and info.content[end]:
            sides.append((1, info.stems[end]))
        if not sides:
            return 1.0, []
        best = 0
        for f in found:
            context = self.infos[f.context]
            matched = sum(
                1
                for side, word_stem in sides
                if word_stem in _near(context, f.first - 1 if side < 0 else f.end, side)
            )
            best = max(best, matched)
        share = best / len(sides)
        factor = UNIT_FLOOR + (1.0 - UNIT_FLOOR) * share
        if share >= 0.5:
            return factor, []
        reason = "No context gives this number with the words around it in the answer."
        return factor, [UnsupportedItem("number", text, reason)]

    def _polarity(self, word: str) -> tuple[float, UnsupportedItem | None]:
        probability = yes_probability(self.question, self.contexts)
        if probability is None:
            return 1.0, None
        says_yes = word.lower() == "yes"
        agree = probability if says_yes else 1.0 - probability
        factor = POLARITY_FLOOR + (1.0 - POLARITY_FLOOR) * agree
        if agree >= 0.5:
            return factor, None
        other = "no" if says_yes else "yes"
        reason = (
            f"The contexts point to {other!r} (support for {word.lower()!r}: {to_fixed3(agree)})."
        )
        return factor, UnsupportedItem("yes-no", word, reason)

    def _missing_terms(self, words: range) -> list[UnsupportedItem]:
        """Runs of content words no context has, outside the claim's names and numbers."""
        info, known = self.info, self.known
        content, word_stems = info.content, info.stems
        items: list[UnsupportedItem] = []
        run: list[int] = []
        for index in [*words, -1]:
            missing = (
                index >= 0
                and content[index]
                and word_stems[index] not in known
                and index not in self.covered
            )
            if missing:
                run.append(index)
            elif run:
                text = info.span_text(run[0], run[-1] + 1)
                items.append(UnsupportedItem("term", text, "No context has these words."))
                run = []
        return items


def _near(info: TextInfo, index: int, step: int) -> list[str]:
    """The stems of the words from word ``index`` on in direction ``step`` (-1 or 1), within
    its sentence, up to the :data:`UNIT_REACH`-th that is no date part (a month, a day number):
    "completed in March 1889" gives "1889" the left neighbours "March", "in" and
    "completed"."""
    near: list[str] = []
    if not 0 <= index < len(info.raw):
        return near
    sentence = info.sentence_of[index]
    counted = 0
    while 0 <= index < len(info.raw) and info.sentence_of[index] == sentence:
        word = info.raw[index]
        near.append(info.stems[index])
        if word.lower() not in MONTHS and not (word.isdigit() and len(word) <= 2):
            counted += 1
            if counted == UNIT_REACH:
                break
        index += step
    return near


def _stems_before_by(contexts: Sequence[TextInfo]) -> frozenset[str]:
    """The stems that stand right before "by" in a context sentence: the verbs the contexts
    use in the passive ("written by")."""
    found: set[str] = set()
    for context in contexts:
        stems, sentence_of = context.stems, context.sentence_of
        for index in context.positions.get("by", ()):
            if index and sentence_of[index - 1] == sentence_of[index]:
                found.add(stems[index - 1])
    return frozenset(found)


def _restated_pairs(
    info: TextInfo, words: range, contexts: Sequence[TextInfo], passive_verbs: AbstractSet[str]
) -> set[int]:
    """The words ``i`` of ``words`` whose pair with word ``i + 1`` a context states in the
    other voice: the answer's "X wrote Y" where a context sentence says "Y ... written by X",
    or its "Y was written by X" ("Y, written by X") where one says "X wrote Y".

    The verb is one word of the answer, compared by stem ("wrote" / "written"); its agent X
    is the run of content words before it (after its "by" in the passive), its patient Y the
    run after it (before it in the passive), each skipping function words ("was", "the"). A
    context sentence must hold the verb with both runs whole: in the passive, the agent heading
    the verb's "by" phrase (:func:`~assay_faithfulness.answer_relation.heading_by`: "by English
    author Mary Shelley", not "by Ben Karlin and directed by Fred Savage") and the patient
    before the verb, at most :data:`VOICE_REACH` content words away ("Frankenstein is an 1818
    novel written by"); in the active, the agent right before the verb (function words
    between) and the patient after it, at most :data:`VOICE_REACH` content words away, both in
    the verb's clause. Every pair from the end of the run before the answer's verb to the start
    of the run after it is then credited. :meth:`_Analysis._order` asks only for a claim with
    a pair no context holds, so a claim stated in order pays nothing for this.
    ``passive_verbs``: :func:`_stems_before_by` of ``contexts``.
    """
    stems, content = info.stems, info.content
    first, end = words.start, words.stop
    credited: set[int] = set()
    for verb in range(first + 1, end - 1):
        if not content[verb]:
            continue
        passive = stems[verb + 1] == "by"
        if not passive and stems[verb] not in passive_verbs:
            continue  # the cheap test first: no context has this verb in the passive
        before = _content_run(content, first, verb, -1)
        after = _content_run(content, verb + 2 if passive else verb + 1, end, 1)
        if before is None or after is None:
            continue
        agent, patient = (after, before) if passive else (before, after)
        agent_stems = stems[agent[0] : agent[1]]
        patient_stems = stems[patient[0] : patient[1]]
        if any(
            _states(context, stems[verb], agent_stems, patient_stems, not passive)
            for context in contexts
        ):
            credited.update(range(before[1] - 1, after[0]))
    return credited


VOICE_REACH = 4
"""How many content words may stand between the verb and a restated patient in the context:
"Jaws is a 1975 American thriller film directed by" has four between "Jaws" and "directed"."""


def _content_run(content: Sequence[bool], low: int, high: int, step: int) -> tuple[int, int] | None:
    """``(start, end)`` of the run of content words among words ``low`` to ``high - 1`` that
    is nearest to ``high`` (``step`` -1) or to ``low`` (``step`` 1), passing over function
    words before it; None when there is none."""
    indices = range(high - 1, low - 1, -1) if step < 0 else range(low, high)
    start = next((i for i in indices if content[i]), None)
    if start is None:
        return None
    stop = start
    while low <= stop + step < high and content[stop + step]:
        stop += step
    return (stop, start + 1) if step < 0 else (start, stop + 1)


def _states(
    context: TextInfo,
    verb: str,
    agent: tuple[str, ...],
    patient: tuple[str, ...],
    passive: bool,
) -> bool:
    """Whether a sentence of ``context`` states ``agent`` ``verb`` ``patient`` in the passive
    ("patient ... verb by agent") or, ``passive`` False, in the active ("agent verb patient"),
    as :func:`_restated_pairs` describes."""
    stems, sentence_of = context.stems, context.sentence_of
    count = len(stems)
    for place in context.positions.get(verb, ()):
        by = (
            place + 1 < count
            and stems[place + 1] == "by"
            and sentence_of[place + 1] == sentence_of[place]
        )
        if by != passive:
            continue
        if passive:
            found = _heads_by(context, agent, place + 1) and _near_run(
                context, patient, place, -1, False, VOICE_REACH
            )
        else:
            found = _near_run(context, agent, place, -1, True, 0) and _near_run(
                context, patient, place, 1, True, VOICE_REACH
            )
        if found:
            return True
    return False


def _heads_by(context: TextInfo, run: tuple[str, ...], by: int) -> bool:
    """Whether ``run`` heads the phrase of the "by" at word ``by`` of ``context``
    (:func:`~assay_faithfulness.answer_relation.heading_by`: "by English author Mary Shelley",
    not "by Johnnie To and starring Louis Koo")."""
    stems = context.stems
    size = len(run)
    return any(
        stems[first : first + size] == run and heading_by(context, first) == by
        for first in context.positions.get(run[0], ())
        if by < first <= by + BY_MODIFIERS + 1
    )


def _near_run(
    context: TextInfo,
    run: tuple[str, ...],
    anchor: int,
    step: int,
    same_clause: bool,
    reach: int,
) -> bool:
    """Whether ``run`` stands in ``context`` after (``step`` 1) or before (-1) word ``anchor``,
    with at most ``reach`` content words between, within the anchor's sentence (and clause,
    ``same_clause``)."""
    stems, content = context.stems, context.content
    size = len(run)
    places = context.layout.clause_of if same_clause else context.sentence_of
    place = places[anchor]
    between = 0
    index = anchor + step  # the run's nearest word
    while 0 <= index < len(stems) and places[index] == place:
        start = index if step > 0 else index - size + 1
        if start >= 0 and stems[start : start + size] == run:
            far = start + size - 1 if step > 0 else start
            return places[far] == place
        between += content[index]
        if between > reach:
            break
        index += step
    return False


@lru_cache(maxsize=256)
def _held_by_any(contexts: tuple[str, ...]) -> AbstractSet[str]:
    """Every stem of the contexts (memoized: the answers to one question, and both metrics
    of a sample, share them)."""
    infos = [text_info(context) for context in contexts]
    if len(infos) == 1:
        return infos[0].positions.keys()
    return frozenset().union(*(info.positions for info in infos))


def _adjacent_in(contexts: Sequence[TextInfo], words: Sequence[str]) -> list[bool]:
    """For each two adjacent stems of ``words``, whether a context has a word with the first
    followed, in its sentence, by one with the second: looked up from the places of the
    first, so that an answer's few pairs cost no table of every pair of the contexts."""
    held = [False] * (len(words) - 1)
    for context in contexts:
        positions, stems, sentence_of = context.positions, context.stems, context.sentence_of
        last = len(stems) - 1
        for pair, first in enumerate(words[:-1]):
            places = positions.get(first)
            if places is None or held[pair]:
                continue
            second = words[pair + 1]
            for index in places:
                if (
                    index < last
                    and stems[index + 1] == second
                    and sentence_of[index + 1] == sentence_of[index]
                ):
                    held[pair] = True
                    break
    return held


def _count_by_sentence(words: list[str], holding: dict[str, tuple[int, ...]]) -> dict[int, int]:
    """Sentence -> how many of ``words`` (repetitions counted) it holds, for the sentences that
    hold any; ``holding``: word -> the sentences holding it, each once."""
    counts: dict[int, int] = {}
    for word in words:
        for sentence in holding.get(word, ()):
            counts[sentence] = counts.get(sentence, 0) + 1
    return counts


def _ends_on_options(question: str) -> bool:
    """Whether the question ends on its second option: at most :data:`OPTION_WORDS` words after
    its last " or " ("Ettore or Edoardo Ettore Forti was an Italian painter..." does not)."""
    tail = question[question.rfind(" or ") + 4 :]
    return len(split_words(tail)) <= OPTION_WORDS


def _relation(
    kind: Literal["name", "number"], text: str, margin: tuple[float, str] | None
) -> tuple[float, list[UnsupportedItem]]:
    """The factor of a name or number of the answer from its margin over the best rival."""
    if margin is None:
        return 1.0, []
    value, rival = margin
    factor = RELATION_FLOOR + (1.0 - RELATION_FLOOR) / (1.0 + math.exp(-RELATION_GAIN * value))
    if value >= 0:
        return factor, []
    reason = f"The contexts tie the {kind} {rival!r} closer to what the question asks."
    return factor, [UnsupportedItem(kind, text, reason)]


def _negation_item(said: bool, span: SupportSpan) -> UnsupportedItem:
    if said:
        return UnsupportedItem("negation", "not", "The answer negates what the context states.")
    return UnsupportedItem("negation", span.text, "The context negates what the answer states.")


def _reason(score: float, claims: tuple[ClaimEvidence, ...], conflicts: tuple[str, ...]) -> str:
    """One sentence that agrees with the score: the claims whose support reaches
    :data:`CLAIM_THRESHOLD` count as supported (those with an item left are supported with a
    doubt, listed as such); the items of the others are listed as unsupported."""
    passing = [claim for claim in claims if claim.support >= CLAIM_THRESHOLD]
    doubted = [claim for claim in passing if claim.unsupported]
    text = f"{len(passing)}/{len(claims)} claim(s) supported as an answer to the question"
    if doubted:
        text += f", {len(doubted)} of them with a doubt"
    text += f"; score={to_fixed3(score)}."
    unsupported = [
        item for claim in claims if claim.support < CLAIM_THRESHOLD for item in claim.unsupported
    ]
    if unsupported:
        text += f" Unsupported: {_listed(unsupported)}"
    if doubted:
        text += f" Doubt: {_listed([item for claim in doubted for item in claim.unsupported])}"
    if conflicts:
        text += f" The contexts contradict each other: {conflicts[0]}"
    return text


def _listed(items: list[UnsupportedItem]) -> str:
    """The first three items, each with its kind, text and reason."""
    listed = "; ".join(f"{item.kind} {item.text!r}: {item.reason}" for item in items[:3])
    more = f" (+{len(items) - 3} more)" if len(items) > 3 else ""
    return f"{listed}{more}"


SEVERITY = {"name": "critical", "number": "critical", "yes-no": "critical", "negation": "critical"}
"""Signal severity of an unsupported item by kind (others: ``warning``)."""


class AnswerSupport(HeuristicMetric):
    """Support of the answer *as an answer to the question*: claim support that also checks
    the asked name or number, yes/no and negation. See :mod:`.answer_support`."""

    id = "answer_support"
    wire_id = "answerSupport"
    default_threshold = CLAIM_THRESHOLD
    requires = frozenset({"contexts"})

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        sample = analysis.sample
        evidence = analyze_answer(sample.question, sample.answer, sample.contexts)
        signals = tuple(
            Signal(
                f"answer-unsupported-{i}-{j}",
                SEVERITY.get(item.kind, "warning"),
                f"{item.kind} {item.text!r}: {item.reason}",
                claim.text,
            )
            for i, claim in enumerate(evidence.claims)
            for j, item in enumerate(claim.unsupported)
        )
        passing = [claim for claim in evidence.claims if claim.support >= CLAIM_THRESHOLD]
        details = {
            "total_claims": evidence.total_claims,
            "supported_claims": len(passing),
            "doubted_claims": sum(1 for claim in passing if claim.unsupported),
            "claim_support": [claim.support for claim in evidence.claims],
            "conflicts": list(evidence.conflicts),
        }
        return Measured(evidence.score, evidence.reason, signals, details)
