"""The three corrective actions of CRAG on real sentences.

Run: uv run --all-packages python examples/route/corrective_actions.py

Prints:
  * "decompose:" for three questions: a compound one split into sub-queries, two questions in
    one line split apart, and a title with "and" kept whole (with the specification's variant phrasings);
  * "reformulate:" the keyword search query of two questions;
  * "refine:" the two best-scoring knowledge strips (sentences) of two passages for the first
    question, in document order; the lexical scorer ties the Canberra and Sydney sentences (both
    name a capital in Australia), which a model-backed scorer would separate.
"""

from __future__ import annotations

from assay_crag import LexicalRelevanceScorer, decompose_query, refine_knowledge, reformulate_query

QUESTIONS = [
    "What is the capital of Australia and when did it become the capital?",
    "Who directed Jaws? Who composed its score?",
    "Who wrote Romeo and Juliet?",
]
PASSAGES = [
    "Canberra is the capital city of Australia. Founded following the federation of the "
    "colonies of Australia as the seat of government for the new nation, it is the country's "
    "largest inland city.",
    "Sydney is the state capital of New South Wales and the most populous city in Australia. "
    "The city hosted the 2000 Summer Olympics.",
]


def main() -> None:
    for question in QUESTIONS:
        print(f"decompose: {question}")
        for part in decompose_query(question):
            print(f"  - {part}")
    for question in QUESTIONS[:2]:
        print(f"reformulate: {question} -> {reformulate_query(question)}")
    refined = refine_knowledge(QUESTIONS[0], PASSAGES, LexicalRelevanceScorer(), top_k=2)
    print(f"refine: kept {len(refined.strips)} of {refined.considered} strips")
    for strip in refined.strips:
        print(f"  [doc {strip.document_index}, {strip.score:.2f}] {strip.text}")


if __name__ == "__main__":
    main()
