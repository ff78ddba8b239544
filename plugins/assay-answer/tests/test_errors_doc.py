"""docs/errors.md, section "Answer records", stays true: every row's record is refused with its
code at its path."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import assay
from assay_scorecard import score_answer_record
from assay_scorecard.field_checks import FieldWarning

DOC = Path(__file__).resolve().parents[3] / "docs" / "errors.md"
ROW = re.compile(r"^\| ([A-Z_]+) \| ([^|]+?) \| `(\{.*\})` \| .* \|$")


def _rows() -> list[tuple[str, str, Any]]:
    text = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
    if "## Answer records" not in text:  # the plugin installed alone, outside the repository
        return []
    section = text[text.index("## Answer records") :]
    return [
        (match[1], match[2], json.loads(match[3]))
        for line in section.splitlines()
        if (match := ROW.match(line))
    ]


ROWS = _rows()


@pytest.mark.skipif(not ROWS, reason="needs docs/errors.md of the repository")
def test_the_section_covers_every_code() -> None:
    codes = {code for code, _, _ in ROWS}
    assert {"INVALID_ANSWER_RECORD", "INVALID_CONTEXT", "UNKNOWN_NAME", "INVALID_CONFIG"} <= codes


@pytest.mark.parametrize(("code", "path", "record"), ROWS, ids=[f"{r[0]}@{r[1]}" for r in ROWS])
def test_row(code: str, path: str, record: Any) -> None:
    if path.startswith("signals."):
        # a signal the scorer cannot read is an error in strict validation (the row's config),
        # a warning (and set aside) otherwise
        assert record.get("config") == {"validation": "strict"}
        warned = {key: value for key, value in record.items() if key != "config"}
        with pytest.warns(FieldWarning, match=path):
            score_answer_record(warned)
    with pytest.raises(assay.AssayError) as caught:
        score_answer_record(record)
    assert (caught.value.code, caught.value.path) == (code, path)
