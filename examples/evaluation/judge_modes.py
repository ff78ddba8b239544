"""Heuristic, llm and hybrid modes with a judge, its cost, its disk cache and repeats.

The "judge" here is a small deterministic function standing in for a model (so the example runs
offline): it extracts claims by splitting sentences, supports a claim when all its words of four
or more letters appear in the context, and rates relevance by shared words. A real run would use
assay_judges.openai_judge({...}) or anthropic_judge({...}) instead.

Prints:
  * faithfulness of one answer in heuristic mode, in llm mode (claims verified by the judge,
    with the unsupported claim as evidence) and in hybrid mode where only answer_relevance is
    routed to the judge;
  * the judge calls of a first run and of a re-run through the disk cache (0 calls, all hits);
  * the mean, spread and run pass rate of answer_relevance with repeats=3 and a judge whose
    rating drifts between calls.

Run: uv run --all-packages python examples/evaluation/judge_modes.py
(needs the assay-faithfulness and assay-judges plugins installed).
"""

from __future__ import annotations

import json
import re
import tempfile

from assay_evaluation import evaluate
from assay_judges import judge_from_callable

SAMPLE = {
    "id": "apollo",
    "question": "When did Apollo 11 land on the Moon?",
    "answer": "Apollo 11 landed on the Moon in July 1969. The landing was broadcast from Mars.",
    "contexts": ["Apollo 11 landed on the Moon on 20 July 1969, watched on television worldwide."],
}


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 4}


def toy_model(prompt: str) -> str:
    """Answers the prompts of assay_judges' default templates."""
    if prompt.startswith("Break the ANSWER"):
        answer = prompt.split("ANSWER: ", 1)[1]
        return json.dumps(re.split(r"(?<=\.)\s+", answer.strip()))
    if prompt.startswith("For each numbered CLAIM"):
        context, claims = prompt.split("CONTEXT:\n", 1)[1].split("\n\nCLAIMS:\n")
        verdicts = [words(c.split(". ", 1)[1]) <= words(context) for c in claims.splitlines()]
        return json.dumps([{"claim": i + 1, "supported": v} for i, v in enumerate(verdicts)])
    if prompt.startswith("Rate from 0 to 1"):
        question, answer = prompt.split("QUESTION: ", 1)[1].split("\nANSWER: ")
        shared = words(question) & words(answer)
        return json.dumps({"score": round(len(shared) / max(1, len(words(question))), 3)})
    raise ValueError("unexpected prompt")


def main() -> None:
    judge = judge_from_callable(toy_model, name="toy-model")
    heuristic = evaluate(SAMPLE, ["faithfulness"])
    print(f"heuristic faithfulness: {heuristic.metrics['faithfulness'].score:.3f}")
    llm = evaluate(SAMPLE, ["faithfulness"], {"mode": "llm", "judge": judge})
    faith = llm.metrics["faithfulness"]
    print(f"llm faithfulness: {faith.score:.3f} ({faith.explanation})")
    for signal in faith.signals:
        print(f"  unsupported: {signal.evidence}")
    hybrid = evaluate(
        SAMPLE,
        ["faithfulness", "answer_relevance"],
        {"mode": "hybrid", "judge": judge, "metricModes": {"answerRelevance": "llm"}},
    )
    for metric_id, result in hybrid.metrics.items():
        print(f"hybrid {metric_id}: {result.details['mode']} {result.score:.3f}")
    with tempfile.TemporaryDirectory() as cache:
        options = {"mode": "llm", "judge": judge, "judgeCache": cache}
        first = evaluate(SAMPLE, ["faithfulness", "answer_relevance"], options)
        again = evaluate(SAMPLE, ["faithfulness", "answer_relevance"], options)
    print(
        f"first run: {first.cost.llm_calls} judge calls; re-run: {again.cost.llm_calls} calls, "
        f"{again.cost.cache_hits} cache hits"
    )
    ratings = iter(["0.9", "0.6", "0.75"])
    drifting = judge_from_callable(lambda prompt: next(ratings), name="drifting")
    repeated = evaluate(
        SAMPLE, ["answer_relevance"], {"mode": "llm", "judge": drifting, "repeats": 3}
    )
    relevance = repeated.metrics["answer_relevance"]
    print(
        f"repeats=3: mean {relevance.score:.3f}, spread {relevance.details['spread']:.3f}, "
        f"run pass rate {relevance.details['runPassRate']:.3f}"
    )


if __name__ == "__main__":
    main()
