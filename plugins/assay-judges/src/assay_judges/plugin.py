"""Hook implementations: the judge-backed metrics (kind ``llm-metric``) and the ``openai`` and
``anthropic`` judge factories (kind ``judge-factory``)."""

from __future__ import annotations

import assay
from assay_judges.anthropic import anthropic_judge
from assay_judges.metrics import JUDGE_METRICS
from assay_judges.openai import openai_judge


@assay.hookimpl
def assay_register(registrar: assay.Registrar) -> None:
    for metric in JUDGE_METRICS:
        registrar.add("llm-metric", metric, name=metric.id)
    registrar.add("judge-factory", openai_judge, name="openai")
    registrar.add("judge-factory", anthropic_judge, name="anthropic")
