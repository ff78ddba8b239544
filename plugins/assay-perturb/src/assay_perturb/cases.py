"""Reading test cases: Markdown with headers, one file per case.

A case file looks like this (section names are case-insensitive; ``#`` title optional)::

    # Refund window for annual plans

    ## Query
    How many days do customers have to request a refund on an annual plan?

    ## Context
    ### policy-2024
    Annual plans can be refunded within 30 days of purchase.
    ### shipping
    Orders ship within 5 business days.

    ## Key evidence
    - policy-2024

    ## Counterfactual
    ### policy-2024
    Annual plans can be refunded within 90 days of purchase.

    ## Padding
    ### weather
    The office garden is watered on Tuesdays.

    ## Expected decision
    30

Text before the first ``##`` section (a title, a description, comments) is ignored.
``Query``, ``Context`` (one ``###`` subsection per chunk, the heading being the chunk id),
``Key evidence`` (chunk ids, one per line, bullets allowed) and ``Counterfactual`` (one ``###``
subsection per key-evidence id) are required; ``Padding`` and ``Expected decision`` are optional.
Headings inside fenced code blocks (```) are text. A problem is reported as
:class:`assay.AssayError` with code ``MALFORMED_CASE`` and the path ``file:line``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

import assay

__all__ = ["MALFORMED_CASE", "format_case", "load_cases", "parse_case", "select_names"]

MALFORMED_CASE = "MALFORMED_CASE"
"""Error code of a case file that does not follow the format."""

_SECTIONS = {
    "query": "query",
    "context": "context",
    "key evidence": "key_evidence",
    "counterfactual": "counterfactual",
    "padding": "padding",
    "expected decision": "expected_decision",
}
_REQUIRED = ("query", "context", "key_evidence", "counterfactual")
_WITH_SUBSECTIONS = ("context", "counterfactual", "padding")
_CHUNK_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]*\Z")
_HEADING = re.compile(r"(#{1,3})(?:\s+(.*?))?\s*#*\s*\Z")


@attrs.frozen
class _Block:
    """A ``###`` subsection: its heading (a chunk id), heading line and text."""

    label: str
    line: int
    text: str


@attrs.define
class _Section:
    line: int
    lines: list[tuple[int, str]] = attrs.field(factory=list)
    blocks: list[_Block] = attrs.field(factory=list)


def _fail(where: str, line: int, message: str) -> assay.AssayError:
    return assay.AssayError(MALFORMED_CASE, message, f"{where}:{line}")


def _text(lines: Sequence[tuple[int, str]]) -> str:
    return "\n".join(text for _, text in lines).strip()


def _split(source: str, where: str) -> dict[str, _Section]:
    sections: dict[str, _Section] = {}
    current: _Section | None = None
    block: tuple[str, int, list[tuple[int, str]]] | None = None
    in_fence, fence_line = False, 0

    def close_block() -> None:
        nonlocal block
        if block is not None and current is not None:
            label, line, lines = block
            current.blocks.append(_Block(label, line, _text(lines)))
        block = None

    for number, raw in enumerate(source.splitlines(), start=1):
        line = raw.rstrip()
        match = None if in_fence else _HEADING.match(line)
        if line.lstrip().startswith("```"):
            in_fence, fence_line = not in_fence, number
        if match is None:
            if block is not None:
                block[2].append((number, line))
            elif current is not None:
                current.lines.append((number, line))
            continue  # before the first section: a free description, ignored
        level, title = len(match.group(1)), (match.group(2) or "").strip()
        if level == 1:
            if current is not None:
                raise _fail(where, number, "a '# ' title is only allowed before the sections")
            continue
        if level == 2:
            close_block()
            key = _SECTIONS.get(title.lower())
            if key is None:
                known = ", ".join(s.title() for s in _SECTIONS)
                raise _fail(where, number, f"unknown section {title!r} (known: {known})")
            if key in sections:
                raise _fail(
                    where,
                    number,
                    f"section {title!r} repeated (first at line {sections[key].line})",
                )
            current = sections[key] = _Section(number)
            continue
        key = next((k for k, s in sections.items() if s is current), None)
        if key not in _WITH_SUBSECTIONS:
            raise _fail(
                where,
                number,
                "'### ' subsections are only allowed in Context, Counterfactual and Padding",
            )
        close_block()
        if not _CHUNK_ID.match(title):
            raise _fail(
                where,
                number,
                f"chunk id {title!r} must be letters, digits and ._:/@+- "
                "(no spaces), starting with a letter or digit",
            )
        block = (title, number, [])
    close_block()
    if in_fence:
        raise _fail(where, fence_line, "``` code fence never closed")
    return sections


def _blocks(sections: dict[str, _Section], key: str, where: str) -> list[_Block]:
    section = sections[key]
    stray = [(n, t) for n, t in section.lines if t.strip()]
    if stray:
        raise _fail(where, stray[0][0], "text outside a '### <chunk-id>' subsection")
    seen: dict[str, int] = {}
    for block in section.blocks:
        if block.label in seen:
            raise _fail(
                where,
                block.line,
                f"id {block.label!r} repeated (first at line {seen[block.label]})",
            )
        if not block.text:
            raise _fail(where, block.line, f"{block.label!r} has no text")
        seen[block.label] = block.line
    return section.blocks


def parse_case(source: str, where: str, name: str | None = None) -> assay.PerturbationCase:
    """Parse one case file's text.

    :param source: the Markdown text.
    :param where: the file path, used in error paths (``where:line``) and as ``case.source``.
    :param name: the case name (default: the file stem of ``where``).
    :return: the case, chunks in file order, counterfactuals in key-evidence order.
    :raises assay.AssayError: ``MALFORMED_CASE`` with path ``where:line`` naming what is wrong.
    """
    sections = _split(source, where)
    last_line = max(1, len(source.splitlines()))
    for key in _REQUIRED:
        if key not in sections:
            title = next(t for t, k in _SECTIONS.items() if k == key).title()
            raise _fail(where, last_line, f"missing required section '## {title}'")
    query = _text(sections["query"].lines)
    if not query:
        raise _fail(where, sections["query"].line, "the Query section is empty")
    context = _blocks(sections, "context", where)
    if not context:
        raise _fail(where, sections["context"].line, "Context has no '### <chunk-id>' chunk")
    chunk_ids = {b.label for b in context}
    key_evidence = _key_evidence(sections["key_evidence"], chunk_ids, where)
    counterfactual = {b.label: b for b in _blocks(sections, "counterfactual", where)}
    for label, block in counterfactual.items():
        if label not in key_evidence:
            raise _fail(
                where,
                block.line,
                f"counterfactual for {label!r}, which is not listed under Key evidence",
            )
    for key in key_evidence:
        if key not in counterfactual:
            raise _fail(
                where,
                sections["counterfactual"].line,
                f"no counterfactual for key evidence {key!r}",
            )
    padding = _blocks(sections, "padding", where) if "padding" in sections else []
    expected = None
    if "expected_decision" in sections:
        expected = _text(sections["expected_decision"].lines) or None
    return assay.PerturbationCase(
        name=name or Path(where).stem,
        query=query,
        chunks=[assay.Chunk(b.label, b.text) for b in context],
        key_evidence=list(key_evidence),
        counterfactual=[counterfactual[k].text for k in key_evidence],
        padding=[b.text for b in padding],
        expected_decision=expected,
        source=where,
    )


def _key_evidence(section: _Section, chunk_ids: set[str], where: str) -> list[str]:
    ids: list[str] = []
    for number, text in section.lines:
        for item in re.split(r"[,\s]+", re.sub(r"^\s*[-*+]\s+", "", text)):
            if not item:
                continue
            if item not in chunk_ids:
                raise _fail(
                    where,
                    number,
                    f"key evidence {item!r} is not a chunk id under "
                    f"Context (chunks: {', '.join(sorted(chunk_ids))})",
                )
            if item in ids:
                raise _fail(where, number, f"key evidence {item!r} listed twice")
            ids.append(item)
    if not ids:
        raise _fail(where, section.line, "Key evidence lists no chunk id")
    return ids


def load_cases(directory: str | Path, only: Iterable[str] = ()) -> list[assay.PerturbationCase]:
    """Read every ``*.md`` case in ``directory`` (sorted by name; ``README.md`` is skipped).

    :param only: case names to keep (all when empty).
    :raises assay.AssayError: ``CASES_DIR`` when the directory is missing or holds no case, or
        when an ``only`` name matches no case; ``MALFORMED_CASE`` for a bad case file.
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise assay.AssayError("CASES_DIR", "cases directory does not exist", str(folder))
    files = sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md")
    if not files:
        raise assay.AssayError(
            "CASES_DIR", "no *.md case files in the cases directory", str(folder)
        )
    wanted = select_names([p.stem for p in files], only, str(folder))
    cases = []
    for path in (p for p in files if p.stem in wanted):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise assay.AssayError("CASES_DIR", f"cannot read case file: {exc}", str(path)) from exc
        cases.append(parse_case(text, _display(path)))
    return cases


def select_names(names: Sequence[str], only: Iterable[str], where: str) -> set[str]:
    """The names to run: ``only`` (all of ``names`` when empty), each checked to exist.

    :raises assay.AssayError: ``CASES_DIR`` (path ``where``) naming the unknown ones.
    """
    wanted = set(only)
    missing = sorted(wanted - set(names))
    if missing:
        raise assay.AssayError(
            "CASES_DIR", f"no case named {', '.join(missing)} (cases: {', '.join(names)})", where
        )
    return wanted or set(names)


def _display(path: Path) -> str:
    """``path`` relative to the current directory when it lies below it (shorter messages)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def format_case(case: assay.PerturbationCase, title: str | None = None) -> str:
    """The Markdown case file for ``case``: ``parse_case(format_case(c), "x/<name>.md")`` gives
    back ``c`` (but ``source``; padding labels become ``pad-1``, ``pad-2``, ...).

    Use it to write cases generated from a dataset.

    :raises assay.AssayError: ``INVALID_INPUT`` when a text has a line that would read as a heading
        (outside a fenced block) or an unclosed ``` fence, a chunk id breaks the id rule, the query
        is empty, or key evidence and counterfactuals do not pair up.
    """
    where = case.source or case.name

    def text(value: str, field: str) -> str:
        value = value.strip()
        in_fence = False
        for line in value.splitlines():
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
            elif not in_fence and _HEADING.match(line.rstrip()):
                raise assay.AssayError(
                    "INVALID_INPUT", f"{field} has a line that reads as a heading: {line!r}", where
                )
        if in_fence:
            raise assay.AssayError(
                "INVALID_INPUT", f"{field} opens a ``` fence it never closes", where
            )
        if not value:
            raise assay.AssayError("INVALID_INPUT", f"{field} is empty", where)
        return value

    for chunk in case.chunks:
        if not _CHUNK_ID.match(chunk.id):
            raise assay.AssayError(
                "INVALID_INPUT", f"chunk id {chunk.id!r} breaks the id rule", where
            )
    if len(case.key_evidence) != len(case.counterfactual) or not case.key_evidence:
        raise assay.AssayError(
            "INVALID_INPUT", "needs one counterfactual per key-evidence chunk (at least one)", where
        )
    parts = [
        f"# {title or case.name}",
        "",
        "## Query",
        text(case.query, "query"),
        "",
        "## Context",
        "",
    ]
    for chunk in case.chunks:
        parts += [f"### {chunk.id}", text(chunk.text, f"chunk {chunk.id}"), ""]
    parts += [
        "## Key evidence",
        *(f"- {k}" for k in case.key_evidence),
        "",
        "## Counterfactual",
        "",
    ]
    for key, replacement in zip(case.key_evidence, case.counterfactual, strict=True):
        parts += [f"### {key}", text(replacement, f"counterfactual {key}"), ""]
    if case.padding:
        parts += ["## Padding", ""]
        for n, pad in enumerate(case.padding, start=1):
            parts += [f"### pad-{n}", text(pad, f"padding {n}"), ""]
    if case.expected_decision is not None:
        parts += [
            "## Expected decision",
            text(str(case.expected_decision), "expected decision"),
            "",
        ]
    return "\n".join(parts)
