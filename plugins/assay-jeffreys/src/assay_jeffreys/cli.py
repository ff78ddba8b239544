"""``assay gate``: decide, bayes-factor and calibrate from the command line.

Exit codes, from the one table of every ``assay`` command (:class:`assay.ExitCode`; the gate's
codes are those of bayesoutputgate): 0 ``OK`` (every output passed, or an informational
command), 2 ``USAGE`` (usage or input error), 30 ``GATE_FAIL`` (at least one fail decision),
40 ``GATE_ESCALATE`` (at least one escalate decision and no fail). ``-`` as a file reads standard
input (one file per command at most).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import click

from assay import AssayError, ErrorCode, ExitCode

_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@click.group(name="gate")
@click.version_option(
    None, "-v", "--version", package_name="assay-jeffreys", message="assay gate %(version)s"
)
def gate_group() -> None:
    """Calibrated pass / fail / escalate decisions from quality scores (Bayes factors).

    Exit codes: 0 success (every output passed, or an informational command), 2 usage or
    input error, 30 a fail decision, 40 an escalate decision (and no fail).
    """


def _decision_exit_code(actions: list[str]) -> ExitCode:
    if "fail" in actions:
        return ExitCode.GATE_FAIL
    if "escalate" in actions:
        return ExitCode.GATE_ESCALATE
    return ExitCode.OK


_input_file = click.Path(dir_okay=False, allow_dash=True)


_GATE_CHOICES = (
    (
        "--score-model",
        ("auto", "beta", "empirical"),
        "Score model family: auto (Beta unless its fit is rejected), beta or empirical.",
    ),
    (
        "--combination",
        ("calibrated", "independent"),
        "Combine dimensions with weights learned on the history, or as independent.",
    ),
    (
        "--wrong-direction",
        ("exclude", "allow"),
        "What a dimension scoring high-quality outputs lower than low-quality ones does.",
    ),
)


def _gate_options(command: Any) -> Any:
    """The options choosing how the gate is fitted on the history (see ``GateConfig``)."""
    options = [
        click.option(
            "--compatible",
            is_flag=True,
            help="Decide as BayesOutputGate does: Beta models, the independent sum, every "
            "dimension counted, no minimum history (the other gate options then change that "
            "base).",
        ),
        *(
            click.option(
                name,
                type=click.Choice(choices),
                default=None,
                help=f"{text}  [default: {choices[0]}]",
            )
            for name, choices, text in _GATE_CHOICES
        ),
        click.option(
            "--min-history",
            type=int,
            default=None,
            help="Labeled outputs per hypothesis before anything but escalate.  [default: 30]",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


_OPTION_OF_FIELD = {
    "minHistory": "--min-history",
    "passAbove": "--pass-above",
    "failBelow": "--fail-below",
    "alpha": "--alpha",
    "threshold": "--threshold",
}
"""The option that sets each checked field, for error paths."""


@contextmanager
def _options_named() -> Iterator[None]:
    """Re-raise an error about a config field with the option that sets it as its path."""
    try:
        yield
    except AssayError as exc:
        option = _OPTION_OF_FIELD.get(exc.path or "")
        if option is None:
            raise
        raise AssayError(exc.code, exc.message, option) from None


def _gate_config(compatible: bool = False, **overrides: Any) -> Any:
    """The ``GateConfig`` of the gate options (see :func:`_gate_options`): the defaults or the
    compatible base, with the options given."""
    import attrs

    from assay_jeffreys.gateconfig import GateConfig

    base = GateConfig.compatible() if compatible else GateConfig()
    given = {k: v for k, v in overrides.items() if v is not None}
    with _options_named():
        return attrs.evolve(base, **given)


def _readable(path: str) -> str:
    """``path`` once it is known to open (``-`` passes), so a missing or unreadable file is an
    ``IO_ERROR`` like in every other command."""
    if path != "-":
        try:
            with open(path, "rb"):
                pass
        except OSError as exc:
            raise AssayError(
                ErrorCode.IO_ERROR, f"cannot read file: {exc.strerror or exc}", path
            ) from None
    return path


def _labeled_history(path: str) -> list[Any]:
    """The labeled history of ``path``, refused when it has no labeled row (nothing to fit a
    gate on) and with a warning on standard error for a hypothesis without labeled rows."""
    from assay_jeffreys.loaders import load_history

    observations = load_history(_readable(path))
    if not any(o.scores for o in observations):
        raise AssayError(
            "INVALID_OBSERVATION",
            "the history has no labeled row with a score: give the scores of outputs labeled "
            "high and low",
            path,
        )
    for kind in ("high", "low"):
        if not any(o.label == kind for o in observations):
            click.echo(
                f"warning: {path}: no output is labeled {kind!r}; its models are the prior "
                "alone, so decisions weigh the scores against nothing observed",
                err=True,
            )
    return observations


def _one_stdin(**files: str) -> None:
    """Refuse two file arguments both reading standard input."""
    dashes = [name for name, value in files.items() if value == "-"]
    if len(dashes) > 1:
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            f"only one file can be read from standard input ({' and '.join(dashes)} are -)",
            dashes[1],
        )


@gate_group.command(name="decide")
@click.argument("history", type=_input_file)
@click.argument("scores", type=_input_file)
@click.option(
    "--pass-above",
    type=float,
    default=10.0,
    show_default=True,
    help="Pass at or above this Bayes factor.",
)
@click.option(
    "--fail-below",
    type=float,
    default=0.1,
    show_default=True,
    help="Fail at or below this Bayes factor.",
)
@click.option(
    "--chain",
    type=click.Path(dir_okay=False),
    default=None,
    help="Seal each decision in this JSON Lines audit chain.",
)
@click.option(
    "--timestamp",
    default=None,
    help="Timestamp to seal with the decisions (never read from a clock).",
)
@click.option(
    "--require-fit",
    is_flag=True,
    help="Escalate every output when a score model that decides fails its KS test on the "
    "history (the default gate: the models it chose, Beta or empirical, of the dimensions "
    "that add evidence; --compatible: the Beta fit of every dimension).",
)
@click.option(
    "--require-independence",
    is_flag=True,
    help="Escalate every output when two dimensions that add evidence correlate at "
    "|r| >= 0.5 within a label (--compatible: any two dimensions).",
)
@_gate_options
@_json_option
@click.pass_context
def decide_command(
    ctx: click.Context,
    /,
    history: str,
    scores: str,
    pass_above: float,
    fail_below: float,
    chain: str | None,
    timestamp: str | None,
    require_fit: bool,
    require_independence: bool,
    as_json: bool,
    **fitting: Any,
) -> None:
    """Fit the gate on HISTORY, then decide each output in SCORES.

    Prints one line per output: index, action, Bayes factor, Jeffreys strength and the rule
    that decided (bayes-factor, insufficient-history or assumption-violated).

    Exit 0 when every output passes, 30 when any fails, 40 when any escalates (and none
    fails), 2 on bad input.
    """
    from assay.cli import echo_json
    from assay_audit import AuditChain
    from assay_jeffreys.hypothesis import HypothesisManager
    from assay_jeffreys.loaders import load_score_vectors
    from assay_jeffreys.monitor import OutputGateMonitor
    from assay_jeffreys.policies import BayesFactorPolicy
    from assay_jeffreys.wire import to_wire

    _one_stdin(history=history, scores=scores)
    with _options_named():
        policy = BayesFactorPolicy(pass_above, fail_below)
    config = _gate_config(**fitting)
    observations = _labeled_history(history)
    vectors = load_score_vectors(_readable(scores))
    monitor = OutputGateMonitor(
        HypothesisManager(),
        policy,
        AuditChain(chain) if chain else None,
        require_goodness_of_fit=require_fit,
        require_independence=require_independence,
        drift_detector=None,
        config=config,
    )
    monitor.fit(observations)
    decisions = [monitor.record(v, timestamp, {"output": i}) for i, v in enumerate(vectors)]
    actions = [d.action for d in decisions]
    if as_json:
        echo_json(
            {
                "decisions": [{"index": i, **to_wire(d)} for i, d in enumerate(decisions)],
                "counts": {a: actions.count(a) for a in ("pass", "fail", "escalate")},
                "chainHead": monitor.chain.head if chain else None,
            }
        )
    else:
        for i, d in enumerate(decisions):
            click.echo(f"{i}\t{d.action}\tBF={d.bayes_factor:.6g}\t{d.strength}\t{d.rationale}")
    ctx.exit(_decision_exit_code(actions))


@gate_group.command(name="bayes-factor")
@click.argument("models", type=_input_file)
@click.argument("scores", type=_input_file)
@_json_option
def bayes_factor_command(models: str, scores: str, as_json: bool) -> None:
    """The Bayes factor of each output in SCORES against the dimension models in MODELS."""
    from assay.cli import echo_json
    from assay_jeffreys.bayesfactor import bayes_factor
    from assay_jeffreys.loaders import load_models, load_score_vectors
    from assay_jeffreys.wire import to_wire

    _one_stdin(models=models, scores=scores)
    dimension_models = load_models(_readable(models))
    if not dimension_models:
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            "no dimension models: every Bayes factor would be 1; give at least one model",
            models,
        )
    results = [bayes_factor(v, dimension_models) for v in load_score_vectors(_readable(scores))]
    if as_json:
        echo_json([{"index": i, **to_wire(r)} for i, r in enumerate(results)])
        return
    for i, r in enumerate(results):
        click.echo(f"{i}\tBF={r.bayes_factor:.6g}\t{r.strength}\t{_FAVORS[r.favored]}")


_FAVORS: Mapping[str, str] = {
    "high": "favors high quality",
    "low": "favors low quality",
    "inconclusive": "favors neither",
}


@gate_group.command(name="calibrate")
@click.argument("history", type=_input_file)
@click.option(
    "--alpha",
    type=float,
    default=0.05,
    show_default=True,
    help="Significance level of the KS test.",
)
@click.option(
    "--threshold",
    type=float,
    default=0.5,
    show_default=True,
    help="Flag dimension pairs with |r| at or above this.",
)
@_gate_options
@_json_option
def calibrate_command(
    history: str,
    alpha: float,
    threshold: float,
    as_json: bool,
    **fitting: Any,
) -> None:
    """Fit on HISTORY; report the Beta goodness of fit per dimension and hypothesis, the
    dependence between dimensions within each hypothesis, and the gate the options fit: its
    score model, goodness of fit, direction and weight per dimension, and whether the history
    is enough to decide."""
    from assay.cli import echo_json
    from assay_jeffreys.diagnostics import dependence_by_hypothesis, fit_checks
    from assay_jeffreys.gatefit import fit_gate
    from assay_jeffreys.wire import to_wire

    config = _gate_config(**fitting, alpha=alpha)
    observations = _labeled_history(history)
    with _options_named():
        gate = fit_gate(observations, config, dependence_threshold=threshold)
    fits = to_wire(fit_checks(observations, gate.models, alpha))
    dependence = to_wire(dependence_by_hypothesis(observations, threshold))
    if as_json:
        echo_json({"goodnessOfFit": fits, "dependence": dependence, "gate": gate.report()})
        return
    for row in fits:
        p = row["params"]
        click.echo(
            f"{row['dimension']}\t{row['hypothesis']}\tBeta({p['a']:.4g}, {p['b']:.4g})\t"
            f"{_verdict(row.get('fit'), row['samples'])}"
        )
    for kind, diag in dependence.items():
        flagged = ", ".join(f"{c['a']}~{c['b']} r={c['correlation']:.3f}" for c in diag["flagged"])
        safe = (
            "independence safe" if diag["independenceAssumptionSafe"] else f"dependent: {flagged}"
        )
        click.echo(f"dependence ({kind}): max |r|={diag['maxAbsCorrelation']:.3f}; {safe}")
    for fit in gate.dimensions:
        wire = to_wire(fit)
        verdicts = "\t".join(
            f"{kind} {_verdict(wire.get(key), wire[samples])}"
            for kind, key, samples in (
                ("high", "fitHigh", "samplesHigh"),
                ("low", "fitLow", "samplesLow"),
            )
        )
        use = f"weight {fit.weight:.4g}" if fit.excluded is None else f"excluded: {fit.excluded}"
        direction = "points the wrong way" if fit.wrong_direction else "direction ok"
        click.echo(f"gate {fit.dimension}\t{fit.family}\t{verdicts}\t{direction}\t{use}")
    counts, cap = gate.history_counts, gate.cap
    click.echo(
        f"gate history: {counts['high']} high, {counts['low']} low; needs "
        f"{gate.config.min_history} of each: {'enough' if gate.sufficient_history else 'NOT ENOUGH'}"
        f"; offset {gate.offset:.4g}; cap BF {'none' if cap is None else f'{math.exp(cap):.4g}'}"
    )


def _verdict(fit: dict[str, Any] | None, samples: int) -> str:
    """One goodness-of-fit result as text."""
    if fit is None:
        return f"too few samples ({samples})"
    verdict = "adequate" if fit["adequate"] else "INADEQUATE"
    return (
        f"KS={fit['ksStatistic']:.4f} critical={fit['criticalValue']:.4f} {verdict} "
        f"(n={fit['samples']})"
    )
