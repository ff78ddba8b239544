"""Scoring requests as JSON text: what one line of a JSON Lines stream asks to score."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from assay import AssayError, ErrorCode
from assay.wire import from_json_safe, to_json_safe
from assay_scorecard.wire import json_loads

__all__ = [
    "canonical_json",
    "check_stream_config",
    "load_request_line",
    "parse_request_line",
    "request_inputs",
    "split_request",
]


def canonical_json(value: Any) -> str:
    """Key-sorted compact JSON of ``value`` (non-finite numbers tagged), for comparisons."""
    return json.dumps(to_json_safe(value), sort_keys=True, separators=(",", ":"))


def split_request(record: Any, where: str) -> tuple[Any, Any]:
    """``(inputs, config)`` of a scoring request: ``{"inputs", "config"?, "id"?}`` or a bare
    inputs object (config ``None``).

    :raises AssayError: ``MALFORMED_INPUT`` when ``record`` is not an object or carries unknown
        keys beside ``inputs``; ``where`` names it in the message. An answer record
        (``question``, ``answer``, ``contexts``) is refused here with a message saying where it
        is scored: it needs a signal reader.
    """
    if type(record) is not dict and not isinstance(record, Mapping):
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"{where} must be a JSON object")
    if "inputs" not in record:
        if "answer" in record:
            raise AssayError(
                ErrorCode.MALFORMED_INPUT,
                f"{where} is an answer record (question, answer, contexts), not scoring inputs: "
                "score it with assay score or assay_answer.score_answer, which derive the "
                "signals from its text",
                "answer",
            )
        return record, None
    unknown = sorted(set(record) - {"inputs", "config", "id"})
    if unknown:
        raise AssayError(
            ErrorCode.MALFORMED_INPUT,
            f"unknown key(s) {', '.join(unknown)}; expected inputs, config and optional id",
            unknown[0],
        )
    return record["inputs"], record.get("config")


def parse_request_line(line: str | bytes, config_key: str) -> Any:
    """The inputs of one JSON text line: a bare inputs object or ``{"inputs", "config"?,
    "id"?}`` whose config, if any, must be the stream's (``config_key`` is the stream config's
    :func:`canonical_json`). Tagged non-finite numbers (``{"$float": "NaN"}``) are read back as
    floats.

    :raises AssayError: ``MALFORMED_INPUT`` for text that is not JSON (or, as bytes, not UTF-8)
        or not such an object; ``INVALID_CONFIG`` (path ``config``) for a different config.
    """
    return request_inputs(load_request_line(line), config_key)


def load_request_line(line: str | bytes) -> Any:
    """The JSON value of one text line, tagged non-finite numbers read back as floats.

    :raises AssayError: ``MALFORMED_INPUT`` for text that is not JSON (or, as bytes, not UTF-8).
    """
    try:
        record = json_loads(line)
    except json.JSONDecodeError as exc:
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"not valid JSON: {exc.msg}") from exc
    except UnicodeDecodeError as exc:
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"not valid UTF-8: {exc.reason}") from exc
    except RecursionError as exc:  # deeper than orjson reads (1024) and than json can recurse
        raise AssayError(ErrorCode.MALFORMED_INPUT, "not valid JSON: nested too deeply") from exc
    except ValueError as exc:  # an integer of more digits than Python converts (4300)
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"not valid JSON: {exc}") from exc
    if '"$float"' in line if isinstance(line, str) else b'"$float"' in line:
        record = from_json_safe(record)
    return record


def request_inputs(record: Any, config_key: str) -> Any:
    """The inputs of a request read from a stream (see :func:`parse_request_line`)."""
    inputs, config = split_request(record, "a line")
    check_stream_config(config, config_key)
    return inputs


def check_stream_config(config: Any, config_key: str) -> None:
    """Refuse a request's own config unless it is the stream's (``config_key``: its
    :func:`canonical_json`); ``None`` (no config of its own) passes.

    :raises AssayError: ``INVALID_CONFIG`` (path ``config``).
    """
    if config is not None and canonical_json(config) != config_key:
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            "every line of a stream is scored with one config; pass it once for the stream "
            "(this line's config differs)",
            "config",
        )
