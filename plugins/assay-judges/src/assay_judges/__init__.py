"""assay-judges: judges for assay's llm and hybrid evaluation modes, and judge-backed metrics.

* :func:`judge_from_callable` — any ``(prompt) -> str`` function as a judge;
* :class:`OpenAIJudge` / :func:`openai_judge` — OpenAI-compatible chat completions (OpenAI,
  llama.cpp, vLLM, Ollama);
* :class:`AnthropicJudge` / :func:`anthropic_judge` — Anthropic's messages API;
* the judge-backed metrics (registered as ``llm-metric``), reply parsers, prompt templates and
  the disk cache.
"""

from assay_judges.anthropic import AnthropicJudge, anthropic_judge
from assay_judges.callable_judge import CallableJudge, judge_from_callable
from assay_judges.metrics import (
    JUDGE_METRICS,
    JudgeAnswerRelevance,
    JudgeContextPrecision,
    JudgeContextRecall,
    JudgeFaithfulness,
    JudgeMetric,
)
from assay_judges.openai import OpenAIJudge, openai_judge
from assay_judges.parsing import parse_claims, parse_score, parse_verdict, parse_verdicts
from assay_judges.prompts import DEFAULT_TEMPLATES
from assay_judges.session import JudgeSession, cache_key

__all__ = [
    "DEFAULT_TEMPLATES",
    "JUDGE_METRICS",
    "AnthropicJudge",
    "CallableJudge",
    "JudgeAnswerRelevance",
    "JudgeContextPrecision",
    "JudgeContextRecall",
    "JudgeFaithfulness",
    "JudgeMetric",
    "JudgeSession",
    "OpenAIJudge",
    "anthropic_judge",
    "cache_key",
    "judge_from_callable",
    "openai_judge",
    "parse_claims",
    "parse_score",
    "parse_verdict",
    "parse_verdicts",
]
