"""Adversarial answer pairs from HaluEval QA, and how well a detector separates them.

Reads shared/data/halueval_qa_dev.jsonl in place (5,000 rows: knowledge, question, right_answer,
hallucinated_answer). Every pair is a right answer and a wrong one to the same question, both
scored with the row's knowledge passage as the only context. Four kinds of pairs:

* ``wrong-entity``: the right answer is a name (a run of capitalised words) found in the passage;
  the wrong one is another name of the same passage that overlaps no occurrence of the right one,
  shares none of its words and is not a name the question already gives. Among those, the one
  with the same number of words (else the nearest count), then the nearest to the right answer in
  the passage, is taken: a same-shaped name from the same neighbourhood.
* ``yes-no``: the right answer is a yes or no (bare or leading); the wrong one flips it.
* ``swapped-number``: the right answer holds a number found in the passage; the wrong one is the
  same answer with that number replaced by another number of the passage of the same shape (same
  digits-and-separators pattern, else the same count of digits), not one the question gives,
  nearest to the right number in the passage.
* ``halueval``: the data set's own right versus hallucinated answer, every row.

Splits: rows 0-1,999 (0-based line numbers) are the **design** split, the only rows looked at
while designing and tuning ``answer_support``; rows 2,000-4,999 are **held out** and used only
to report. A detector's AUROC on a kind is the probability that a right answer scores above a
wrong one of that kind (all right x wrong pairs of the split, ties counting half); an
undetermined score (``None``) ranks lowest.

Run: uv run --all-packages python benchmarks/answer_detector.py [--split held-out|design]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from metrics_halueval import auroc  # benchmarks/ is this script's folder

from assay_faithfulness.answer_text import MONTHS

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
SPLITS = {"design": (0, 2000), "held-out": (2000, 5000)}
KINDS = ("wrong-entity", "yes-no", "swapped-number", "halueval")

Scorer = Callable[[str, str, str], float | None]
"""``scorer(question, answer, context)``: a detector's score of one answer."""


class Pair(NamedTuple):
    """A right and a wrong answer to one question of row ``row``."""

    kind: str
    row: int
    question: str
    context: str
    right: str
    wrong: str


_CONNECTOR = r"(?:of|the|de|la|le|du|da|del|der|van|von|and|for|on|&)"
_CAP_WORD = r"(?:(?:[A-Z]\.){2,}|[A-Z]\.(?=\s*[A-Z])|[A-Z][\w'’\-]*)"
_NAME = re.compile(rf"{_CAP_WORD}(?:\s+(?:{_CONNECTOR}\s+)*{_CAP_WORD})*")
_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
_YES_NO = re.compile(r"^(\s*)(yes|no)\b", re.IGNORECASE)
_NOT_NAMES = (
    frozenset(
        [
            "a",
            "an",
            "the",
            "in",
            "on",
            "at",
            "he",
            "she",
            "it",
            "his",
            "her",
            "they",
            "their",
            "this",
            "that",
            "these",
            "those",
            "after",
            "before",
            "during",
            "as",
            "by",
            "for",
            "from",
            "with",
            "of",
            "and",
            "but",
            "or",
            "its",
            "is",
            "was",
            "there",
            "when",
            "while",
            "although",
            "following",
            "since",
            "upon",
            "however",
            "despite",
            "it's",
            "if",
            "what",
            "who",
            "which",
        ]
    )
    | MONTHS
)


def load_rows(path: Path = DATA) -> list[dict[str, str]]:
    """The data set's rows, in file order."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _wrong_entity(row: dict[str, str]) -> str | None:
    right = row["right_answer"].strip().rstrip(".")
    passage = row["knowledge"]
    if not _NAME.fullmatch(right) or right not in passage:
        return None
    taken = [(m.start(), m.end()) for m in re.finditer(re.escape(right), passage)]
    right_words = _words(right)
    question_words = _words(row["question"])
    best: tuple[int, int, str] | None = None
    for match in _NAME.finditer(passage):
        name = match.group()
        words = _words(name)
        if (
            words <= _NOT_NAMES
            or words & right_words
            or words <= question_words
            or any(match.start() < end and start < match.end() for start, end in taken)
        ):
            continue
        key = (
            abs(len(name.split()) - len(right.split())),
            min(abs(match.start() - start) for start, _ in taken),
            name,
        )
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def _flip_yes_no(answer: str) -> str | None:
    match = _YES_NO.match(answer)
    if match is None:
        return None
    word = match.group(2)
    flipped = "no" if word.lower() == "yes" else "yes"
    if word[0].isupper():
        flipped = flipped.upper() if word.isupper() else flipped.capitalize()
    return answer[: match.start(2)] + flipped + answer[match.end(2) :]


def _shape(number: str) -> str:
    """Digits and separators: "2,523" -> "d,ddd"."""
    return re.sub(r"\d", "d", number)


def _digits(number: str) -> int:
    return sum(c.isdigit() for c in number)


def _swapped_number(row: dict[str, str]) -> str | None:
    answer, passage = row["right_answer"], row["knowledge"]
    in_passage = list(_NUMBER.finditer(passage))
    taken = set(_NUMBER.findall(answer)) | set(_NUMBER.findall(row["question"]))
    others = [m for m in in_passage if m.group() not in taken]
    for number in _NUMBER.finditer(answer):
        written = number.group()
        places = [m.start() for m in in_passage if m.group() == written]
        if not places:
            continue
        fitting = [m for m in others if _shape(m.group()) == _shape(written)] or [
            m for m in others if _digits(m.group()) == _digits(written)
        ]
        if fitting:
            swap = min(fitting, key=lambda m: min(abs(m.start() - p) for p in places))
            return answer[: number.start()] + swap.group() + answer[number.end() :]
    return None


def build_pairs(rows: Sequence[dict[str, str]], start: int, stop: int) -> dict[str, list[Pair]]:
    """The pairs of every kind built from ``rows[start:stop]`` (kind -> pairs, in row order)."""
    pairs: dict[str, list[Pair]] = {kind: [] for kind in KINDS}
    for index in range(start, min(stop, len(rows))):
        row = rows[index]
        q, k, right = row["question"], row["knowledge"], row["right_answer"]
        wrongs = {
            "wrong-entity": _wrong_entity(row),
            "yes-no": _flip_yes_no(right),
            "swapped-number": _swapped_number(row),
            "halueval": row["hallucinated_answer"],
        }
        for kind, wrong in wrongs.items():
            if wrong is not None:
                pairs[kind].append(Pair(kind, index, q, k, right, wrong))
    return pairs


def pair_auroc(pairs: Sequence[Pair], scorer: Scorer) -> float:
    """AUROC of right over wrong answers of ``pairs`` (``None`` scores rank lowest)."""

    def score(answer: str, pair: Pair) -> float:
        value = scorer(pair.question, answer, pair.context)
        return -1.0 if value is None else value

    return auroc([score(p.right, p) for p in pairs], [score(p.wrong, p) for p in pairs])


def answer_support_score(question: str, answer: str, context: str) -> float | None:
    """``analyze_answer(question, answer, [context]).score``."""
    import assay_faithfulness as af

    return af.analyze_answer(question, answer, [context]).score


def claim_support_score(question: str, answer: str, context: str) -> float | None:
    """claim_support's score of the sample (the metric before answer_support)."""
    import assay
    import assay_faithfulness as af

    sample = assay.EvalSample(question=question, answer=answer, contexts=[context])
    return af.score_sample(sample, ["claim_support"])["claim_support"].score


def _answers(pairs: Sequence[Pair]) -> Iterator[tuple[str, str, str]]:
    for pair in pairs:
        yield pair.question, pair.right, pair.context
        yield pair.question, pair.wrong, pair.context


def median_us(scorer: Scorer, pairs: Sequence[Pair]) -> float:
    """Median microseconds per answer of ``scorer`` over both answers of every pair."""
    times = []
    for question, answer, context in _answers(pairs):
        begin = time.perf_counter()
        scorer(question, answer, context)
        times.append(time.perf_counter() - begin)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=sorted(SPLITS), default="held-out")
    args = parser.parse_args()
    start, stop = SPLITS[args.split]
    pairs = build_pairs(load_rows(), start, stop)
    scorers = {"claim_support": claim_support_score, "answer_support": answer_support_score}
    print(f"HaluEval QA rows {start}-{stop - 1} ({args.split}); AUROC right vs wrong answer")
    print(f"{'pairs':16s} {'n':>5s} " + " ".join(f"{name:>15s}" for name in scorers))
    for kind in KINDS:
        aurocs = [pair_auroc(pairs[kind], scorer) for scorer in scorers.values()]
        print(f"{kind:16s} {len(pairs[kind]):5d} " + " ".join(f"{a:15.4f}" for a in aurocs))
    timings = [median_us(scorer, pairs["halueval"]) for scorer in scorers.values()]
    print(f"{'median us/answer':22s} " + " ".join(f"{t:15.1f}" for t in timings))


if __name__ == "__main__":
    main()
