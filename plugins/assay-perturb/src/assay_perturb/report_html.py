"""The self-contained HTML report: no scripts, no external assets, every text escaped.

All case and pipeline text (queries, chunk ids, decisions, descriptions, stderr, stdout) goes
through :func:`html.escape` with quotes escaped, and the page carries a Content-Security-Policy
that forbids scripts and any network load, so injected markup can neither run nor fetch.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from assay_perturb.report_text import FRAMING, NONDETERMINISM_NOTE, format_signal
from assay_perturb.scoring import CaseResult, Outcome, RunResult

__all__ = ["html_report"]

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;color:#1d2330;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccd}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid #d5d9e2;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f6}td.num{text-align:right;font-variant-numeric:tabular-nums}
.signals{display:flex;gap:1rem;flex-wrap:wrap}.signal{border:1px solid #ccd;border-radius:6px;
padding:.6rem 1rem;min-width:10rem}.signal b{display:block;font-size:1.6rem}
.failed{background:#fdecec}.changed{background:#fff6dd}.expected{background:#e8f6ea}
.note{color:#555}.caution{border-left:4px solid #d9a400;background:#fff6dd;padding:.4rem .8rem}
.floor-failed{border-left:4px solid #c62828;background:#fdecec;padding:.4rem .8rem}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f7f9;padding:.4rem;margin:.2rem 0;
max-height:12rem;overflow:auto}code{background:#f1f2f5;padding:0 .2rem}
"""

_COLUMNS = ("variant", "perturbation", "what changed", "decision", "distance", "status", "seconds")

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'"


def _e(value: Any) -> str:
    """Escape any value for HTML text or a quoted attribute."""
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False)
    return html.escape(value, quote=True)


def _row(cells: Iterable[str], css: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    return f"<tr{klass}>" + "".join(cells) + "</tr>"


def _td(value: Any, css: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    return f"<td{klass}>{value}</td>"


def _signal_box(label: str, value: float | None, note: str) -> str:
    return (
        f'<div class="signal">{_e(label)}<b>{format_signal(value)}</b>'
        f'<span class="note">{_e(note)}</span></div>'
    )


def _outcome_class(outcome: Outcome) -> str:
    """``changed`` marks a concern: a reorder or pad that moved the decision, or a swap that did
    not; ``expected`` marks a swap that changed the decision, as it should."""
    if outcome.distance is None or outcome.signal is None:
        return ""
    if outcome.signal == "sensitivity":
        return "expected" if outcome.distance > 0 else "changed"
    return "changed" if outcome.distance > 0 else ""


def _floor_lines(floors: Mapping[str, float | None], run: RunResult) -> str:
    items = []
    for name, floor in floors.items():
        if floor is None:
            continue
        value = getattr(run, name)
        if value is None:
            items.append(
                f"<li>FAILED: {_e(name)} could not be computed (no scored variants); "
                f"floor {floor:g}</li>"
            )
        elif value < floor:
            items.append(
                f"<li>FAILED: {_e(name)} {value:.3f} is below the floor "
                f"<code>--min-{_e(name)} {floor:g}</code></li>"
            )
        else:
            items.append(f"<li>passed: {_e(name)} {value:.3f} &ge; {floor:g}</li>")
    if not items:
        return ""
    css = "floor-failed" if any("FAILED" in i for i in items) else "note"
    return f'<div class="{css}"><b>CI floors</b><ul>{"".join(items)}</ul></div>'


def _outcome_row(outcome: Outcome) -> str:
    if outcome.ok:
        status = "ok" + (" (cached)" if outcome.cached else "")
        css = _outcome_class(outcome)
    else:
        status = f"failed: {_e(outcome.failure)}"
        css = "failed"
    changed = (
        _e(outcome.description)
        + '<br><span class="note">chunks: '
        + _e(", ".join(outcome.chunk_ids))
        + "</span>"
    )
    output = ""
    if outcome.output_preview:
        output = (
            f"<details><summary>output</summary><pre>{_e(outcome.output_preview)}</pre></details>"
        )
    distance = "-" if outcome.distance is None else f"{outcome.distance:.2f}"
    stderr = ""
    if not outcome.ok and outcome.stderr_tail.strip():
        tail = f"stderr (tail):<pre>{_e(outcome.stderr_tail)}</pre>"
        stderr = _row([f'<td colspan="{len(_COLUMNS)}">{tail}</td>'], "failed")
    return (
        _row(
            [
                _td(_e(outcome.variant)),
                _td(_e(outcome.perturbation)),
                _td(changed),
                _td(("<code>" + _e(outcome.decision) + "</code>") if outcome.ok else "-"),
                _td(distance, "num"),
                _td(status + output),
                _td(f"{outcome.duration:.2f}", "num"),
            ],
            css,
        )
        + stderr
    )


def _case_section(case: CaseResult) -> str:
    baseline = f"<code>{_e(case.baseline_decision)}</code>" if case.baseline_ok else "FAILED"
    expected = ""
    if case.expected_decision is not None:
        verdict = {True: "matches", False: "differs", None: "not compared"}[case.expected_matches]
        expected = (
            f"<li>expected decision: <code>{_e(case.expected_decision)}</code> ({verdict})</li>"
        )
    header = "".join(f"<th>{h}</th>" for h in _COLUMNS)
    rows = "".join(_outcome_row(o) for o in (*case.baseline_runs, *case.variants))
    return (
        f'<section id="case-{_e(case.name)}"><h2>{_e(case.name)}</h2><ul>'
        f"<li>file: <code>{_e(case.source or '')}</code></li>"
        f"<li>query: {_e(case.query)}</li><li>baseline decision: {baseline}</li>{expected}"
        f"<li>invariance {format_signal(case.invariance)}, sensitivity "
        f"{format_signal(case.sensitivity)}, pipeline nondeterminism "
        f"{format_signal(case.nondeterminism)} over {len(case.baseline_runs)} baseline run(s), "
        f"{case.failed} failed invocation(s)</li></ul>"
        f"<table><thead><tr>{header}</tr></thead><tbody>{rows}</tbody></table></section>"
    )


def html_report(
    run: RunResult,
    command: Sequence[str],
    floors: Mapping[str, float | None] | None = None,
) -> str:
    """The whole report as one HTML document (UTF-8 text).

    :param floors: the CI floors given (``{"invariance": 0.9, "sensitivity": None}``); each one
        is shown as passed or FAILED beside the signals.
    """
    caution = ""
    if run.nondeterminism:
        caution = f'<p class="caution">{_e(NONDETERMINISM_NOTE)}</p>'
    floor_html = _floor_lines(floors or {}, run)
    summary_rows = "".join(
        _row(
            [
                _td(f'<a href="#case-{_e(c.name)}">{_e(c.name)}</a>'),
                _td(format_signal(c.invariance), "num"),
                _td(format_signal(c.sensitivity), "num"),
                _td(format_signal(c.nondeterminism), "num"),
                _td(str(c.failed), "num"),
                _td(f"<code>{_e(c.baseline_decision)}</code>" if c.baseline_ok else "FAILED"),
            ],
            "failed" if not c.baseline_ok else "",
        )
        for c in run.cases
    )
    perturbation_rows = "".join(
        _row(
            [
                _td(_e(s.perturbation)),
                _td(_e(s.signal)),
                _td(format_signal(s.value), "num"),
                _td(str(s.scored), "num"),
                _td(str(s.failed), "num"),
            ]
        )
        for s in run.by_perturbation
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>assay perturb report</title><style>{_CSS}</style></head><body>
<h1>assay perturb report</h1>
<p class="note">Pipeline <code>{_e(" ".join(command))}</code>; decision field
<code>{_e(run.decision_field)}</code> ({_e(run.decision_type)}, distance {_e(run.distance)}).
{run.invocations} invocations: {run.executed} run, {run.cached} cached, {run.failed} failed.</p>
<div class="signals">
{_signal_box("invariance", run.invariance, "1 − mean distance over reorder and pad")}
{_signal_box("sensitivity", run.sensitivity, "mean distance over swap")}
{_signal_box("nondeterminism", run.nondeterminism, "baseline vs its own repeats")}
</div>
{floor_html}{caution}
<p class="note">{_e(FRAMING)}</p>
<h2>Cases</h2>
<table><thead><tr><th>case</th><th>invariance</th><th>sensitivity</th><th>nondeterminism</th>
<th>failed</th><th>baseline decision</th></tr></thead><tbody>{summary_rows}</tbody></table>
<h2>By perturbation</h2>
<table><thead><tr><th>perturbation</th><th>signal</th><th>value</th><th>scored</th><th>failed</th>
</tr></thead><tbody>{perturbation_rows}</tbody></table>
{"".join(_case_section(c) for c in run.cases)}
</body></html>
"""
