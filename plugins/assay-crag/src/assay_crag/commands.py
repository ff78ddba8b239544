"""The ``assay route`` command group: ``decide`` (route one retrieval), ``gate`` (the
context-quality CI gate), ``ab`` (A/B analysis) and ``alerts`` (quality alerts). ``assay route
FILE ...`` is shorthand for ``assay route decide FILE ...``.

Exit codes, from the one table of every ``assay`` command (:class:`assay.ExitCode`): 0 ``OK``;
1 ``FAILED`` when ``assay route alerts`` raised at least one alert or ``assay route gate``
failed; 2 ``USAGE`` for bad input or options (an :class:`assay.AssayError`, printed by the root group as ``error [CODE] path:
message``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

import assay
from assay import ExitCode
from assay.cli import echo_json
from assay_crag.checks import parse_json_text, read_json, score_input

__all__ = ["ab_command", "alerts_command", "decide_command", "gate_command", "route_group"]


def _jsonl(text: str) -> list[tuple[int, Any]]:
    """(line number, value) of each non-blank line of JSON Lines text."""
    return [
        (number, parse_json_text(line, f"line {number}"))
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]


def _read_jsonl(path: str) -> list[tuple[int, Any]]:
    """(line number, value) of each non-blank line of a JSON Lines file (``-``: stdin)."""
    from assay.cli import read_text_input

    return _jsonl(read_text_input(path))


def _at_line(error: assay.AssayError, number: int) -> assay.AssayError:
    """The same error with its path prefixed by the line number."""
    path = (error.path or "").removeprefix("[0]").lstrip(".")
    where = f"line {number}" + (f": {path}" if path else "")
    return assay.AssayError(error.code, error.message, where)


# ----------------------------------------------------------------------------------- group


OPTION_NAMES = {
    "threshold": "--mean",
    "floor": "--floor",
    "upper": "--upper",
    "lower": "--lower",
    "correctAt": "--correct-at",
    "incorrectAt": "--incorrect-at",
    "baseline": "--baseline",
    "degradation": "--degradation",
    "criticalBelow": "--critical-below",
    "window": "--window",
    "alpha": "--alpha",
    "confidence": "--confidence",
    "bootstrapResamples": "--resamples",
    "seed": "--seed",
    "primary": "--primary",
}
"""The option that sets each parameter, named in an ``INVALID_CONFIG`` error instead of the
parameter's field name."""


class _RouteGroup(click.Group):
    """A group whose first argument, when it names no subcommand, is the FILE of ``decide``:
    ``assay route FILE`` routes FILE, as it did before the group existed. A parameter refused
    as ``INVALID_CONFIG`` is named by its option (``--mean``, not ``threshold``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = [DEFAULT_SUBCOMMAND, *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except assay.AssayError as error:
            if error.code == assay.ErrorCode.INVALID_CONFIG and error.path in OPTION_NAMES:
                raise assay.AssayError(
                    error.code, error.message, OPTION_NAMES[error.path]
                ) from error
            raise


DEFAULT_SUBCOMMAND = "decide"


@click.group("route", cls=_RouteGroup, no_args_is_help=True)
def route_group() -> None:
    """Corrective retrieval: route a retrieval, gate a benchmark's context quality, analyse an
    A/B test, watch quality for alerts.

    `assay route FILE ...` is shorthand for `assay route decide FILE ...` (name a file called
    `decide`, `gate`, `ab` or `alerts` through the subcommand: `assay route decide ab`).

    Exit codes: 0 success, 1 `alerts` raised an alert or `gate` failed, 2 bad input or options.
    """


def _mode_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--mode paper|composite`` (default paper), shared by ``decide`` and ``gate``."""
    return click.option(
        "--mode",
        type=click.Choice(["paper", "composite"]),
        default="paper",
        show_default=True,
        help=help_text,
    )


# ----------------------------------------------------------------------------------- decide


@route_group.command("decide")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@_mode_option(
    "paper: per-document relevance, needs only the query and the chunks' text; "
    "composite: the context-quality specification's rule on the composite score (compatible "
    "behaviour; reads the retriever's scores)."
)
@click.option(
    "--correct-at",
    type=float,
    default=0.7,
    show_default=True,
    help="Composite mode: correct at or above this.",
)
@click.option(
    "--incorrect-at",
    type=float,
    default=0.3,
    show_default=True,
    help="Composite mode: incorrect at or below this.",
)
@click.option(
    "--upper", type=float, default=None, help="Paper mode: the upper threshold (default 0.46)."
)
@click.option(
    "--lower", type=float, default=None, help="Paper mode: the lower threshold (default 0.37)."
)
@click.option(
    "--scorer",
    default="lexical",
    show_default=True,
    help="Document scorer: lexical, topical, metric:<id> or judge:<name>.",
)
@click.option("--refine", is_flag=True, help="Attach refined knowledge strips to the action.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def decide_command(
    file: str,
    mode: str,
    correct_at: float,
    incorrect_at: float,
    upper: float | None,
    lower: float | None,
    scorer: str,
    refine: bool,
    as_json: bool,
) -> None:
    """Score a retrieval's context quality and route it (correct / ambiguous / incorrect).

    FILE holds one JSON object: {"query", "chunks": [{"content", "documentId", "score"?,
    "rerankScore"?, "metadata"?}], "context": {"text", "tokenCount"}} ("-" reads stdin).
    Exit 0, or 2 on bad input.
    """
    from assay_crag.composite import QualityScorer
    from assay_crag.inputs import parse_quality_input
    from assay_crag.router import PAPER_LOWER, PAPER_UPPER, CragRouter

    quality_input = parse_quality_input(read_json(file))
    router = CragRouter(
        mode,  # type: ignore[arg-type]
        correct_at=correct_at,
        incorrect_at=incorrect_at,
        upper=PAPER_UPPER if upper is None else upper,
        lower=PAPER_LOWER if lower is None else lower,
        scorer=scorer,
        refine=refine,
    )
    result = router.classify(quality_input)
    quality = result.quality or QualityScorer().score(quality_input)
    if as_json:
        echo_json({**result.to_wire(), "quality": quality.to_wire()})
        return
    click.echo(f"query: {quality_input.query}")
    click.echo(
        f"chunks: {len(quality_input.chunks)}, context tokens: {quality_input.context.token_count}"
    )
    click.echo("sub-scores:")
    for name, value in list(quality.to_wire().items())[:5]:
        click.echo(f"  {name:<22} {value:.3f}")
    for warning in quality.warnings:
        click.echo(f"  warning [{warning.code}] {warning.path}: {warning.message}")
    if result.document_scores is not None:
        shown = ", ".join("-" if s is None else f"{s:.3f}" for s in result.document_scores)
        click.echo(f"document scores: {shown}")
    click.echo(
        f"classification: {result.classification} (confidence {result.confidence:.3f}, "
        f"mode {result.mode})"
    )
    click.echo(f"rule: {result.rule}: {result.reason}")
    for warning in result.warnings:
        click.echo(f"warning [{warning.code}] {warning.path}: routing read a missing input")
    action = result.action
    click.echo(f"action: {action.type}")
    for sub_query in action.sub_queries:
        click.echo(f"  sub-query: {sub_query}")
    if action.search_query is not None:
        click.echo(f"  search query: {action.search_query}")
    if action.refined_context is not None:
        for strip in action.refined_context.strips:
            click.echo(f"  refined [{strip.score:.3f}] {strip.text}")


# ----------------------------------------------------------------------------------- gate


def _gate_records(file: str) -> list[tuple[str, Any]]:
    """(where, record) of each result of a gate file: a JSON array (``[i]``) or JSON Lines
    (``line n``)."""
    from assay.cli import read_text_input

    text = read_text_input(file)
    if text.lstrip().startswith("["):
        records = parse_json_text(text, file)
        return [(f"[{i}]", record) for i, record in enumerate(records)]
    return [(f"line {number}", record) for number, record in _jsonl(text)]


@route_group.command("gate")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@_mode_option(
    "How a retrieval is scored, as in decide. paper: its best document's relevance "
    "(needs only the query and the chunks' text); composite: the context-quality "
    "specification's composite score (reads the retriever's scores; chunks without one count "
    "as 0)."
)
@click.option(
    "--scorer",
    default="lexical",
    show_default=True,
    help="Paper mode: the document scorer (lexical, topical, metric:<id> or judge:<name>).",
)
@click.option(
    "--mean",
    "threshold",
    type=float,
    default=None,
    help="The mean score must be above this. Default: paper 0.46 (decide's upper threshold: "
    "the mean retrieval routes correct), composite 0.65.",
)
@click.option(
    "--floor",
    type=float,
    default=None,
    help="No query may score below this. Default: paper 0.37 (decide's lower threshold: "
    "none routes incorrect), composite 0.3.",
)
@click.option(
    "--worst",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="How many of the lowest-scoring queries a failure names.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def gate_command(
    ctx: click.Context,
    file: str,
    mode: str,
    scorer: str,
    threshold: float | None,
    floor: float | None,
    worst: int,
    as_json: bool,
) -> None:
    """Fail when a benchmark's retrievals score too low: the mean at or below --mean, or any
    query below --floor.

    Paper mode (the default, as in decide) scores each retrieval by its best document's
    relevance, with decide's thresholds as the defaults (mean above 0.46, none below 0.37).
    Composite mode is the context-quality specification's CI gate (mean above 0.65, none below
    0.3 on the composite score).

    FILE is a JSON array or JSON Lines of results: retrievals ({"query", "chunks", "context"},
    or {"query", "expectedChunks", "expectedContext"}), scored by --mode; or scores (a
    number, or an object with "overall", "qualityScore" or "score", named by "id" or
    "queryId"), taken as given. "-" reads stdin. Exit 0 pass, 1 fail, 2 bad input.
    """
    import attrs

    from assay_crag.composite import QualityScorer
    from assay_crag.gate import GATE_FLOOR, GATE_MEAN, check_context_quality, gate_items
    from assay_crag.router import PAPER_LOWER, PAPER_UPPER, CragRouter

    router = CragRouter("paper", scorer=scorer) if mode == "paper" else None
    if threshold is None:
        threshold = PAPER_UPPER if router else GATE_MEAN
    if floor is None:
        floor = PAPER_LOWER if router else GATE_FLOOR
    composite = QualityScorer()
    items = []
    for where, record in _gate_records(file):
        try:
            (item,) = gate_items([record], composite, router=router)
        except assay.AssayError as error:
            path = (error.path or "").removeprefix("[0]").lstrip(".")
            raise assay.AssayError(
                error.code, error.message, where + (f": {path}" if path else "")
            ) from error
        items.append(attrs.evolve(item, name=where) if item.name == "#0" else item)
    result = check_context_quality(items, threshold, floor)
    if as_json:
        echo_json(result.to_wire())
    else:
        click.echo(result.message(worst))
    if not result.passed:
        ctx.exit(ExitCode.FAILED)


# ----------------------------------------------------------------------------------- ab


@route_group.command("ab")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--alpha", type=float, default=0.05, show_default=True)
@click.option("--confidence", type=float, default=0.95, show_default=True)
@click.option("--resamples", type=int, default=2000, show_default=True)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="Starting state of the bootstrap's random generator (same value, same interval).",
)
@click.option("--min-samples", type=int, default=30, show_default=True)
@click.option(
    "--primary",
    type=click.Choice(["auto", "welch", "mann-whitney", "wilcoxon"]),
    default="auto",
    show_default=True,
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def ab_command(
    file: str,
    alpha: float,
    confidence: float,
    resamples: int,
    seed: int,
    min_samples: int,
    primary: str,
    as_json: bool,
) -> None:
    """Analyse an A/B test of two retrieval variants.

    FILE is JSON Lines, one result per line: {"variant": "control"|"treatment", "queryId",
    "qualityScore": number or {"overall"}, "latencyMs", "timestamp"?} ("-" reads stdin).
    Exit 0, or 2 on bad input (a significant difference is a finding, not a failure).
    """
    from assay_crag.ab import analyze_ab_test, parse_ab_results

    results = []
    for number, record in _read_jsonl(file):
        try:
            results.extend(parse_ab_results([record]))
        except assay.AssayError as error:
            raise _at_line(error, number) from error
    analysis = analyze_ab_test(
        results,
        alpha=alpha,
        confidence=confidence,
        bootstrap_resamples=resamples,
        seed=seed,
        min_samples=min_samples,
        primary=primary,  # type: ignore[arg-type]
    )
    if as_json:
        echo_json(analysis.to_wire())
        return
    a = analysis

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{x:+.1%}"

    click.echo(
        f"control:   n={a.control_sample_size}  quality {a.control_avg_quality:.4f}  "
        f"latency {a.control_avg_latency:.1f} ms"
    )
    click.echo(
        f"treatment: n={a.treatment_sample_size}  quality {a.treatment_avg_quality:.4f}  "
        f"latency {a.treatment_avg_latency:.1f} ms"
    )
    click.echo(
        f"quality improvement {pct(a.quality_improvement)}, latency change {pct(a.latency_change)}"
    )
    click.echo(
        f"difference {a.difference:+.4f}, {a.confidence:.0%} bootstrap CI "
        f"[{a.ci_low:+.4f}, {a.ci_high:+.4f}] (--seed {a.seed}, {a.bootstrap_resamples} "
        "resamples)"
    )
    effect = "n/a" if a.effect_size is None else f"{a.effect_size:.3f}"
    click.echo(
        f"effect size {a.effect_size_kind} {effect}, P(treatment > control) "
        f"{a.probability_of_superiority:.3f}"
    )
    for test in (a.welch, a.mann_whitney, a.wilcoxon):
        if test is not None:
            stat = "n/a" if test.statistic is None else f"{test.statistic:.4g}"
            p = "n/a" if test.p_value is None else f"{test.p_value:.4g}"
            click.echo(f"  {test.name:<13} statistic {stat:<10} p {p:<10} n {test.n}")
    verdict = "significant" if a.is_significant else "not significant"
    p_text = "n/a" if a.p_value is None else f"{a.p_value:.4g}"
    click.echo(f"{verdict} at alpha {a.alpha:g} ({a.primary_test}, p {p_text})")
    for warning in a.warnings:
        click.echo(f"warning: {warning}")


# ----------------------------------------------------------------------------------- alerts


def _score_of(record: Any, number: int) -> float:
    if isinstance(record, dict):
        for key in ("overall", "qualityScore", "score"):
            if key in record:
                value = record[key]
                return _score_of(value, number) if isinstance(value, dict) else value
        raise assay.AssayError(
            assay.ErrorCode.INVALID_INPUT,
            "expected a number or an object with overall, qualityScore or score",
            f"line {number}",
        )
    return record  # type: ignore[no-any-return]


@route_group.command("alerts")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--baseline", type=float, required=True, help="Baseline mean quality.")
@click.option("--window", type=int, default=50, show_default=True, help="Recent scores averaged.")
@click.option("--degradation", type=float, default=0.15, show_default=True)
@click.option("--critical-below", type=float, default=0.4, show_default=True)
@click.option("--batch", is_flag=True, help="Check all scores at once (the specification's check).")
@click.option("--json", "as_json", is_flag=True, help="Print alerts as JSON Lines.")
@click.pass_context
def alerts_command(
    ctx: click.Context,
    file: str,
    baseline: float,
    window: int,
    degradation: float,
    critical_below: float,
    batch: bool,
    as_json: bool,
) -> None:
    """Check a stream of quality scores for degradation, critical lows and change points.

    FILE is JSON Lines: a number per line, or an object with "overall", "qualityScore" or
    "score" ("-" reads stdin). Streams the scores through a monitor (window alerts once the
    window is full, or at the last score of a shorter file; change points by Page-Hinkley)
    unless --batch. Exit 0 when no alert is raised, 1 when any is, 2 on bad input.
    """
    from assay_crag.alerts import AlertConfig, QualityMonitor, check_quality_alerts

    records = _read_jsonl(file)
    scores = []
    for number, record in records:
        scores.append(score_input(_score_of(record, number), f"line {number}"))
    if not scores:
        raise assay.AssayError(assay.ErrorCode.INVALID_INPUT, "no scores in the file", file)
    config = AlertConfig(degradation=degradation, critical_below=critical_below)
    if batch:
        alerts = list(check_quality_alerts(scores, baseline, config))
    else:
        monitor = QualityMonitor(
            baseline, window=window, min_scores=min(window, len(scores)), config=config
        )
        alerts = monitor.observe_many(scores)
    if as_json:
        for alert in alerts:
            echo_json(alert.to_dict(), pretty=False)
    else:
        click.echo(f"{len(scores)} scores, baseline {baseline:g}: {len(alerts)} alert(s)")
        for alert in alerts:
            where = "" if alert.index is None else f" at #{alert.index}"
            click.echo(f"  {alert.severity.upper():<8} {alert.type}{where}: {alert.message}")
    if alerts:
        ctx.exit(ExitCode.FAILED)
