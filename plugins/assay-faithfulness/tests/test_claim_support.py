"""claim_support: our own hallucination-detection metric, on made-up and on real (HaluEval) data."""

import json
import re
from pathlib import Path

import pytest

import assay
import assay_faithfulness as af
from assay_faithfulness import claim_support

PASSAGE = (
    "The Oberoi family is an Indian family that is famous for its involvement in hotels, namely "
    "through The Oberoi Group.The Oberoi Group is a hotel company with its head office in Delhi."
)
QUESTION = "The Oberoi family is part of a hotel company that has a head office in what city?"
HALUEVAL = Path(__file__).resolve().parents[3].parent / "shared/data/halueval_qa_dev.jsonl"


def score(answer: str, contexts: tuple[str, ...] = (PASSAGE,)) -> assay.MetricResult:
    sample = assay.EvalSample(question=QUESTION, answer=answer, contexts=contexts)
    return af.score_sample(sample, ["claim_support"])["claim_support"]


def test_a_stated_answer_passes_and_an_invented_city_fails_with_signals() -> None:
    right = score("Delhi")
    wrong = score("The Oberoi family's hotel company is based in Mumbai.")
    assert right.score == 1.0 and right.passed is True
    assert wrong.score < 0.8 and wrong.passed is False
    messages = [s.message for s in wrong.signals]
    assert "Names or numbers found in no context: mumbai." in messages


def test_swapped_word_order_lowers_the_score() -> None:
    passage = ("Friends in Low Places was performed by Garth Brooks.",)
    assert score("Garth Brooks", passage).score > score("Brooks Garth", passage).score


def test_without_contexts_or_words_it_is_undetermined() -> None:
    assert score("Delhi", ()).score is None
    assert score("...").passed is None


@pytest.mark.skipif(
    not HALUEVAL.exists(),
    reason="needs ../shared/data/halueval_qa_dev.jsonl "
    "(the shared data folder beside the repo; CI has it)",
)
def test_separates_right_from_hallucinated_answers_on_real_rows() -> None:
    # Rows 1,001-1,200 of HaluEval QA (outside the rows used to design the metric).
    lines = HALUEVAL.read_text(encoding="utf-8").split("\n")[1000:1200]
    rows = [json.loads(line) for line in lines]
    wins = 0.0
    baseline_wins = 0.0
    for row in rows:
        right = score(row["right_answer"], (row["knowledge"],)).score
        wrong = score(row["hallucinated_answer"], (row["knowledge"],)).score
        wins += 1.0 if right > wrong else 0.5 if right == wrong else 0.0
        known = set(af.tokenize(row["knowledge"]))

        def support(text: str, known: set[str] = known) -> float:
            tokens = af.tokenize(text)
            return sum(t in known for t in tokens) / len(tokens)

        r, w = support(row["right_answer"]), support(row["hallucinated_answer"])
        baseline_wins += 1.0 if r > w else 0.5 if r == w else 0.0
    assert wins / len(rows) > 0.95
    assert wins > baseline_wins


@pytest.mark.parametrize(
    "claim",
    [
        "Paris is the capital of France.",
        "In 1889 the Eiffel Tower opened; it is 330 m tall.",
        "snake_Case and _Leading words, a_B1 c, x2y and 3rd place",
        "Ünder Über İstanbul 12ab ١٢ a²b",
        "the 2010s and U.S. policy",
        "",
    ],
)
def test_key_terms_are_the_capitalised_words_and_numbers_of_the_claim(claim: str) -> None:
    # the definition: a capitalised word that does not open the claim (nor follows "_"), or a
    # word with a digit (one regex, tried at every position: the slower form of the scan)
    definition = re.compile(r"(?<!^)\b[A-Z][^\W_]*|(?<![^\W_])[^\W_]*\d[^\W_]*")
    assert claim_support._key_terms(claim) == definition.findall(claim)


def test_the_reason_counts_a_claim_as_stated_only_when_it_passes() -> None:
    # two of the claim's four content words stand in the passage's sentences: token support
    # 0.5, a failing score; the reason must not count the claim as stated
    half = score("The Oberoi Group owns airlines in Mumbai.")
    assert half.passed is False
    assert half.explanation.startswith("0/1 claim(s) stated by a context sentence")
    stated = score("The Oberoi Group is a hotel company with its head office in Delhi.")
    assert stated.passed is True
    assert stated.explanation.startswith("1/1 claim(s) stated by a context sentence")
    # on real rows: every claim counted as stated means the token support reached the bar
    lines = HALUEVAL.read_text(encoding="utf-8").split("\n")[:200] if HALUEVAL.exists() else []
    for line in lines:
        row = json.loads(line)
        for answer in (row["right_answer"], row["hallucinated_answer"]):
            result = score(answer, (row["knowledge"],))
            stated_count, total = map(int, result.explanation.split(" ", 1)[0].split("/"))
            supports = result.details["claim_support"]
            assert stated_count == sum(s >= claim_support.STATED_CLAIM for s in supports)
            if stated_count == total:
                assert result.details["token_support"] >= claim_support.STATED_CLAIM
