"""docs/errors.md stays true: every row's example produces its code at its path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import assay
import assay_scorecard

DOC = Path(__file__).resolve().parents[1] / "docs" / "errors.md"
ROW = re.compile(r"^\| (error|strict|warning) \| ([\w-]+) \| ([^|]+?) \| `(\{.*\})` \| .* \|$")


def _rows() -> list[tuple[str, str, str, dict]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            outcome, code, path, payload = match.groups()
            rows.append((outcome, code, path, json.loads(payload)))
    return rows


ROWS = _rows()


def test_the_table_is_complete() -> None:
    assert len(ROWS) >= 50
    codes = {code for _, code, _, _ in ROWS}
    assert {"MALFORMED_INPUT", "INVALID_CONFIG", "INVALID_INPUT"} <= codes


@pytest.mark.parametrize(
    ("outcome", "code", "path", "payload"), ROWS, ids=[f"{r[1]}@{r[2]}" for r in ROWS]
)
def test_row(outcome: str, code: str, path: str, payload: dict) -> None:
    inputs, config = payload["inputs"], payload.get("config", {})
    if outcome in ("error", "strict"):
        with pytest.raises(assay.AssayError) as caught:
            assay_scorecard.compute_confidence(inputs, config)
        assert (caught.value.code, caught.value.path) == (code, path)
        if outcome == "strict":  # the same input only warns without strict validation
            lenient = {k: v for k, v in config.items() if k != "validation"}
            card = assay_scorecard.compute_confidence(inputs, lenient)
            assert path in {w.path for w in card.meta.warnings}
        return
    card = assay_scorecard.compute_confidence(inputs, config)
    assert (code, path) in {(w.code, w.path) for w in card.meta.warnings}
