"""The answer detector compiled by mypyc gives exactly what its Python source gives.

The detector's modules (``answer_*.py``, ``inflection.py`` of assay-faithfulness) are compiled
from their own source when the package is installed with a C compiler. Here: they are compiled
in this install (CI ships the fast path), ``ASSAY_PURE_PYTHON=1`` imports them from source, and
the evidence for 1,200 real HaluEval answers (../shared/data, read in place: right and
hallucinated, with and without the question, and with the question's words as a second
context) is identical, down to every float's repr, between the two. Bad input raises the same
coded errors either way.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from shared_data import shared_path

import assay
from assay.testing import pure_python_result
from assay_faithfulness import _compiled, analyze_answer
from assay_faithfulness.answer_support import clear_answer_caches

SETUP = Path(__file__).resolve().parents[1] / "plugins" / "assay-faithfulness" / "setup.py"


def _detector_modules() -> list[str]:
    """The modules setup.py compiles (its ``DETECTOR_MODULES``, the one list of them)."""
    for node in ast.parse(SETUP.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "DETECTOR_MODULES":
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"no DETECTOR_MODULES in {SETUP}")


DETECTOR = _detector_modules()
ROWS = 300


def _origins() -> dict[str, str]:
    code = (
        "import importlib, json\n"
        f"print(json.dumps({{m: importlib.import_module('assay_faithfulness.' + m).__file__"
        f" for m in {tuple(DETECTOR)!r}}}))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return dict(json.loads(run.stdout))


def evidence_of_halueval_answers() -> list[str]:
    """The repr of the evidence for each answer of the first rows of the HaluEval file, from
    cold caches (so that the first answer to each question reads its passage)."""
    clear_answer_caches()
    path = shared_path("data", "halueval_qa_dev.jsonl")
    out = []
    with path.open(encoding="utf-8") as file:
        for _, line in zip(range(ROWS), file, strict=False):
            row = json.loads(line)
            question, passage = row["question"], row["knowledge"]
            for answer in (row["right_answer"], row["hallucinated_answer"]):
                out.append(repr(analyze_answer(question, answer, [passage])))
                out.append(repr(analyze_answer(None, answer, [passage, question])))
    return out


@pytest.mark.skipif(
    not assay.speedups_allowed(),
    reason="ASSAY_PURE_PYTHON is set: unset it to check the compiled build (CI runs without it)",
)
def test_the_detector_modules_are_compiled_in_this_install() -> None:
    """A build that silently fell back to Python fails here."""
    origins = _origins()
    assert all(origin.endswith((".so", ".pyd")) for origin in origins.values()), origins


def test_assay_pure_python_imports_the_detector_from_source() -> None:
    code = (
        "import assay_faithfulness.answer_support as m, assay_faithfulness._compiled as c\n"
        "print(m.__file__, type(c._speedups).__name__)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "ASSAY_PURE_PYTHON": "1"},
    )
    origin, speedups = run.stdout.split()
    assert origin.endswith("answer_support.py")
    assert speedups == "NoneType"
    assert any(isinstance(finder, _compiled.SourceFirst) for finder in sys.meta_path) is (
        not assay.speedups_allowed()
    )


def test_compiled_and_source_detectors_give_identical_evidence() -> None:
    here = evidence_of_halueval_answers()
    assert len(here) == ROWS * 4
    assert pure_python_result(__file__, "evidence_of_halueval_answers") == here


@pytest.mark.parametrize(
    ("question", "answer", "contexts", "code", "path"),
    [
        ("Who?", None, ["A passage."], "MISSING_ANSWER", "answer"),
        ("Who?", 7, ["A passage."], "MISSING_ANSWER", "answer"),
        (3.5, "Paris.", ["A passage."], "INVALID_SAMPLE", "question"),
        ("Who?", "Paris.", "A passage.", "INVALID_CONTEXTS", "contexts"),
        ("Who?", "Paris.", ["A passage.", None], "INVALID_CONTEXTS", "contexts[1]"),
    ],
)
def test_bad_input_raises_a_coded_error_compiled_or_not(
    question: Any, answer: Any, contexts: Any, code: str, path: str
) -> None:
    with pytest.raises(assay.AssayError) as caught:
        analyze_answer(question, answer, contexts)
    assert caught.value.code == code
    assert caught.value.path == path
