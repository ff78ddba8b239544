"""From a row of someone's data to a sample in the JSON input format: RAGAS column names,
``column_map`` for any other names, cells of tables (CSV, DataFrames, Parquet) turned into
lists and numbers, and unknown columns reported once each with a did-you-mean.
"""

from __future__ import annotations

import ast
import difflib
import json
import math
import os
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from assay import AssayError
from assay_evaluation._codes import EvaluationErrorCode as Code
from assay_evaluation._options import suggest

__all__ = [
    "COLUMN_ALIASES",
    "FIELDS",
    "IGNORED_COLUMNS",
    "RAGAS_SCORE_COLUMNS",
    "ColumnMapper",
    "SampleFieldWarning",
    "check_column_map",
    "quietly_skipped",
    "warn_at_caller",
]

FIELDS = ("question", "answer", "contexts", "ground_truth", "id", "metadata")
"""The sample fields a column can be mapped to (``groundTruth`` is accepted for
``ground_truth``)."""

_WIRE = {"ground_truth": "groundTruth", "groundTruth": "groundTruth"}

COLUMN_ALIASES: Mapping[str, str] = {
    "question": "question",
    "answer": "answer",
    "contexts": "contexts",
    "groundTruth": "groundTruth",
    "ground_truth": "groundTruth",
    "id": "id",
    "metadata": "metadata",
    # ragas 0.2 and later (SingleTurnSample, EvaluationDataset)
    "user_input": "question",
    "response": "answer",
    "retrieved_contexts": "contexts",
    "reference": "groundTruth",
    # DeepEval (LLMTestCase)
    "input": "question",
    "actual_output": "answer",
    "expected_output": "groundTruth",
    "retrieval_context": "contexts",
}
"""Column name -> field of the JSON input format: the format's own names, ragas's names
(``user_input``, ``response``, ``retrieved_contexts``, ``reference``; ragas's older
``question``, ``answer``, ``contexts``, ``ground_truth`` are the format's own), and DeepEval's
``LLMTestCase`` names (``input``, ``actual_output``, ``expected_output``,
``retrieval_context``)."""

IGNORED_COLUMNS = frozenset(
    {
        "reference_contexts",
        "retrieved_context_ids",
        "reference_context_ids",
        "multi_responses",
        "rubrics",
        "reference_tool_calls",
        "persona_name",
        "query_style",
        "query_length",
        "synthesizer_name",
    }
)
"""ragas columns that no metric here reads; they are skipped without a warning."""

RAGAS_SCORE_COLUMNS = frozenset(
    {
        "faithfulness",
        "answer_relevancy",
        "response_relevancy",
        "context_precision",
        "context_recall",
        "context_entity_recall",
        "context_utilization",
        "llm_context_precision_with_reference",
        "llm_context_precision_without_reference",
        "llm_context_recall",
        "non_llm_context_recall",
        "non_llm_context_precision_with_reference",
        "id_based_context_recall",
        "id_based_context_precision",
        "noise_sensitivity",
        "answer_correctness",
        "answer_similarity",
        "semantic_similarity",
        "factual_correctness",
        "non_llm_string_similarity",
        "bleu_score",
        "rouge_score",
        "chrf_score",
        "exact_match",
        "string_present",
        "summary_score",
        "answer_accuracy",
        "context_relevance",
        "response_groundedness",
        "nv_accuracy",
        "nv_context_relevance",
        "nv_response_groundedness",
        "topic_adherence",
        "tool_call_accuracy",
        "tool_call_f1",
        "agent_goal_accuracy",
        "simple_criteria_score",
        "rubrics_score",
        "instance_rubrics",
        "domain_specific_rubrics",
        "harmfulness",
        "maliciousness",
        "coherence",
        "correctness",
        "conciseness",
    }
)
"""The score columns of a ragas result (``result.to_pandas()``): named after a ragas metric,
with its settings in brackets for some (``rouge_score(mode=fmeasure)``,
``factual_correctness(mode=f1)``). They are ragas's scores, not sample fields, and are skipped
without a warning."""


DEEPEVAL_RESULT_COLUMNS = frozenset(
    {
        "name",
        "success",
        "metrics_data",
        "metrics_data_by_alias",
        "conversational",
        "multimodal",
        "index",
        "turns",
        "classifications",
        "expectations",
        "additional_metadata",
        "comments",
        "tools_called",
        "expected_tools",
    }
)
"""The fields of a DeepEval ``TestResult`` (``evaluate(...).test_results``) that are neither a
sample field nor a score this package reads: a test result passed as it is is read without a
warning per field. DeepEval's ``context`` (the ideal context, not the retrieved one) still
warns, since it is also what a misspelt ``contexts`` looks like."""


ASSAY_RESULT_COLUMNS = frozenset(
    {
        "composite_score",
        "passed",
        "claim_support",
        "answer_support",
        "answer_relevance",
        "hallucination_rate",
    }
)
"""The columns of this package's own table of results (``--output results.csv``,
``to_pandas()``) that no other list names: the composite, the pass flag and the scores of its
metrics. With every column ending in ``_passed``, ``_status`` or ``_reason`` (each metric's
flag, status and reason) and any column ``X`` beside an ``X_status`` (the score of a metric of
your own), a table of results read back as samples warns about none of them."""

_RESULT_SUFFIXES = ("_passed", "_status", "_reason")


def quietly_skipped(column: str) -> bool:
    """Whether ``column`` is a ragas column no metric here reads (:data:`IGNORED_COLUMNS`), a
    ragas score column (:data:`RAGAS_SCORE_COLUMNS`, settings in brackets ignored), a field
    of a DeepEval test result (:data:`DEEPEVAL_RESULT_COLUMNS`) or a column of this package's
    own results table (:data:`ASSAY_RESULT_COLUMNS`, ``*_passed``, ``*_status``,
    ``*_reason``)."""
    return (
        column in IGNORED_COLUMNS
        or column in DEEPEVAL_RESULT_COLUMNS
        or column in ASSAY_RESULT_COLUMNS
        or column.endswith(_RESULT_SUFFIXES)
        or column.partition("(")[0] in RAGAS_SCORE_COLUMNS
    )


_CANONICAL = frozenset(("question", "answer", "contexts", "groundTruth", "id", "metadata"))


class SampleFieldWarning(UserWarning):
    """A column of the data that is not a sample field (it is ignored); ``strict=True`` (or
    ``assay eval --strict``) makes it an ``INVALID_SAMPLE`` error instead.

    Attributes:
        code: ``"UNKNOWN_FIELD"``.
        path: where it was first seen, e.g. ``row 1.questoin``.
        message: what was wrong, with a did-you-mean when a field name is close.
    """

    code = "UNKNOWN_FIELD"

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message, path)  # rebuilt from its args when copied or pickled
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn_at_caller(warning: Warning) -> None:
    """Warn with ``warning``, attributed to the first frame outside this package: the caller's
    line that handed over the data (``evaluate_batch(df)``), not a line of the reader, however
    deep the call (comprehensions, worker chunks) went. Frames that hide themselves from
    pytest's tracebacks (``__tracebackhide__``, as the ``assay_gate`` fixture's helpers do) are
    passed over too, so the warning names the test's line."""
    frame = sys._getframe(0)
    level = 1
    while frame is not None and (
        frame.f_code.co_filename.startswith(_PACKAGE) or frame.f_locals.get("__tracebackhide__")
    ):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    warnings.warn(warning, stacklevel=level)


def column_hint(column: str) -> str:
    """`` (did you mean 'x'?)`` for a recognised column name that ``column`` plausibly misspells,
    else ``""``: the same name in another case (``Question``), a close spelling (``questoin``,
    ``retrieved_context``), or a word of a recognised name (``output`` of ``actual_output``,
    ``truth`` of ``ground_truth``, ``meta`` of ``metadata``). A short name is not matched on two
    shared letters alone (``kind`` is no misspelling of ``id``)."""
    lower = column.lower()
    names = list(COLUMN_ALIASES)
    found = [name for name in names if name.lower() == lower]
    if not found:
        by_lower = {name.lower(): name for name in reversed(names)}
        close = difflib.get_close_matches(lower, list(by_lower), n=1, cutoff=0.75)
        found = [by_lower[close[0]]] if close else []
    if not found and len(lower) >= 4:
        found = [
            name
            for name in names
            if lower in name.lower().split("_") or name.lower().startswith(lower)
        ]
    return f" (did you mean {found[0]!r}?)" if found else ""


def check_column_map(
    column_map: Mapping[str, str] | None, path: str = "column_map"
) -> dict[str, str]:
    """``column_map`` (field -> column name) validated, with ``ground_truth`` spelled either
    way; returns column -> wire field.

    :raises AssayError: ``INVALID_OPTION`` for a field that is not one of :data:`FIELDS` (with
        a did-you-mean), a column that is not a non-empty string, or two fields from one column.
    """
    if column_map is None:
        return {}
    if not isinstance(column_map, Mapping):
        raise AssayError(Code.INVALID_OPTION, "must map sample fields to column names", path)
    by_column: dict[str, str] = {}
    for field, column in column_map.items():
        name = "ground_truth" if field == "groundTruth" else field
        if name not in FIELDS:
            raise AssayError(
                Code.INVALID_OPTION,
                f"{field!r} is not a sample field{suggest(str(field), FIELDS)} (fields: "
                f"{', '.join(FIELDS)})",
                f"{path}.{field}",
            )
        if not isinstance(column, str) or not column:
            raise AssayError(Code.INVALID_OPTION, "a column name is a string", f"{path}.{field}")
        if column in by_column:
            raise AssayError(
                Code.INVALID_OPTION, f"column {column!r} is mapped twice", f"{path}.{field}"
            )
        by_column[column] = _WIRE.get(name, name)
    return by_column


def _missing(value: Any) -> bool:
    """A table's empty cell: ``None``, NaN (pandas, Parquet) or pandas' ``NA``."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ in ("NAType", "NaTType")


def _plain(value: Any) -> Any:
    """numpy scalars and arrays (from pandas or Parquet) as Python numbers and lists."""
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return value.tolist()
    return value


class ColumnMapper:
    """Turns rows into samples in the JSON input format; reports each unknown column once.

    :param column_map: sample field -> column name, for names ragas and the JSON input format
        do not use (``{"question": "prompt"}``).
    :param strict: an unknown column is an ``INVALID_SAMPLE`` error instead of a
        :class:`SampleFieldWarning`.
    :param contexts_separator: in a table, a ``contexts`` cell that is not a JSON array is split
        on this string (default: the cell is one context).
    :param on_unknown: called with ``(column, message, where)`` instead of warning (a worker
        hands unknown columns back to the calling process, which warns once).
    :param check_first: check that the mapped columns are in the first row seen (off for a
        chunk that does not start the data).
    """

    def __init__(
        self,
        column_map: Mapping[str, str] | None = None,
        *,
        strict: bool = False,
        contexts_separator: str | None = None,
        on_unknown: Callable[[str, str, str], None] | None = None,
        check_first: bool = True,
    ) -> None:
        self.by_column = check_column_map(column_map)
        self.mapped_fields = frozenset(self.by_column.values())
        self.strict = strict
        self.separator = contexts_separator
        self.reported: set[str] = set()
        self.on_unknown = on_unknown
        self._checked = not check_first

    def row(self, row: Any, path: str, tabular: bool = False) -> Any:
        """``row`` as a sample mapping (anything that is not a mapping is returned unchanged,
        for :func:`~assay_evaluation.coerce_sample` to judge).

        :raises AssayError: ``INVALID_SAMPLE`` for two columns giving one field, or an unknown
            column under ``strict``; ``INVALID_CONTEXTS`` for a contexts cell that starts like
            a list but is neither a JSON array nor a Python list of strings; ``INVALID_OPTION`` when a mapped column is absent from
            the first row.
        """
        if not isinstance(row, Mapping):
            return row
        if not self._checked:
            self._check_first(row, path)
        if not tabular and not self.by_column and row.keys() <= _CANONICAL:
            return row  # already the JSON input format: the common case costs one set test
        out: dict[str, Any] = {}
        origin: dict[str, str] = {}
        for column, value in row.items():
            field = self.by_column.get(column)
            if field is None:
                field = COLUMN_ALIASES.get(column)
                if field in self.mapped_fields:  # the field comes from its mapped column
                    field = None
            if field is None:
                # a metric's score column of a results table has its status beside it
                if not quietly_skipped(str(column)) and f"{column}_status" not in row:
                    self._unknown(str(column), path)
                continue
            if field in origin:
                raise AssayError(
                    Code.INVALID_SAMPLE,
                    f"columns {origin[field]!r} and {column!r} both give the {field}; keep one "
                    "or map one explicitly",
                    f"{path}.{column}",
                )
            origin[field] = str(column)
            if tabular:
                value = self._cell(field, value, f"{path}.{column}")
                if value is None:
                    continue
            out[field] = value
        return out

    def _check_first(self, row: Mapping[str, Any], path: str) -> None:
        """Check the first row's columns: every mapped column is there, and, when some columns
        are not recognised, one of them gives the answer and one the contexts (a table whose
        answer column has another name: say so, naming the columns, not "the sample has no
        answer")."""
        self._checked = True
        self._check_mapped(row)
        fields = set()
        unknown = []
        for column in row:
            field = self.by_column.get(column)
            if field is None:
                field = COLUMN_ALIASES.get(column)
                if field in self.mapped_fields:
                    field = None
            if field is not None:
                fields.add(field)
            elif not quietly_skipped(str(column)):
                unknown.append(str(column))
        if not unknown:
            return  # the row is judged as it is: a missing field is that sample's error
        for field, code, none in (
            ("answer", Code.MISSING_ANSWER, ""),
            ("contexts", Code.INVALID_CONTEXTS, " (a sample without contexts has [] in JSON)"),
        ):
            if field not in fields:
                raise AssayError(
                    code,
                    f"no column gives the {field}{suggest(field, unknown)}: map the one that "
                    f"holds it with --map {field}=COLUMN (column_map={{'{field}': COLUMN}} in "
                    f"Python); columns not recognised: {', '.join(unknown)}{none}",
                    f"{path}.{field}",
                )

    def _check_mapped(self, row: Mapping[str, Any]) -> None:
        for column, field in self.by_column.items():
            if column not in row:
                raise AssayError(
                    Code.INVALID_OPTION,
                    f"column {column!r} (mapped to {field}) is not in the data"
                    f"{suggest(column, map(str, row))} (columns: {', '.join(map(str, row))})",
                    f"column_map.{field}",
                )

    def _unknown(self, column: str, path: str) -> None:
        hint = column_hint(column)
        if self.strict:
            raise AssayError(
                Code.INVALID_SAMPLE,
                f"unknown field {column!r}{hint}; map it with column_map / --map, or drop it",
                f"{path}.{column}",
            )
        if column not in self.reported:
            self.reported.add(column)
            message = f"unknown field {column!r}{hint}; ignored (map it with column_map / --map)"
            if self.on_unknown is not None:
                self.on_unknown(column, message, f"{path}.{column}")
                return
            warn_at_caller(SampleFieldWarning(message, f"{path}.{column}"))

    def _cell(self, field: str, value: Any, path: str) -> Any:
        """A table cell as the JSON input format has it; ``None`` for an empty cell."""
        value = _plain(value)
        if field == "contexts":
            if _missing(value):
                return []
            if isinstance(value, str):
                return self._contexts(value, path)
            return value
        if _missing(value) or (isinstance(value, str) and not value.strip()):
            # the answer column is there: an empty cell is an answer of no words (the pipeline
            # answered nothing), judged and failed, not a row that stops the whole run
            return "" if field == "answer" else None
        if field == "metadata" and isinstance(value, str) and value.lstrip().startswith("{"):
            return _json_cell(value, Code.INVALID_SAMPLE, path, "object")
        if field == "id" and isinstance(value, float) and value.is_integer():
            return int(value)  # an integer column with gaps reads back as floats
        return value

    def _contexts(self, cell: str, path: str) -> list[Any]:
        if not cell.strip():
            return []
        if cell.lstrip().startswith("["):
            return _list_cell(cell, path)
        if self.separator:
            return [part for part in cell.split(self.separator) if part.strip()]
        return [cell]


def _list_cell(cell: str, path: str) -> list[Any]:
    """A contexts cell that starts with ``[``: a JSON array, or the Python list of strings that
    pandas writes for a list cell (``to_csv()`` of a ragas result: ``['a', "b's"]``), read with
    :func:`ast.literal_eval` (literals only, nothing run) and kept only when every item is a
    string.

    :raises AssayError: ``INVALID_CONTEXTS`` when it is neither, saying what it looks like.
    """
    try:
        value = json.loads(cell)
    except ValueError:
        value = _python_strings(cell)
        if value is None:
            raise AssayError(
                Code.INVALID_CONTEXTS,
                f"the cell starts like a list ({_head(cell)}) but is neither a JSON array nor a "
                "Python list of strings: write the contexts as a JSON array (json.dumps), or "
                "give --contexts-separator (contexts_separator=) to split plain text",
                path,
            ) from None
    if not isinstance(value, list):
        raise AssayError(Code.INVALID_CONTEXTS, "the cell must be a JSON array", path)
    return value


def _python_strings(cell: str) -> list[str] | None:
    """``cell`` as a Python list of strings, or ``None`` when it is not one."""
    try:
        value = ast.literal_eval(cell.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return None


def _head(cell: str, size: int = 40) -> str:
    """The start of ``cell``, quoted, for an error message."""
    text = cell.strip()
    return repr(text if len(text) <= size else text[:size] + "...")


def _json_cell(cell: str, code: str, path: str, kind: str) -> Any:
    try:
        value = json.loads(cell)
    except ValueError as exc:
        raise AssayError(
            code, f"the cell starts like a JSON {kind} but is not one: {exc}", path
        ) from exc
    if not isinstance(value, list if kind == "array" else dict):
        raise AssayError(code, f"the cell must be a JSON {kind}", path)
    return value
