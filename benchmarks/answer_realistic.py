"""The default answer detectors on right answers written as sentences, the way RAG systems
write them, against HaluEval's hallucinated answers.

HaluEval QA's right answers are a few words ("Delhi"), its hallucinated answers whole sentences
("The Oberoi family's hotel company is based in Mumbai."): a detector could separate them by
length alone. Real RAG answers are sentences. From each row of
shared/data/halueval_qa_dev.jsonl (read in place) this builds right answers of three forms:

* ``short``: the data set's own right answer (for comparison);
* ``extractive``: the first sentence of the row's passage that contains the right answer
  (compared case-insensitively): extractive and right;
* ``templated``: the question turned into a statement with the right answer in its place and a
  citation marker, "... in what city?" -> "... in Delhi [1].", "Who wrote X?" -> "Mary Shelley
  wrote X [1].", "Which magazine was started first?" -> "Arthur's Magazine was started first
  [1]." (only for questions that one of these three rules fits: see :func:`templated`);

and two wrong forms: ``hallucinated`` (the data set's) and ``hallucinated [1]`` (the same with a
citation marker before its final period, as a RAG system would cite it). Every answer is
scored with the row's question and its passage as the only context.

Reported for ``claim_support`` and ``answer_support`` (each at its default threshold): the share
of each right form that passes and of each wrong form that fails, and the AUROC of every right
form against ``hallucinated`` and ``hallucinated [1]`` (the probability that a right answer of
the row set scores above a wrong one; ties count half; an undetermined score ranks lowest).
Then the rows of examples/evaluation/data/pipeline_outputs.csv (a RAG pipeline's outputs; q5
and q8 are wrong, the others right) through ``assay_evaluation.evaluate_batch`` with the
default metric list.

Rows 0-1,999 (0-based lines) were the only ones looked at while designing the detectors and the
templates; ``--split held-out`` (the default) reports rows 2,000-4,999.

Run: uv run --all-packages python benchmarks/answer_realistic.py [--split held-out|design]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from metrics_halueval import auroc  # benchmarks/ is this script's folder

import assay
import assay_faithfulness as af
from assay_evaluation import evaluate_batch
from assay_faithfulness.claim_support import split_passage_sentences

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "halueval_qa_dev.jsonl"
PIPELINE = ROOT / "examples" / "evaluation" / "data" / "pipeline_outputs.csv"
SPLITS = {"design": (0, 2000), "held-out": (2000, 5000)}
DETECTORS = ("claim_support", "answer_support")
RIGHT_FORMS = ("short", "extractive", "templated")
WRONG_FORMS = ("hallucinated", "hallucinated [1]")
WRONG_ROWS = frozenset(["q5", "q8"])
"""The rows of pipeline_outputs.csv whose answer contradicts its contexts (three moons of Mars,
Jupiter the Red Planet); every other row answers right."""

_WH = frozenset(["what", "which", "who", "whom", "whose", "where", "when"])
_COPULAS = frozenset(["is", "was", "are", "were"])
_NOT_SUBJECT_VERB = frozenset(["did", "does", "do", "has", "have", "had", "can", "could", "will"])
_END_WH_WORDS = 3
"""A question ending on its wh-phrase has the wh-word among its last this many words ("...
head office in what city?")."""
_LEAD_WORDS = 4
"""A "What/Which ... is ...?" question has its copula within this many words of its start."""
_MARKER = " [1]"


class Scored(NamedTuple):
    """A detector's score of one answer and whether it passes at the default threshold."""

    score: float | None
    passed: bool | None


def templated(question: str, answer: str) -> str | None:
    """The question as a statement with ``answer`` in its place and a citation marker, or None
    when no rule fits:

    1. the wh-word stands among the last :data:`_END_WH_WORDS` words and only lowercase words
       follow it: "what"/"which"/"whose" and the words after it are replaced ("... in what
       city?" -> "... in Delhi [1]."), "who" or "whom" is ("..., who is older?" -> "..., Mary
       Pierce is older [1]."), "where" or "when" becomes "in" and the answer;
    2. "Who <verb> ...?" (not "Who did ...?"): the answer replaces "Who";
    3. "What/Which <words> is|was|are|were <lowercase word> ...?" (not asking for a year, a
       date or a nationality, which would read "1990 was the company founded"): the answer
       replaces the words before the copula.

    The options of a choice question are dropped ("Who was born first, A or B?" -> "A was born
    first [1].").
    """
    words = question.strip().rstrip("?. ").split()
    lowered = [w.lower() for w in words]
    if len(words) < 3:
        return None
    answer = answer.strip().rstrip(".")
    for index in range(max(1, len(words) - _END_WH_WORDS), len(words)):
        tail = words[index + 1 :]
        if lowered[index] in _WH and all(w.isalpha() and w.islower() for w in tail):
            if lowered[index] in ("what", "which", "whose"):
                return _sentence([*words[:index], answer])  # "what city" names no more
            place = ["in"] if lowered[index] in ("where", "when") else []
            return _sentence([*words[:index], *place, answer, *tail])
    if lowered[0] in ("who", "whom") and lowered[1] not in _NOT_SUBJECT_VERB:
        return _sentence([answer, *_without_options(words[1:])])
    if lowered[0] in ("what", "which") and not _ASKS_A_DATE & set(lowered[:_LEAD_WORDS]):
        for index in range(1, min(_LEAD_WORDS, len(words) - 1)):
            if lowered[index] in _COPULAS and words[index + 1].islower():
                return _sentence([answer, *_without_options(words[index:])])
            if lowered[index] in _NOT_SUBJECT_VERB:
                return None
    return None


_ASKS_A_DATE = frozenset(["year", "date", "century", "decade", "month", "day", "nationality"])


def _without_options(words: list[str]) -> list[str]:
    """``words`` up to the options of a choice question: up to the comma before the last "or",
    else up to the capitalised words just before it ("started first A or B" -> "started
    first")."""
    if "or" not in words:
        return words
    last_or = len(words) - 1 - words[::-1].index("or")
    for index in range(last_or):
        if words[index].endswith(","):
            return [*words[:index], words[index].rstrip(",")]
    start = last_or
    while start > 1 and (words[start - 1][0].isupper() or words[start - 1] in ("of", "the")):
        start -= 1
    return words[:start]


def _sentence(words: list[str]) -> str:
    text = " ".join(words)
    return text[0].upper() + text[1:] + _MARKER + "."


def extractive(passage: str, answer: str) -> str | None:
    """The first sentence of ``passage`` holding ``answer`` (case-insensitive), or None."""
    needle = answer.strip().rstrip(".").lower()
    if not needle:
        return None
    for sentence in split_passage_sentences(passage):
        if needle in sentence.lower():
            return sentence.strip()
    return None


def cited(answer: str) -> str:
    """``answer`` with a citation marker before its final period (or at its end)."""
    stripped = answer.rstrip()
    if stripped.endswith("."):
        return stripped[:-1] + _MARKER + "."
    return stripped + _MARKER


_BLANKS = re.compile(r"\s+")


def forms(row: dict[str, str]) -> dict[str, str | None]:
    """Form -> the row's answer of that form (None where the form cannot be built)."""
    right, wrong = row["right_answer"], row["hallucinated_answer"]
    return {
        "short": right,
        "extractive": extractive(row["knowledge"], right),
        "templated": templated(_BLANKS.sub(" ", row["question"]), right),
        "hallucinated": wrong,
        "hallucinated [1]": cited(wrong),
    }


def score_all(
    rows: Sequence[dict[str, str]],
) -> dict[str, dict[str, list[tuple[int, Scored]]]]:
    """Detector -> form -> ``(row index, scored)`` for every row where the form exists."""
    table: dict[str, dict[str, list[tuple[int, Scored]]]] = {
        name: {form: [] for form in (*RIGHT_FORMS, *WRONG_FORMS)} for name in DETECTORS
    }
    for index, row in enumerate(rows):
        for form, answer in forms(row).items():
            if answer is None:
                continue
            sample = assay.EvalSample(
                question=row["question"], answer=answer, contexts=(row["knowledge"],)
            )
            results = af.score_sample(sample, list(DETECTORS))
            for name in DETECTORS:
                result = results[name]
                table[name][form].append((index, Scored(result.score, result.passed)))
    return table


def _rate(scored: list[tuple[int, Scored]], want: bool) -> float:
    return sum(1 for _, s in scored if s.passed is want) / len(scored)


def _auroc(right: list[tuple[int, Scored]], wrong: list[tuple[int, Scored]]) -> float:
    def value(s: Scored) -> float:
        return -1.0 if s.score is None else s.score

    return auroc([value(s) for _, s in right], [value(s) for _, s in wrong])


def report(rows: Sequence[dict[str, str]], label: str) -> None:
    """Print pass / fail rates and AUROCs of both detectors on ``rows``."""
    table = score_all(rows)
    print(f"HaluEval QA {label}: answers as sentences")
    counts = table[DETECTORS[0]]
    print("  answers built: " + ", ".join(f"{form} {len(counts[form])}" for form in counts))
    for name in DETECTORS:
        forms_scored = table[name]
        print(f"\n  {name} (default threshold)")
        for form in RIGHT_FORMS:
            print(f"    right {form:<18} pass {_rate(forms_scored[form], True):7.2%}")
        for form in WRONG_FORMS:
            print(f"    wrong {form:<18} fail {_rate(forms_scored[form], False):7.2%}")
        for form in RIGHT_FORMS:
            aurocs = "   ".join(
                f"vs {wrong}: {_auroc(forms_scored[form], forms_scored[wrong]):.4f}"
                for wrong in WRONG_FORMS
            )
            print(f"    AUROC {form:<18} {aurocs}")


def pipeline_rows(path: Path = PIPELINE) -> list[dict[str, object]]:
    """The samples of pipeline_outputs.csv (question, answer, contexts, id)."""
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            {
                "id": row["id"],
                "question": row["query"],
                "answer": row["response"],
                "contexts": json.loads(row["retrieved_contexts"]),
            }
            for row in csv.DictReader(handle)
        ]


def report_pipeline() -> None:
    """Print each example row's verdict under the default metric list."""
    samples = pipeline_rows()
    batch = evaluate_batch(samples)
    print(f"\n{PIPELINE.relative_to(ROOT)} (default metric list):")
    for sample, result in zip(samples, batch.results, strict=True):
        kind = "wrong" if sample["id"] in WRONG_ROWS else "right"
        scores = "  ".join(
            f"{name} {result.metrics[name].score:.3f}"
            for name in DETECTORS
            if result.metrics[name].score is not None
        )
        verdict = "pass" if result.passed else "FAIL"
        print(f"  {sample['id']} ({kind}) {verdict}  {scores}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=sorted(SPLITS), default="held-out")
    args = parser.parse_args()
    start, stop = SPLITS[args.split]
    lines = DATA.read_text(encoding="utf-8").splitlines()[start:stop]
    rows = [json.loads(line) for line in lines if line]
    report(rows, f"rows {start}-{stop - 1} ({args.split})")
    report_pipeline()


if __name__ == "__main__":
    main()
