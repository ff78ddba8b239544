"""Planning a run: every case's baseline runs and perturbed variants, as pipeline invocations.

Each perturbation gets its own :class:`random.Random`, derived from the configured ``seed`` value,
the case name and the perturbation name, so a case's variants do not depend on which other cases
run.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

import assay
from assay_perturb.config import PerturbConfig
from assay_perturb.invoke import Invocation, cache_key, command_fingerprint

__all__ = ["BASELINE", "PlannedCase", "PlannedVariant", "plan_cases"]

BASELINE = "baseline"
"""Variant name of a case's unperturbed run (repeats are ``baseline-2``, ``baseline-3``, ...)."""

SIGNALS = ("invariance", "sensitivity")


@attrs.frozen
class PlannedVariant:
    """A variant with the signal it feeds and the invocation that runs it.

    Attributes:
        variant: the perturbed case (or the unperturbed baseline, perturbation ``"baseline"``).
        signal: ``"invariance"``, ``"sensitivity"`` or ``None`` for a baseline run.
        invocation: the pipeline call.
    """

    variant: assay.Variant
    signal: str | None
    invocation: Invocation


@attrs.frozen
class PlannedCase:
    """A case and its planned invocations.

    Attributes:
        case: the case as read from its file.
        baselines: the baseline runs (``baseline_runs`` of them, identical input).
        variants: the perturbed variants, in configured perturbation order.
    """

    case: assay.PerturbationCase
    baselines: tuple[PlannedVariant, ...]
    variants: tuple[PlannedVariant, ...]

    @property
    def all(self) -> tuple[PlannedVariant, ...]:
        """Baselines then variants."""
        return self.baselines + self.variants


def payload_of(case: assay.PerturbationCase, variant: assay.Variant) -> dict[str, Any]:
    """The JSON object the pipeline receives for ``variant`` of ``case``."""
    return {
        "case": case.name,
        "variant": variant.name,
        "perturbation": variant.perturbation,
        "query": variant.query,
        "chunks": [{"id": c.id, "text": c.text} for c in variant.chunks],
    }


def _planned(
    case: assay.PerturbationCase,
    variant: assay.Variant,
    signal: str | None,
    repeat: int,
    fingerprint: str,
) -> PlannedVariant:
    payload = payload_of(case, variant)
    key = cache_key(fingerprint, payload, repeat)
    invocation = Invocation(
        case=case.name,
        variant=variant.name,
        perturbation=None if signal is None else variant.perturbation,
        payload=payload,
        key=key,
        folder=f"invocations/{_safe(case.name)}/{_safe(variant.name)}",
    )
    return PlannedVariant(variant, signal, invocation)


def _perturbation(registry: assay.Registry, name: str) -> Any:
    try:
        perturbation = registry.perturbation(name)
    except assay.AssayError as exc:
        raise assay.AssayError("INVALID_CONFIG", exc.message, f"perturbations.{name}") from exc
    if perturbation.signal not in SIGNALS:
        raise assay.AssayError(
            "INVALID_CONFIG",
            f"perturbation {name!r} has signal {perturbation.signal!r}; expected one of "
            f"{', '.join(SIGNALS)}",
            f"perturbations.{name}",
        )
    allowed = getattr(perturbation, "parameters", None)
    return perturbation, allowed


def plan_cases(
    config: PerturbConfig,
    cases: Sequence[assay.PerturbationCase],
    others: Sequence[assay.PerturbationCase],
    registry: assay.Registry,
    workdir: Path,
    baseline_runs: int,
) -> list[PlannedCase]:
    """Plan every case's invocations.

    :param cases: the cases to run; ``others``: every case of the cases directory (padding
        material for ``pad``'s ``others`` source, independent of ``--only``).
    :raises assay.AssayError: ``INVALID_CONFIG`` for an unknown perturbation, a bad signal or
        an unknown parameter; ``INVALID_INPUT`` (path: the case file) when a case lacks what a
        perturbation needs; ``INVALID_VARIANT`` when a perturbation returns duplicate names.
    """
    perturbations = []
    for name, params in config.perturbations:
        perturbation, allowed = _perturbation(registry, name)
        unknown = sorted(set(params) - set(allowed)) if allowed is not None else []
        if unknown:
            raise assay.AssayError(
                "INVALID_CONFIG",
                f"unknown parameter (allowed for {name}: {', '.join(sorted(allowed)) or 'none'})",
                f"perturbations.{name}.{unknown[0]}",
            )
        perturbations.append((name, perturbation, params))
    fingerprint = command_fingerprint(config.command, workdir)
    planned = []
    for case in cases:
        baseline = assay.Variant(BASELINE, BASELINE, case.chunks, "unperturbed", case.query)
        baselines = tuple(
            _planned(
                case,
                attrs.evolve(baseline, name=BASELINE if r == 1 else f"{BASELINE}-{r}"),
                None,
                r,
                fingerprint,
            )
            for r in range(1, baseline_runs + 1)
        )
        variants: list[PlannedVariant] = []
        seen: set[str] = {b.variant.name for b in baselines}
        for name, perturbation, params in perturbations:
            rng = random.Random(f"{config.seed}:{case.name}:{name}")
            for variant in perturbation.variants(case, others, rng, dict(params)):
                if variant.name in seen:
                    raise assay.AssayError(
                        "INVALID_VARIANT",
                        f"perturbation {name!r} produced variant name {variant.name!r} twice "
                        "(or one that clashes with another perturbation's)",
                        case.source or case.name,
                    )
                seen.add(variant.name)
                variants.append(_planned(case, variant, perturbation.signal, 0, fingerprint))
        planned.append(PlannedCase(case, baselines, tuple(variants)))
    return planned


_PLAIN = re.compile(r"[a-z0-9_-][a-z0-9._-]*")


def _safe(name: str) -> str:
    """A file-name-safe folder name for a case or variant name, distinct for distinct names.

    A plain name (lower-case letters, digits, ``._-``, no leading dot) is its own folder name.
    Any other name becomes a slug plus ``~`` and a hash of the exact name, so ``c 1``, ``c_1``
    and ``c+1`` (or ``A`` and ``a`` on a case-insensitive file system) never share a folder;
    ``~`` never occurs in a plain name, so a slug cannot collide with a plain name either.
    """
    if _PLAIN.fullmatch(name) and len(name) <= 100:
        return name
    slug = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".")[:60] or "_"
    digest = hashlib.sha256(name.encode("utf-8", errors="surrogatepass")).hexdigest()[:12]
    return f"{slug}~{digest}"
