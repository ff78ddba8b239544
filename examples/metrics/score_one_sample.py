"""Score one RAG answer with the seven metrics compatible with rag-eval-node-ts 0.3 and
claim_support.

Prints one line per metric: its id, score (3 decimals, or "undetermined"), PASS/FAIL at its
default threshold, and its explanation; then each signal indented below its metric, as
"[severity] message" followed by the evidence sentence in quotes when there is one. The sample
has no ground truth, so context_recall and answer_correctness print "undetermined" (never FAIL),
and hallucination_rate flags "Dinosaurs are extinct." as unsupported.

Run: uv run --package assay-faithfulness python examples/metrics/score_one_sample.py
"""

import assay
import assay_faithfulness as af

sample = assay.EvalSample(
    question="What is retrieval-augmented generation?",
    answer="RAG combines retrieval with text generation. Dinosaurs are extinct.",
    contexts=[
        "Retrieval-augmented generation (RAG) combines information retrieval with text "
        "generation: a retriever finds passages and a generator answers from them.",
        "The weather in Lisbon is mild in winter.",
    ],
)

results = af.score_sample(sample, [*af.DEFAULT_METRIC_IDS, "claim_support"])
for metric_id, result in results.items():
    if result.score is None:
        verdict = "undetermined"
    else:
        verdict = f"{result.score:.3f} {'PASS' if result.passed else 'FAIL'}"
    print(f"{metric_id:20s} {verdict:12s} {result.explanation}")
    for signal in result.signals:
        evidence = f' "{signal.evidence}"' if signal.evidence else ""
        print(f"    [{signal.severity}] {signal.message}{evidence}")
