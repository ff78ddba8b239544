"""Judge-backed metrics (RAGAS-style decompositions), registered under the kind
``"llm-metric"`` with the same ids as the heuristic metrics.

* faithfulness: the judge extracts the answer's claims, then verifies each against the
  context; score = supported claims / claims.
* answer_relevance: the judge rates from 0 to 1 how well the answer addresses the question.
* context_precision: one relevance verdict per chunk; score = average precision over ranks
  (the mean, over relevant chunks, of the precision at that chunk's rank; 0 if none is relevant).
* context_recall: ground-truth sentences attributed to the context / ground-truth sentences.

A reply that cannot be parsed makes that run undetermined (the raw reply is the signal's
evidence); a judge that fails after its retries does too. ``repeats=N`` runs the judge N times:
the score is the mean of the determined runs, with their spread and pass rate in ``details``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

import attrs

import assay
from assay_evaluation import EvaluationErrorCode as Code
from assay_judges.parsing import parse_claims, parse_score, parse_verdict, parse_verdicts
from assay_judges.prompts import fill, numbered, templates_for
from assay_judges.session import JudgeSession

__all__ = [
    "JUDGE_METRICS",
    "JudgeAnswerRelevance",
    "JudgeContextPrecision",
    "JudgeContextRecall",
    "JudgeFaithfulness",
    "JudgeMetric",
]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class Unparsable(Exception):
    """A judge reply no parser could use; carries the raw reply."""

    def __init__(self, step: str, raw: str) -> None:
        super().__init__(step)
        self.step = step
        self.raw = raw


@attrs.frozen
class Run:
    """One run of a judge-backed metric.

    Attributes:
        score: in [0, 1], or ``None`` when undetermined.
        explanation: what drove the score.
        signals: observations (unsupported claims, irrelevant chunks, unusable replies).
    """

    score: float | None
    explanation: str
    signals: tuple[assay.MetricSignal, ...] = ()
    failure: dict[str, str] | None = None


class Asker:
    """Fills a step's template, asks the judge through the session, parses the reply."""

    def __init__(
        self, session: JudgeSession, templates: dict[str, str], metric_id: str, repeat: int
    ) -> None:
        self.session = session
        self.templates = templates
        self.metric_id = metric_id
        self.repeat = repeat

    def __call__(self, step: str, parse: Callable[[str], Any], **values: Any) -> Any:
        prompt = fill(self.templates[step], values, self.metric_id, step)
        raw = self.session.ask(prompt, self.repeat)
        parsed = parse(raw)
        if parsed is None:
            self.session.parse_failures += 1
            raise Unparsable(step, raw)
        return parsed


def _context_text(sample: assay.EvalSample) -> str:
    return numbered(list(sample.contexts))


def _share_run(
    items: list[str], verdicts: list[bool], what: str, severity: str, rejected: str
) -> Run:
    """A run scored as the share of ``items`` with a true verdict; each rejected item becomes a
    signal with the item as evidence."""
    accepted = sum(verdicts)
    signals = tuple(
        assay.MetricSignal(severity, rejected, item)  # type: ignore[arg-type]
        for item, ok in zip(items, verdicts, strict=True)
        if not ok
    )
    return Run(accepted / len(items), f"{accepted} of {len(items)} {what}.", signals)


class JudgeMetric:
    """Base of the judge-backed metrics; satisfies :class:`assay.Metric`.

    Subclasses set ``id``, ``default_threshold`` and implement :meth:`run`.
    """

    id: ClassVar[str]
    default_threshold: ClassVar[float] = 0.7
    higher_is_better: ClassVar[bool] = True
    requires: ClassVar[frozenset[str]] = frozenset()

    def run(self, sample: assay.EvalSample, ask: Asker) -> Run:
        """One run over ``sample``."""
        raise NotImplementedError

    def compute(
        self, sample: assay.EvalSample, context: assay.MetricContext, threshold: float
    ) -> assay.MetricResult:
        """Ask the judge (``context.options["repeats"]`` times) and combine the runs.

        :raises assay.AssayError: ``JUDGE_MISCONFIGURED`` when ``context.judge`` is ``None``;
            ``INVALID_OPTION`` for a bad prompt override.
        """
        if context.judge is None:
            raise assay.AssayError(
                Code.JUDGE_MISCONFIGURED, f"{self.id} in llm mode needs a judge", "options.judge"
            )
        options = context.options or {}
        repeats = int(options.get("repeats") or 1)
        overrides = options.get("prompt_overrides") or {}
        templates = templates_for(self.id, overrides.get(self.id))
        session = JudgeSession(context.judge, options.get("judge_cache"))
        runs = [self._one(sample, Asker(session, templates, self.id, r)) for r in range(repeats)]
        return self._combine(runs, threshold, session, repeats)

    def _one(self, sample: assay.EvalSample, ask: Asker) -> Run:
        try:
            return self.run(sample, ask)
        except Unparsable as bad:
            return Run(
                None,
                f"the judge's reply to the {bad.step} step could not be parsed",
                (assay.MetricSignal("warn", f"unparsable judge reply ({bad.step})", bad.raw),),
            )
        except assay.AssayError as error:
            if error.code != Code.JUDGE_ERROR:
                raise
            reason = str(error.details.get("reason", "judge"))
            return Run(
                None,
                f"the judge failed [{error.code}: {reason}]: {error.message}",
                (assay.MetricSignal("error", error.message, reason, error.code),),
                {"code": error.code, "reason": reason, "message": error.message},
            )

    def _combine(
        self, runs: list[Run], threshold: float, session: JudgeSession, repeats: int
    ) -> assay.MetricResult:
        scores = [run.score for run in runs if run.score is not None]
        details: dict[str, Any] = {
            "mode": "llm",
            "judge": session.judge.name,
            "cost": session.cost(),
        }
        judge_failures = [run.failure for run in runs if run.failure is not None]
        if judge_failures:
            details["judgeFailures"] = judge_failures
        first = next((run for run in runs if run.score is not None), runs[0])
        failures = tuple(s for run in runs if run.score is None for s in run.signals)
        signals = first.signals + (failures if first.score is not None else failures[1:])
        if not scores:
            return assay.MetricResult(
                self.id, None, None, threshold, first.explanation, signals, details
            )
        total = 0.0
        for score in scores:
            total += score
        mean = total / len(scores)
        explanation = first.explanation
        if repeats > 1:
            spread = max(scores) - min(scores)
            passes = sum(score >= threshold for score in scores)
            details.update(
                repeats=repeats, scores=scores, spread=spread, runPassRate=passes / repeats
            )
            explanation += (
                f" Mean of {len(scores)} of {repeats} runs, spread {spread:.3f}, "
                f"{passes} of {repeats} runs pass."
            )
        return assay.MetricResult(
            self.id, mean, mean >= threshold, threshold, explanation, signals, details
        )


class JudgeFaithfulness(JudgeMetric):
    """Claims extracted from the answer, each verified against the context."""

    id = "faithfulness"

    def run(self, sample: assay.EvalSample, ask: Asker) -> Run:
        if not sample.contexts:
            return Run(0.0, "No context: no claim can be supported.")
        claims = ask("extract", parse_claims, question=sample.question, answer=sample.answer)
        if not claims:
            return Run(None, "The judge found no claims in the answer.")
        verdicts = ask(
            "verify",
            lambda text: parse_verdicts(text, len(claims)),
            context=_context_text(sample),
            claims=numbered(claims),
            count=len(claims),
            question=sample.question,
            answer=sample.answer,
        )
        return _share_run(
            claims,
            verdicts,
            "claims are supported by the context",
            "warn",
            "claim not supported by the context",
        )


class JudgeAnswerRelevance(JudgeMetric):
    """A 0–1 rating of how well the answer addresses the question."""

    id = "answer_relevance"

    def run(self, sample: assay.EvalSample, ask: Asker) -> Run:
        score = ask("rate", parse_score, question=sample.question, answer=sample.answer)
        return Run(score, f"The judge rated the answer's relevance {score:.3f}.")


class JudgeContextPrecision(JudgeMetric):
    """Per-chunk relevance verdicts, combined as average precision over ranks."""

    id = "context_precision"

    def run(self, sample: assay.EvalSample, ask: Asker) -> Run:
        if not sample.contexts:
            return Run(0.0, "No context was retrieved.")
        verdicts = [
            ask("judge_chunk", parse_verdict, question=sample.question, chunk=chunk)
            for chunk in sample.contexts
        ]
        relevant = 0
        precision_sum = 0.0
        for rank, verdict in enumerate(verdicts, start=1):
            if verdict:
                relevant += 1
                precision_sum += relevant / rank
        score = precision_sum / relevant if relevant else 0.0
        irrelevant = [i for i, v in enumerate(verdicts) if not v]
        signals = (
            (assay.MetricSignal("info", f"chunks judged not useful: {irrelevant}"),)
            if irrelevant
            else ()
        )
        return Run(
            score,
            f"{relevant} of {len(verdicts)} chunks judged useful; average precision {score:.3f}.",
            signals,
        )


class JudgeContextRecall(JudgeMetric):
    """Ground-truth sentences attributed to the context."""

    id = "context_recall"
    requires = frozenset({"ground_truth"})

    def run(self, sample: assay.EvalSample, ask: Asker) -> Run:
        if not sample.ground_truth:
            return Run(None, "groundTruth is required for context_recall but was not provided.")
        sentences = [s for s in _SENTENCE_END.split(sample.ground_truth.strip()) if s]
        if not sentences or not sample.contexts:
            return Run(0.0, "No ground-truth sentence or no context to attribute it to.")
        verdicts = ask(
            "attribute",
            lambda text: parse_verdicts(text, len(sentences)),
            question=sample.question,
            context=_context_text(sample),
            sentences=numbered(sentences),
            count=len(sentences),
        )
        return _share_run(
            sentences,
            verdicts,
            "ground-truth sentences are attributed to the context",
            "info",
            "ground-truth sentence not found in the context",
        )


JUDGE_METRICS: tuple[JudgeMetric, ...] = (
    JudgeFaithfulness(),
    JudgeAnswerRelevance(),
    JudgeContextPrecision(),
    JudgeContextRecall(),
)
"""One instance of each judge-backed metric."""
