"""How a gate is fitted on labeled history: score models, combination, direction, history.

:class:`GateConfig` defaults to the calibrated gate (score models chosen by goodness of fit,
weights learned on cross-fitted history, wrong-way dimensions left out, at least
:data:`MIN_HISTORY` labeled outputs per hypothesis). :meth:`GateConfig.compatible` is the
behaviour of BayesOutputGate: Beta models, the independent sum, every dimension counted, no
minimum, no cap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from assay import AssayError
from assay_jeffreys.combination import DEFAULT_FOLDS
from assay_jeffreys.errors import INVALID_CONFIG, fail, refuse_unknown_fields
from assay_jeffreys.types import finite

__all__ = [
    "COMBINATIONS",
    "MIN_HISTORY",
    "SCORE_MODELS",
    "WRONG_DIRECTION",
    "GateConfig",
    "gate_config_from_wire",
]

SCORE_MODELS = ("auto", "beta", "empirical")
"""``auto``: the Beta unless its Kolmogorov–Smirnov test rejects it for either hypothesis, then
the empirical model; or one family for every dimension."""

COMBINATIONS = ("calibrated", "independent")
"""``calibrated``: weights learned on cross-fitted history (:mod:`assay_jeffreys.combination`);
``independent``: the sum of BayesOutputGate, each dimension at its configured weight."""

WRONG_DIRECTION = ("exclude", "allow")
"""What a dimension whose high-quality mean is below its low-quality mean does: ``exclude``
adds none of its evidence, ``allow`` adds it as it comes."""

MIN_HISTORY = 30
"""Fewest labeled outputs per hypothesis before the gate decides. By the rule of three, a score
never seen in ``n`` labeled outputs still has a probability up to ``3 / n`` (95% bound), so the
largest likelihood ratio ``n`` outputs can vouch for is about ``n / 3``; at 30 that is 10, the
default pass threshold and the start of "strong" on the Jeffreys scale."""


def _one_of(choices: tuple[str, ...]) -> Any:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value not in choices:
            fail(
                INVALID_CONFIG,
                f"must be one of {', '.join(choices)}, got {value!r}",
                _WIRE_NAMES[attribute.name],
            )

    return check


def _count(minimum: int) -> Any:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            fail(
                INVALID_CONFIG,
                f"must be an integer >= {minimum}, got {value!r}",
                _WIRE_NAMES[attribute.name],
            )

    return check


def _flag(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        fail(INVALID_CONFIG, f"must be true or false, got {value!r}", _WIRE_NAMES[attribute.name])


def _alpha(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not finite(value):
        fail(INVALID_CONFIG, f"must be a number in (0, 1), got {value!r}", "alpha")
    if not 0.0 < value < 1.0:
        fail(INVALID_CONFIG, f"must be a number in (0, 1), got {value!r}", "alpha")


@attrs.frozen
class GateConfig:
    """How :func:`~assay_jeffreys.fit_gate` fits a gate (every field is checked here).

    Attributes:
        score_model: ``"auto"``, ``"beta"`` or ``"empirical"`` (see :data:`SCORE_MODELS`).
        combination: ``"calibrated"`` or ``"independent"`` (see :data:`COMBINATIONS`).
        wrong_direction: ``"exclude"`` or ``"allow"`` (see :data:`WRONG_DIRECTION`).
        min_history: fewest labeled outputs per hypothesis before the gate decides; below it
            every decision escalates with rationale ``"insufficient-history"`` (0: no minimum).
        cap_evidence: cap ``|ln BF|`` at ``ln(n / 3)`` for ``n`` labeled outputs of the smaller
            hypothesis (see :data:`MIN_HISTORY` for why).
        folds: cross-fitting folds of the calibrated combination (at least 2).
        alpha: significance level of the goodness-of-fit tests that choose and check models.

    :raises AssayError: ``INVALID_CONFIG`` with the field's camelCase path.
    """

    score_model: str = attrs.field(default="auto", validator=_one_of(SCORE_MODELS))
    combination: str = attrs.field(default="calibrated", validator=_one_of(COMBINATIONS))
    wrong_direction: str = attrs.field(default="exclude", validator=_one_of(WRONG_DIRECTION))
    min_history: int = attrs.field(default=MIN_HISTORY, validator=_count(0))
    cap_evidence: bool = attrs.field(default=True, validator=_flag)
    folds: int = attrs.field(default=DEFAULT_FOLDS, validator=_count(2))
    alpha: float = attrs.field(default=0.05, validator=_alpha)

    @classmethod
    def compatible(cls) -> GateConfig:
        """BayesOutputGate's behaviour: Beta models, the independent sum, every dimension
        counted whichever way it points, no minimum history, no cap."""
        return cls("beta", "independent", "allow", 0, False)

    @property
    def is_compatible(self) -> bool:
        """Whether this config gives BayesOutputGate's numbers exactly."""
        return (
            self.score_model == "beta"
            and self.combination == "independent"
            and self.wrong_direction == "allow"
            and self.min_history == 0
            and not self.cap_evidence
        )

    def to_wire(self) -> dict[str, Any]:
        """The camelCase JSON object :func:`gate_config_from_wire` reads."""
        return {_WIRE_NAMES[f.name]: getattr(self, f.name) for f in attrs.fields(GateConfig)}


_WIRE_NAMES = {
    "score_model": "scoreModel",
    "combination": "combination",
    "wrong_direction": "wrongDirection",
    "min_history": "minHistory",
    "cap_evidence": "capEvidence",
    "folds": "folds",
    "alpha": "alpha",
}


def gate_config_from_wire(data: Any, path: str = "config") -> GateConfig:
    """A :class:`GateConfig` from itself, ``None`` (the defaults), ``"compatible"`` or a JSON
    object of its camelCase fields (omitted fields take the defaults).

    :raises AssayError: ``INVALID_CONFIG`` for another type, an unknown field or a bad value
        (path ``config.<field>``).
    """
    if isinstance(data, GateConfig):
        return data
    if data is None:
        return GateConfig()
    if data == "compatible":
        return GateConfig.compatible()
    if not isinstance(data, Mapping):
        fail(INVALID_CONFIG, "a gate config must be an object or 'compatible'", path)
    by_wire = {wire: name for name, wire in _WIRE_NAMES.items()}
    refuse_unknown_fields(data, by_wire, path)
    try:
        return GateConfig(**{by_wire[k]: v for k, v in data.items()})
    except AssayError as exc:  # from a validator: prefix the config's path
        fail(exc.code, exc.message, f"{path}.{exc.path}")
